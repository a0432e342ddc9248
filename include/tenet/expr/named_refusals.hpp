#pragma once
// PyTorch's refusal of the element-wise ops it has no name inference for (where, lerp), decided
// per op node of a fused expression: `where(c, a, b) + named` is fine (PyTorch computes the
// where unnamed, then the add names the result), `where(c, named, b)` is refused. An op says it
// is refused with one member of its functor, read by the walk below:
//     template <class... Operands> static constexpr const char* named_refusal = "aten::where.self";
// (a variable template over the node's operand node types: lerp's aten name depends on whether
// its weight is a number). The walk runs only on the named path (run_assign_named, a named
// reduction's inference), and compiles to nothing for an expression without such an op.

#include "tenet/config.hpp"
#include <type_traits>
#include <utility>

#include "tenet/core/name_inference.hpp"
#include "tenet/expr/tree.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Set while the autograd engine computes gradients (engine.hpp): the derivative formulas use
/// where on the saved, maybe named, inputs, which is tenet's arithmetic rather than the user's
/// call (PyTorch's gradients of relu, clamp, pow, prod, std, ... on named inputs are computed).
/// (A tensor hook that runs during backward is not refused either: a hook's gradients are unnamed.)
inline thread_local bool named_refusals_off = false;

/// Sets named_refusals_off for its lifetime.
class NamedRefusalsOff {
public:
    NamedRefusalsOff() : previous_(named_refusals_off) { named_refusals_off = true; }
    ~NamedRefusalsOff() { named_refusals_off = previous_; }
    NamedRefusalsOff(const NamedRefusalsOff&) = delete;
    NamedRefusalsOff& operator=(const NamedRefusalsOff&) = delete;

private:
    bool previous_;
};

/// Op's named_refusal over operand node types Operands..., or nullptr. (Traits, not `if constexpr
/// (requires ...)` in a function: nvcc 13 instantiates that discarded branch.)
template <class Op, class... Operands>
struct op_named_refusal {
    static constexpr const char* value = nullptr;
};
template <class Op, class... Operands>
    requires requires { Op::template named_refusal<Operands...>; }
struct op_named_refusal<Op, Operands...> {
    static constexpr const char* value = Op::template named_refusal<Operands...>;
};

/// For expression node N: `op`, the aten name under which PyTorch refuses N's own op on named
/// operands (nullptr if it does not), and `any`, whether N or a node under it is refused.
template <class N, class = void>
struct node_named_refusal {  // a number or a leaf
    static constexpr const char* op = nullptr;
    static constexpr bool any = false;
};
template <class N>
struct node_named_refusal<N, std::enable_if_t<(expr::arity_v<N> > 0)>> {
    template <size_t... I>
    static constexpr const char* op_of(std::index_sequence<I...>) {
        return op_named_refusal<expr::op_t<N>, expr::operand_t<I, N>...>::value;
    }
    template <size_t... I>
    static constexpr bool under(std::index_sequence<I...>) {
        return (node_named_refusal<expr::operand_t<I, N>>::any || ...);
    }
    static constexpr const char* op = op_of(std::make_index_sequence<expr::arity_v<N>>{});
    static constexpr bool any = op != nullptr || under(std::make_index_sequence<expr::arity_v<N>>{});
};

/// Throws PyTorch's "aten::... is not yet supported with named tensors" for the innermost
/// refused op of `n` that has a named leaf under it (its own operands, not the rest of the
/// expression). Called only once some tensor is named.
template <class N>
void refuse_named_ops(const N& n) {
    using R = node_named_refusal<N>;
    if constexpr (R::any) {
        if (named_refusals_off) return;
        expr::for_each_operand(n, [](const auto& operand, auto) { refuse_named_ops(operand); });
        if constexpr (R::op != nullptr) {
            bool named = false;
            n.for_each_leaf([&](const auto& leaf) { named = named || leaf.impl().names != nullptr; });
            if (named) fail_named_unsupported(R::op);
        }
    }
}

}  // namespace tenet::detail
