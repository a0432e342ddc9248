// A tiny shared library for tests/interop/check_dlpack.py: C entry points that take a
// DLManagedTensor from PyTorch (through ctypes), import it with tenet's from_dlpack, work on it,
// and hand tenet tensors back with to_dlpack. Each returns 0 on success; on failure the
// exception's message is in `err` and the code says who owns `m`: 1 when from_dlpack threw (it
// has not taken it: the capsule keeps it), 2 when a later step threw (tenet took it and has
// released it: the capsule must be marked used).
#include <cstdio>
#include <exception>

#include "tenet/tenet.hpp"
#include "tenet/interop/dlpack.hpp"

namespace {

int report(const std::exception& e, char* err, size_t len, int code) {
    if (err != nullptr && len > 0) std::snprintf(err, len, "%s", e.what());
    return code;
}

/// Imports `m` and runs `work` on it; the return code as the file comment says.
template <class F>
int with_import(DLManagedTensor* m, char* err, size_t len, F&& work) {
    tenet::TensorBase t;
    try {
        t = tenet::from_dlpack(m);
    } catch (const std::exception& e) {
        return report(e, err, len, 1);
    }
    try {
        work(t);
        return 0;
    } catch (const std::exception& e) {
        return report(e, err, len, 2);
    }
}

}  // namespace

extern "C" {

/// Doubles every element of the imported tensor in place (through its own strides).
int tenet_dlpack_double(DLManagedTensor* m, char* err, size_t len) {
    return with_import(m, err, len, [](const tenet::TensorBase& t) {
        tenet::visit_dtype_with_complex(t.dtype(), [&](auto tag) {
            using U = typename decltype(tag)::type;
            tenet::Tensor<U> typed = t.as<U>();
            if constexpr (tenet::is_complex_v<U>) std::move(typed) = typed * U(2);
            else std::move(typed) = typed * 2;
        });
    });
}

/// Exports the transpose of the imported 2-D tensor: a view of the same memory (the export
/// keeps the import, and so PyTorch's original, alive).
int tenet_dlpack_transpose(DLManagedTensor* m, DLManagedTensor** out, char* err, size_t len) {
    return with_import(m, err, len, [out](const tenet::TensorBase& t) {
        tenet::TensorBase tt = tenet::visit_dtype_with_complex(t.dtype(), [&](auto tag) -> tenet::TensorBase {
            using U = typename decltype(tag)::type;
            return t.as<U>().t();
        });
        *out = tenet::to_dlpack(tt);
    });
}

/// Exports a fresh tenet tensor: the float64 sums of the imported tensor over its last dim.
int tenet_dlpack_row_sums(DLManagedTensor* m, DLManagedTensor** out, char* err, size_t len) {
    return with_import(m, err, len, [out](const tenet::TensorBase& t) {
        tenet::Tensor<double> sums = t.to<double>().sum(-1);
        *out = tenet::to_dlpack(sums);
    });
}

}  // extern "C"
