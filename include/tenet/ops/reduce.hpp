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
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tenet/core/host_device.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/core/meta.hpp"
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
/// torch.return_types.aminmax: the minimum and the maximum, over all elements or along a dim.
template <class T>
struct aminmax {
    Tensor<T> min;
    Tensor<T> max;
};
template <class T>
std::ostream& operator<<(std::ostream& os, const aminmax<T>& r) {
    return os << "tenet.return_types.aminmax(\nmin=" << r.min << ",\nmax=" << r.max << ")";
}
}  // namespace return_types

namespace detail {

/// The input as a tensor of R (an expression evaluated, a tensor converted when R differs).
template <class R, class X>
Tensor<R> as_tensor_of(const X& x) {
    using V = typename expr::node_t<X>::value_type;
    if constexpr (std::is_same_v<V, R> && !TensorExpression<X>) return x;
    else return Tensor<R>(cast<R>(x));
}



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

/// The names of x (a tensor, or an expression: its leaves' names unified), or nullopt when
/// nothing in it is named (core/name_inference.hpp); an op of x that PyTorch refuses on named
/// operands throws.
template <class X>
std::optional<DimnameList> operand_names(const X& x) {
    if constexpr (TensorExpression<X>) {
        refuse_named_ops(x);  // sum(where(c, named, b)): the where is refused (expr/named_refusals.hpp)
        return broadcast_names(expr::leaf_tensors(x));
    } else if (const DimnameList* n = names_ptr(x)) return *n;
    else return std::nullopt;
}
/// Whether x (a tensor or an expression's leaves) has names: a flag test until any tensor does.
template <class X>
bool operand_named(const X& x) {
    if (!names_in_use.load(std::memory_order_relaxed)) [[likely]]
        return false;
    if constexpr (TensorExpression<X>) {
        for (const TensorBase* t : expr::leaf_tensors(x))
            if (t->impl_ptr()->names) return true;
        return false;
    } else {
        return x.impl_ptr()->names != nullptr;
    }
}
/// A reduction's result named after x's names less the reduced dims (PyTorch's name inference).
template <class O, class X>
[[gnu::noinline, gnu::cold]] void name_reduced_slow(Tensor<O>& result, const X& x, const std::optional<IntArray>& dims,
                                                    bool keepdim) {
    const std::optional<DimnameList> names = operand_names(x);
    if (std::optional<DimnameList> out = reduced_names(&*names, dims.value_or(IntArray{}), keepdim))
        set_names(result.impl(), *out);
}
template <class O, class X>
Tensor<O> name_reduced(Tensor<O> result, const X& x, const std::optional<IntArray>& dims, bool keepdim) {
    if (operand_named(x)) [[unlikely]]
        name_reduced_slow(result, x, dims, keepdim);
    return result;
}

/// A reduction with a value result: Op<V> is the reducer.
template <class R, class E>
auto reduce_values(const E& e, const R& r, const ReducePlan& p, const char* op) {
    using O = typename R::out_t;
    if (is_meta_device(e.device())) [[unlikely]] return meta_result<O>(p.out_shape);
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

/// max()/min() over all elements: amax/amin's reducer, but an empty input raises value_error.
template <ReduceKind K, class X>
auto reduce_extremum(const X& x, const char* op) {
    return with_node(x, op, [&](const auto& e) {
        using V = typename std::remove_cvref_t<decltype(e)>::value_type;
        const ReducePlan p = plan_reduction(e.shape(), std::nullopt, false, op);
        check_nonempty_reduction<value_error>(p, op);
        auto result = reduce_values(e, ExtremumOp<V, K == ReduceKind::amax>{}, p, op);
        record_value_reduction<K>(e, result, p, 0.0, K == ReduceKind::amax ? "MaxBackward1" : "MinBackward1");
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
    if (operand_named(x)) fail_named_unsupported(std::string("aten::") + op);
    return with_node(x, op, [&](const auto& e) {
        std::optional<IntArray> dims;
        if (dim) dims = IntArray{*dim};
        const ReducePlan p = plan_reduction(e.shape(), dims, keepdim, op);
        if (is_meta_device(e.device())) [[unlikely]] {
            check_nonempty_reduction<index_error>(p, op);
            return meta_result<int64_t>(p.out_shape);
        }
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
        using Result = std::conditional_t<IsMax, return_types::max<V>, return_types::min<V>>;
        if (is_meta_device(e.device())) [[unlikely]] {
            check_nonempty_reduction<index_error>(p, op);
            Result result{meta_result<V>(p.out_shape), meta_result<int64_t>(p.out_shape)};
            record_index_reduction(e, result.values, result.indices, dim, keepdim, IsMax ? "MaxBackward0" : "MinBackward0");
            return result;
        }
        const auto acc = reduce_arg<IsMax>(e, p, op);
        Result result{new_result<V>(p.out_shape), new_result<int64_t>(p.out_shape)};
        V* v = result.values.data_ptr();
        int64_t* i = result.indices.data_ptr();
        for (int64_t j = 0; j < p.out_numel; ++j) {
            v[j] = convert<V>(acc[static_cast<size_t>(j)].value);
            i[j] = acc[static_cast<size_t>(j)].index;
        }
        result.values = on_device_of(e, std::move(result.values));
        result.indices = on_device_of(e, std::move(result.indices));
        record_index_reduction(e, result.values, result.indices, dim, keepdim, IsMax ? "MaxBackward0" : "MinBackward0");
        result.values = name_reduced(std::move(result.values), x, IntArray{dim}, keepdim);
        result.indices = name_reduced(std::move(result.indices), x, IntArray{dim}, keepdim);
        return result;
    });
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
    if (operand_named(x)) fail_named_unsupported(std::string("aten::") + op);
    using V = input_t<X>;
    if constexpr (is_complex_v<V>) {
        // A complex tensor's norms are those of its moduli, real as PyTorch's (complex tensors
        // never require grad, so nothing records through abs).
        return norm_impl(tenet::abs(x), p, dims, keepdim, vector_norm);
    } else {
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
            record_value_reduction<ReduceKind::Norm>(e, result, plan, p,
                                   vector_norm ? "LinalgVectorNormBackward0" : "NormBackward1");
            return result;
        });
    }
}

}  // namespace detail

// ---- The table's reductions (ops/reductions.def) ------------------------------------------

namespace detail {

/// Which input dtypes a row accepts.
enum class DTypeRule { any_dtype, floating_dtype };

/// A row of ops/reductions.def as a type: its reducer, dtype rule and grad_fn names.
template <ReduceKind K>
struct ReductionRow;
#define TENET_ROW(NAME, Reducer, DTYPES, FUSED_SUM, CORRECTED, BACKWARD_ALL, BACKWARD_DIMS) \
    template <>                                                                          \
    struct ReductionRow<ReduceKind::NAME> {                                              \
        template <class V>                                                               \
        using reducer = Reducer<V>;                                                      \
        static constexpr const char* name = #NAME;                                       \
        static constexpr DTypeRule dtypes = DTypeRule::DTYPES;                           \
        static constexpr bool fused_sum = FUSED_SUM;                                     \
        static constexpr bool corrected = CORRECTED;                                     \
        static constexpr const char* backward_all = BACKWARD_ALL;                        \
        static constexpr const char* backward_dims = BACKWARD_DIMS;                      \
    };
#define TENET_SUM_REDUCTION(NAME, Reducer, DTYPES, BACKWARD_ALL, BACKWARD_DIMS) \
    TENET_ROW(NAME, Reducer, DTYPES, true, false, BACKWARD_ALL, BACKWARD_DIMS)
#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS) \
    TENET_ROW(NAME, Reducer, DTYPES, false, false, BACKWARD_ALL, BACKWARD_DIMS)
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD) \
    TENET_ROW(NAME, Reducer, floating_dtype, false, true, BACKWARD, BACKWARD)
#include "tenet/ops/reductions.def"
#undef TENET_ROW

/// Whether a reducer has no identity (max, min): an empty reduction is then an error.
template <class R>
constexpr bool lacks_identity() {
    if constexpr (requires { R::has_identity; }) return !R::has_identity;
    else return false;
}

/// Row K's reduction of x over `dims` (all when absent); `correction`: var's and std's divisor
/// n - correction.
template <ReduceKind K, class X>
auto reduce_row(const X& x, const std::optional<IntArray>& dims, bool keepdim, double correction = 0) {
    using Row = ReductionRow<K>;
    using V = input_t<X>;
    using R = typename Row::template reducer<V>;
    using O = typename R::out_t;
    // PyTorch infers names for sum, mean, prod, var, std, logsumexp, and any()/all() of everything.
    if constexpr (K == ReduceKind::amax || K == ReduceKind::amin || K == ReduceKind::nansum ||
                  K == ReduceKind::nanmean || K == ReduceKind::any || K == ReduceKind::all) {
        if ((dims || (K != ReduceKind::any && K != ReduceKind::all)) && operand_named(x))
            fail_named_unsupported(std::string("aten::") + Row::name);
    }
    if constexpr (is_complex_v<V> && K != ReduceKind::sum && K != ReduceKind::mean && K != ReduceKind::prod) {
        // sum, mean and prod are tenet's complex reductions so far; never instantiated on complex.
        fail<dtype_error>(Row::name, "(): complex dtypes are not supported (got ", dtype_of<V>, ")");
        return Tensor<V>();
    } else if constexpr (Row::dtypes == DTypeRule::floating_dtype && !FloatingElement<V> && !is_complex_v<V>) {
        if constexpr (K == ReduceKind::mean)  // PyTorch's own words for mean
            fail<dtype_error>("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                              "complex dtype. Got: ",
                              dtype_of<V>);
        fail<dtype_error>(Row::name, "(): expected a floating point input, but got ", dtype_of<V>);
        return Tensor<O>();
    } else {
        if constexpr (Row::fused_sum) {
            if (!dims)
                if (auto fused = sum_with_gradients<O>(x, K == ReduceKind::mean)) return *fused;
        }
        return with_node(x, Row::name, [&](const auto& e) {
            const ReducePlan plan = plan_reduction(e.shape(), dims, keepdim, Row::name);
            if constexpr (lacks_identity<R>()) check_nonempty_reduction<index_error>(plan, Row::name);
            R r{};
            if constexpr (Row::corrected) r.correction = correction;
            Tensor<O> result = reduce_values(e, r, plan, Row::name);
            if constexpr (Row::fused_sum)
                record_reduction(e, result, plan, K == ReduceKind::mean);
            else
                record_value_reduction<K>(e, result, plan, correction, plan.all ? Row::backward_all : Row::backward_dims);
            if (operand_named(x)) [[unlikely]]
                name_reduced_slow(result, x, dims, keepdim);
            return result;
        });
    }
}

/// var_mean and std_mean: both results from one pass.
template <ReduceKind K, class X>
auto moments_and_mean(const X& x, const std::optional<IntArray>& dims, double correction, bool keepdim) {
    using Row = ReductionRow<K>;
    using V = input_t<X>;
    const char* op = K == ReduceKind::var ? "var_mean" : "std_mean";
    if constexpr (!FloatingElement<V>) {
        fail<dtype_error>(op, "(): expected a floating point input, but got ", dtype_of<V>);
        return std::tuple<Tensor<V>, Tensor<V>>();
    } else {
        return with_node(x, op, [&](const auto& e) {
            const ReducePlan plan = plan_reduction(e.shape(), dims, keepdim, op);
            typename Row::template reducer<V> r{};
            r.correction = correction;
            Tensor<V> moment, average;
            if (is_meta_device(e.device())) [[unlikely]] {
                moment = meta_result<V>(plan.out_shape);
                average = meta_result<V>(plan.out_shape);
            } else {
                const auto acc = reduce_accumulate(e, r, plan, op);
                moment = new_result<V>(plan.out_shape);
                average = new_result<V>(plan.out_shape);
                for (int64_t j = 0; j < plan.out_numel; ++j) {
                    moment.data_ptr()[j] = r.project(acc[static_cast<size_t>(j)], plan.count);
                    average.data_ptr()[j] = r.project_mean(acc[static_cast<size_t>(j)]);
                }
                moment = on_device_of(e, std::move(moment));
                average = on_device_of(e, std::move(average));
            }
            record_value_reduction<K>(e, moment, plan, correction, Row::backward_all);
            record_reduction(e, average, plan, true);
            return std::tuple<Tensor<V>, Tensor<V>>(name_reduced(std::move(moment), x, dims, keepdim),
                                                    name_reduced(std::move(average), x, dims, keepdim));
        });
    }
}

}  // namespace detail

// Each row's free function: NAME(x) over all elements (0-d result), NAME(x, dim, keepdim),
// NAME(x, {dims...}, keepdim). See ops/reductions.def for what each computes.
#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS)                 \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x) {                                                                            \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, std::nullopt, false);                    \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x, int64_t dim, bool keepdim = false) {                                         \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, IntArray{dim}, keepdim);                 \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x, const IntArray& dims, bool keepdim = false) {                                \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, dims, keepdim);                          \
    }
// var and std: NAME(x, unbiased), NAME(x, dim, correction, keepdim), NAME(x, {dims}, correction,
// keepdim), NAME(x, std::nullopt, correction, keepdim). `correction` is the divisor's n -
// correction; PyTorch's `unbiased` passes as it (true is 1, false is 0). A lone integer after x
// is a dim, as in Python's x.var(1); a lone bool is `unbiased`.
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD)                                    \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x, bool unbiased = true) {                                                      \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, std::nullopt, false, unbiased ? 1 : 0);  \
    }                                                                                                  \
    template <expr::TensorOperand X, detail::DimIndex D>                                               \
    auto NAME(const X& x, D dim, int64_t correction = 1, bool keepdim = false) {                       \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, IntArray{static_cast<int64_t>(dim)},     \
                                                             keepdim, static_cast<double>(correction)); \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x, const IntArray& dims, int64_t correction = 1, bool keepdim = false) {        \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, dims, keepdim,                          \
                                                             static_cast<double>(correction));          \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME(const X& x, std::nullopt_t, int64_t correction, bool keepdim = false) {                  \
        return detail::reduce_row<detail::ReduceKind::NAME>(x, std::nullopt, keepdim,                  \
                                                             static_cast<double>(correction));          \
    }                                                                                                  \
    /** (NAME, mean) of x in one pass, with NAME's forms. */                                          \
    template <expr::TensorOperand X>                                                                   \
    auto NAME##_mean(const X& x, bool unbiased = true) {                                               \
        return detail::moments_and_mean<detail::ReduceKind::NAME>(x, std::nullopt, unbiased ? 1 : 0, false); \
    }                                                                                                  \
    template <expr::TensorOperand X, detail::DimIndex D>                                               \
    auto NAME##_mean(const X& x, D dim, int64_t correction = 1, bool keepdim = false) {                \
        return detail::moments_and_mean<detail::ReduceKind::NAME>(x, IntArray{static_cast<int64_t>(dim)}, \
                                                                   static_cast<double>(correction), keepdim); \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME##_mean(const X& x, const IntArray& dims, int64_t correction = 1, bool keepdim = false) { \
        return detail::moments_and_mean<detail::ReduceKind::NAME>(x, dims, static_cast<double>(correction), \
                                                                   keepdim);                           \
    }                                                                                                  \
    template <expr::TensorOperand X>                                                                   \
    auto NAME##_mean(const X& x, std::nullopt_t, int64_t correction, bool keepdim = false) {           \
        return detail::moments_and_mean<detail::ReduceKind::NAME>(x, std::nullopt,                      \
                                                                   static_cast<double>(correction), keepdim); \
    }
#include "tenet/ops/reductions.def"

/// The largest element (0-d; NaN propagates); throws value_error on an empty input.
template <expr::TensorOperand X>
auto max(const X& x) {
    return detail::reduce_extremum<detail::ReduceKind::amax>(x, "max");
}
/// The smallest element (0-d; NaN propagates); throws value_error on an empty input.
template <expr::TensorOperand X>
auto min(const X& x) {
    return detail::reduce_extremum<detail::ReduceKind::amin>(x, "min");
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

/// torch.aminmax(x, dim = nullopt, keepdim = false): {min, max}, as amin and amax (NaN
/// propagates; an empty reduction throws value_error).
template <expr::TensorOperand X>
auto aminmax(const X& x, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
    using V = typename expr::node_t<X>::value_type;
    const Tensor<V> t = detail::as_tensor_of<V>(x);
    if (dim) return return_types::aminmax<V>{amin(t, *dim, keepdim), amax(t, *dim, keepdim)};
    if (t.numel() == 0)
        detail::fail<value_error>("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity");
    return_types::aminmax<V> r{amin(t), amax(t)};
    if (keepdim) {
        const IntArray ones(static_cast<size_t>(t.dim()), 1);
        r.min = r.min.view(ones);
        r.max = r.max.view(ones);
    }
    return r;
}

/// torch.norm: the p-norm (p = 2, 1, 0, +-inf or any p) of all elements or along dims; of a
/// complex tensor, the norm of its moduli (real: float32 for complex64, float64 for complex128).
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
/// torch.linalg.vector_norm(x, ord, dim, keepdim): as norm (complex input too, real result), but
/// +-inf of an empty input throws.
template <expr::TensorOperand X>
auto vector_norm(const X& x, double ord = 2, const std::optional<IntArray>& dims = std::nullopt,
                 bool keepdim = false) {
    return detail::norm_impl(x, ord, dims, keepdim, true);
}

// ---- Methods of Tensor and of expressions (declared in core/value_methods.hpp) ----------------

#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS)                 \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME() const {                                                               \
        return tenet::NAME(self());                                                                    \
    }                                                                                                  \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME(int64_t dim, bool keepdim) const {                                      \
        return tenet::NAME(self(), dim, keepdim);                                                      \
    }                                                                                                  \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME(const IntArray& dims, bool keepdim) const {                             \
        return tenet::NAME(self(), dims, keepdim);                                                     \
    }
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD)                                    \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME(bool unbiased) const {                                                  \
        return tenet::NAME(self(), unbiased);                                                          \
    }                                                                                                  \
    template <class D>                                                                                 \
    template <detail::DimIndex I>                                                                      \
    auto ValueMethods<D>::NAME(I dim, int64_t correction, bool keepdim) const {                        \
        return tenet::NAME(self(), dim, correction, keepdim);                                          \
    }                                                                                                  \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME(const IntArray& dims, int64_t correction, bool keepdim) const {         \
        return tenet::NAME(self(), dims, correction, keepdim);                                         \
    }                                                                                                  \
    template <class D>                                                                                 \
    auto ValueMethods<D>::NAME(std::nullopt_t, int64_t correction, bool keepdim) const {               \
        return tenet::NAME(self(), std::nullopt, correction, keepdim);                                 \
    }
#include "tenet/ops/reductions.def"
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
