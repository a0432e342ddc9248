#pragma once
// create_graph: a backward that is itself recorded, so gradients can be differentiated again.
//
// A node's first-order backward evaluates its gradient expressions fused (record.hpp). Under
// create_graph the expression is instead REPLAYED forward (graph_gradients): evaluated one
// operation at a time over aliases of its leaves, each operation recorded as a GraphOpNode (one
// operation over tensor leaves), and the engine differentiates that small graph, recording as it
// goes. A GraphOpNode's own backward replays its operation's derivative rule, each local
// derivative expanded into forward operations by the op's one rule (expr/unary_ops.def:
// sigmoid'(x) = sigmoid(x) * (1 - sigmoid(x))), into GraphOpNodes again. So an expression type
// instantiates only the walk over its own nodes; the set of one-operation node types is small,
// closed, and shared by every expression of a translation unit.
//
// Sums back to an input's shape, broadcast seeds and views use recorded tensor operations
// (sum, reshape, expand) for the same reason.

#include "tenet/config.hpp"
#include <array>
#include <numbers>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/gradient_pass.hpp"
#include "tenet/autograd/saved_expression.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI::autograd {

// ---- Local derivatives as forward operations ----------------------------------------------

/// Expansion<D>::of(d, x): the local derivative functor D applied to x, written with forward
/// operations (which have derivatives). `constant = true`: D is piecewise constant (a mask),
/// so its own derivative is zero and it is evaluated as it is.
template <class D>
struct Expansion;

/// The ops of the table (expr/unary_ops.def): their one local-derivative rule, on tensors.
template <class Op>
struct Expansion<dfn::Local<Op>> {
    static constexpr bool constant = false;
    template <class X>
    static auto of(const dfn::Local<Op>&, const X& x) {
        return fn::LocalDerivative<Op>::template of<double>(x);
    }
};

template <>
struct Expansion<dfn::DGelu> {
    static constexpr bool constant = false;
    template <class X>
    static auto of(const dfn::DGelu& d, const X& x) {
        if (d.tanh_approximation)
            detail::fail<error>("GeluBackward0: create_graph with approximate=\"tanh\" is not supported by tenet's "
                                "autograd yet (the exact gelu is)");
        // Phi(x) + x phi(x)
        return 0.5 * (1.0 + erf(x * (0.5 * std::numbers::sqrt2))) +
               x * exp(-0.5 * square(x)) * (0.5 * std::numbers::sqrt2 * std::numbers::inv_sqrtpi);
    }
};
template <>
struct Expansion<dfn::DSoftplus> {
    static constexpr bool constant = false;
    template <class X>
    static auto of(const dfn::DSoftplus& d, const X& x) {
        return where(x * d.beta > d.threshold, 1.0, sigmoid(x * d.beta));
    }
};
/// Masks (0 or 1, or where a gradient passes) and the zero of rounding: piecewise constant,
/// so their derivative is zero. Relu and clamp select with their masks (where(mask, g, 0)) in
/// both backward modes.
template <>
struct Expansion<dfn::ReluMask> {
    static constexpr bool constant = true;
};
template <>
struct Expansion<dfn::ClampMask> {
    static constexpr bool constant = true;
};
template <>
struct Expansion<dfn::Zero> {
    static constexpr bool constant = true;
};
template <>
struct Expansion<dfn::DNanToNum> {
    static constexpr bool constant = true;
};

/// Whether Op is one of the local-derivative functors (they all have an Expansion).
template <class Op>
concept LocalDerivative = requires { Expansion<Op>::constant; };

// ---- Recorded operations ------------------------------------------------------------------

/// A copy of e whose leaves are all contiguous with `shape` (broadcast leaves expanded and
/// copied), so that its gradient expressions evaluate with one flat loop.
template <class E>
E flat_copy(const E& e, const IntArray& shape) {
    E flat = e;
    for (const TensorBase* leaf : expr::leaf_tensors(flat))
        if (leaf->sizes() != shape || !leaf->is_contiguous())
            const_cast<TensorBase&>(*leaf) = contiguous_expanded(*leaf, shape);  // our own copy's leaf
    return flat;
}

template <class N>
[[gnu::cold]] auto replay(const N& n);  // the attribute on the first declaration (nvcc ignores it on a redeclaration)

/// The static shape a replayed value keeps: only a static 0-d shape, which decides type
/// promotion (expr::common_t); every other shape is dynamic, for fewer distinct node types.
template <class N>
using replay_shape_t = std::conditional_t<expr::static_zero_dim<N>, Shape<>, DynamicShape>;

/// sum_to's node: the gradient is expanded back, which
/// is a view, so this backward is recorded as it is under create_graph.
template <class T>
struct SumToNode final : Node {
    SumToNode(IntArray from, Edge input) : from_sizes(std::move(from)) { next_edges = {std::move(input)}; }
    std::string name() const override { return "SumBackward1"; }
    GradientList apply(const TensorBase& grad) override { return {spread(grad)}; }
    GradientList apply_with_graph(const GradientList& grads) override { return {spread(grads[0])}; }
    IntArray from_sizes;

private:
    TensorBase spread(const TensorBase& g) const { return Tensor<T>(g.impl_ptr()).expand(from_sizes).contiguous(); }
};

/// Sums t back to `shape` (the dims broadcasting added or stretched), recorded; contiguous.
/// A plain loop and one node, not a reduction expression, to keep create_graph cheap to compile.
template <class T>
Tensor<T> graph_sum_to(const Tensor<T>& t, const IntArray& shape) {
    if (t.sizes() == shape) return t.is_contiguous() ? t : t.contiguous();
    Tensor<T> sum = [&] {
        NoGradGuard no_grad;
        return sum_to(t.contiguous(), shape);
    }();
    if (GradMode::is_enabled() && requires_grad(t))
        set_history(sum, detail::make_pooled<SumToNode<T>>(t.sizes(), gradient_edge(t)));
    return sum;
}

/// The gradients of e's leaves that have an edge, for the upstream gradient `seed` (a Leaf of
/// e's shape), computed by replaying each leaf's gradient expression: recorded when grad mode
/// is on (create_graph), plain evaluation otherwise.
template <class E, class G, size_t... K>
[[gnu::cold]] GradientList graph_leaf_gradients(const E& e, const G& seed, const EdgeList& edges, std::index_sequence<K...>) {
    GradientList out(E::num_leaves);
    const std::vector<TensorBase> leaf_handles = leaves_of(e);
    auto one = [&](auto k) {
        constexpr size_t I = decltype(k)::value;
        using LT = leaf_t<I, E>;
        const auto ge = leaf_grad<I>(e, seed);
        using GE = std::remove_cvref_t<decltype(ge)>;
        if constexpr (!is_no_gradient<GE>) {
            static_assert(GE::num_leaves > 0, "a gradient expression holds the upstream gradient");
            if (!edges[I].valid()) return;
            Tensor<LT> full = [&] {
                if constexpr (std::is_same_v<typename GE::value_type, LT>) return replay(ge).tensor;
                else return replay(cast<LT>(ge)).tensor;
            }();
            out[I] = graph_sum_to(full, leaf_handles[I].sizes());
        }
    };
    (one(std::integral_constant<size_t, K>{}), ...);
    return out;
}

/// One operation over tensor leaves (or numbers), recorded by replay.
template <class V, class E>
struct GraphOpNode final : Node {
    GraphOpNode(const E& e, EdgeList edges) : saved(e, backward_name<E>()) { next_edges = std::move(edges); }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override { return gradients(grad); }
    GradientList apply_with_graph(const GradientList& grads) override { return gradients(grads[0]); }
    void release_variables() override { saved.release(); }

    SavedExpression<E> saved;

private:
    [[gnu::cold]] GradientList gradients(const TensorBase& grad) {
        const E& e = saved.unpack();
        return graph_leaf_gradients(e, expr::Leaf<V>(Tensor<V>(grad.impl_ptr())), next_edges,
                                    std::make_index_sequence<E::num_leaves>{});
    }
};

/// Evaluates e (one operation over leaves) into a new tensor, recorded when grad mode is on
/// and an input requires grad; the result as a leaf for the next operation.
template <class E>
[[gnu::cold]] auto record_op(const E& e) {
    using V = typename E::value_type;
    Tensor<V> out;
    if (const auto device = e.device(); device && !device->is_cpu()) {
#if TENET_DEVICE_EVALUATOR
        detail::run_assign(out, e, detail::AssignMode::Fresh);
#else
        detail::no_device_evaluator("backward", *device);
#endif
    } else {
        // One plain loop over operands made contiguous with the result's shape. Replay runs
        // only under create_graph, and instantiating the full evaluator for each of its
        // operation types would cost every translation unit that records an expression.
        const IntArray shape = e.shape();
        E flat = [&] {
            NoGradGuard no_grad;  // the copies are scratch, not part of the graph
            return flat_copy(e, shape);
        }();
        std::array<const void*, E::num_leaves> ptrs{};
        const auto leaves = expr::leaf_tensors(flat);
        for (size_t k = 0; k < E::num_leaves; ++k) ptrs[k] = detail::first_byte(*leaves[k]);
        out = Tensor<V>(detail::make_contiguous_impl(shape, dtype_of<V>, Device(DeviceType::CPU)));
        V* o = out.data_ptr();
        for (int64_t i = 0, n = out.numel(); i < n; ++i) o[i] = flat.template at<0>(ptrs, i);
    }
    if constexpr (FloatingElement<V>) {
        if (GradMode::is_enabled() && any_leaf_requires_grad(e)) {
            EdgeList edges = leaf_edges(e, std::make_index_sequence<E::num_leaves>{});
            if (any_valid_edge(edges)) set_history(out, detail::make_pooled<GraphOpNode<V, E>>(e, std::move(edges)));
        }
    }
    return expr::Leaf<V, replay_shape_t<E>>(std::move(out));
}

/// n evaluated one operation at a time (see the top of this file). Parts without tensors
/// (numbers and operations on numbers) stay in the expression; tensors become leaves.
template <class N>
auto replay(const N& n) {
    if constexpr (N::num_leaves == 0) {
        return n;
    } else if constexpr (arity_v<N> == 0) {
        return expr::Leaf<typename N::value_type, replay_shape_t<N>>(n.tensor);
    } else {
        using Op = op_t<N>;
        // The operands first, in order, then this operation over them.
        auto over_replayed = expr::rebuild(n, [](const auto& o, auto) { return replay(o); });
        if constexpr (arity_v<N> == 1 && LocalDerivative<Op>) {
            if constexpr (Expansion<Op>::constant) {
                NoGradGuard no_grad;  // a mask: no gradient flows through it
                return record_op(std::move(over_replayed));
            } else {
                return replay(Expansion<Op>::of(n.op, over_replayed.a));
            }
        } else {
            return record_op(std::move(over_replayed));
        }
    }
}

/// create_graph's backward of a recorded expression e (a FusedNode, a reduction of an
/// expression), for the upstream gradient `seed` of e's shape, whose leaves' gradients go along
/// `edges` (a seed of another element type T than e's: the replay ends with e's conversion to T):
/// e is replayed forward, one recorded operation at a time, over aliases of its leaves
/// (one AliasBackward0 node per leaf that needs a gradient, pointing along its edge), and the
/// engine differentiates that small graph from e's value back to the aliases, recording as it
/// goes. An expression type instantiates only this walk over its own nodes; the operations'
/// nodes (GraphOpNode: one operation over leaves), whose backward replays their derivative rules,
/// are shared by every expression.
template <class T, class E>
[[gnu::cold]] GradientList graph_gradients(const E& e, const Tensor<T>& seed, const EdgeList& edges) {
    GradientList out(E::num_leaves);
    if (!any_valid_edge(edges)) return out;
    std::vector<Edge> aliases(E::num_leaves);
    TensorBase value;
    {
        AutoGradMode grad_mode(true);
        E aliased = e;
        const auto leaves = expr::leaf_tensors(aliased);
        for (size_t k = 0; k < E::num_leaves; ++k) {
            TensorBase& slot = const_cast<TensorBase&>(*leaves[k]);  // our own copy's leaf
            slot = TensorBase(detail::make_view(slot.impl(), slot.sizes(), slot.strides(), slot.storage_offset()));
            if (edges[k].valid()) {
                NodePtr alias = detail::make_pooled<IdentityNode>("AliasBackward0", edges[k]);
                set_history(slot, alias);
                aliases[k] = Edge{std::move(alias), 0};
            }
        }
        if constexpr (std::is_same_v<typename E::value_type, T>) value = replay(aliased).tensor;
        else value = replay(cast<T>(aliased)).tensor;
    }
    if (!requires_grad(value)) return out;
    std::vector<TensorBase> captured(E::num_leaves);
    BackwardOptions options;
    options.retain_graph = true;  // the replayed values' nodes: the gradients' history goes through them
    options.create_graph = true;
    options.inputs = &aliases;
    options.captured = &captured;
    options.stop_at_inputs = true;
    const TensorBase seed_base = seed;
    run_backward(std::span<const TensorBase>(&value, 1), std::span<const TensorBase>(&seed_base, 1), options);
    for (size_t k = 0; k < out.size(); ++k) out[k] = std::move(captured[k]);
    return out;
}

/// The upstream gradient of a reduction spread back over its input's shape (recorded):
/// g (of the reduced shape) viewed with the reduced dims kept, expanded, scaled.
template <class R>
Tensor<R> graph_reduction_seed(const Tensor<R>& g, const IntArray& keepdim_shape, const IntArray& shape,
                               double scale) {
    Tensor<R> spread = g.reshape(keepdim_shape).expand(shape);
    if (scale == 1.0) return spread;
    return record_op(expr::Leaf<R>(spread) * scale).tensor;
}

}  // namespace tenet::autograd
