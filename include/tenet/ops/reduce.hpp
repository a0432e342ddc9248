#pragma once
// Reductions with PyTorch's semantics: sum, mean, prod, max, min, amax, amin, argmax,
// argmin, any, all, norm (and linalg's vector_norm), over all elements or along dims.
//
// A reduction consumes tensors and expressions alike WITHOUT materialising them:
// `sum(a * b + c)` is one pass over a, b and c, and allocates only its result. The
// result is always a materialised Tensor, so `x - x.mean(1, true)` evaluates the mean
// once and broadcasts the stored result.
//
// The reducers and the plan are in ops/reducers.hpp, the host loops in
// backend/host/reduce_loops.hpp, the device kernels in kernels/tenet/cuda/reduce.cuh.

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "tenet/core/host_device.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/backend/host/reduce_loops.hpp"
#include "tenet/ops/reducers.hpp"

namespace tenet::inline TENET_ABI {

// ---- Results of max(dim) / min(dim) ---------------------------------------------------

namespace return_types {
/// torch.return_types.max: the maxima and their first indices along the reduced dim.
template <class T>
struct max {
    Tensor<T> values;
    Tensor<int64_t> indices;
};
/// torch.return_types.min: the minima and their first indices along the reduced dim.
template <class T>
struct min {
    Tensor<T> values;
    Tensor<int64_t> indices;
};
/// Prints as PyTorch does (with tenet's prefix); needs io/print.hpp for the tensors.
template <class T>
std::ostream& operator<<(std::ostream& os, const max<T>& r) {
    return os << "tenet.return_types.max(\nvalues=" << r.values << ",\nindices=" << r.indices << ")";
}
template <class T>
std::ostream& operator<<(std::ostream& os, const min<T>& r) {
    return os << "tenet.return_types.min(\nvalues=" << r.values << ",\nindices=" << r.indices << ")";
}
}  // namespace return_types

namespace detail {


/// The accumulators of every result element, on the host; the folding runs where e's
/// leaves live (the device's reduction kernels for a device expression).
template <class R, class E>
std::unique_ptr<typename R::acc_t[]> reduce_accumulate(const E& e, const R& r, const ReducePlan& p, const char* op) {
    if (const auto device = e.device(); device && !device->is_cpu()) {
#if TENET_DEVICE_EVALUATOR
        DeviceGuard guard(*device);
        return device_reduce_accumulate(e, r, p);
#else
        no_device_evaluator(op, *device);
#endif
    }
    std::unique_ptr<typename R::acc_t[]> acc;
    expr::with_fast_pows(e, [&](const auto& fe) { acc = reduce_accumulate_loops(fe, r, p, op); });
    return acc;
}

template <class O>
Tensor<O> new_result(const IntArray& shape) {
    return Tensor<O>(make_contiguous_impl(shape, dtype_of<O>, Device(DeviceType::CPU)));
}

/// A result filled on the host, placed where e's leaves live (a copy to their device).
template <class O, class E>
Tensor<O> on_device_of(const E& e, Tensor<O> result) {
    const auto device = e.device();
    if (!device || device->is_cpu()) return result;
    Tensor<O> out(make_contiguous_impl(result.sizes(), dtype_of<O>, *device));
    out.copy_data_(result);
    return out;
}

/// Calls f with the expression node of x: an expression itself, or a tensor as a Leaf.
template <class X, class F>
decltype(auto) with_node(const X& x, const char*, F&& f) {
    if constexpr (TensorExpression<X>) return f(x);
    else return f(expr::as_node(x));
}

template <class X>
using input_t = typename expr::node_t<X>::value_type;

/// A reduction with a value result: Op<V> is the reducer.
template <class R, class E>
auto reduce_values(const E& e, const R& r, const ReducePlan& p, const char* op) {
    using O = typename R::out_t;
    const auto acc = reduce_accumulate(e, r, p, op);
    Tensor<O> out = new_result<O>(p.out_shape);
    O* o = out.data_ptr();
    for (int64_t j = 0; j < p.out_numel; ++j) o[j] = r.project(acc[static_cast<size_t>(j)], p.count);
    return on_device_of(e, std::move(out));
}

template <template <class> class Op, class X>
auto reduce_simple(const X& x, const std::optional<IntArray>& dims, bool keepdim, const char* op) {
    return with_node(x, op, [&](const auto& e) {
        using V = typename std::remove_cvref_t<decltype(e)>::value_type;
        return reduce_values(e, Op<V>{}, plan_reduction(e.shape(), dims, keepdim, op), op);
    });
}

template <class V>
using max_op = ExtremumOp<V, true>;
template <class V>
using min_op = ExtremumOp<V, false>;
template <class V>
using any_op = LogicalOp<V, true>;
template <class V>
using all_op = LogicalOp<V, false>;

template <bool IsMax, class X>
auto reduce_extremum(const X& x, const std::optional<IntArray>& dims, bool keepdim, const char* op,
                     bool full_call) {
    return with_node(x, op, [&](const auto& e) {
        using V = typename std::remove_cvref_t<decltype(e)>::value_type;
        const ReducePlan p = plan_reduction(e.shape(), dims, keepdim, op);
        if (full_call) check_nonempty_reduction<value_error>(p, op);
        else check_nonempty_reduction<index_error>(p, op);
        auto result = reduce_values(e, ExtremumOp<V, IsMax>{}, p, op);
        const char* name = full_call ? (IsMax ? "MaxBackward1" : "MinBackward1") : (IsMax ? "AmaxBackward0" : "AminBackward0");
        record_value_reduction(e, result, p, ReduceKind::Extremum, 0.0, name);
        return result;
    });
}

/// argmax/argmin and max(dim)/min(dim): the accumulated (value, index) pairs.
template <bool IsMax, class E>
auto reduce_arg(const E& e, const ReducePlan& p, const char* op) {
    using V = typename E::value_type;
    check_nonempty_reduction<index_error>(p, op);
    return reduce_accumulate(e, ArgOp<V, IsMax>{}, p, op);
}

template <bool IsMax, class X>
Tensor<int64_t> arg_extremum(const X& x, std::optional<int64_t> dim, bool keepdim, const char* op) {
    return with_node(x, op, [&](const auto& e) {
        std::optional<IntArray> dims;
        if (dim) dims = IntArray{*dim};
        const ReducePlan p = plan_reduction(e.shape(), dims, keepdim, op);
        const auto acc = reduce_arg<IsMax>(e, p, op);
        Tensor<int64_t> out = new_result<int64_t>(p.out_shape);
        int64_t* o = out.data_ptr();
        for (int64_t j = 0; j < p.out_numel; ++j) o[j] = acc[static_cast<size_t>(j)].index;
        return on_device_of(e, std::move(out));
    });
}

template <bool IsMax, class X>
auto values_indices(const X& x, int64_t dim, bool keepdim, const char* op) {
    return with_node(x, op, [&](const auto& e) {
        using V = typename std::remove_cvref_t<decltype(e)>::value_type;
        const ReducePlan p = plan_reduction(e.shape(), IntArray{dim}, keepdim, op);
        const auto acc = reduce_arg<IsMax>(e, p, op);
        std::conditional_t<IsMax, return_types::max<V>, return_types::min<V>> result{
            new_result<V>(p.out_shape), new_result<int64_t>(p.out_shape)};
        V* v = result.values.data_ptr();
        int64_t* i = result.indices.data_ptr();
        for (int64_t j = 0; j < p.out_numel; ++j) {
            v[j] = convert<V>(acc[static_cast<size_t>(j)].value);
            i[j] = acc[static_cast<size_t>(j)].index;
        }
        result.values = on_device_of(e, std::move(result.values));
        result.indices = on_device_of(e, std::move(result.indices));
        record_index_reduction(e, result.values, result.indices, dim, keepdim, IsMax ? "MaxBackward0" : "MinBackward0");
        return result;
    });
}

template <class X>
auto mean_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    using V = input_t<X>;
    if constexpr (!FloatingElement<V>)
        fail<dtype_error>("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                          "complex dtype. Got: ",
                          dtype_of<V>);
    if constexpr (FloatingElement<V>) {
        if (!dims)
            if (auto fused = sum_with_gradients<sum_result_t<input_t<X>>>(x, true)) return *fused;
    }
    auto result = reduce_simple<MeanOp>(x, dims, keepdim, "mean");
    record_reduction(x, result, plan_reduction(x.shape(), dims, keepdim, "mean"), true);
    return result;
}

/// The p-norm reduction itself.
template <class E>
auto norm_values(const E& e, double p, const ReducePlan& plan, const char* op, bool vector_norm) {
    using V = typename E::value_type;
    if (std::isinf(p)) {
        if (vector_norm && plan.count == 0 && plan.out_numel != 0)
            fail<value_error>("linalg.vector_norm cannot compute the ", p > 0 ? "inf" : "-inf",
                              " norm on an empty tensor because the operation does not have an identity");
        if (p > 0) return reduce_values(e, NormOp<V, NormKind::Inf>{}, plan, op);
        return reduce_values(e, NormOp<V, NormKind::NegInf>{}, plan, op);
    }
    if (p == 2) return reduce_values(e, NormOp<V, NormKind::L2>{}, plan, op);
    if (p == 1) return reduce_values(e, NormOp<V, NormKind::L1>{}, plan, op);
    if (p == 0) return reduce_values(e, NormOp<V, NormKind::Zero>{}, plan, op);
    NormOp<V, NormKind::P> r;
    r.p = p;
    return reduce_values(e, r, plan, op);
}

/// torch.norm (vector_norm = false) and torch.linalg.vector_norm (true).
template <class X>
auto norm_impl(const X& x, double p, const std::optional<IntArray>& dims, bool keepdim, bool vector_norm) {
    const char* op = vector_norm ? "linalg.vector_norm" : "norm";
    using V = input_t<X>;
    if constexpr (!FloatingElement<V>) {
        if (vector_norm)
            fail<dtype_error>("linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
                              dtype_of<V>);
        fail<dtype_error>("norm(): input dtype should be either floating point or complex. Got ", dtype_of<V>,
                          " instead.");
    }
    return with_node(x, op, [&](const auto& e) {
        const ReducePlan plan = plan_reduction(e.shape(), dims, keepdim, op);
        auto result = norm_values(e, p, plan, op, vector_norm);
        record_value_reduction(e, result, plan, ReduceKind::Norm, p,
                               vector_norm ? "LinalgVectorNormBackward0" : "NormBackward1");
        return result;
    });
}

}  // namespace detail

// ---- Free functions on tensors and expressions --------------------------------------
// Each: NAME(x) over all elements (0-d result), NAME(x, dim, keepdim), NAME(x, {dims...}, keepdim).

#define TENET_SIMPLE_REDUCTION(NAME, IMPL)                                                        \
    template <expr::TensorOperand X>                                                              \
    auto NAME(const X& x) {                                                                       \
        return IMPL(x, std::nullopt, false);                                                      \
    }                                                                                             \
    template <expr::TensorOperand X>                                                              \
    auto NAME(const X& x, int64_t dim, bool keepdim = false) {                                    \
        return IMPL(x, IntArray{dim}, keepdim);                                                   \
    }                                                                                             \
    template <expr::TensorOperand X>                                                              \
    auto NAME(const X& x, const IntArray& dims, bool keepdim = false) {                           \
        return IMPL(x, dims, keepdim);                                                            \
    }

namespace detail {
#define TENET_REDUCE_SIMPLE_IMPL(NAME, OP)                                                        \
    template <class X>                                                                            \
    auto NAME##_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {             \
        return reduce_simple<OP>(x, dims, keepdim, #NAME);                                        \
    }
TENET_REDUCE_SIMPLE_IMPL(any, any_op)
TENET_REDUCE_SIMPLE_IMPL(all, all_op)
#undef TENET_REDUCE_SIMPLE_IMPL
template <class X>
auto prod_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    auto result = reduce_simple<ProdOp>(x, dims, keepdim, "prod");
    record_value_reduction(x, result, plan_reduction(x.shape(), dims, keepdim, "prod"), ReduceKind::Prod, 0.0,
                           dims ? "ProdBackward1" : "ProdBackward0");
    return result;
}
template <class X>
auto sum_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    if (!dims)
        if (auto fused = sum_with_gradients<sum_result_t<input_t<X>>>(x, false)) return *fused;
    auto result = reduce_simple<SumOp>(x, dims, keepdim, "sum");
    record_reduction(x, result, plan_reduction(x.shape(), dims, keepdim, "sum"), false);
    return result;
}
template <class X>
auto amax_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    return reduce_extremum<true>(x, dims, keepdim, "amax", false);
}
template <class X>
auto amin_impl(const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    return reduce_extremum<false>(x, dims, keepdim, "amin", false);
}
}  // namespace detail

/// Sum of the elements; integers and bool sum to int64.
TENET_SIMPLE_REDUCTION(sum, detail::sum_impl)
/// Mean of the elements (floating input only: dtype_error otherwise); empty gives nan.
TENET_SIMPLE_REDUCTION(mean, detail::mean_impl)
/// Product of the elements; integers and bool multiply to int64.
TENET_SIMPLE_REDUCTION(prod, detail::prod_impl)
/// Largest element(s) along the dims (NaN propagates); an empty reduction throws.
TENET_SIMPLE_REDUCTION(amax, detail::amax_impl)
/// Smallest element(s) along the dims (NaN propagates); an empty reduction throws.
TENET_SIMPLE_REDUCTION(amin, detail::amin_impl)
/// Whether any element is non-zero (bool; uint8 for uint8 input, as PyTorch).
TENET_SIMPLE_REDUCTION(any, detail::any_impl)
/// Whether every element is non-zero (bool; uint8 for uint8 input, as PyTorch).
TENET_SIMPLE_REDUCTION(all, detail::all_impl)
#undef TENET_SIMPLE_REDUCTION

/// The largest element (0-d; NaN propagates); throws value_error on an empty input.
template <expr::TensorOperand X>
auto max(const X& x) {
    return detail::reduce_extremum<true>(x, std::nullopt, false, "max", true);
}
/// The smallest element (0-d; NaN propagates); throws value_error on an empty input.
template <expr::TensorOperand X>
auto min(const X& x) {
    return detail::reduce_extremum<false>(x, std::nullopt, false, "min", true);
}
/// {values, indices} of the maxima along `dim` (first index on ties; NaN wins).
template <expr::TensorOperand X>
auto max(const X& x, int64_t dim, bool keepdim = false) {
    return detail::values_indices<true>(x, dim, keepdim, "max");
}
/// {values, indices} of the minima along `dim` (first index on ties; NaN wins).
template <expr::TensorOperand X>
auto min(const X& x, int64_t dim, bool keepdim = false) {
    return detail::values_indices<false>(x, dim, keepdim, "min");
}
/// Index of the largest element: in the flattened input when no dim is given (int64).
template <expr::TensorOperand X>
Tensor<int64_t> argmax(const X& x, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
    return detail::arg_extremum<true>(x, dim, keepdim, "argmax");
}
/// Index of the smallest element: in the flattened input when no dim is given (int64).
template <expr::TensorOperand X>
Tensor<int64_t> argmin(const X& x, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
    return detail::arg_extremum<false>(x, dim, keepdim, "argmin");
}

/// torch.norm: the p-norm (p = 2, 1, 0, +-inf or any p) of all elements or along dims.
template <expr::TensorOperand X>
auto norm(const X& x, double p = 2) {
    return detail::norm_impl(x, p, std::nullopt, false, false);
}
template <expr::TensorOperand X>
auto norm(const X& x, double p, int64_t dim, bool keepdim = false) {
    return detail::norm_impl(x, p, IntArray{dim}, keepdim, false);
}
template <expr::TensorOperand X>
auto norm(const X& x, double p, const IntArray& dims, bool keepdim = false) {
    return detail::norm_impl(x, p, dims, keepdim, false);
}
/// torch.linalg.vector_norm(x, ord, dim, keepdim): as norm, but +-inf of an empty input throws.
template <expr::TensorOperand X>
auto vector_norm(const X& x, double ord = 2, const std::optional<IntArray>& dims = std::nullopt,
                 bool keepdim = false) {
    return detail::norm_impl(x, ord, dims, keepdim, true);
}

// ---- Methods of Tensor and of expressions (declared in core/value_methods.hpp) ----------------

template <class D>
auto ValueMethods<D>::sum() const { return tenet::sum(self()); }
template <class D>
auto ValueMethods<D>::sum(int64_t dim, bool keepdim) const { return tenet::sum(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::sum(const IntArray& dims, bool keepdim) const { return tenet::sum(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::mean() const { return tenet::mean(self()); }
template <class D>
auto ValueMethods<D>::mean(int64_t dim, bool keepdim) const { return tenet::mean(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::mean(const IntArray& dims, bool keepdim) const { return tenet::mean(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::prod() const { return tenet::prod(self()); }
template <class D>
auto ValueMethods<D>::prod(int64_t dim, bool keepdim) const { return tenet::prod(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::prod(const IntArray& dims, bool keepdim) const { return tenet::prod(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::amax() const { return tenet::amax(self()); }
template <class D>
auto ValueMethods<D>::amax(int64_t dim, bool keepdim) const { return tenet::amax(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::amax(const IntArray& dims, bool keepdim) const { return tenet::amax(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::amin() const { return tenet::amin(self()); }
template <class D>
auto ValueMethods<D>::amin(int64_t dim, bool keepdim) const { return tenet::amin(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::amin(const IntArray& dims, bool keepdim) const { return tenet::amin(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::any() const { return tenet::any(self()); }
template <class D>
auto ValueMethods<D>::any(int64_t dim, bool keepdim) const { return tenet::any(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::any(const IntArray& dims, bool keepdim) const { return tenet::any(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::all() const { return tenet::all(self()); }
template <class D>
auto ValueMethods<D>::all(int64_t dim, bool keepdim) const { return tenet::all(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::all(const IntArray& dims, bool keepdim) const { return tenet::all(self(), dims, keepdim); }
template <class D>
auto ValueMethods<D>::max() const { return tenet::max(self()); }
template <class D>
auto ValueMethods<D>::max(int64_t dim, bool keepdim) const { return tenet::max(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::min() const { return tenet::min(self()); }
template <class D>
auto ValueMethods<D>::min(int64_t dim, bool keepdim) const { return tenet::min(self(), dim, keepdim); }
template <class D>
auto ValueMethods<D>::argmax(std::optional<int64_t> dim, bool keepdim) const {
    return tenet::argmax(self(), dim, keepdim);
}
template <class D>
auto ValueMethods<D>::argmin(std::optional<int64_t> dim, bool keepdim) const {
    return tenet::argmin(self(), dim, keepdim);
}
template <class D>
auto ValueMethods<D>::norm(double p) const { return tenet::norm(self(), p); }
template <class D>
auto ValueMethods<D>::norm(double p, int64_t dim, bool keepdim) const { return tenet::norm(self(), p, dim, keepdim); }
template <class D>
auto ValueMethods<D>::norm(double p, const IntArray& dims, bool keepdim) const {
    return tenet::norm(self(), p, dims, keepdim);
}

}  // namespace tenet
