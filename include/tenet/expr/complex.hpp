#pragma once
// Complex tensors: building them (make_complex, polar), their parts as views (real, imag,
// view_as_real, view_as_complex) and the conjugate.
//
// Conjugation. PyTorch's conj() returns a view with a lazy "conjugate bit" that later ops
// resolve. tenet has no such bit: conj(x) is a lazy element-wise expression, like every tenet
// op, fused into whatever consumes it and computed when assigned. So is_conj() is always
// false, resolve_conj() returns its input unchanged, and conj_physical(x) is the same
// expression as conj(x) (both give a new tensor when assigned). On a real tensor conj returns
// its input, as PyTorch's.

#include "tenet/config.hpp"
#include <type_traits>
#include <utility>

#include "tenet/core/complex.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI {

namespace fn {
/// complex(real, imag): both operands of one floating type (float or double).
struct MakeComplex {
    static constexpr const char* name = "complex";
    static constexpr bool complex_ok = true;
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = complex<C>;
    template <class T>
    TENET_HD complex<T> operator()(T re, T im) const {
        return complex<T>(re, im);
    }
};
/// polar(abs, angle) = abs * (cos(angle) + i sin(angle)).
struct Polar {
    static constexpr const char* name = "polar";
    static constexpr bool complex_ok = true;
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = complex<C>;
    template <class T>
    TENET_HD complex<T> operator()(T r, T theta) const {
        return tenet::polar(r, theta);
    }
};
}  // namespace fn

namespace detail {
/// make_complex() and polar() take two tensors of one type, float or double, as PyTorch's (which
/// names them "Expected both inputs to be Half, Float or Double tensors" and "Expected object of
/// scalar type Float but got scalar type Double for second argument").
template <class A, class B>
constexpr void check_complex_parts() {
    using VA = typename expr::node_t<A>::value_type;
    using VB = typename expr::node_t<B>::value_type;
    static_assert(std::is_same_v<VA, float> || std::is_same_v<VA, double>,
                  "tenet: make_complex/polar: expected both inputs to be float or double tensors (as in PyTorch)");
    static_assert(std::is_same_v<VA, VB>,
                  "tenet: make_complex/polar: both inputs must have the same dtype (PyTorch: \"Expected object of scalar "
                  "type Float but got scalar type Double for second argument\")");
}
/// A view of t's storage with another element type and geometry (sizes and strides in elements of it).
inline TensorImplPtr reinterpret_view(const TensorImpl& t, DType dtype, IntArray sizes, IntArray strides,
                                      int64_t offset) {
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), offset);
    v->dtype = dtype;
    return v;
}
/// The view of one part (0: real, 1: imaginary) of a complex tensor.
template <class T>
Tensor<real_t<T>> complex_part(const Tensor<T>& t, int64_t part) {
    IntArray strides = t.strides();
    for (int64_t& s : strides) s *= 2;
    return Tensor<real_t<T>>(reinterpret_view(t.impl(), dtype_of<real_t<T>>, t.sizes(), std::move(strides),
                                              2 * t.storage_offset() + part));
}
}  // namespace detail

/// torch.complex(real, imag): a complex tensor from its parts (broadcast), lazily. Both are
/// float (complex64) or both double (complex128); anything else does not compile. (Named
/// make_complex: in C++ a function cannot share its name with the class template tenet::complex.)
template <expr::TensorOperand A, expr::TensorOperand B>
auto make_complex(A&& real, B&& imag) {
    detail::check_complex_parts<A, B>();
    return expr::make_binary<fn::MakeComplex>(std::forward<A>(real), std::forward<B>(imag));
}
/// torch.polar(abs, angle): abs * (cos(angle) + i sin(angle)), with make_complex()'s dtype rules.
template <expr::TensorOperand A, expr::TensorOperand B>
auto polar(A&& abs, B&& angle) {
    detail::check_complex_parts<A, B>();
    return expr::make_binary<fn::Polar>(std::forward<A>(abs), std::forward<B>(angle));
}

/// torch.real: the real parts of a complex tensor, as a view sharing its storage (strides
/// doubled); a real tensor itself.
template <class T>
Tensor<real_t<T>> real(const Tensor<T>& t) {
    if constexpr (is_complex_v<T>) return detail::complex_part(t, 0);
    else return t;
}
/// torch.imag: the imaginary parts of a complex tensor, as a view sharing its storage.
template <class T>
Tensor<real_t<T>> imag(const Tensor<T>& t) {
    static_assert(is_complex_v<T>,
                  "tenet: imag is not implemented for tensors with non-complex dtypes (as in PyTorch)");
    return detail::complex_part(t, 1);
}
/// torch.view_as_real: a view of the (re, im) pairs as a last dim of size 2.
template <class T>
Tensor<real_t<T>> view_as_real(const Tensor<T>& t) {
    static_assert(is_complex_v<T>, "tenet: view_as_real is only supported for complex tensors (as in PyTorch)");
    IntArray sizes = t.sizes(), strides = t.strides();
    for (int64_t& s : strides) s *= 2;
    sizes.push_back(2);
    strides.push_back(1);
    return Tensor<real_t<T>>(detail::reinterpret_view(t.impl(), dtype_of<real_t<T>>, std::move(sizes),
                                                      std::move(strides), 2 * t.storage_offset()));
}
/// torch.view_as_complex: a float (double) tensor whose last dim is (re, im) pairs, viewed as
/// complex64 (complex128). Throws shape_error with PyTorch's words when the geometry does not
/// allow it.
template <class T>
Tensor<complex<T>> view_as_complex(const Tensor<T>& t) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "tenet: view_as_complex is only supported for float and double tensors (PyTorch also takes half, "
                  "for complex32, which tenet lacks)");
    const char* op = "view_as_complex";
    if (t.dim() == 0) detail::fail<shape_error>(op, ": Input tensor must have one or more dimensions");
    if (t.sizes().back() != 2)
        detail::fail<shape_error>(op, ": Tensor must have a last dimension of size 2 (got shape ", t.sizes(), ")");
    if (t.strides().back() != 1)
        detail::fail<shape_error>(op, ": Tensor must have a last dimension with stride 1 (got strides ", t.strides(),
                                  ")");
    IntArray sizes, strides;
    for (int64_t d = 0; d + 1 < t.dim(); ++d) {
        if (t.strides()[d] % 2 != 0)
            detail::fail<shape_error>(op, ": Tensor must have a stride divisible by 2 for all but last dimension (got "
                                          "strides ",
                                      t.strides(), ")");
        sizes.push_back(t.sizes()[d]);
        strides.push_back(t.strides()[d] / 2);
    }
    if (t.storage_offset() % 2 != 0)
        detail::fail<shape_error>(op, ": Tensor must have a storage_offset divisible by 2 (got ", t.storage_offset(),
                                  ")");
    if (t.requires_grad())
        detail::fail<dtype_error>(op, ": autograd on complex numbers is not supported yet by tenet (the input requires "
                                      "grad)");
    return Tensor<complex<T>>(
        detail::reinterpret_view(t.impl(), dtype_of<complex<T>>, std::move(sizes), std::move(strides),
                                 t.storage_offset() / 2));
}

/// The conjugate, lazily (see the file comment): a complex operand's conj expression; a real
/// operand itself.
template <expr::TensorOperand A>
auto conj(A&& a) {
    using V = typename expr::node_t<A>::value_type;
    if constexpr (is_complex_v<V>) return expr::make_unary<fn::Conj>(std::forward<A>(a));
    else return std::remove_cvref_t<A>(std::forward<A>(a));
}
/// torch.conj_physical: the conjugate as an expression, a new tensor once assigned.
template <expr::TensorOperand A>
auto conj_physical(A&& a) {
    return expr::make_unary<fn::Conj>(std::forward<A>(a));
}
/// torch.resolve_conj: t itself (tenet's conj is never a pending view: see the file comment).
template <class T>
Tensor<T> resolve_conj(const Tensor<T>& t) {
    return t;
}
/// torch.is_conj: always false in tenet (see the file comment).
inline bool is_conj(const TensorBase&) { return false; }
/// torch.is_complex.
inline bool is_complex(const TensorBase& t) { return t.is_complex(); }

// ---- Methods ---------------------------------------------------------------------------------
template <class Derived>
auto ValueMethods<Derived>::conj() const {
    return tenet::conj(self());
}
template <class Derived>
auto ValueMethods<Derived>::conj_physical() const {
    return tenet::conj_physical(self());
}
template <class T>
auto Tensor<T>::real() const {
    return tenet::real(*this);
}
template <class T>
auto Tensor<T>::imag() const {
    return tenet::imag(*this);
}

}  // namespace tenet
