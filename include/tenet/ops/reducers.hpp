#pragma once
// The reducers of ops/reduce.hpp: how sum, mean, prod, max/min, argmax/argmin, any/all and the
// norms fold values, on the host and in the device kernels (kernels/tenet/cuda/reduce.cuh), and
// the plan of a reduction (which dims are reduced, the result's shape).
//
// Accumulation types: floating sums, means, products and norms accumulate in double
// (float32 sums of 2^24 elements stay exact to float precision; double inputs also get
// the cascade); integer and bool sums and products accumulate in int64 with wrap-around;
// max/min/argmax accumulate in the input type (float for float16/bfloat16).

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/core/convert.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/core/half.hpp"
#include "tenet/core/host_device.hpp"
#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI::detail {

// ---- Reducers -----------------------------------------------------------------------
// A reducer folds values of the input type V into an accumulator: init() is the identity,
// step(acc, v, index) folds one element, combine(a, b) merges two partial results (a
// covering earlier elements), project(acc, count) gives the result element.

template <class V>
TENET_HD constexpr bool is_nan_value(V v) {
    if constexpr (FloatingElement<V>) return v != v;
    else return false;
}

/// Integer accumulation wraps around on overflow, as PyTorch's does (no UB).
inline TENET_HD int64_t wrap_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline TENET_HD int64_t wrap_mul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

/// The element type of sum() and prod(): integers and bool widen to int64.
template <class V>
using sum_result_t = std::conditional_t<FloatingElement<V> || is_complex_v<V>, V, int64_t>;
/// Accumulator of the additive reductions.
template <class V>
using add_acc_t = std::conditional_t<is_complex_v<V>, complex<double>,
                                     std::conditional_t<FloatingElement<V>, double, int64_t>>;
/// Values compared by max/min: 16-bit floats are compared as float.
template <class V>
using cmp_t = std::conditional_t<is_reduced_float<V>::value, float, V>;
/// The element type of any() and all(): bool, but uint8 for uint8 input (as PyTorch).
template <class V>
using logical_result_t = std::conditional_t<std::is_same_v<V, uint8_t>, uint8_t, bool>;

template <class V>
struct SumOp {
    using acc_t = add_acc_t<V>;
    using out_t = sum_result_t<V>;
    /// Within a block (reduce_block) float32 and 16-bit floats add in float, 16 lanes wide,
    /// 16 values per lane before the lane is flushed into double: the adds vectorise as the
    /// plain loop's do, with the accuracy of PyTorch's cascade sum or better.
    using block_t = std::conditional_t<FloatingElement<V> && !std::is_same_v<V, double>, float, acc_t>;
    static constexpr int lanes = std::is_same_v<block_t, float> ? 16 : 8;
    TENET_HD block_t block_step(block_t a, V v) const {
        if constexpr (FloatingElement<V> || is_complex_v<V>) return a + convert<block_t>(v);
        else return wrap_add(a, convert<acc_t>(v));
    }
    TENET_HD acc_t init() const { return 0; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (FloatingElement<V> || is_complex_v<V>) return a + b;
        else return wrap_add(a, b);
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const { return combine(a, convert<acc_t>(v)); }
    TENET_HD out_t project(acc_t a, int64_t) const { return convert<out_t>(a); }
};

template <class V>
struct MeanOp : SumOp<V> {
    using out_t = V;
    TENET_HD out_t project(typename SumOp<V>::acc_t a, int64_t count) const {
        if constexpr (is_complex_v<V>) return convert<V>(a / static_cast<double>(count));
        else return convert<V>(static_cast<double>(a) / static_cast<double>(count));
    }
};

template <class V>
struct ProdOp {
    using acc_t = add_acc_t<V>;
    using out_t = sum_result_t<V>;
    static constexpr int lanes = 8;
    TENET_HD acc_t init() const { return 1; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (FloatingElement<V> || is_complex_v<V>) return a * b;
        else return wrap_mul(a, b);
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const { return combine(a, convert<acc_t>(v)); }
    TENET_HD out_t project(acc_t a, int64_t) const { return convert<out_t>(a); }
};

/// amax/amin and max()/min(): NaN propagates.
template <class V, bool IsMax>
struct ExtremumOp {
    using acc_t = cmp_t<V>;
    using out_t = V;
    static constexpr int lanes = 8;
    static constexpr bool has_identity = false;  // an empty reduction is an error
    TENET_HD acc_t init() const {
        if constexpr (std::is_same_v<acc_t, bool>) return !IsMax;
        else if constexpr (std::is_floating_point_v<acc_t>)
            return IsMax ? -std::numeric_limits<acc_t>::infinity() : std::numeric_limits<acc_t>::infinity();
        else return IsMax ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
    }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (IsMax) return ((b > a) | is_nan_value(b)) ? b : a;
        else return ((b < a) | is_nan_value(b)) ? b : a;
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const { return combine(a, static_cast<acc_t>(v)); }
    TENET_HD out_t project(acc_t a, int64_t) const { return convert<V>(a); }
};

/// A value and its index along the reduced dims (argmax, max(dim), ...).
template <class C>
struct ValueIndex {
    C value;
    int64_t index;  // -1: nothing seen yet
};

/// argmax/argmin and max(dim)/min(dim): NaN counts as the extreme; ties go to the first index.
template <class V, bool IsMax>
struct ArgOp {
    using C = cmp_t<V>;
    using acc_t = ValueIndex<C>;
    static constexpr int lanes = 1;
    TENET_HD acc_t init() const { return {C{}, -1}; }
    /// Whether b should replace a.
    TENET_HD static bool better(const acc_t& b, const acc_t& a) {
        if (b.index < 0) return false;
        if (a.index < 0) return true;
        const bool an = is_nan_value(a.value), bn = is_nan_value(b.value);
        if (an || bn) return bn && (!an || b.index < a.index);
        if (IsMax ? b.value > a.value : b.value < a.value) return true;
        return b.value == a.value && b.index < a.index;
    }
    TENET_HD acc_t combine(acc_t a, acc_t b) const { return better(b, a) ? b : a; }
    TENET_HD acc_t step(acc_t a, V v, int64_t index) const { return combine(a, acc_t{static_cast<C>(v), index}); }
};

template <class V, bool IsAny>
struct LogicalOp {
    using acc_t = bool;
    using out_t = logical_result_t<V>;
    static constexpr int lanes = 8;
    TENET_HD acc_t init() const { return !IsAny; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const { return IsAny ? (a || b) : (a && b); }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const { return combine(a, convert<bool>(v)); }
    TENET_HD out_t project(acc_t a, int64_t) const { return static_cast<out_t>(a); }
};

template <class V>
using MaxOp = ExtremumOp<V, true>;
template <class V>
using MinOp = ExtremumOp<V, false>;
template <class V>
using AnyOp = LogicalOp<V, true>;
template <class V>
using AllOp = LogicalOp<V, false>;

/// nansum: a sum that reads NaN as 0.
template <class V>
struct NanSumOp : SumOp<V> {
    using typename SumOp<V>::block_t;
    using typename SumOp<V>::acc_t;
    TENET_HD block_t block_step(block_t a, V v) const { return SumOp<V>::block_step(a, is_nan_value(v) ? V{} : v); }
    TENET_HD acc_t step(acc_t a, V v, int64_t i) const { return SumOp<V>::step(a, is_nan_value(v) ? V{} : v, i); }
};

/// A sum in double and the number of values in it.
struct SumCount {
    double sum;
    int64_t count;
};

/// nanmean: the mean of the values that are not NaN (NaN when there are none).
template <class V>
struct NanMeanOp {
    using acc_t = SumCount;
    using out_t = V;
    static constexpr int lanes = 8;
    TENET_HD acc_t init() const { return {0.0, 0}; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const { return {a.sum + b.sum, a.count + b.count}; }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const {
        const bool skip = is_nan_value(v);
        return {a.sum + (skip ? 0.0 : convert<double>(v)), a.count + (skip ? 0 : 1)};
    }
    TENET_HD out_t project(acc_t a, int64_t) const {
        return convert<V>(a.sum / static_cast<double>(a.count));  // 0 / 0: NaN
    }
};

/// The float result of floating reductions of integer and bool inputs (logsumexp).
template <class V>
using floating_result_t = std::conditional_t<FloatingElement<V>, V, float>;

/// The running maximum m of the values seen and the sum s of exp(value - m).
struct MaxScaledSum {
    double max;
    double sum;
};

/// logsumexp in one pass: the sum is rescaled whenever the maximum grows, so no exp overflows.
/// Infinities as PyTorch: +inf anywhere gives +inf, all -inf (or none) gives -inf; NaN propagates.
template <class V>
struct LogSumExpOp {
    using acc_t = MaxScaledSum;
    using out_t = floating_result_t<V>;
    static constexpr int lanes = 8;
    TENET_HD acc_t init() const { return {-std::numeric_limits<double>::infinity(), 0.0}; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if (b.sum == 0) return a;  // b saw nothing (or only -inf)
        if (a.sum == 0) return b;
        if (a.max == b.max) return {a.max, a.sum + b.sum};  // equal infinities too
        if (a.max > b.max) return {a.max, a.sum + b.sum * std::exp(b.max - a.max)};
        return {b.max, b.sum + a.sum * std::exp(a.max - b.max)};  // NaN lands here and stays
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const {
        const double x = convert<double>(v);
        if (x == -std::numeric_limits<double>::infinity()) return a;
        return combine(a, acc_t{x, 1.0});
    }
    TENET_HD out_t project(acc_t a, int64_t) const { return convert<out_t>(a.max + std::log(a.sum)); }
};

/// Welford's running count, mean and sum of squared deviations, in double.
struct Moments {
    double count;
    double mean;
    double m2;
};

/// var (Sqrt: std) in one pass with Welford's update and Chan's merge of partial moments, so a
/// float32 variance of 2^24 values keeps float64's accuracy. The divisor is
/// max(0, n - correction), as PyTorch's: one value with correction 1 gives NaN.
template <class V, bool Sqrt>
struct MomentsOp {
    using acc_t = Moments;
    using out_t = V;
    static constexpr int lanes = 8;
    double correction = 1;
    TENET_HD acc_t init() const { return {0.0, 0.0, 0.0}; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if (b.count == 0) return a;
        if (a.count == 0) return b;
        const double n = a.count + b.count, d = b.mean - a.mean;
        return {n, a.mean + d * (b.count / n), a.m2 + b.m2 + d * d * (a.count * b.count / n)};
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const {
        const double x = convert<double>(v), n = a.count + 1, d = x - a.mean;
        const double mean = a.mean + d / n;
        return {n, mean, a.m2 + d * (x - mean)};
    }
    TENET_HD double variance(const acc_t& a) const {
        const double divisor = a.count - correction;
        return a.m2 / (divisor > 0 ? divisor : 0.0);
    }
    TENET_HD out_t project(acc_t a, int64_t) const {
        const double var = variance(a);
        return convert<V>(Sqrt ? std::sqrt(var) : var);
    }
    /// The mean beside the moment (var_mean, std_mean): NaN over no values, as mean().
    TENET_HD out_t project_mean(acc_t a) const {
        return convert<V>(a.count == 0 ? std::numeric_limits<double>::quiet_NaN() : a.mean);
    }
};
template <class V>
using VarOp = MomentsOp<V, false>;
template <class V>
using StdOp = MomentsOp<V, true>;

enum class NormKind { L2, L1, Inf, NegInf, Zero, P };

/// Vector norms (floating input only); accumulate in double.
template <class V, NormKind K>
struct NormOp {
    using acc_t = double;
    using out_t = V;
    static constexpr int lanes = 8;
    double p = 2;
    TENET_HD acc_t init() const {
        if constexpr (K == NormKind::NegInf) return std::numeric_limits<double>::infinity();
        else return 0.0;
    }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (K == NormKind::Inf) return ((b > a) | (b != b)) ? b : a;
        else if constexpr (K == NormKind::NegInf) return ((b < a) | (b != b)) ? b : a;
        else return a + b;
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const {
        const double x = convert<double>(v);
        if constexpr (K == NormKind::L2) return a + x * x;
        else if constexpr (K == NormKind::Zero) return a + (x != 0.0 ? 1.0 : 0.0);
        else if constexpr (K == NormKind::P) return a + std::pow(std::abs(x), p);
        else return combine(a, std::abs(x));
    }
    TENET_HD out_t project(acc_t a, int64_t count) const {
        if constexpr (K == NormKind::L2) return convert<V>(std::sqrt(a));
        else if constexpr (K == NormKind::P) return convert<V>(std::pow(a, 1.0 / p));
        else if constexpr (K == NormKind::NegInf) return convert<V>(count == 0 ? 0.0 : a);  // torch.norm: 0
        else return convert<V>(a);
    }
};

// ---- The plan: which dims are reduced, and the result's shape -------------------------

struct ReducePlan {
    IntArray shape;              // the input's shape
    std::vector<char> reduced;   // per input dim
    IntArray out_shape;          // the result's shape (keepdim keeps reduced dims as 1)
    int64_t count = 1;           // input elements folded into each result element
    int64_t out_numel = 1;
    bool all = false;            // every dim reduced (no dim given)
};

/// `dims` empty or absent: reduce every dim (PyTorch's dim=None and dim=[]).
inline ReducePlan plan_reduction(const IntArray& shape, const std::optional<IntArray>& dims, bool keepdim,
                                 const char* op) {
    ReducePlan p;
    p.shape = shape;
    const auto nd = static_cast<int64_t>(shape.size());
    p.reduced.assign(static_cast<size_t>(nd), 0);
    p.all = !dims || dims->empty();
    if (p.all) {
        std::fill(p.reduced.begin(), p.reduced.end(), char{1});
    } else {
        std::vector<char> seen(static_cast<size_t>(std::max<int64_t>(nd, 1)), 0);
        for (int64_t d : *dims) {
            const int64_t w = wrap_dim(d, nd, op);
            if (seen[static_cast<size_t>(w)])
                fail<value_error>(op, ": dim ", w, " appears multiple times in the list of dims");
            seen[static_cast<size_t>(w)] = 1;
            if (nd > 0) p.reduced[static_cast<size_t>(w)] = 1;
        }
    }
    for (int64_t d = 0; d < nd; ++d) {
        if (p.reduced[static_cast<size_t>(d)]) {
            p.count *= shape[d];
            if (keepdim) p.out_shape.push_back(1);
        } else {
            p.out_shape.push_back(shape[d]);
        }
    }
    p.out_numel = product(p.out_shape);
    return p;
}

/// max/min/argmax/... have no identity: an empty reduction is an error, as in PyTorch.
template <class Error>
void check_nonempty_reduction(const ReducePlan& p, const char* op) {
    if (p.count != 0) return;
    if (p.all)
        fail<Error>(op, "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                        "with the 'dim' argument.");
    if (p.out_numel == 0) return;  // nothing to compute: an empty result
    for (size_t d = 0; d < p.reduced.size(); ++d)
        if (p.reduced[d] && p.shape[d] == 0)
            fail<index_error>(op, "(): Expected reduction dim ", d, " to have non-zero size.");
}

}  // namespace tenet::detail
