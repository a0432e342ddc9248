#pragma once
// The fused first-order backward, one element at a time.
//
// grad_at<K>(e, ptrs, j, g) is element j of g * d(e)/d(leaf K): the upstream gradient g is pushed
// from the root to leaf K through each node's rule, Derivative<Op>::d<I>(node, g)
// (autograd/derivatives.hpp), the same rules leaf_grad builds whole expressions from. Here each
// rule is applied to the node's VALUES at element j: the node is rebuilt over Val operands (one
// number each, standing in for its operand with the operand's element type and promotion kind),
// so a rule builds a tiny expression over numbers, evaluated at once. Those expressions' types
// depend only on the op and the element types, not on the tree above or below them, so every
// expression of a translation unit shares them; a tree costs one small function per (leaf,
// ancestor) pair. The loop that calls grad_at (gradient_pass.hpp, run_gradients) inlines all of it, and
// the compiler computes the forward values that several leaves' gradients share once.

#include "tenet/config.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// One element of a node (or of a gradient) in a per-element backward: a number of type T that
/// promotes as the node it stands for. S is Shape<> for a node with a static 0-d shape, else
/// DynamicShape; NL is 0 for a node over numbers only (it promotes as a dimensioned tensor, as
/// autograd's seed of a whole-tensor reduction does), 1 otherwise (expr::common_t).
template <class T, class S, size_t NL>
struct Val : ExpressionBase<Val<T, S, NL>> {
    using value_type = T;
    using static_shape = S;
    static constexpr size_t num_leaves = NL;
    static constexpr bool is_scalar = false;
    static constexpr bool lasting_shape = true;
    static constexpr bool holds_values = true;

    T value;

    explicit Val(T v) : value(v) {}
    const IntArray& shape() const { return expr::scalar_shape(); }
    std::optional<Device> device() const { return std::nullopt; }
    template <class F>
    void for_each_leaf(F&&) const {}
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE T at(const Ptrs&, int64_t) const {
        return value;
    }
};

/// The Val that stands for node N (a C++ number stands for itself: it stays weak).
template <class N>
using val_t = Val<typename N::value_type,
                  std::conditional_t<std::is_same_v<typename N::static_shape, Shape<>>, Shape<>, DynamicShape>,
                  (N::num_leaves > 0 ? 1 : 0)>;

/// What stands for operand N in its parent's rule: a C++ number stays itself (weak), any other
/// operand becomes a Val.
template <class N>
using value_of_t = std::conditional_t<N::is_scalar, N, val_t<N>>;

/// Element j of n (whose first leaf reads ptrs[Base]) as the value its parent's rule sees.
template <size_t Base, class N, class Ptrs>
TENET_LOOP_INLINE value_of_t<N> value_of(const N& n, const Ptrs& ptrs, int64_t j) {
    if constexpr (N::is_scalar) return n;
    else return value_of_t<N>(n.template at<Base>(ptrs, j));
}

/// Node n rebuilt over its operands' values at element j (same op, same element and result
/// types; n's first leaf reads ptrs[Base]).
template <size_t Base, class N, class Ptrs>
TENET_LOOP_INLINE auto values_at(const N& n, const Ptrs& ptrs, int64_t j) {
    return expr::rebuild(n, [&]<class O, size_t I>(const O& o, expr::index_c<I>) TENET_FLATTEN_INLINE {
        return value_of<Base + expr::leaves_before_v<N, I>>(o, ptrs, j);
    });
}
/// The type of values_at(N), from types alone (declared, never defined).
template <class N, size_t... I>
auto value_view_of(std::index_sequence<I...>) -> expr::op_node_t<op_t<N>, value_of_t<operand_t<I, N>>...>;
template <class N>
using value_view_t = decltype(value_view_of<N>(std::make_index_sequence<arity_v<N>>{}));

/// A rule's result as the gradient passed on: nothing, or its value at this element.
template <class GE>
TENET_LOOP_INLINE auto gradient_value(const GE& ge) {
    if constexpr (is_no_gradient<GE>) return NoGradient{};
    else return val_t<GE>(ge.template at<0>(nullptr, 0));
}

/// The gradient operand I of N passes on, for an upstream gradient of type G.
template <class N, size_t I, class G>
using operand_gradient_t = decltype(gradient_value(
    Derivative<op_t<N>>::template d<I>(std::declval<const value_view_t<N>&>(), std::declval<const G&>())));

/// Whether a gradient of type G at n's root reaches leaf K of N (not through a comparison, a cast
/// to integers, where's condition, ...). Types only: nothing of N's tree is instantiated.
template <size_t K, class N, class G>
constexpr bool gradient_reaches() {
    constexpr int arity = arity_v<N>;
    if constexpr (is_no_gradient<G> || !FloatingElement<typename N::value_type>) {
        return false;
    } else if constexpr (arity <= 0) {
        return arity == 0;
    } else {
        using S = leaf_step<N, K>;
        return gradient_reaches<K - S::before, operand_t<S::index, N>, operand_gradient_t<N, S::index, G>>();
    }
}

/// Element j of g * d(n)/d(leaf K of n), or NoGradient; n's first leaf reads ptrs[Base], and g
/// is a node over values (a Val, or a seed over numbers).
template <size_t K, size_t Base, class N, class Ptrs, class G>
TENET_LOOP_INLINE auto grad_at(const N& n, const Ptrs& ptrs, int64_t j, const G& g) {
    constexpr int arity = arity_v<N>;
    if constexpr (is_no_gradient<G> || !FloatingElement<typename N::value_type>) {
        return NoGradient{};
    } else if constexpr (arity == 0) {
        return g;
    } else {
        using D = Derivative<op_t<N>>;
        using S = leaf_step<N, K>;
        const auto v = values_at<Base>(n, ptrs, j);
        return grad_at<K - S::before, Base + S::before>(operand<S::index>(n), ptrs, j,
                                                       gradient_value(D::template d<S::index>(v, g)));
    }
}

}  // namespace tenet::autograd
