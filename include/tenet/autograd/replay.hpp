#pragma once
// create_graph: a backward that is itself recorded, so gradients can be differentiated again.
//
// A node's first-order backward evaluates its gradient expressions fused (gradient_pass.hpp).
// Under create_graph the expression is instead REPLAYED forward (graph_gradients): evaluated one
// operation at a time over aliases of its leaves, each operation recorded as a GraphOpNode (one
// operation over tensor leaves), and the engine differentiates that small graph, recording as it
// goes. The replay is a small program of steps (ReplayProgram), one per operation, that one
// interpreter runs; an expression type only fills the program's table. A GraphOpNode's own
// backward replays its operation's derivative rule, each local derivative expanded into forward
// operations by the op's one rule (expr/unary_ops.def: sigmoid'(x) = sigmoid(x) * (1 -
// sigmoid(x))), into GraphOpNodes again. The set of one-operation node types is small, closed,
// and shared by every expression of a translation unit.
//
// Sums back to an input's shape, broadcast seeds and views use recorded tensor operations
// (sum, reshape, expand) for the same reason.

#include "tenet/config.hpp"
#include <array>
#include <cassert>
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
#include "tenet/core/meta.hpp"
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
        return fn::LocalDerivative<Op>::template of_tensors<double>(x);
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
    if (const auto device = e.device(); device && device->is_meta()) {
        out = detail::meta_result<V>(e.shape());  // nothing to compute
    } else if (device && !device->is_cpu()) {
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

// ---- create_graph's program for an expression ---------------------------------------------
//
// A recorded expression's create_graph backward replays the expression forward. Not by a walk
// compiled per expression type: the expression becomes a small program of steps, one per
// operation, each step a call to a function compiled per operation and operand types (shared by
// every expression that has that operation), and one interpreter, compiled once, runs it.

/// One operation of a replay program: `run` builds the operation over its operands, evaluates and
/// records it. Operand i is a value the program computed (`registers[i]`; the expression's leaves
/// are registers 0 .. L-1, step j's value register L + j) or, when it holds no tensor (a number,
/// an operation on numbers), that part of the expression itself (`numbers[i]`), kept as it is.
struct ReplayStep {
    using Run = TensorBase (*)(const ReplayStep&, const std::vector<TensorBase>& registers);
    Run run = nullptr;
    const void* op = nullptr;  ///< the operation's functor, in the expression
    std::array<const void*, 3> numbers{};
    std::array<size_t, 3> registers{};
};

/// The type of operand node N in a step: itself when it holds no tensor, else a leaf over its
/// value (of N's element type; a static 0-d shape kept, for promotion).
template <class N>
using step_operand_t =
    std::conditional_t<N::num_leaves == 0, N, expr::Leaf<typename N::value_type, replay_shape_t<N>>>;

template <class K, size_t I>
K step_operand(const ReplayStep& s, const std::vector<TensorBase>& registers) {
    if constexpr (K::num_leaves == 0) return *static_cast<const K*>(s.numbers[I]);
    else return K(Tensor<typename K::value_type>(registers[s.registers[I]].impl_ptr()));
}

/// A step's run: Op over operands of types K..., evaluated and recorded (a GraphOpNode).
template <class Op, class... K>
[[gnu::cold]] TensorBase run_step(const ReplayStep& s, const std::vector<TensorBase>& registers) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
        return record_op(expr::op_node_t<Op, K...>{step_operand<K, I>(s, registers)..., *static_cast<const Op*>(s.op)})
            .tensor;
    }(std::index_sequence_for<K...>{});
}

/// The steps of a recorded expression with `leaves` leaves; its value is the last step's (or
/// leaf 0's, for a leaf). The steps live in the caller's array (one per operation: op_count_v).
struct ReplayProgram {
    size_t leaves = 0;
    ReplayStep* steps = nullptr;
    size_t capacity = 0;  ///< op_count_v of the expression, plus its cast step
    size_t count = 0;
    size_t result() const { return count == 0 ? 0 : leaves + count - 1; }
    void push(const ReplayStep& s) {
        assert(count < capacity && "op_count_v counts every step add_steps pushes");
        steps[count++] = s;
    }
};

/// The number of operations over tensors in node N: the steps of its program.
template <class N>
inline constexpr size_t op_count_v = [] {
    if constexpr (N::num_leaves == 0 || arity_v<N> == 0) {
        return size_t{0};
    } else {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            return (size_t{1} + ... + op_count_v<expr::operand_t<I, N>>);
        }(std::make_index_sequence<arity_v<N>>{});
    }
}();

/// Appends the steps of node n (which holds tensors, its first leaf the expression's leaf
/// `first_leaf`) after those of its operands; n's register.
template <class N>
size_t add_steps(const N& n, ReplayProgram& p, size_t first_leaf) {
    static_assert(N::num_leaves > 0);
    if constexpr (arity_v<N> == 0) {
        return first_leaf;
    } else {
        using Op = op_t<N>;
        static_assert(!LocalDerivative<Op>, "tenet: a recorded expression holds forward operations only");
        ReplayStep s;
        s.op = &n.op;
        expr::for_each_operand(n, [&]<class O, size_t I>(const O& o, expr::index_c<I>) {
            if constexpr (O::num_leaves == 0) s.numbers[I] = &o;
            else s.registers[I] = add_steps(o, p, first_leaf + expr::leaves_before_v<N, I>);
        });
        s.run = [&]<size_t... I>(std::index_sequence<I...>) {
            using Step = expr::op_node_t<Op, step_operand_t<expr::operand_t<I, N>>...>;
            static_assert(std::is_same_v<typename Step::value_type, typename N::value_type>,
                          "tenet: a step computes its node's element type");
            return &run_step<Op, step_operand_t<expr::operand_t<I, N>>...>;
        }(std::make_index_sequence<arity_v<N>>{});
        p.push(s);
        return p.result();
    }
}

/// Appends the conversion of the program's value (of V, static shape S) to T.
template <class V, class S, class T>
void add_cast_step(ReplayProgram& p) {
    static constexpr fn::CastTo<T> cast_op{};
    ReplayStep s;
    s.op = &cast_op;
    s.registers[0] = p.result();
    s.run = &run_step<fn::CastTo<T>, expr::Leaf<V, S>>;
    p.push(s);
}

/// Runs program p over aliases of `leaves` (one AliasBackward0 node per leaf that needs a
/// gradient, pointing along its edge), then differentiates the replayed graph from its value back
/// to the aliases for `seed`, recording as it goes: the gradients of the leaves. Compiled once.
TENET_FIXED GradientList run_replay_program(const ReplayProgram& p, std::span<const TensorBase* const> leaves,
                                       const TensorBase& seed, const EdgeList& edges);

/// create_graph's backward of a recorded expression e (a FusedNode, a reduction of an
/// expression), for the upstream gradient `seed` of e's shape, whose leaves' gradients go along
/// `edges` (a seed of another element type T than e's: the program ends with e's conversion to
/// T). What an expression type instantiates here is add_steps' walk, which only fills a table.
template <class T, class E>
[[gnu::cold]] GradientList graph_gradients(const E& e, const Tensor<T>& seed, const EdgeList& edges) {
    if constexpr (E::num_leaves == 0) {
        return GradientList{};
    } else {
        if (!any_valid_edge(edges)) return GradientList(E::num_leaves);
        constexpr bool needs_cast = !std::is_same_v<typename E::value_type, T>;
        std::array<ReplayStep, op_count_v<E> + needs_cast> steps;
        ReplayProgram p{E::num_leaves, steps.data(), steps.size()};
        add_steps(e, p, 0);
        if constexpr (needs_cast) add_cast_step<typename E::value_type, replay_shape_t<E>, T>(p);
        const auto leaves = expr::leaf_tensors(e);
        return run_replay_program(p, leaves, seed, edges);
    }
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

#if TENET_HEADER_DEFINITIONS
TENET_FIXED GradientList run_replay_program(const ReplayProgram& p, std::span<const TensorBase* const> leaves,
                                       const TensorBase& seed, const EdgeList& edges) {
    GradientList out(leaves.size());
    std::vector<Edge> aliases(leaves.size());
    TensorBase value;
    {
        AutoGradMode grad_mode(true);
        std::vector<TensorBase> registers;
        registers.reserve(leaves.size() + p.count);
        for (size_t k = 0; k < leaves.size(); ++k) {
            const TensorBase& leaf = *leaves[k];
            TensorBase alias_view(detail::make_view(leaf.impl(), leaf.sizes(), leaf.strides(), leaf.storage_offset()));
            if (edges[k].valid()) {
                NodePtr alias = detail::make_pooled<IdentityNode>("AliasBackward0", edges[k]);
                set_history(alias_view, alias);
                aliases[k] = Edge{std::move(alias), 0};
            }
            registers.push_back(std::move(alias_view));
        }
        for (size_t j = 0; j < p.count; ++j) registers.push_back(p.steps[j].run(p.steps[j], registers));
        value = registers[p.result()];
    }
    if (!requires_grad(value)) return out;
    std::vector<TensorBase> captured(leaves.size());
    BackwardOptions options;
    options.retain_graph = true;  // the replayed values' nodes: the gradients' history goes through them
    options.create_graph = true;
    options.inputs = &aliases;
    options.captured = &captured;
    options.stop_at_inputs = true;
    run_backward(std::span<const TensorBase>(&value, 1), std::span<const TensorBase>(&seed, 1), options);
    for (size_t k = 0; k < out.size(); ++k) out[k] = std::move(captured[k]);
    return out;
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::autograd
