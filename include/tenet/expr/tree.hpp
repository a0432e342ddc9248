#pragma once
// The tree protocol: what a walker over an expression needs, written once. Every node type says
// what it is with two members, and the walkers (the pow rewrite, the device views, autograd's
// slots, values, derivatives and replay) are written with the helpers below instead of one
// overload per node type:
//   N::arity          -1 a number (ScalarNode), 0 a leaf (a tensor), 1-3 an operation
//   N::op_type        an operation's functor (operations only)
//   operand<I>(n)     an operation's operand I (a, b, c), operand_t<I, N> its type
//   leaves_before_v   how many of N's leaves its operands before operand I hold (leaf numbering)
//   op_node_t         the operation node of an op over operand nodes (Unary, Binary, Ternary)
//   rebuild(n, f)     operation n over f(operand<I>(n), index_c<I>) for every operand I
//   for_each_operand(n, f)   f(operand<I>(n), index_c<I>) for every operand I, in order

#include "tenet/config.hpp"
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tenet::inline TENET_ABI::expr {

template <class Op, class A>
struct Unary;
template <class Op, class A, class B>
struct Binary;
template <class Op, class A, class B, class C>
struct Ternary;

/// What node N is: -1 a number, 0 a leaf, 1-3 an operation over that many operands.
template <class N>
inline constexpr int arity_v = std::remove_cvref_t<N>::arity;

/// The functor of operation node N.
template <class N>
using op_t = typename std::remove_cvref_t<N>::op_type;

/// Operand I of an operation node (a, b or c).
template <size_t I, class N>
TENET_ALWAYS_INLINE constexpr const auto& operand(const N& n) {
    if constexpr (I == 0) return n.a;
    else if constexpr (I == 1) return n.b;
    else return n.c;
}
template <size_t I, class N>
using operand_t = std::remove_cvref_t<decltype(operand<I>(std::declval<const N&>()))>;

/// How many leaves the operands of N before operand I hold: operand I's first leaf is N's leaf
/// Base + leaves_before_v<N, I> when N's first is Base.
template <class N, size_t I>
inline constexpr size_t leaves_before_v = [] {
    size_t n = 0;
    if constexpr (I > 0) n += operand_t<0, N>::num_leaves;
    if constexpr (I > 1) n += operand_t<1, N>::num_leaves;
    return n;
}();

/// The operation node of Op over operand nodes Ch.
template <class Op, class... Ch>
struct op_node;
template <class Op, class A>
struct op_node<Op, A> {
    using type = Unary<Op, A>;
};
template <class Op, class A, class B>
struct op_node<Op, A, B> {
    using type = Binary<Op, A, B>;
};
template <class Op, class A, class B, class C>
struct op_node<Op, A, B, C> {
    using type = Ternary<Op, A, B, C>;
};
template <class Op, class... Ch>
using op_node_t = typename op_node<Op, std::remove_cvref_t<Ch>...>::type;

/// The index of an operand, as a type (a walker that numbers leaves needs it at compile time).
template <size_t I>
using index_c = std::integral_constant<size_t, I>;

/// Operation node n (its op and functor) over f(operand<I>(n), index_c<I>{}) for each operand.
template <class N, class F>
TENET_LOOP_INLINE auto rebuild(const N& n, F&& f) {
    return [&]<size_t... I>(std::index_sequence<I...>) TENET_FLATTEN_INLINE {
        // Braces: the operands are visited in order (replay records them in that order).
        return op_node_t<op_t<N>, decltype(f(operand<I>(n), index_c<I>{}))...>{f(operand<I>(n), index_c<I>{})..., n.op};
    }(std::make_index_sequence<arity_v<N>>{});
}

/// f(operand<I>(n), index_c<I>{}) for each operand of operation node n, in order.
template <class N, class F>
TENET_LOOP_INLINE void for_each_operand(const N& n, F&& f) {
    [&]<size_t... I>(std::index_sequence<I...>) TENET_FLATTEN_INLINE {
        (f(operand<I>(n), index_c<I>{}), ...);
    }(std::make_index_sequence<arity_v<N>>{});
}

}  // namespace tenet::expr
