#pragma once
// DLPack (the unversioned DLManagedTensor of DLPack 0.6, which PyTorch 1.13 speaks): zero-copy
// exchange of tensors with PyTorch, NumPy, CuPy, JAX, ... in both directions.
//
// Ownership, as PyTorch's:
//  - to_dlpack(t) returns a DLManagedTensor that holds a reference to t's storage (the memory
//    stays alive while it exists) and owns its shape and strides arrays; calling its deleter
//    releases both. The consumer calls the deleter exactly once.
//  - from_dlpack(m) takes ownership of m when it returns: m->deleter (when not NULL) is called
//    exactly once, when the last tenet tensor or view using the memory dies. When it throws, it
//    has NOT taken ownership: m is untouched and the caller still owns it (PyTorch renames the
//    capsule to "used_dltensor" only on success, for the same reason).
//
// What from_dlpack checks, and what it cannot: DLPack carries no buffer size, so whether the
// memory really spans the described extent (and is alive, and is on the stated device) is the
// producer's promise. Checked before anything is taken: ndim in [0, 64]; a non-NULL shape when
// ndim > 0; sizes >= 0; strides >= 0 (tenet has no negative strides; NULL strides mean compact
// row-major); dtype code/bits among tenet's dtypes and lanes == 1; device CPU or CUDA (a CUDA
// index in [0, 127], and a CUDA backend in this program); that the element count, the extent
// (byte_offset + the bytes the strides reach) and the end address do not overflow; a non-NULL,
// element-aligned data pointer when there are elements.

#include "tenet/config.hpp"

#if !TENET_HAVE_DLPACK
#error "<tenet/interop/dlpack.hpp> needs DLPack's header <dlpack/dlpack.h> (Debian libdlpack-dev); see cmake/tenetFiles.cmake"
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include <dlpack/dlpack.h>

#include "tenet/backend/device/device_backend.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::dlpack {

/// The most dims from_dlpack accepts (DLPack has no limit; this bounds how much of the
/// producer's shape and strides arrays is read).
inline constexpr int kMaxDims = 64;

inline DLDataType to_dl_dtype(DType d) {
    auto make = [](DLDataTypeCode code, int bits) {
        return DLDataType{static_cast<uint8_t>(code), static_cast<uint8_t>(bits), 1};
    };
    switch (d.scalar_type()) {
        case ScalarType::Bool:
#if DLPACK_VERSION >= 80
            return make(kDLBool, 8);
#else
            // PyTorch 1.13's message: DLPack 0.6 has no boolean type.
            fail<dtype_error>("to_dlpack: Bool type is not supported by dlpack (DLPack ", DLPACK_VERSION,
                              " has no boolean type; convert with .to<uint8_t>() first)");
#endif
        case ScalarType::UInt8: return make(kDLUInt, 8);
        case ScalarType::Int8: return make(kDLInt, 8);
        case ScalarType::Int16: return make(kDLInt, 16);
        case ScalarType::Int32: return make(kDLInt, 32);
        case ScalarType::Int64: return make(kDLInt, 64);
        case ScalarType::Float16: return make(kDLFloat, 16);
        case ScalarType::BFloat16: return make(kDLBfloat, 16);
        case ScalarType::Float32: return make(kDLFloat, 32);
        case ScalarType::Float64: return make(kDLFloat, 64);
        case ScalarType::ComplexFloat: return make(kDLComplex, 64);  // bits of the whole (re, im) pair
        case ScalarType::ComplexDouble: return make(kDLComplex, 128);
    }
    fail<dtype_error>("to_dlpack: unknown dtype ", d);
}

/// tenet's dtype for a DLPack dtype; dtype_error naming code, bits and lanes otherwise.
inline DType from_dl_dtype(DLDataType t) {
    const char* why = "unknown type code";
    if (t.lanes != 1) {
        why = "tenet has no vector (lanes != 1) dtypes";
    } else {
        switch (t.code) {
            case kDLInt:
                switch (t.bits) {
                    case 8: return kInt8;
                    case 16: return kInt16;
                    case 32: return kInt32;
                    case 64: return kInt64;
                }
                why = "kDLInt takes 8, 16, 32 or 64 bits";
                break;
            case kDLUInt:
                if (t.bits == 8) return kUInt8;
                why = "tenet's only unsigned dtype is uint8";
                break;
            case kDLFloat:
                switch (t.bits) {
                    case 16: return kFloat16;
                    case 32: return kFloat32;
                    case 64: return kFloat64;
                }
                why = "kDLFloat takes 16, 32 or 64 bits";
                break;
            case kDLBfloat:
                if (t.bits == 16) return kBFloat16;
                why = "kDLBfloat takes 16 bits";
                break;
#if DLPACK_VERSION >= 80
            case kDLBool:
                if (t.bits == 8) return kBool;
                why = "kDLBool takes 8 bits";
                break;
#endif
            case kDLComplex:
                if (t.bits == 64) return kComplex64;
                if (t.bits == 128) return kComplex128;
                why = "kDLComplex takes 64 or 128 bits (tenet has no complex32)";
                break;
            default: break;
        }
    }
    fail<dtype_error>("from_dlpack: unsupported DLPack dtype (code ", int(t.code), ", bits ", int(t.bits), ", lanes ",
                      t.lanes, "): ", why);
}

/// tenet's device for a DLPack device; device_error for a device type tenet lacks, or a CUDA
/// device this program cannot use (no CUDA backend, index out of range).
inline Device from_dl_device(const DLDevice& d) {
    // Read as the int it is in C: a producer may store a value outside DLDeviceType's range,
    // which C++ may not load as the enum.
    int type = 0;
    static_assert(sizeof(type) == sizeof(d.device_type));
    std::memcpy(&type, &d.device_type, sizeof(type));
    if (type == kDLCPU) return Device(DeviceType::CPU);
    if (type == kDLCUDA) {
        if (d.device_id < 0 || d.device_id > Device::kMaxIndex)
            fail<device_error>("from_dlpack: CUDA device index ", d.device_id, " is out of range [0, ",
                               int(Device::kMaxIndex), "]");
        const Device device(DeviceType::CUDA, d.device_id);
        check_device_supported(device, "from_dlpack");
        return device;
    }
    fail<device_error>("from_dlpack: unsupported DLPack device type ", type, " (tenet has kDLCPU = 1 and kDLCUDA = 2)");
}

/// The checked description of a DLTensor: what from_dlpack builds the tensor from.
struct Import {
    DType dtype = kFloat32;
    Device device;
    IntArray sizes, strides;
    void* base = nullptr;  // data + byte_offset (NULL when there are no elements and data is NULL)
    size_t nbytes = 0;     // the bytes from base that the strides reach
};

/// Validates every field of `t` that can be validated (see the file comment) and computes the
/// tensor's geometry; throws before anything is owned.
inline Import check(const DLTensor& t) {
    Import r;
    if (t.ndim < 0 || t.ndim > kMaxDims)
        fail<value_error>("from_dlpack: ndim ", t.ndim, " is out of range [0, ", kMaxDims, "]");
    if (t.ndim > 0 && t.shape == nullptr) fail<value_error>("from_dlpack: shape is NULL for ndim ", t.ndim);
    r.dtype = from_dl_dtype(t.dtype);
    r.device = from_dl_device(t.device);
    const auto n = static_cast<size_t>(t.ndim);
    r.sizes = IntArray(t.shape, t.shape + n);
    for (int64_t s : r.sizes)
        if (s < 0) fail<value_error>("from_dlpack: negative size in shape ", r.sizes);
    // The product of the non-zero sizes must fit int64: tenet multiplies sizes in several orders
    // (the element count, contiguity, compact strides), and a zero size may come last.
    int64_t numel = 1, nonzero = 1;
    for (int64_t s : r.sizes) {
        if (s != 0 && __builtin_mul_overflow(nonzero, s, &nonzero))
            fail<value_error>("from_dlpack: the element count of shape ", r.sizes, " overflows int64");
        numel *= s;  // bounded by `nonzero`
    }
    if (t.strides == nullptr) {
        r.strides = contiguous_strides(r.sizes);  // compact row-major; bounded by `nonzero` too
    } else {
        r.strides = IntArray(t.strides, t.strides + n);
        for (int64_t s : r.strides)
            if (s < 0)
                fail<value_error>("from_dlpack: negative stride in strides ", r.strides, " (shape ", r.sizes,
                                  "); tenet has no negative strides");
    }
    // size * stride fits int64 for every dim (tenet's views compute it, e.g. unsqueeze).
    for (size_t i = 0; i < n; ++i) {
        int64_t span = 0;
        if (__builtin_mul_overflow(r.sizes[i], r.strides[i], &span))
            fail<value_error>("from_dlpack: size * stride of dim ", i, " overflows int64 (shape ", r.sizes,
                              ", strides ", r.strides, ")");
    }
    const int64_t itemsize = r.dtype.itemsize();
    if (t.byte_offset > static_cast<uint64_t>(INT64_MAX))
        fail<value_error>("from_dlpack: byte_offset ", t.byte_offset, " is out of range");
    // data + byte_offset must not wrap around, even for an empty tensor (nothing is read then).
    uintptr_t begin = 0;
    if (t.data != nullptr &&
        __builtin_add_overflow(reinterpret_cast<uintptr_t>(t.data), static_cast<uintptr_t>(t.byte_offset), &begin))
        fail<value_error>("from_dlpack: data + byte_offset ", t.byte_offset, " wraps around the address space");
    if (numel == 0) {
        r.base = t.data == nullptr ? nullptr : static_cast<char*>(t.data) + t.byte_offset;
        return r;
    }
    if (t.data == nullptr)
        fail<value_error>("from_dlpack: data is NULL for a tensor of shape ", r.sizes, " (", numel, " elements)");
    // The last element's index: sum of (size - 1) * stride, each step checked; then its bytes.
    int64_t last = 0, bytes = 0;
    for (size_t i = 0; i < n; ++i) {
        int64_t step = 0;
        if (__builtin_mul_overflow(r.sizes[i] - 1, r.strides[i], &step) || __builtin_add_overflow(last, step, &last))
            fail<value_error>("from_dlpack: the extent of shape ", r.sizes, " with strides ", r.strides,
                              " overflows int64");
    }
    if (__builtin_add_overflow(last, int64_t{1}, &bytes) || __builtin_mul_overflow(bytes, itemsize, &bytes))
        fail<value_error>("from_dlpack: the extent of shape ", r.sizes, " with strides ", r.strides, " and dtype ",
                          r.dtype, " overflows int64");
    uintptr_t end = 0;
    if (__builtin_add_overflow(begin, static_cast<uintptr_t>(bytes), &end))
        fail<value_error>("from_dlpack: data + byte_offset ", t.byte_offset, " + the extent of ", bytes,
                          " bytes wraps around the address space");
    if (begin % static_cast<uintptr_t>(itemsize) != 0)
        fail<value_error>("from_dlpack: data + byte_offset ", t.byte_offset, " is not aligned to the ", itemsize,
                          "-byte elements of dtype ", r.dtype);
    r.base = static_cast<char*>(t.data) + t.byte_offset;
    r.nbytes = static_cast<size_t>(bytes);
    return r;
}

/// What an exported DLManagedTensor's manager_ctx points to: the managed tensor itself, the
/// storage it keeps alive, and the shape and strides arrays it hands out.
struct Export {
    DLManagedTensor managed{};
    StoragePtr storage;
    int64_t dims[2 * kMaxDims];  // shape, then strides; ndim <= kMaxDims is checked before
};

}  // namespace detail::dlpack

/// Exports a tensor through DLPack without copying (PyTorch's torch.utils.dlpack.to_dlpack):
/// the returned DLManagedTensor points at t's first element (byte_offset 0) with t's shape and
/// strides, holds a reference to t's storage and owns its shape and strides arrays; its deleter
/// releases them, and the consumer must call it exactly once. Every dtype but bool (DLPack 0.6
/// has no boolean type: dtype_error, as PyTorch 1.13's "Bool type is not supported by dlpack");
/// Half is kDLFloat 16, BFloat16 kDLBfloat 16, complex64 and complex128 kDLComplex 64 and 128
/// (bits of the whole element, as PyTorch's); CPU is kDLCPU, cuda:N is kDLCUDA with device_id N.
/// A tensor that requires grad is exported as its data (as to_dlpack does; `__dlpack__` refuses).
inline DLManagedTensor* to_dlpack(const TensorBase& t) {
    using namespace detail::dlpack;
    const DLDataType dtype = to_dl_dtype(t.dtype());
    if (t.dim() > kMaxDims)
        detail::fail<value_error>("to_dlpack: a tensor of ", t.dim(), " dims; DLPack export takes at most ", kMaxDims);
    auto ctx = std::make_unique<Export>();
    ctx->storage = t.impl().storage;
    const auto n = static_cast<size_t>(t.dim());
    for (size_t i = 0; i < n; ++i) {
        ctx->dims[i] = t.sizes()[i];
        ctx->dims[kMaxDims + i] = t.strides()[i];
    }
    DLTensor& dl = ctx->managed.dl_tensor;
    dl.data = detail::first_byte(t);
    const Device device = t.device();
    dl.device = device.is_cpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, device.index()};
    dl.ndim = static_cast<int>(n);
    dl.dtype = dtype;
    dl.shape = ctx->dims;
    dl.strides = ctx->dims + kMaxDims;
    dl.byte_offset = 0;
    ctx->managed.manager_ctx = ctx.get();
    ctx->managed.deleter = [](DLManagedTensor* self) { delete static_cast<Export*>(self->manager_ctx); };
    return &ctx.release()->managed;
}

/// Imports a DLPack tensor without copying (PyTorch's torch.utils.dlpack.from_dlpack), as the
/// tensor of its dtype, shape, strides (NULL: compact row-major) and device, starting
/// byte_offset bytes after data. On return it owns `m`: m->deleter runs exactly once, when the
/// last tensor using the memory dies. When it throws, `m` is untouched and still the caller's
/// (see the file comment for what is checked): value_error for a malformed description,
/// dtype_error for a dtype tenet lacks (complex32, lanes != 1, unsigned wider than 8 bits),
/// device_error for a device other than CPU or a usable CUDA device.
inline TensorBase from_dlpack(DLManagedTensor* m) {
    if (m == nullptr) detail::fail<value_error>("from_dlpack: the DLManagedTensor is NULL");
    detail::dlpack::Import d = detail::dlpack::check(m->dl_tensor);
    auto impl = TensorImplPtr::make();
    // Last, so that nothing can throw once the storage holds m: the deleter runs exactly once,
    // from the storage's destructor. (If the storage cannot be made, m is still the caller's.)
    impl->storage = detail::make_pooled<StorageImpl>(d.base, d.nbytes, d.device, [m](void*) {
        if (m->deleter != nullptr) m->deleter(m);
    });
    impl->dtype = d.dtype;
    impl->set_geometry(std::move(d.sizes), std::move(d.strides));
    return TensorBase(std::move(impl));
}

/// from_dlpack checked against the element type T: a dtype_error naming both dtypes when the
/// DLPack tensor holds another, raised before ownership is taken (m is still the caller's, whose
/// deleter must then run it, exactly once, as after any exception from from_dlpack).
template <Element T>
Tensor<T> from_dlpack(DLManagedTensor* m) {
    if (m == nullptr) detail::fail<value_error>("from_dlpack: the DLManagedTensor is NULL");
    const DType held = detail::dlpack::from_dl_dtype(m->dl_tensor.dtype);
    if (held != dtype_of<T>)
        detail::fail<dtype_error>("from_dlpack: expected dtype ", dtype_of<T>, " but the DLPack tensor holds ", held);
    return Tensor<T>(from_dlpack(m).impl_ptr());
}

}  // namespace tenet
