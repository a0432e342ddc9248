#pragma once
// The host loops of the reductions (ops/reduce.hpp). evaluate.hpp's LoopGeometry, gather and row
// odometer are reused:
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

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "tenet/backend/host/evaluate.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/core/host_device.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/ops/reducers.hpp"

namespace tenet::inline TENET_ABI::detail {

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
        for (int64_t j = 0; j < kRun; ++j) {
            TENET_UNROLL
            for (int k = 0; k < K; ++k) acc[k] = r.block_step(acc[k], f(i + j * K + k));
        }
        TENET_UNROLL
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
    for (int64_t i = b; i < tail; i += K) {
        TENET_UNROLL
        for (int k = 0; k < K; ++k) acc[k] = r.step(acc[k], f(i + k), idx0 + (i + k) * is);
    }
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

/// A reduction over short trailing dims ((x.view(N, 1, D) - c.view(1, K, D)).pow(2).sum(-1) with
/// D = 2) would run one row of D elements per result element, each paying the row walk and a
/// call. Moving those dims in front of the last kept dim makes the rows run along the kept dim
/// instead (outer mode: the accumulators' row is folded element-wise). Only for trailing reduced
/// dims of fewer than kShortReduction elements: the inner mode folds so few elements one after
/// another into one lane (every reducer has at least 8), so the results are the same bits.
inline constexpr int64_t kShortReduction = 8;
template <size_t N>
void move_short_inner_reduction_out(LoopGeometry<N>& g, const ReducePlan& p) {
    size_t first = p.shape.size();  // the trailing reduced dims are [first, nd)
    int64_t count = 1;
    while (first > 0 && p.reduced[first - 1]) count *= p.shape[--first];
    if (first == 0 || first == p.shape.size() || count >= kShortReduction || p.shape[first - 1] <= count) return;
    auto rotate = [first](IntArray& a) {  // [..., kept, r...] -> [..., r..., kept]
        std::rotate(a.begin() + static_cast<std::ptrdiff_t>(first - 1), a.begin() + static_cast<std::ptrdiff_t>(first),
                    a.end());
    };
    rotate(g.sizes);
    for (IntArray& s : g.strides) rotate(s);
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
    move_short_inner_reduction_out(g, p);
    g.finish();

    const int64_t inner = g.inner(), rows = g.rows();
    const bool inner_mode = g.inner_stride(0) == 0;
    const int64_t acc_s = g.inner_stride(0), idx_s = g.inner_stride(N - 1);
    bool unit = true;
    for (size_t l = 0; l < L; ++l) unit = unit && g.inner_stride(l + 1) == 1;

    std::array<const void*, L + (L == 0)> ptrs{};
    alignas(64) unsigned char buffers[L + (L == 0)][kChunk * kMaxItemsize];
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

}  // namespace tenet::detail
