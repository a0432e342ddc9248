#pragma once
// Operators and named functions that build expression nodes: `a * b + c`, `add(a, b)`,
// `eq(a, 1)`. Each takes tensors, expressions and C++ numbers (at least one operand is a
// tensor or expression), allocates nothing, and checks the broadcast shapes at once.

#include "tenet/config.hpp"
#include <utility>

#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI {

/// Two operands of which at least one is a tensor or an expression.
template <class A, class B>
concept BinaryOperands =
    expr::Operand<A> && expr::Operand<B> && (expr::TensorOperand<A> || expr::TensorOperand<B>);

#define TENET_BINARY_FUNCTION(NAME, OP)                                      \
    template <class A, class B>                                              \
        requires BinaryOperands<A, B>                                        \
    auto NAME(A&& a, B&& b) {                                                \
        return expr::make_binary<fn::OP>(std::forward<A>(a), std::forward<B>(b)); \
    }
#define TENET_BINARY_OPERATOR(SYMBOL, OP) TENET_BINARY_FUNCTION(operator SYMBOL, OP)

TENET_BINARY_FUNCTION(add, Add)
TENET_BINARY_FUNCTION(sub, Sub)
TENET_BINARY_FUNCTION(mul, Mul)
TENET_BINARY_FUNCTION(div, Div)
TENET_BINARY_FUNCTION(true_divide, Div)
TENET_BINARY_FUNCTION(eq, Eq)
TENET_BINARY_FUNCTION(ne, Ne)
TENET_BINARY_FUNCTION(lt, Lt)
TENET_BINARY_FUNCTION(le, Le)
TENET_BINARY_FUNCTION(gt, Gt)
TENET_BINARY_FUNCTION(ge, Ge)

TENET_BINARY_OPERATOR(+, Add)
TENET_BINARY_OPERATOR(-, Sub)
TENET_BINARY_OPERATOR(*, Mul)
TENET_BINARY_OPERATOR(/, Div)
TENET_BINARY_OPERATOR(==, Eq)
TENET_BINARY_OPERATOR(!=, Ne)
TENET_BINARY_OPERATOR(<, Lt)
TENET_BINARY_OPERATOR(<=, Le)
TENET_BINARY_OPERATOR(>, Gt)
TENET_BINARY_OPERATOR(>=, Ge)

#undef TENET_BINARY_OPERATOR
#undef TENET_BINARY_FUNCTION

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
