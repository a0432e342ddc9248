#pragma once
// Recording on the tape. A fused expression assigned to a tensor is ONE node whose
// backward evaluates, in one pass over the elements, every input's gradient
// grad_at<K>(e, ..., grad) (autograd/element_gradients.hpp; the pass: gradient_pass.hpp). A reduction
// (sum, mean) of an expression is one node too, and its seed gradient enters that
// expression as a number, so no tensor of the expression's size is written for it.
//
// This file also defines the seam's hooks (core/hooks.hpp) for assignment and sum/mean; those
// of views, copies, in-place writes and printing are in autograd/tensor_autograd.hpp.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/element_gradients.hpp"
#include "tenet/autograd/gradient_pass.hpp"
#include "tenet/autograd/saved_expression.hpp"
#include "tenet/autograd/replay.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/pow_rewrite.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// A fused pointwise expression, assigned to a tensor of type T.
template <class T, class E>
struct FusedNode final : Node {
    /// `edges`: from the leaves as they were before the write (see record_assign).
    FusedNode(const E& expr, EdgeList edges, const char* n) : saved(expr, n) {
        next_edges = std::move(edges);
    }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override {
        const E& e = saved.unpack();
        const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
        return leaf_gradients(e, expr::Leaf<T>(g), next_edges, saved.shape, std::make_index_sequence<E::num_leaves>{});
    }
    GradientList apply_with_graph(const GradientList& grads) override {
        return graph_gradients(saved.unpack(), Tensor<T>(grads[0].impl_ptr()), next_edges);
    }
    void release_variables() override { saved.release(); }

    SavedExpression<E> saved;
};

/// Whether `t` covers less than its whole storage (a view into a larger tensor).
inline bool is_partial_view(const TensorBase& t) {
    return t.storage_offset() != 0 ||
           static_cast<size_t>(t.numel() * t.element_size()) != t.impl().storage->nbytes();
}

/// Refuses in-place writes autograd cannot follow: into a leaf that requires grad, and
/// (not supported yet) into a view when the write would need to reach the base's history.
inline void check_in_place(const TensorBase& dst, bool source_requires_grad) {
    const AutogradMeta* m = meta_if(dst);
    if (m && m->requires_grad && !m->grad_fn)
        detail::fail<error>("a leaf Variable that requires grad is being used in an in-place operation.");
    if ((source_requires_grad || (m && m->grad_fn)) && is_partial_view(dst))
        detail::fail<error>("in-place write of a tensor that requires grad into a view (sizes ", dst.sizes(),
                            ", offset ", dst.storage_offset(),
                            ") is not supported by tenet's autograd yet; compute the whole tensor out of place");
}

/// An overwrite with no differentiable source: the old history is cut.
struct OverwriteNode final : Node {
    explicit OverwriteNode(std::string n) : name_(std::move(n)) {}
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase&) override { return {}; }
    GradientList apply_with_graph(const GradientList&) override { return {}; }
    std::string name_;
};

/// Records `dst = e` (any assignment mode) when e has an input that requires grad, or dst
/// itself takes part in autograd and is overwritten in place.
template <class T, class E>
void record_assign(Tensor<T>& dst, const E& e, detail::AssignMode mode) {
    using detail::AssignMode;
    const bool fresh = mode == AssignMode::Fresh || (mode == AssignMode::Out && (!dst.defined() || dst.sizes() != e.shape()));
    const bool source_grad = any_leaf_requires_grad(e);
    if (!fresh) check_in_place(dst, source_grad);
    if (!source_grad) {  // an in-place overwrite of a recorded tensor by constants
        detail::run_assign(dst, e, mode);
        set_history(dst, detail::make_pooled<OverwriteNode>(backward_name<E>()));
        return;
    }
    // The edges come from the leaves as they are now (before the write changes dst's history).
    EdgeList edges = leaf_edges(e, std::make_index_sequence<E::num_leaves>{});
    // The node keeps e; a leaf sharing dst's memory must keep its values from before the
    // write: it is replaced by a copy. The copy is recorded (CloneBackward0, to dst's history
    // before the write) so that a create_graph backward differentiates through it; it points
    // only to older nodes, so no reference cycle.
    E saved = e;
    if (!fresh) {
        saved.for_each_leaf([&](const auto& leaf) {
            if (leaf.impl().storage != dst.impl().storage) return;
            auto& mutable_leaf = const_cast<std::remove_cvref_t<decltype(leaf)>&>(leaf);  // our own copy
            mutable_leaf = leaf.clone();
        });
    }
    auto node = detail::make_pooled<FusedNode<T, E>>(saved, std::move(edges), backward_name<E>());
    const bool any_edge = any_valid_edge(node->next_edges);
    detail::run_assign(dst, e, mode);
    if (any_edge) set_history(dst, std::move(node));
}

// ---- Reductions -------------------------------------------------------------------------

/// sum/mean of an expression (or a tensor, as a Leaf): the upstream gradient enters the
/// expression as a number (over all elements) or a broadcast tensor (along dims).
template <class R, class E>
struct ReduceNode final : Node {
    ReduceNode(const E& expr, const char* n, IntArray keep_shape, bool all_dims, double s)
        : saved(expr, n), keepdim_shape(std::move(keep_shape)), all(all_dims), scale(s) {
        next_edges = leaf_edges(expr, std::make_index_sequence<E::num_leaves>{});
    }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override {
        const E& e = saved.unpack();
        const Tensor<R> g(grad.impl_ptr());
        constexpr auto leaves = std::make_index_sequence<E::num_leaves>{};
        if (all) {
            // A meta gradient has no value to seed with: the pass answers with the leaves' shapes.
            if (g.is_meta()) return leaf_gradients(e, expr::ScalarNode<R>(R{}), next_edges, saved.shape, leaves);
            const R seed = convert<R>(convert<double>(g.item()) * scale);
            return leaf_gradients(e, expr::ScalarNode<R>(seed), next_edges, saved.shape, leaves);
        }
        // The reduced gradient, spread back over the input's shape (the flat backward needs it dense).
        Tensor<R> gk = g.contiguous().view(keepdim_shape).expand(saved.shape).contiguous();
        if (scale != 1.0 && !gk.is_cpu()) {
            gk = Tensor<R>(gk * scale);
        } else if (scale != 1.0) {
            R* p = gk.data_ptr();
            for (int64_t i = 0, n = gk.numel(); i < n; ++i) p[i] = convert<R>(convert<double>(p[i]) * scale);
        }
        return leaf_gradients(e, expr::Leaf<R>(gk), next_edges, saved.shape, leaves);
    }
    GradientList apply_with_graph(const GradientList& grads) override {
        const E& e = saved.unpack();
        const Tensor<R> seed = graph_reduction_seed(Tensor<R>(grads[0].impl_ptr()), keepdim_shape, saved.shape, scale);
        return graph_gradients(e, seed, next_edges);
    }
    void release_variables() override { saved.release(); }

    SavedExpression<E> saved;
    IntArray keepdim_shape;
    bool all;
    double scale;
};

// ---- sum/mean of an expression, with its gradients computed in the forward pass ---------
//
// d(sum e)/d(leaf k) = seed * de/dleaf_k elementwise, and de/dleaf_k does not depend on the
// seed. So the forward pass also writes de/dleaf_k for each input that wants a gradient (summed
// back to the input's shape for a broadcast one: a 0-d parameter gets a number), sharing the
// work with the value (for the squared error of sigmoid(x*w + b) that is one exp for the loss
// and both gradients; for the polynomial a + b x + c x^2 + d x^3, one pass for all four).
// backward() then hands these over (seed 1) or scales them (mean, or an upstream factor):
// no second pass over the inputs. The price: the gradients are computed even if backward
// is never called, and held until it is (as PyTorch holds the tensors it saves).

/// The node: the precomputed local gradients, scaled by the seed at backward.
template <class R, class E>
struct EagerSumNode final : Node {
    EagerSumNode(const E& expr, EdgeList edges, GradientList local, double s, const char* n)
        : saved(expr, n), gradients(std::move(local)), scale(s) {
        next_edges = std::move(edges);
    }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override {
        saved.unpack();  // a released graph, or an input modified in place: PyTorch's errors
        const double seed = convert<double>(Tensor<R>(grad.impl_ptr()).item()) * scale;
        GradientList out(gradients.size());
        for (size_t k = 0; k < gradients.size(); ++k) {
            if (!gradients[k].defined()) continue;
            visit_floating(gradients[k].dtype(), "backward", [&](auto tag) {
                using T = typename decltype(tag)::type;
                Tensor<T> local(gradients[k].impl_ptr());
                if (seed == 1.0) {
                    // Handed over when the node lets go of it; AccumulateGrad copies it otherwise.
                    out[k] = releasing ? std::move(gradients[k]) : gradients[k];
                    return;
                }
                Tensor<T> scaled = releasing ? local : Tensor<T>(detail::make_contiguous_impl(
                                                           local.sizes(), dtype_of<T>, Device(DeviceType::CPU)));
                const T* from = local.data_ptr();
                T* to = scaled.data_ptr();
                for (int64_t i = 0, n = local.numel(); i < n; ++i) to[i] = convert<T>(convert<double>(from[i]) * seed);
                out[k] = scaled;
            });
        }
        return out;
    }
    /// The gradients computed in the forward pass have no history: they are computed again,
    /// recorded.
    GradientList apply_with_graph(const GradientList& grads) override {
        const E& e = saved.unpack();
        const Tensor<R> seed = graph_reduction_seed(Tensor<R>(grads[0].impl_ptr()), IntArray(saved.shape.size(), 1),
                                                    saved.shape, scale);
        return graph_gradients(e, seed, next_edges);
    }
    void release_variables() override {
        saved.release();
        gradients = {};
    }

    SavedExpression<E> saved;
    GradientList gradients;     ///< de/dleaf_k, summed to leaf k's shape, contiguous; undefined: none wanted
    double scale;                       ///< 1 for sum, 1/numel for mean
};

/// The value of sum(e) or mean(e) (0-d) and, in the same pass, the local gradients. A leaf that
/// holds e's elements in order is read in place; a one-element leaf (a 0-d parameter, broadcast)
/// gets its local gradient summed in the pass; any other broadcast leaf is read from an expanded
/// copy and its local gradient summed back to its shape (fill_gradient_table, as a backward pass).
template <class V, class E, size_t... K>
Tensor<V> sum_and_gradients(const E& e, bool mean, std::index_sequence<K...> leaves) {
    constexpr size_t L = E::num_leaves;
    const IntArray& shape = e.shape();
    const int64_t n = product(shape);
    EdgeList edges = leaf_edges(e, leaves);
    std::optional<E> own;  // our own copy of e, only where a leaf must be expanded
    const E& flat = needs_expanded_leaves(expr::leaf_tensors(e), n, shape) ? own.emplace(e) : e;
    GradientTable<L> table;
    fill_gradient_table(table, expr::leaf_tensors(flat), n, shape);
    constexpr std::array<DType, L> types{dtype_of<leaf_t<K, E>>...};
    GradientList local(L);
    std::array<bool, L> summed{};  // local gradients summed in the pass (one-element leaves)
    std::tuple<detail::LaneSum<leaf_t<K, E>>...> sums;
    PeriodicSums<L> periodic;  // and periodic leaves' local gradients
    detail::LaneSum<V> total;
    expr::with_fast_pows(slotted<0>(flat, shape), [&](const auto& se) {
        // The gradients with a seed of 1, then the value itself.
        const auto seed = strong_seed(expr::ScalarNode<V>(1));
        using SE = std::remove_cvref_t<decltype(se)>;
        constexpr std::array<bool, L> wanted{wants_gradient<K, SE, std::remove_cvref_t<decltype(seed)>>...};
        std::array<void*, L> raw{};
        allocate_leaf_gradients(wanted, types, edges, table, shape, local, raw, summed, periodic);
        run_gradients<true>(se, seed, std::tuple<leaf_t<K, E>*..., V*>{static_cast<leaf_t<K, E>*>(raw[K])..., nullptr},
                            table, n, leaves, [&](const auto& o, int64_t i0, int64_t len) TENET_FLATTEN_INLINE {
                                sum_gradient_blocks(summed, periodic, std::tuple<leaf_t<K, E>*...>{std::get<K>(o)...},
                                                    i0, len, sums, leaves);
                                total.add(std::get<L>(o), len);
                            });
    });
    finish_leaf_gradients<leaf_t<K, E>...>(local, summed, periodic, sums, expr::leaf_tensors(e), leaves);
    Tensor<V> result(detail::make_contiguous_impl(IntArray{}, dtype_of<V>, Device(DeviceType::CPU)));
    *result.data_ptr() = mean ? detail::MeanOp<V>{}.project(total.total(), n) : detail::SumOp<V>{}.project(total.total(), n);
    if (any_valid_edge(edges))
        set_history(result, detail::make_pooled<EagerSumNode<V, E>>(e, std::move(edges), std::move(local),
                                                                    mean ? 1.0 / static_cast<double>(n) : 1.0,
                                                                    mean ? "MeanBackward0" : "SumBackward0"));
    return result;
}

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

/// Autograd on complex numbers is not in tenet yet: an operation whose expression holds a complex
/// value (expr::has_complex_v) is never recorded, its backward formulas never instantiated; when
/// an input requires grad, that is an error rather than a silently missing gradient.
template <class E>
constexpr const char* expr_op_name() {
    if constexpr (E::arity > 0) return E::op_type::name;
    else return "copy_";
}
template <class E>
void refuse_complex_autograd(const E& e, const char* op) {
    if (autograd::GradMode::is_enabled() && autograd::any_leaf_requires_grad(e))
        fail<dtype_error>(op, ": autograd on complex numbers is not supported yet by tenet (an input requires grad; "
                              "use detach() or NoGradGuard)");
}

template <class R, class X>
std::optional<Tensor<R>> sum_with_gradients(const X& x, bool mean) {
    using V = input_t<X>;
    static_assert(std::is_same_v<R, sum_result_t<V>>);
    if constexpr (TensorExpression<X> && expr::has_complex_v<X>) {
        refuse_complex_autograd(x, mean ? "mean" : "sum");
        return std::nullopt;
    } else if constexpr (!FloatingElement<V> || !TensorExpression<X>) {
        return std::nullopt;  // integers have no gradient; a bare tensor's gradient is a broadcast, kept lazy
    } else {
        if (!autograd::GradMode::is_enabled() || !autograd::any_leaf_requires_grad(x)) return std::nullopt;
        const IntArray& shape = x.shape();
        if (product(shape) == 0) return std::nullopt;
        for (const TensorBase* t : expr::leaf_tensors(x))
            if (!t->device().is_cpu()) return std::nullopt;
        return autograd::sum_and_gradients<V>(x, mean, std::make_index_sequence<X::num_leaves>{});
    }
}

template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode) {
    if constexpr (expr::has_complex_v<E>) {
        refuse_complex_autograd(e, expr_op_name<E>());
    } else if constexpr (FloatingElement<T>) {
        if (autograd::GradMode::is_enabled() &&
            (autograd::any_leaf_requires_grad(e) ||
             (mode != AssignMode::Fresh && dst.defined() && autograd::requires_grad(dst)))) {
            autograd::record_assign(dst, e, mode);
            return;
        }
    }
    run_assign(dst, e, mode);
}

template <class T, class U>
void assign_tensor(Tensor<T>& dst, const Tensor<U>& src) {
    evaluate_into(dst, expr::Leaf<U>(src), AssignMode::Out);
}

/// Called by sum/mean (ops/reduce.hpp) with their input, result and plan.
template <class X, class R>
void record_reduction(const X& x, const Tensor<R>& result, const ReducePlan& plan, bool mean) {
    if constexpr (expr::has_complex_v<expr::node_t<X>>) {
        refuse_complex_autograd(expr::as_node(x), mean ? "mean" : "sum");
    } else if constexpr (FloatingElement<R> && FloatingElement<typename expr::node_t<X>::value_type>) {
        if (!autograd::GradMode::is_enabled()) return;
        const auto e = expr::as_node(x);
        if (!autograd::any_leaf_requires_grad(e)) return;
        IntArray keep(plan.shape.size());
        for (size_t d = 0; d < plan.shape.size(); ++d) keep[d] = plan.reduced[d] ? 1 : plan.shape[d];
        const double scale = mean ? 1.0 / static_cast<double>(plan.count) : 1.0;
        const char* name = mean ? (plan.all ? "MeanBackward0" : "MeanBackward1")
                                : (plan.all ? "SumBackward0" : "SumBackward1");
        using E = std::remove_cvref_t<decltype(e)>;
        autograd::set_history(result, detail::make_pooled<autograd::ReduceNode<R, E>>(e, name, keep, plan.all, scale));
    }
}

}  // namespace tenet::detail
