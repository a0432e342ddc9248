#pragma once
// What the linalg/ headers share: turning an operand (a tensor, a view or an expression) into
// a tensor once, the dtype checks, fresh results, and matrix batches over leading dims.

#include "tenet/config.hpp"
#include <cstdint>
#include <string>
#include <type_traits>

#include "tenet/core/errors.hpp"
#include "tenet/core/static_tensor.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/linalg/recording.hpp"
#include "tenet/linalg/gemm.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// The element type of a tensor or expression operand.
template <class X>
using operand_value_t = typename expr::node_t<X>::value_type;

/// The static shape of an operand (DynamicShape for plain tensors).
template <class X>
using operand_shape_t = typename expr::node_t<X>::static_shape;

/// A tensor operand as it is (a handle copy, no data copied); an expression evaluated once.
/// On any device: only the matrix products run on devices (materialize checks the rest).
template <class X>
Tensor<operand_value_t<X>> materialize_anywhere(const X& x, const char* op) {
    using V = operand_value_t<X>;
    if constexpr (TensorExpression<X>) {
        return Tensor<V>(x);
    } else {
        const Tensor<V>& t = x;
        if (!t.defined()) fail<value_error>(op, ": got an undefined tensor");
        return t;
    }
}
/// materialize_anywhere for the operations that run on the host only.
template <class X>
Tensor<operand_value_t<X>> materialize(const X& x, const char* op) {
    Tensor<operand_value_t<X>> t = materialize_anywhere(x, op);
    if (!t.is_cpu()) {
        if (t.is_meta()) fail_not_on_meta(op);
        fail<device_error>(op, ": not implemented for tensors on ", t.device(),
                           " (on devices tenet runs element-wise expressions, reductions, random numbers and the "
                           "matmul family); move the operands with .cpu()");
    }
    return t;
}

template <class T>
Tensor<T> new_tensor(const IntArray& shape, Device device = Device(DeviceType::CPU)) {
    return Tensor<T>(make_contiguous_impl(shape, dtype_of<T>, device));
}

/// A view of t's storage with the given geometry (what as_strided does).
template <class T>
Tensor<T> strided_view(const Tensor<T>& t, IntArray sizes, IntArray strides, int64_t offset) {
    return Tensor<T>(make_view(t.impl(), std::move(sizes), std::move(strides), offset));
}

/// Matrix products take one dtype (PyTorch refuses float @ double); A and B are compile-time types.
template <class A, class B>
void check_same_dtype(const char* op) {
    if constexpr (!std::is_same_v<A, B>)
        fail<dtype_error>(op, ": expected both operands to have the same dtype, but got ", dtype_of<A>.name(), " and ",
                          dtype_of<B>.name());
}
template <class T>
void check_gemm_dtype(const char* op) {
    if constexpr (!is_gemm_element<T>)
        fail<dtype_error>(op, ": not implemented for dtype ", dtype_of<T>.name(),
                          " (matrix products take integer, float32, float64, complex64 or complex128 tensors)");
}

/// "2x3" for error messages, as PyTorch prints matrix shapes.
inline std::string dims_x(const IntArray& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) out += 'x';
        out += std::to_string(s[i]);
    }
    return out;
}

/// Calls f(index, offset) for every index of the leading `sizes` with the matching strides.
template <class F>
void for_each_batch(const IntArray& sizes, const IntArray& strides, int64_t offset, F&& f) {
    const size_t nd = sizes.size();
    const int64_t count = product(sizes);
    IntArray idx(nd);
    for (size_t d = 0; d < nd; ++d) idx[d] = 0;
    int64_t off = offset;
    for (int64_t b = 0; b < count; ++b) {
        f(b, off);
        for (size_t d = nd; d-- > 0;) {
            off += strides[d];
            if (++idx[d] < sizes[d]) break;
            off -= strides[d] * sizes[d];
            idx[d] = 0;
        }
    }
}

/// Value of a beta/alpha scalar for element type T; integer tensors refuse fractional values.
template <class T>
T coefficient(double v, const char* op, const char* name) {
    if constexpr (std::is_integral_v<T>) {
        if (v != static_cast<double>(static_cast<int64_t>(v)))
            fail<value_error>(op, ": for integral input tensors, argument ", name,
                              " must not be a floating point number (got ", v, ")");
    }
    return static_cast<T>(v);
}

}  // namespace detail
}  // namespace tenet
