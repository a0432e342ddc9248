#pragma once
// Backward of the reductions other than sum and mean: the rows of ops/reductions.def (each
// row's DERIVATIVE formula), max/min (over all elements and along a dim) and the p-norms, with
// PyTorch's rules and names.
//
// Each node saves its input expression (not a materialised copy: the backward evaluates it
// again in one pass) and its result, computes the gradient with respect to that input as
// one tensor, and pushes it through the input expression to its leaves as a fused node
// would (leaf_gradients). Ties share the gradient evenly (amax, amin, max(), min(), the
// inf-norms), as PyTorch; max(dim)/min(dim) send it to the returned index.

#include "tenet/config.hpp"
#include <cmath>
#include <string>
#include <utility>

#include "tenet/autograd/engine.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// The reduced dims of a plan, and its shape with them kept as 1.
inline IntArray reduced_dims(const detail::ReducePlan& p) {
    IntArray dims;
    for (size_t d = 0; d < p.reduced.size(); ++d)
        if (p.reduced[d]) dims.push_back(static_cast<int64_t>(d));
    return dims;
}
inline IntArray keepdim_shape(const detail::ReducePlan& p) {
    IntArray keep(p.shape.size());
    for (size_t d = 0; d < p.shape.size(); ++d) keep[d] = p.reduced[d] ? 1 : p.shape[d];
    return keep;
}

// The words of the DERIVATIVE column of ops/reductions.def that are not formulas.
struct NoDerivative {};
struct FusedSum {};
inline constexpr NoDerivative no_derivative{};
inline constexpr FusedSum fused_sum{};

/// A row's gradient from its DERIVATIVE formula (f returns it), as a tensor of V.
template <class V, class F>
Tensor<V> row_gradient(const F& f) {
    using G = decltype(f());
    if constexpr (std::is_same_v<G, NoDerivative> || std::is_same_v<G, FusedSum>) {
        return Tensor<V>();  // not reached: such rows record no ValueReductionNode
    } else {
        return Tensor<V>(f());
    }
}

/// g shared evenly by the elements where `hit` is true, per reduced group (amax, amin: ties).
template <class V, class H>
Tensor<V> share_evenly(const H& hit, const Tensor<V>& g, const IntArray& dims) {
    const Tensor<V> mask = cast<V>(hit);
    const Tensor<V> count = sum(mask, dims, true);
    return Tensor<V>(mask * g / count);
}

/// prod's gradient: y / x, except at zeros: a lone zero gets the product of the others, and
/// with two or more zeros every gradient is 0.
template <class V>
Tensor<V> prod_gradient(const Tensor<V>& x, const Tensor<V>& y, const Tensor<V>& g, const IntArray& dims) {
    const Tensor<V> zeros = sum(cast<V>(x == 0), dims, true);
    const Tensor<V> others = prod(where(x == 0, 1, x), dims, true);
    return Tensor<V>(where(x == 0, where(zeros == 1, g * others, 0), g * y / x));
}

/// The p-norms' gradient (p = 0 has none: handled by the node). PyTorch writes it in four forms
/// (p = 1, p = 2, p < 2 as sign(x) |x|^(p-1) / y^(p-1), p > 2 as x |x|^(p-2) / y^(p-1), and below
/// p = 1 with 0 at zero elements); all are g sign(x) (|x| / y)^(p-1) with 0 where x or the norm
/// is 0 (so 0, not 0 * inf). One expression for every finite p: each distinct expression costs
/// every program that differentiates a norm its own compiled backward.
template <class V>
Tensor<V> norm_gradient(const Tensor<V>& x, const Tensor<V>& y, const Tensor<V>& g, const IntArray& dims, double p) {
    if (std::isinf(p)) return Tensor<V>(sign(x) * share_evenly(abs(x) == y, g, dims));
    return Tensor<V>(where(logical_or(x == 0, y == 0), 0, g * sign(x) * pow(abs(x) / y, p - 1)));
}

/// A reduction's gradient with respect to its input, from the input x, the result y and the
/// incoming gradient g (y and g broadcast to x's shape), the reduced dims, the order p (norms;
/// var and std: the correction) and n, the elements folded into each result.
template <class V>
using ReductionGradient = Tensor<V> (*)(const Tensor<V>& x, const Tensor<V>& y, const Tensor<V>& g,
                                        const IntArray& dims, double p, double n);

/// Reduction K's gradient: its row's DERIVATIVE (ops/reductions.def), or norm_gradient. One
/// function per (K, V), taken by address where K is recorded, so a program compiles the
/// formulas of the reductions it differentiates and no others, once each, whatever the input
/// expressions.
template <detail::ReduceKind K, class V>
Tensor<V> reduction_gradient(const Tensor<V>& x, const Tensor<V>& y, const Tensor<V>& g, const IntArray& dims,
                             double p, double n) {
    using Kind = detail::ReduceKind;
    [[maybe_unused]] const double correction = p;
    using M [[maybe_unused]] = double;
    (void)x, (void)y, (void)g, (void)dims, (void)n;
    if constexpr (K == Kind::Norm) {
        return norm_gradient(x, y, g, dims, p);
    }
#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS) \
    else if constexpr (K == Kind::NAME) {                                                \
        return row_gradient<V>([&] { return DERIVATIVE; });                             \
    }
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD) \
    TENET_REDUCTION(NAME, Reducer, floating_dtype, DERIVATIVE, BACKWARD, BACKWARD)
#include "tenet/ops/reductions.def"
    else {
        static_assert(K == Kind::Norm, "reduction_gradient: a ReduceKind with no row in ops/reductions.def");
    }
}

/// d(result)/d(input) * grad for a reduction with a value result. Only the input's walk back
/// to its leaves depends on the expression E; the formula is a ReductionGradient, chosen by the
/// caller (null: no gradient, as the 0-"norm").
template <class V, class E>
struct ValueReductionNode final : Node {
    ValueReductionNode(const E& e, const Tensor<V>& result, const detail::ReducePlan& plan,
                       ReductionGradient<V> gradient_, double p_, const char* n)
        : saved(e, n),
          out(result.detach()),  // no autograd state: saving the node's own output makes no cycle
          out_version(SavedVersion::save(out)),
          dims(reduced_dims(plan)),
          keep(keepdim_shape(plan)),
          gradient(gradient_),
          p(p_) {
        next_edges = leaf_edges(e, std::make_index_sequence<E::num_leaves>{});
    }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override {
        const E& e = saved.unpack();
        out_version.check(saved.name, E::num_leaves);
        // The 0-"norm" counts non-zeros: PyTorch gives no gradient at all (grad stays undefined).
        if (gradient == nullptr) return GradientList(next_edges.size());
        const IntArray& shape = saved.shape;
        const Tensor<V> x = e;  // the input, evaluated again
        const Tensor<V> g = Tensor<V>(grad.impl_ptr()).contiguous().view(keep).expand(shape);
        const Tensor<V> y = out.contiguous().view(keep).expand(shape);
        const double n = static_cast<double>(x.numel()) / static_cast<double>(std::max<int64_t>(out.numel(), 1));
        return leaf_gradients(e, expr::Leaf<V>(gradient(x, y, g, dims, p, n)), next_edges, shape,
                              std::make_index_sequence<E::num_leaves>{});
    }
    void release_variables() override {
        saved.release();
        out = Tensor<V>();
    }

    SavedExpression<E> saved;
    Tensor<V> out;
    SavedVersion out_version;
    IntArray dims, keep;
    ReductionGradient<V> gradient;
    double p;
};

/// max(dim)/min(dim): the gradient goes to the returned index along dim.
template <class V, class E>
struct IndexReductionNode final : Node {
    IndexReductionNode(const E& e, const Tensor<int64_t>& idx, int64_t d, const char* n)
        : saved(e, n), indices(idx), dim(d) {
        next_edges = leaf_edges(e, std::make_index_sequence<E::num_leaves>{});
    }
    std::string name() const override { return saved.name; }
    GradientList apply(const TensorBase& grad) override {
        const E& e = saved.unpack();
        const IntArray& shape = saved.shape;
        const Tensor<V> g(grad.impl_ptr());
        Tensor<V> dx = g;  // a 0-d input is its own maximum
        if (!shape.empty()) {
            // g where the position along dim is the returned index, 0 elsewhere: one pass,
            // wherever the tensors live.
            IntArray along(shape.size(), 1);
            along[static_cast<size_t>(dim)] = shape[static_cast<size_t>(dim)];
            const Tensor<int64_t> position = arange(along[static_cast<size_t>(dim)], g.device()).view(along);
            dx = where(position == indices, g.contiguous().view(indices.sizes()), 0);
        }
        return leaf_gradients(e, expr::Leaf<V>(dx), next_edges, shape, std::make_index_sequence<E::num_leaves>{});
    }
    void release_variables() override {
        saved.release();
        indices = Tensor<int64_t>();
    }

    SavedExpression<E> saved;
    Tensor<int64_t> indices;
    int64_t dim;
};

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

template <ReduceKind K, class X, class R>
void record_value_reduction(const X& x, const Tensor<R>& result, const ReducePlan& plan, double p, const char* name) {
    if constexpr (expr::has_complex_v<expr::node_t<X>>) {
        refuse_complex_autograd(expr::as_node(x), name);
    } else if constexpr (FloatingElement<R> && std::is_same_v<R, typename expr::node_t<X>::value_type>) {
        if (!autograd::GradMode::is_enabled()) return;
        const auto e = expr::as_node(x);
        if (!autograd::any_leaf_requires_grad(e)) return;
        using E = std::remove_cvref_t<decltype(e)>;
        autograd::set_history(result,
                              detail::make_pooled<autograd::ValueReductionNode<R, E>>(
                                  e, result, plan, K == ReduceKind::Norm && p == 0 ? nullptr : &autograd::reduction_gradient<K, R>,
                                  p, name));
    }
}

template <class X, class V>
void record_index_reduction(const X& x, const Tensor<V>& values, const Tensor<int64_t>& indices, int64_t dim,
                            bool keepdim, const char* name) {
    if constexpr (FloatingElement<V>) {
        if (!autograd::GradMode::is_enabled()) return;
        const auto e = expr::as_node(x);
        if (!autograd::any_leaf_requires_grad(e)) return;
        using E = std::remove_cvref_t<decltype(e)>;
        const int64_t nd = static_cast<int64_t>(e.shape().size());
        const int64_t d = nd == 0 ? 0 : (dim < 0 ? dim + nd : dim);
        // indices in the input's rank (keepdim = false dropped the dim)
        const Tensor<int64_t> idx = keepdim || nd == 0 ? indices : indices.unsqueeze(d);
        autograd::set_history(values, detail::make_pooled<autograd::IndexReductionNode<V, E>>(e, idx, d, name));
    }
}

}  // namespace tenet::detail
