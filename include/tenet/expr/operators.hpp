#pragma once
// Operators and named functions that build expression nodes of two operands, generated from the op
// table expr/binary_ops.def: `a * b + c`, `add(a, b)`, `eq(a, 1)`, `remainder(a, b)` (`a % b`),
// `atan2`, `maximum`, the bitwise and logical ops (`& | ^ << >>`), their other names
// (`true_divide`, `arctan2`); and neg, unary minus, cast. Each takes tensors, expressions and C++
// numbers (at least one operand is a tensor or expression), allocates nothing, and checks the
// broadcast shapes at once.

#include "tenet/config.hpp"
#include <type_traits>
#include <utility>

#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI {

/// Two operands of which at least one is a tensor or an expression.
template <class A, class B>
concept BinaryOperands =
    expr::Operand<A> && expr::Operand<B> && (expr::TensorOperand<A> || expr::TensorOperand<B>);

// The ops of the table expr/binary_ops.def: a free function per row (but the custom ones,
// written in expr/binary_ops.hpp), per alias and per operator.
namespace fn {
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) struct Functor;
#include "tenet/expr/binary_ops.def"
}  // namespace fn
namespace detail {
/// A division-like node whose integer divisor is checked for zeros (expr/binary_ops.hpp).
template <class Op, class A, class B>
auto make_checked_division(A&& a, B&& b, Op op = {});
}  // namespace detail

// How each FORM of the table builds the node of tenet::NAME(a, b).
#define TENET_BINARY_NODE_any(NAME, Functor) \
    return expr::make_binary<fn::Functor>(std::forward<A>(a), std::forward<B>(b));
#define TENET_BINARY_NODE_division(NAME, Functor) \
    return detail::make_checked_division<fn::Functor>(std::forward<A>(a), std::forward<B>(b));
// integral and floating: the node after a static_assert that its promoted type satisfies TRAIT.
#define TENET_BINARY_CHECKED_NODE(NAME, Functor, TRAIT, MESSAGE)                                          \
    static_assert(TRAIT<typename expr::Binary<fn::Functor, expr::node_t<A>, expr::node_t<B>>::common_type>, \
                  "tenet: " #NAME MESSAGE);                                                               \
    return expr::make_binary<fn::Functor>(std::forward<A>(a), std::forward<B>(b));
#define TENET_BINARY_NODE_integral(NAME, Functor) \
    TENET_BINARY_CHECKED_NODE(NAME, Functor, std::is_integral_v, " is only defined on integer and bool tensors")
#define TENET_BINARY_NODE_floating(NAME, Functor) \
    TENET_BINARY_CHECKED_NODE(NAME, Functor, FloatingElement, " is only defined on floating tensors (as in PyTorch)")
#define TENET_BINARY_FUNCTION_any(NAME, Functor, FORM) TENET_BINARY_FUNCTION(NAME, Functor, FORM)
#define TENET_BINARY_FUNCTION_floating(NAME, Functor, FORM) TENET_BINARY_FUNCTION(NAME, Functor, FORM)
#define TENET_BINARY_FUNCTION_division(NAME, Functor, FORM) TENET_BINARY_FUNCTION(NAME, Functor, FORM)
#define TENET_BINARY_FUNCTION_integral(NAME, Functor, FORM) TENET_BINARY_FUNCTION(NAME, Functor, FORM)
#define TENET_BINARY_FUNCTION_custom(NAME, Functor, FORM)
#define TENET_BINARY_FUNCTION(NAME, Functor, FORM) \
    template <class A, class B>                    \
        requires BinaryOperands<A, B>              \
    auto NAME(A&& a, B&& b) {                      \
        TENET_BINARY_NODE_##FORM(NAME, Functor)    \
    }
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) TENET_BINARY_FUNCTION_##FORM(NAME, Functor, FORM)
#include "tenet/expr/binary_ops.def"
// Aliases and operators call the op's function (found by argument-dependent lookup where it is a
// custom one, written later).
#define TENET_BINARY_ALIAS(ALIAS, NAME, INPLACE)           \
    template <class A, class B>                            \
        requires BinaryOperands<A, B>                      \
    auto ALIAS(A&& a, B&& b) {                             \
        return NAME(std::forward<A>(a), std::forward<B>(b)); \
    }
#define TENET_BINARY_OPERATOR(SYMBOL, NAME, COMPOUND)      \
    template <class A, class B>                            \
        requires BinaryOperands<A, B>                      \
    auto operator SYMBOL(A&& a, B&& b) {                   \
        return NAME(std::forward<A>(a), std::forward<B>(b)); \
    }
#include "tenet/expr/binary_ops.def"
#undef TENET_BINARY_FUNCTION
#undef TENET_BINARY_FUNCTION_any
#undef TENET_BINARY_FUNCTION_floating
#undef TENET_BINARY_NODE_floating
#undef TENET_BINARY_CHECKED_NODE
#undef TENET_BINARY_FUNCTION_division
#undef TENET_BINARY_FUNCTION_integral
#undef TENET_BINARY_FUNCTION_custom
#undef TENET_BINARY_NODE_any
#undef TENET_BINARY_NODE_division
#undef TENET_BINARY_NODE_integral

template <expr::TensorOperand A>
auto neg(A&& a) {
    return expr::make_unary<fn::Neg>(std::forward<A>(a));
}
template <expr::TensorOperand A>
auto operator-(A&& a) {
    return neg(std::forward<A>(a));
}

/// Converts an expression's elements to U, lazily (`cast<double>(a) * b`).
template <Element U, expr::TensorOperand A>
auto cast(A&& a) {
    return expr::make_unary<fn::CastTo<U>>(std::forward<A>(a));
}

}  // namespace tenet
