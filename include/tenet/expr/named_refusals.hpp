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

/// The aten name under which PyTorch refuses op node N on named operands, or nullptr.
template <class N>
constexpr const char* named_refusal_of() {
    if constexpr (expr::arity_v<N> <= 0) {
        return nullptr;
    } else {
        return []<size_t... I>(std::index_sequence<I...>) -> const char* {
            using Op = expr::op_t<N>;
            if constexpr (requires { Op::template named_refusal<expr::operand_t<I, N>...>; })
                return Op::template named_refusal<expr::operand_t<I, N>...>;
            else
                return nullptr;
        }(std::make_index_sequence<static_cast<size_t>(expr::arity_v<N>)>{});
    }
}

/// Whether a node of expression N is a refused op.
template <class N>
constexpr bool has_named_refusal() {
    if constexpr (expr::arity_v<N> <= 0) {
        return false;
    } else {
        return named_refusal_of<N>() != nullptr ||
               []<size_t... I>(std::index_sequence<I...>) {
                   return (has_named_refusal<expr::operand_t<I, N>>() || ...);
               }(std::make_index_sequence<static_cast<size_t>(expr::arity_v<N>)>{});
    }
}

/// Throws PyTorch's "aten::... is not yet supported with named tensors" for the innermost
/// refused op of `n` that has a named leaf under it (its own operands, not the rest of the
/// expression). Called only once some tensor is named.
template <class N>
void refuse_named_ops(const N& n) {
    if constexpr (has_named_refusal<N>()) {
        if (named_refusals_off) return;
        expr::for_each_operand(n, [](const auto& operand, auto) { refuse_named_ops(operand); });
        if constexpr (constexpr const char* op = named_refusal_of<N>(); op != nullptr) {
            bool named = false;
            n.for_each_leaf([&](const auto& leaf) { named = named || leaf.impl().names != nullptr; });
            if (named) fail_named_unsupported(op);
        }
    }
}

}  // namespace tenet::detail
