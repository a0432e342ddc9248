#pragma once
// Reductions with PyTorch's semantics: sum, mean, prod, max, min, amax, amin, argmax,
// argmin, any, all, norm (and linalg's vector_norm), over all elements or along dims.
//
// A reduction consumes tensors and expressions alike WITHOUT materialising them:
// `sum(a * b + c)` is one pass over a, b and c, and allocates only its result. The
// result is always a materialised Tensor, so `x - x.mean(1, true)` evaluates the mean
// once and broadcasts the stored result.
//
// How the loop runs (backend/host/evaluate.hpp's LoopGeometry, gather and row odometer reused):
// the accumulators, the expression's leaves and a virtual "index" operand are laid over
// the INPUT's shape. The accumulators are contiguous over the kept dims and have stride
// 0 on the reduced dims; the index operand has row-major strides over the reduced dims
// and 0 elsewhere (it gives argmax its position). Dims every operand walks contiguously
// are merged, then each row (innermost dim) runs in one of two modes:
//   - inner mode (the innermost dim is reduced): the row folds into one accumulator with
//     eight independent lanes (vectorisable), in blocks of kReduceBlock elements whose
//     partial results are combined pairwise (a cascade);
//   - outer mode (the innermost dim is kept): the row is folded element-wise into the
//     row of accumulators, a vectorisable loop over the inner dim; no column walks.
// Rows whose leaves are strided or broadcast are gathered into unit-stride chunks first.
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
using sum_result_t = std::conditional_t<FloatingElement<V>, V, int64_t>;
/// Accumulator of the additive reductions.
template <class V>
using add_acc_t = std::conditional_t<FloatingElement<V>, double, int64_t>;
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
        if constexpr (FloatingElement<V>) return a + convert<block_t>(v);
        else return wrap_add(a, convert<acc_t>(v));
    }
    TENET_HD acc_t init() const { return 0; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (FloatingElement<V>) return a + b;
        else return wrap_add(a, b);
    }
    TENET_HD acc_t step(acc_t a, V v, int64_t) const { return combine(a, convert<acc_t>(v)); }
    TENET_HD out_t project(acc_t a, int64_t) const { return convert<out_t>(a); }
};

template <class V>
struct MeanOp : SumOp<V> {
    using out_t = V;
    TENET_HD out_t project(typename SumOp<V>::acc_t a, int64_t count) const {
        return convert<V>(static_cast<double>(a) / static_cast<double>(count));
    }
};

template <class V>
struct ProdOp {
    using acc_t = add_acc_t<V>;
    using out_t = sum_result_t<V>;
    static constexpr int lanes = 8;
    TENET_HD acc_t init() const { return 1; }
    TENET_HD acc_t combine(acc_t a, acc_t b) const {
        if constexpr (FloatingElement<V>) return a * b;
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

// ---- The row kernels ----------------------------------------------------------------

inline constexpr int64_t kReduceBlock = 4096;

/// Adds elements [b, e) (value f(i)) of a sum into R::lanes running double lanes `wide`: K
/// float lanes add kRun values each (vectorised, as a plain float loop), then flush into the K
/// double lanes, so no float partial sum ever holds more than kRun values. (R: a sum, one with
/// a block_t.)
template <class R, class F>
TENET_LOOP_INLINE void add_runs(const R& r, typename R::acc_t (&wide)[R::lanes], int64_t b, int64_t e, const F& f) {
    using A = typename R::acc_t;
    using B = typename R::block_t;
    constexpr int K = R::lanes;
    constexpr int64_t kRun = 16;
    // [b, tail) is whole runs of K * kRun, [tail, e) the rest (b <= e always). Both loops
    // have explicit bounds: with a constant count (a full chunk) GCC then knows the rest is
    // empty, where a rest loop starting at the main loop's exit value left it a dead copy
    // with a wrapped-around trip count (-Waggressive-loop-optimizations).
    const int64_t tail = e - (e - b) % (K * kRun);
    for (int64_t i = b; i < tail; i += K * kRun) {
        B acc[K] = {};
        for (int64_t j = 0; j < kRun; ++j)
            for (int k = 0; k < K; ++k) acc[k] = r.block_step(acc[k], f(i + j * K + k));
        for (int k = 0; k < K; ++k) wide[k] = r.combine(wide[k], static_cast<A>(acc[k]));
    }
    for (int64_t i = tail; i < e; ++i) wide[0] = r.combine(wide[0], static_cast<A>(r.block_step(B{}, f(i))));
}

/// Lane 0 after folding K lanes pairwise into it.
template <class R, class A, int K>
TENET_LOOP_INLINE A fold_lanes(const R& r, A (&lanes)[K]) {
    for (int w = K / 2; w >= 1; w /= 2)
        for (int k = 0; k < w; ++k) lanes[k] = r.combine(lanes[k], lanes[k + w]);
    return lanes[0];
}

/// Folds elements [b, e) (value f(i), index idx0 + i * is) with R::lanes independent lanes.
template <class R, class F>
TENET_FLATTEN_INLINE inline typename R::acc_t reduce_block_loop(const R& r, int64_t b, int64_t e, const F& f, int64_t idx0, int64_t is) {
    using A = typename R::acc_t;
    constexpr int K = R::lanes;
    if constexpr (requires { typename R::block_t; }) {
        A wide[K] = {};
        add_runs(r, wide, b, e, f);
        return fold_lanes(r, wide);
    }
    A acc[K];
    for (int k = 0; k < K; ++k) acc[k] = r.init();
    const int64_t tail = e - (e - b) % K;  // [b, tail): whole groups of K (as above)
    for (int64_t i = b; i < tail; i += K)
        for (int k = 0; k < K; ++k) acc[k] = r.step(acc[k], f(i + k), idx0 + (i + k) * is);
    for (int64_t i = tail; i < e; ++i) acc[0] = r.step(acc[0], f(i), idx0 + i * is);
    return fold_lanes(r, acc);
}

/// The running sum of a stream of blocks of T, added block by block (add) into SumOp's lanes,
/// which are folded once at the end (total): the sums of the fused gradient pass, whose
/// blocks are short (folding each block's lanes cost as much as adding it).
template <class T>
struct LaneSum {
    using R = SumOp<T>;
    typename R::acc_t lanes[R::lanes] = {};
    TENET_LOOP_INLINE void add(const T* v, int64_t len) {
        add_runs(R{}, lanes, 0, len, [v](int64_t i) { return v[i]; });
    }
    typename R::acc_t total() const {
        typename R::acc_t copy[R::lanes];
        for (int k = 0; k < R::lanes; ++k) copy[k] = lanes[k];
        return fold_lanes(R{}, copy);
    }
};

/// reduce_block_loop compiled for the CPU's vector unit (run_vectorised).
template <class R, class F>
typename R::acc_t reduce_block(const R& r, int64_t b, int64_t e, const F& f, int64_t idx0, int64_t is) {
    typename R::acc_t result;
    run_vectorised([&] { result = reduce_block_loop(r, b, e, f, idx0, is); });
    return result;
}

/// Folds elements [0, n): blocks of kReduceBlock, their results combined pairwise.
template <class R, class F>
typename R::acc_t reduce_span(const R& r, int64_t n, const F& f, int64_t idx0, int64_t is) {
    using A = typename R::acc_t;
    if (n <= kReduceBlock) return reduce_block(r, 0, n, f, idx0, is);
    A level[64];
    uint64_t blocks = 0;
    for (int64_t b = 0; b < n; b += kReduceBlock) {
        A s = reduce_block(r, b, std::min(n, b + kReduceBlock), f, idx0, is);
        int l = 0;
        for (uint64_t c = blocks; c & 1; c >>= 1, ++l) s = r.combine(level[l], s);
        level[l] = s;
        ++blocks;
    }
    A total = r.init();
    for (int l = 63; l >= 0; --l)
        if ((blocks >> l) & 1) total = r.combine(total, level[l]);
    return total;
}

/// Folds every element of `e` into the accumulators of `p`'s result (row-major over
/// out_shape). One pass over the leaves; nothing is materialised.
template <class R, class E>
std::unique_ptr<typename R::acc_t[]> reduce_accumulate_loops(const E& e, const R& r, const ReducePlan& p,
                                                             const char* op) {
    using A = typename R::acc_t;
    std::unique_ptr<A[]> acc(new A[static_cast<size_t>(std::max<int64_t>(p.out_numel, 1))]);
    std::fill_n(acc.get(), p.out_numel, r.init());
    if (p.out_numel == 0 || p.count == 0) return acc;

    constexpr size_t L = E::num_leaves;
    constexpr size_t N = L + 2;  // 0: accumulators, 1..L: leaves, L + 1: index along the reduced dims
    const size_t nd = p.shape.size();
    LoopGeometry<N> g;
    g.sizes = p.shape;
    IntArray acc_strides(nd, 0), idx_strides(nd, 0);
    int64_t acc_step = 1, idx_step = 1;
    for (size_t d = nd; d-- > 0;) {
        if (p.reduced[d]) {
            idx_strides[d] = idx_step;
            idx_step *= p.shape[d];
        } else {
            acc_strides[d] = acc_step;
            acc_step *= p.shape[d];
        }
    }
    g.strides[0] = std::move(acc_strides);
    g.base[0] = reinterpret_cast<unsigned char*>(acc.get());
    g.itemsize[0] = sizeof(A);
    size_t k = 1;
    for (const TensorBase* leaf : expr::leaf_tensors(e)) {
        check_host_access(*leaf, op);
        g.strides[k] = expand_geometry(leaf->sizes(), leaf->strides(), p.shape, op).second;
        g.base[k] = static_cast<unsigned char*>(first_byte(*leaf));
        g.itemsize[k] = leaf->element_size();
        ++k;
    }
    g.strides[N - 1] = std::move(idx_strides);
    g.base[N - 1] = nullptr;  // virtual: its "byte offset" is the index itself
    g.itemsize[N - 1] = 1;
    g.finish();

    const int64_t inner = g.inner(), rows = g.rows();
    const bool inner_mode = g.inner_stride(0) == 0;
    const int64_t acc_s = g.inner_stride(0), idx_s = g.inner_stride(N - 1);
    bool unit = true;
    for (size_t l = 0; l < L; ++l) unit = unit && g.inner_stride(l + 1) == 1;

    std::array<const void*, L + (L == 0)> ptrs{};
    alignas(64) unsigned char buffers[L + (L == 0)][kChunk * 8];
    IntArray counter;
    std::array<int64_t, N> off = g.row_offsets(0, counter);
    for (int64_t row = 0; row < rows; ++row) {
        A* a = reinterpret_cast<A*>(g.base[0] + off[0]);
        const int64_t idx0 = off[N - 1];
        // Folds elements [i0, i0 + n) of the row; ptrs point at element i0.
        auto fold = [&](int64_t i0, int64_t n) {
            auto f = [&](int64_t i) { return e.template at<0>(ptrs, i); };
            if (inner_mode) {
                *a = r.combine(*a, reduce_span(r, n, f, idx0 + i0 * idx_s, idx_s));
            } else if (acc_s == 1) {
                A* o = a + i0;
                for (int64_t i = 0; i < n; ++i) o[i] = r.step(o[i], f(i), idx0);
            } else {
                for (int64_t i = 0; i < n; ++i) a[(i0 + i) * acc_s] = r.step(a[(i0 + i) * acc_s], f(i), idx0);
            }
        };
        if (unit) {
            for (size_t l = 0; l < L; ++l) ptrs[l] = g.address(l + 1, off, 0);
            fold(0, inner);
        } else {
            for (int64_t i0 = 0; i0 < inner; i0 += kChunk) {
                const int64_t count = std::min(kChunk, inner - i0);
                point_leaves_at_chunk<L>(g, off, i0, count, buffers, ptrs, /*broadcast_prefilled=*/false);
                // A full chunk folds with a constant count, as run_row_segment evaluates one (GCC
                // peels a loop it knows only a bound of): sum((x + bias) * scale), 4096², 3.0 -> 2.55 ms.
                if (count == kChunk) fold(i0, kChunk);
                else fold(i0, count);
            }
        }
        if (row + 1 < rows) g.next_row(counter, off);
    }
    return acc;
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
