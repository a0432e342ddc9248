#pragma once
// PyTorch's type promotion, at compile time. Element types promote by category
// (bool < integer < floating < complex) and, within a category, by size — not by C++'s
// arithmetic conversions: uint8 + uint8 stays uint8, int8 + uint8 is int16,
// float16 + bfloat16 is float32. A C++ scalar operand is "weaker" than a tensor,
// as a Python number is: it only lifts the category (int64 tensor * 2.5 is float32).

#include "tenet/config.hpp"
#include <cstdint>
#include <type_traits>

#include "tenet/core/dtype.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// 0 for bool, 1 for integers, 2 for floating types, 3 for complex types.
template <class T>
inline constexpr int category_of = std::is_same_v<T, bool> ? 0 : (std::is_integral_v<T> ? 1 : (is_complex_v<T> ? 3 : 2));

template <class A, class B>
constexpr auto promote_elements();

/// A complex type meeting anything: the complex type whose parts are the promotion of the complex
/// part type with the other operand's floating (or part) type, as PyTorch's
/// (float64 + complex64 is complex128; integers and bool only take the complex type).
template <class A, class B>
constexpr auto promote_with_complex() {
    using RA = real_t<A>;
    using RB = real_t<B>;
    if constexpr (category_of<RA> < 2) return B{};
    else if constexpr (category_of<RB> < 2) return A{};
    else return complex<decltype(promote_elements<RA, RB>())>{};
}

template <class A, class B>
constexpr auto promote_elements() {
    if constexpr (std::is_same_v<A, B>) return A{};
    else if constexpr (is_complex_v<A> || is_complex_v<B>) return promote_with_complex<A, B>();
    else if constexpr (category_of<A> != category_of<B>) {
        if constexpr (category_of<A> > category_of<B>) return A{};
        else return B{};
    } else if constexpr (category_of<A> == 1) {
        // Integers: the wider one; equal widths only meet as uint8/int8, which needs int16.
        if constexpr (sizeof(A) != sizeof(B)) {
            using Wider = std::conditional_t<(sizeof(A) > sizeof(B)), A, B>;
            using Narrower = std::conditional_t<(sizeof(A) > sizeof(B)), B, A>;
            // uint8 with a wider signed type: the signed type holds every uint8 value.
            static_assert(std::is_signed_v<Wider> || !std::is_signed_v<Narrower>);
            return Wider{};
        } else {
            return int16_t{};
        }
    } else {
        // Floating: the wider one; float16 and bfloat16 meet at float32.
        if constexpr (sizeof(A) != sizeof(B)) return std::conditional_t<(sizeof(A) > sizeof(B)), A, B>{};
        else return float{};
    }
}

}  // namespace detail

/// The element type of a binary operation on tensors of element types A and B.
template <Element A, Element B>
using promote_t = decltype(detail::promote_elements<A, B>());

/// The element type of a binary operation on a tensor of type T and a C++ scalar of type S:
/// the tensor's type unless the scalar's category is higher; then that category's default
/// (int64 for integers, float32 for floating values).
/// A complex number with a floating tensor gives that precision's complex type (float64 * 1j is
/// complex128, as PyTorch's result_type).
template <Element T, class S>
using promote_scalar_t = std::conditional_t<
    (detail::category_of<default_element_t<S>> > detail::category_of<T>),
    std::conditional_t<is_complex_v<default_element_t<S>> && std::is_same_v<T, double>, complex<double>,
                       default_element_t<S>>,
    T>;

/// The element type of a binary operation on a dimensioned tensor of type T and a 0-d tensor of
/// type Z: as a number, the 0-d tensor only lifts the category, but to its own type (int32[3] +
/// float64 0-d is float64, float32[3] + float64 0-d is float32), as PyTorch's result_type.
/// A complex 0-d tensor with a floating one promotes the parts (float64[3] + complex64 0-d is
/// complex128).
template <Element T, Element Z>
using promote_zero_dim_t = std::conditional_t<
    (detail::category_of<Z> > detail::category_of<T>),
    std::conditional_t<is_complex_v<Z> && detail::category_of<T> == 2, promote_t<T, Z>, Z>, T>;

}  // namespace tenet
