#pragma once
// Recording on the tape. A fused expression assigned to a tensor is ONE node whose
// backward evaluates, per input that needs a gradient, the expression
// leaf_grad<K>(e, grad) (autograd/derivatives.hpp) — itself one fused pass. A reduction
// (sum, mean) of an expression is one node too, and its seed gradient enters that
// expression as a number, so no tensor of the expression's size is written for it.
//
// This file also defines the hooks the core calls (core/expression_fwd.hpp): views,
// copies, in-place writes, and the autograd part of printing.

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/expr/evaluate.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::autograd {

// ---- Leaves of an expression ----------------------------------------------------------

template <class N>
struct leaf_types;
template <class T, class S>
struct leaf_types<expr::Leaf<T, S>> {
    using type = std::tuple<T>;
};
template <class S>
struct leaf_types<expr::ScalarNode<S>> {
    using type = std::tuple<>;
};
template <class Op, class A>
struct leaf_types<expr::Unary<Op, A>> {
    using type = typename leaf_types<A>::type;
};
template <class Op, class A, class B>
struct leaf_types<expr::Binary<Op, A, B>> {
    using type = decltype(std::tuple_cat(std::declval<typename leaf_types<A>::type>(),
                                         std::declval<typename leaf_types<B>::type>()));
};
template <class Op, class A, class B, class C>
struct leaf_types<expr::Ternary<Op, A, B, C>> {
    using type = decltype(std::tuple_cat(std::declval<typename leaf_types<A>::type>(),
                                         std::declval<typename leaf_types<B>::type>(),
                                         std::declval<typename leaf_types<C>::type>()));
};
/// The element type of leaf K of E.
template <size_t K, class E>
using leaf_t = std::tuple_element_t<K, typename leaf_types<E>::type>;

/// The leaves of e, in order, as handles.
template <class E>
std::vector<TensorBase> leaves_of(const E& e) {
    std::vector<TensorBase> out;
    out.reserve(E::num_leaves);
    e.for_each_leaf([&](const TensorBase& t) { out.push_back(t); });
    return out;
}

template <class E>
bool any_leaf_requires_grad(const E& e) {
    bool any = false;
    e.for_each_leaf([&](const TensorBase& t) { any = any || requires_grad(t); });
    return any;
}

/// Sums `full` (contiguous) over the dims that broadcasting added or stretched, back to
/// `shape`, accumulating in double. A plain strided loop, not a reduction expression: it
/// is instantiated wherever anything is recorded.
template <class T>
Tensor<T> sum_to(const Tensor<T>& full, const IntArray& shape) {
    if (full.sizes() == shape) return full;
    if (product(shape) == full.numel()) return full.contiguous().view(shape);  // only size-1 dims differ
    const Tensor<T> src = full.contiguous();
    // The destination as strides over full's shape: 0 along the summed dims.
    const IntArray dense = detail::contiguous_strides(shape);
    const size_t lead = src.sizes().size() - shape.size();
    IntArray to(src.sizes().size(), 0);
    for (size_t d = lead; d < src.sizes().size(); ++d)
        if (!(shape[d - lead] == 1 && src.sizes()[d] != 1)) to[d] = dense[d - lead];
    std::vector<double> acc(static_cast<size_t>(product(shape)), 0.0);
    const T* from = src.data_ptr();
    detail::for_each_offset<2>(src.sizes(), {to, src.strides()}, {0, 0}, [&](const std::array<int64_t, 2>& o) {
        acc[static_cast<size_t>(o[0])] += convert<double>(from[o[1]]);
    });
    Tensor<T> out(detail::make_contiguous_impl(shape, dtype_of<T>, Device(DeviceType::CPU)));
    T* o = out.data_ptr();
    for (size_t k = 0; k < acc.size(); ++k) o[k] = convert<T>(acc[k]);
    return out;
}

/// Evaluates `ge` into a new contiguous tensor of `shape` with one flat loop; every leaf of
/// ge must be contiguous with that shape (see flat_copy). The backward needs nothing more,
/// and instantiating only this loop per gradient expression (not the whole strided
/// evaluator) keeps the compile cost of recording every expression small.
template <class LT, class GE>
Tensor<LT> evaluate_flat(const GE& ge, const IntArray& shape) {
    Tensor<LT> out(detail::make_contiguous_impl(shape, dtype_of<LT>, Device(DeviceType::CPU)));
    std::array<const void*, GE::num_leaves + (GE::num_leaves == 0)> ptrs{};
    size_t k = 0;
    ge.for_each_leaf([&](const auto& leaf) {
        using V = typename std::remove_cvref_t<decltype(leaf)>::value_type;
        ptrs[k++] = static_cast<const V*>(leaf.impl().storage->data()) + leaf.impl().offset;
    });
    LT* o = out.data_ptr();
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = convert<LT>(ge.template at<0>(ptrs, i));
    return out;
}

/// A copy of e whose leaves are all contiguous with `shape` (broadcast leaves expanded and
/// copied), so that any expression built from it evaluates with evaluate_flat.
template <class E>
E flat_copy(const E& e, const IntArray& shape) {
    E flat = e;
    flat.for_each_leaf([&](const auto& leaf) {
        if (leaf.sizes() == shape && leaf.is_contiguous()) return;
        auto& mutable_leaf = const_cast<std::remove_cvref_t<decltype(leaf)>&>(leaf);  // our own copy
        mutable_leaf = leaf.expand(shape).contiguous();
    });
    return flat;
}

/// The gradients of e's leaves that have an edge, given the gradient node `g` of e's
/// result (a Leaf over a tensor of e's shape, or a ScalarNode), each summed back to its
/// leaf's shape. Run with grad mode off: the expressions here are not recorded (recording
/// them would instantiate the derivative of the derivative, without end).
template <class E, class G, size_t... K>
std::vector<TensorBase> leaf_gradients(const E& e, const G& g, const std::vector<Edge>& edges, const IntArray& root,
                                       std::index_sequence<K...>) {
    std::vector<TensorBase> out(sizeof...(K));
    const std::vector<TensorBase> leaves = leaves_of(e);
    const E flat = flat_copy(e, root);
    auto one = [&](auto k) {
        constexpr size_t I = decltype(k)::value;
        if (!edges[I].valid()) return;
        auto ge = leaf_grad<I>(flat, g);
        if constexpr (!is_no_gradient<decltype(ge)>) {
            using LT = leaf_t<I, E>;
            out[I] = sum_to(evaluate_flat<LT>(ge, root), leaves[I].sizes());
        }
    };
    (one(std::integral_constant<size_t, K>{}), ...);
    return out;
}

/// One edge per leaf: to where the leaf's gradient goes, if it needs one and can get one.
template <class E, size_t... K>
std::vector<Edge> leaf_edges(const E& e, std::index_sequence<K...>) {
    const std::vector<TensorBase> leaves = leaves_of(e);
    std::vector<Edge> edges(E::num_leaves);
    auto one = [&](auto k) {
        constexpr size_t I = decltype(k)::value;
        using G = decltype(leaf_grad<I>(e, expr::ScalarNode<float>(0)));
        if constexpr (!is_no_gradient<G>) edges[I] = gradient_edge(leaves[I]);
    };
    (one(std::integral_constant<size_t, K>{}), ...);
    return edges;
}

/// PyTorch's backward name of the root operation of E: add -> AddBackward0, ...
template <class E>
std::string backward_name() {
    constexpr int arity = node_traits<E>::arity;
    if constexpr (arity <= 0) {
        return "CloneBackward0";
    } else {
        using Op = typename node_traits<E>::op;
        std::string n = Op::name;
        if (n == "to") return "ToCopyBackward0";
        if (n == "clamp") return "ClampBackward1";
        if (n == "square") return "PowBackward0";  // torch.square is pow(x, 2)
        if constexpr (arity == 2) {
            if (n == "pow" && !decltype(std::declval<E>().b)::is_scalar) return "PowBackward1";
            if (n == "sub" && decltype(std::declval<E>().a)::is_scalar) return "RsubBackward1";  // 1.5 - x
        }
        if constexpr (arity == 3) {
            if (n == "lerp") return decltype(std::declval<E>().c)::is_scalar ? "LerpBackward0" : "LerpBackward1";
        }
        std::string out;
        bool up = true;
        for (char c : n) {
            if (c == '_') {
                up = true;
                continue;
            }
            out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
            up = c >= '0' && c <= '9';  // PyTorch capitalises after a digit: log1p -> Log1PBackward0
        }
        return out + "Backward0";
    }
}

/// The saved versions of e's leaves.
template <class E>
std::vector<SavedVersion> save_versions(const E& e) {
    std::vector<SavedVersion> out;
    e.for_each_leaf([&](const TensorBase& t) { out.push_back(SavedVersion::save(t)); });
    return out;
}

/// A fused pointwise expression, assigned to a tensor of type T.
template <class T, class E>
struct FusedNode final : Node {
    /// `edges`: from the leaves as they were before the write (see record_assign).
    FusedNode(const E& expr, std::vector<Edge> edges, std::string n) : e(expr), shape(expr.shape()), name_(std::move(n)) {
        saved = save_versions(*e);
        next_edges = std::move(edges);
    }
    std::string name() const override { return name_; }
    std::vector<TensorBase> apply(const TensorBase& grad) override {
        if (!e) throw_released(name_);
        for (size_t i = 0; i < saved.size(); ++i) saved[i].check(name_, i);
        const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
        return leaf_gradients(*e, expr::Leaf<T>(g), next_edges, shape, std::make_index_sequence<E::num_leaves>{});
    }
    void release_variables() override {
        e.reset();
        saved.clear();
    }

    std::optional<E> e;
    IntArray shape;
    std::string name_;
    std::vector<SavedVersion> saved;
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
    std::vector<TensorBase> apply(const TensorBase&) override { return {}; }
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
        set_history(dst, std::make_shared<OverwriteNode>(backward_name<E>()));
        return;
    }
    // The edges come from the leaves as they are now (before the write changes dst's history).
    std::vector<Edge> edges = leaf_edges(e, std::make_index_sequence<E::num_leaves>{});
    // The node keeps e; a leaf sharing dst's memory must keep its values from before the
    // write: it is replaced by a plain copy (no autograd state, so no reference cycle).
    E saved = e;
    if (!fresh) {
        saved.for_each_leaf([&](const auto& leaf) {
            if (leaf.impl().storage != dst.impl().storage) return;
            NoGradGuard no_grad;
            auto& mutable_leaf = const_cast<std::remove_cvref_t<decltype(leaf)>&>(leaf);  // our own copy
            mutable_leaf = leaf.clone();
        });
    }
    auto node = std::make_shared<FusedNode<T, E>>(saved, std::move(edges), backward_name<E>());
    bool any_edge = false;
    for (const Edge& edge : node->next_edges) any_edge = any_edge || edge.valid();
    detail::run_assign(dst, e, mode);
    if (any_edge) set_history(dst, std::move(node));
}

// ---- Reductions -------------------------------------------------------------------------

/// sum/mean of an expression (or a tensor, as a Leaf): the upstream gradient enters the
/// expression as a number (over all elements) or a broadcast tensor (along dims).
template <class R, class E>
struct ReduceNode final : Node {
    ReduceNode(const E& expr, std::string n, IntArray keep_shape, bool all_dims, double s)
        : e(expr), shape(expr.shape()), name_(std::move(n)), keepdim_shape(std::move(keep_shape)), all(all_dims),
          scale(s) {
        saved = save_versions(*e);
        next_edges = leaf_edges(*e, std::make_index_sequence<E::num_leaves>{});
    }
    std::string name() const override { return name_; }
    std::vector<TensorBase> apply(const TensorBase& grad) override {
        if (!e) throw_released(name_);
        for (size_t i = 0; i < saved.size(); ++i) saved[i].check(name_, i);
        const Tensor<R> g(grad.impl_ptr());
        constexpr auto leaves = std::make_index_sequence<E::num_leaves>{};
        if (all) {
            const R seed = convert<R>(convert<double>(g.item()) * scale);
            return leaf_gradients(*e, expr::ScalarNode<R>(seed), next_edges, shape, leaves);
        }
        // The reduced gradient, spread back over the input's shape (the flat backward needs it dense).
        Tensor<R> gk = g.contiguous().view(keepdim_shape).expand(shape).contiguous();
        if (scale != 1.0) {
            R* p = gk.data_ptr();
            for (int64_t i = 0, n = gk.numel(); i < n; ++i) p[i] = convert<R>(convert<double>(p[i]) * scale);
        }
        return leaf_gradients(*e, expr::Leaf<R>(gk), next_edges, shape, leaves);
    }
    void release_variables() override {
        e.reset();
        saved.clear();
    }

    std::optional<E> e;
    IntArray shape;
    std::string name_;
    IntArray keepdim_shape;
    bool all;
    double scale;
    std::vector<SavedVersion> saved;
};

}  // namespace tenet::autograd

namespace tenet::detail {

template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode) {
    if constexpr (FloatingElement<T>) {
        if (autograd::GradMode::is_enabled() &&
            (autograd::any_leaf_requires_grad(e) ||
             (mode != AssignMode::Fresh && dst.defined() && autograd::requires_grad(dst)))) {
            autograd::record_assign(dst, e, mode);
            return;
        }
    }
    run_assign(dst, e, mode);
}

/// Called by sum/mean (ops/reduce.hpp) with their input, result and plan.
template <class X, class R>
void record_reduction(const X& x, const Tensor<R>& result, const ReducePlan& plan, bool mean) {
    if constexpr (FloatingElement<R> && FloatingElement<typename expr::node_t<X>::value_type>) {
        if (!autograd::GradMode::is_enabled()) return;
        const auto e = expr::as_node(x);
        if (!autograd::any_leaf_requires_grad(e)) return;
        IntArray keep(plan.shape.size());
        for (size_t d = 0; d < plan.shape.size(); ++d) keep[d] = plan.reduced[d] ? 1 : plan.shape[d];
        const double scale = mean ? 1.0 / static_cast<double>(plan.count) : 1.0;
        std::string name = std::string(mean ? "MeanBackward" : "SumBackward") + (plan.all ? "0" : "1");
        auto node = std::make_shared<autograd::ReduceNode<R, std::remove_cvref_t<decltype(e)>>>(e, std::move(name),
                                                                                               keep, plan.all, scale);
        autograd::set_history(result, std::move(node));
    }
}

}  // namespace tenet::detail
