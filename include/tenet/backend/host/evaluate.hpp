#pragma once
// Host evaluation of an expression into a tensor: ONE pass over memory, no temporaries.
//
// The destination and every leaf are presented with strides over the destination's
// shape (broadcast leaves get stride 0), then dims that all operands walk contiguously
// are merged, so same-shape contiguous operands become a single flat loop. The outer
// dims are walked like an odometer; the innermost runs as a tight loop:
//   - unit mode: every operand has inner stride 1, so the node tree reads ptr[i]
//     directly and the compiler vectorises the row;
//   - chunk mode: otherwise, rows are cut into chunks; operands with inner stride 1 are
//     read in place, others (broadcast or strided) are first gathered into a small
//     aligned buffer, so the arithmetic still runs on unit-stride data.
//
// Only the innermost loop knows the expression: `SpanKernel` holds it as two plain function
// pointers (a span of any length, and a full chunk of constant length). Everything around the
// loop (geometry, rows, chunks, gathers, tiles, streaming stores, threads) is compiled once per
// element type and leaf count and shared by every expression of that shape, as PyTorch's
// TensorIterator calls one loop function per row: an added expression compiles one loop.

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdlib>
#include <array>
#include <cstdint>
#include <cstring>

#include "tenet/backend/device/device_dispatch.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/backend/host/parallel.hpp"
#include "tenet/backend/host/streaming_stores.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/named_refusals.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI::expr {
/// Calls f with e, or with e's pow(x, 2)s as square(x) (defined in expr/pow_rewrite.hpp).
template <class N, class F>
void with_fast_pows(const N& n, F&& f);
}  // namespace tenet::expr

namespace tenet::inline TENET_ABI::detail {

// Columns per chunk of a row that gathers or broadcasts an operand. (512 made W3 4% faster but
// W4's tiled walk 1.9x slower on the 2-core EPYC VM, for reasons not pinned down.)
inline constexpr int64_t kChunk = 256;
/// The largest element a chunk buffer holds: complex128's 16 bytes.
inline constexpr int64_t kMaxItemsize = 16;

/// Copies `count` elements of `itemsize` bytes, `stride` elements apart, into `out`.
inline void gather(unsigned char* out, const unsigned char* in, int64_t stride, int64_t count, int64_t itemsize) {
    auto typed = [&](auto tag) {
        using W = decltype(tag);
        W* dst = reinterpret_cast<W*>(out);
        if (stride == 0) {  // a broadcast value
            W v;
            std::memcpy(&v, in, sizeof(W));
            std::fill_n(dst, count, v);
            return;
        }
        const W* src = reinterpret_cast<const W*>(in);
        for (int64_t j = 0; j < count; ++j) std::memcpy(dst + j, src + j * stride, sizeof(W));
    };
    switch (itemsize) {
        case 1: return typed(uint8_t{});
        case 2: return typed(uint16_t{});
        case 4: return typed(uint32_t{});
        case 8: return typed(uint64_t{});
        default: {  // 16: complex128
            struct alignas(16) Pair {
                uint64_t a, b;
            };
            return typed(Pair{});
        }
    }
}

/// The operands of one evaluation, laid over a common shape: operand 0 is the
/// destination, operands 1..L the expression's leaves (broadcast leaves have stride 0).
/// Dims all operands walk contiguously are merged; a row is the innermost dim.
template <size_t N>
struct LoopGeometry {
    IntArray sizes;                     // coalesced shape, at least 1-D
    std::array<IntArray, N> strides;    // per operand, in elements
    std::array<unsigned char*, N> base; // address of each operand's element 0
    std::array<int64_t, N> itemsize;

    int64_t inner() const { return sizes.back(); }
    int64_t rows() const { return product(sizes) / inner(); }
    int64_t inner_stride(size_t o) const { return strides[o].back(); }
    /// Address of column `col` of operand o's current row (`off`: the row's byte offsets).
    unsigned char* address(size_t o, const std::array<int64_t, N>& off, int64_t col) const {
        return base[o] + off[o] + col * inner_stride(o) * itemsize[o];
    }

    /// Coalesces the dims; call once every operand is filled in.
    void finish() {
        if (sizes.empty()) {  // a 0-d result: one element
            sizes = IntArray{1};
            for (auto& s : strides) s = IntArray{0};
        }
        coalesce_dims(sizes, strides);
    }
    /// Byte offsets of row `row` (row-major over all dims but the last), per operand.
    std::array<int64_t, N> row_offsets(int64_t row, IntArray& counter) const {
        std::array<int64_t, N> off{};
        counter = IntArray(sizes.size(), 0);
        for (size_t d = sizes.size() - 1; d-- > 0;) {
            counter[d] = row % sizes[d];
            row /= sizes[d];
            for (size_t o = 0; o < N; ++o) off[o] += counter[d] * strides[o][d] * itemsize[o];
        }
        return off;
    }
    /// Moves `off` to the next row, like an odometer over the outer dims.
    void next_row(IntArray& counter, std::array<int64_t, N>& off) const {
        for (size_t d = sizes.size() - 1; d-- > 0;) {
            if (++counter[d] < sizes[d]) {
                for (size_t o = 0; o < N; ++o) off[o] += strides[o][d] * itemsize[o];
                return;
            }
            for (size_t o = 0; o < N; ++o) off[o] -= (sizes[d] - 1) * strides[o][d] * itemsize[o];
            counter[d] = 0;
        }
    }
};

/// Lays dst and the leaves of `e` over dst's shape.
template <class T, size_t L>
LoopGeometry<L + 1> expression_geometry(const Tensor<T>& dst, const std::array<const TensorBase*, L>& leaves) {
    LoopGeometry<L + 1> g;
    g.sizes = dst.sizes();
    g.strides[0] = dst.strides();
    g.base[0] = reinterpret_cast<unsigned char*>(dst.data_ptr());
    g.itemsize[0] = sizeof(T);
    size_t k = 1;
    for (const TensorBase* leaf : leaves) {
        g.strides[k] = expand_geometry(leaf->sizes(), leaf->strides(), dst.sizes(), "evaluate").second;
        g.base[k] = static_cast<unsigned char*>(first_byte(*leaf));
        g.itemsize[k] = leaf->element_size();
        ++k;
    }
    g.finish();
    return g;
}

/// Buffers for the leaves that are gathered to unit stride, one chunk each (plus one spare).
template <size_t L>
using ChunkBuffers = unsigned char[L + 1][kChunk * kMaxItemsize];

/// Points ptrs[l] at columns [i0, i0 + count) of the current row of each of the L leaves
/// (leaf l is operand l + 1): in place when unit-stride, else gathered into buffers[l]. Broadcast
/// leaves (stride 0) are gathered too, unless `broadcast_prefilled` says their buffer
/// already holds the row's value.
template <size_t L, size_t N, class Ptrs>
void point_leaves_at_chunk(const LoopGeometry<N>& g, const std::array<int64_t, N>& off, int64_t i0, int64_t count,
                           unsigned char (*buffers)[kChunk * kMaxItemsize], Ptrs& ptrs, bool broadcast_prefilled) {
    static_assert(L < N, "operand 0 is not a leaf");
    for (size_t l = 0; l < L; ++l) {
        const int64_t s = g.inner_stride(l + 1);
        const unsigned char* at = g.address(l + 1, off, i0);
        if (s == 1) {
            ptrs[l] = at;
        } else {
            if (s != 0 || !broadcast_prefilled) gather(buffers[l], at, s, count, g.itemsize[l + 1]);
            ptrs[l] = buffers[l];
        }
    }
}

/// The leaves' pointers of one span: leaf l's element i is at ptrs[l] + i.
template <size_t L>
using SpanPointers = std::array<const void*, L + (L == 0)>;

/// o[i] = element i of the expression at `e` (leaves read through `ptrs`) for i in [0, n), or
/// in [0, Fixed) when Fixed > 0 (a constant trip count): the loop every host evaluation path
/// ends in, and the only code compiled per expression. Flattened, so everything the expression
/// calls is inlined into the loop: GCC's -O2 inliner otherwise leaves functors such as Sigmoid
/// out of line in a large translation unit, and the loop scalar. Never inlined into its callers:
/// each would get its own copy of the loop.
template <int64_t Fixed, class T, class E>
[[gnu::noinline]] TENET_LOOP_FLATTEN void evaluate_span(const void* e, T* o, const SpanPointers<E::num_leaves>& ptrs,
                                                        int64_t n) {
    const E& expression = *static_cast<const E*>(e);
    const int64_t count = Fixed > 0 ? Fixed : n;
    run_vectorised([&] {
        TENET_SIMD_LOOP
        for (int64_t i = 0; i < count; ++i) o[i] = convert<T>(expression.template at<0>(ptrs, i));
    });
}

/// One expression's loop, as the evaluation paths call it: `span` for any length, `chunk` for
/// at most kChunk elements. A full chunk runs a loop of constant trip count: knowing only that
/// count <= kChunk, GCC 12 peels the loop into kChunk / 16 vector steps, each followed by an exit
/// test (W3, a broadcast operand read from its buffer: 0.6x the plain loop with that code, 0.9x
/// with this).
template <class T, size_t L>
struct SpanKernel {
    using Loop = void (*)(const void*, T*, const SpanPointers<L>&, int64_t);
    const void* expression;
    Loop any_length;
    Loop chunk_length;

    void span(T* o, const SpanPointers<L>& ptrs, int64_t n) const { any_length(expression, o, ptrs, n); }
    void chunk(T* o, const SpanPointers<L>& ptrs, int64_t n) const {
        (n == kChunk ? chunk_length : any_length)(expression, o, ptrs, n);
    }
};

/// The kernel of `e`, which must outlive it.
template <class T, class E>
SpanKernel<T, E::num_leaves> span_kernel(const E& e) {
    return {&e, &evaluate_span<0, T, E>, &evaluate_span<kChunk, T, E>};
}

/// Evaluates columns [col_begin, col_end) of one row of `k`'s expression into operand 0. With
/// Stream (operand 0 unit-stride), chunks are evaluated into a buffer and `stream` copies them to
/// operand 0. A template parameter, not a run-time test: W4's tiled walk, which never
/// streams, took 10-15% longer stand-alone with the streaming branches compiled into its loop.
template <bool Stream, class T, size_t L>
void run_row_segment(const LoopGeometry<L + 1>& g, const SpanKernel<T, L>& k, const std::array<int64_t, L + 1>& off,
                     int64_t col_begin, int64_t col_end, bool unit, StreamCopy stream = nullptr) {
    static_assert(sizeof(T) <= kMaxItemsize && 64 % sizeof(T) == 0,
                  "a chunk buffer holds kChunk elements of at most kMaxItemsize bytes");
    T* out = reinterpret_cast<T*>(g.base[0] + off[0]);
    if constexpr (Stream) {  // whole 64-byte lines are streamed: the columns before the first are stored as usual
        const auto misaligned = reinterpret_cast<uintptr_t>(out + col_begin) % 64;
        const int64_t head = std::min<int64_t>(col_end - col_begin, misaligned ? (64 - misaligned) / sizeof(T) : 0);
        if (head > 0) run_row_segment<false>(g, k, off, col_begin, col_begin + head, unit);
        col_begin += head;
        if (col_begin == col_end) return;
    }
    SpanPointers<L> ptrs{};
    if (unit && !Stream) {  // every operand unit-stride: read in place, the loop vectorises
        for (size_t l = 0; l < L; ++l) ptrs[l] = g.address(l + 1, off, col_begin);
        k.span(out + col_begin, ptrs, col_end - col_begin);
        return;
    }
    alignas(64) ChunkBuffers<L> buffers;
    const int64_t out_stride = g.inner_stride(0);
    // Per leaf: read in place (unit stride: its pointer steps a chunk at a time), from a buffer
    // filled once (stride 0: the row's one value, spread over the buffer), or gathered chunk by
    // chunk (any other stride). Without gathers, a chunk costs only the pointer steps (W3: +4%).
    std::array<int64_t, L + (L == 0)> step{};
    bool gathers = false;
    for (size_t l = 0; l < L; ++l) {
        const int64_t s = g.inner_stride(l + 1);
        if (s == 1) {
            ptrs[l] = g.address(l + 1, off, col_begin);
            step[l] = kChunk * g.itemsize[l + 1];
        } else if (s == 0) {
            gather(buffers[l], g.address(l + 1, off, 0), 0, std::min(kChunk, col_end - col_begin), g.itemsize[l + 1]);
            ptrs[l] = buffers[l];
        } else {
            gathers = true;
        }
    }
    for (int64_t i0 = col_begin; i0 < col_end; i0 += kChunk) {
        const int64_t count = std::min(kChunk, col_end - i0);
        if (gathers) point_leaves_at_chunk<L>(g, off, i0, count, buffers, ptrs, /*broadcast_prefilled=*/true);
        if constexpr (Stream) {  // whole lines streamed from the buffer, the rest of a short chunk stored
            T* o = reinterpret_cast<T*>(buffers[L]);
            k.chunk(o, ptrs, count);
            const int64_t lines = count * int64_t{sizeof(T)} / 64, streamed = lines * 64 / int64_t{sizeof(T)};
            stream_lines(stream, out + i0, o, lines * 64);
            for (int64_t i = streamed; i < count; ++i) out[i0 + i] = o[i];
        } else if (out_stride == 1) {
            k.chunk(out + i0, ptrs, count);
        } else {
            T* o = reinterpret_cast<T*>(buffers[L]);
            k.chunk(o, ptrs, count);
            for (int64_t i = 0; i < count; ++i) out[(i0 + i) * out_stride] = o[i];
        }
        if (!gathers && i0 + kChunk < col_end)  // never step past the row: that pointer would be invalid
            for (size_t l = 0; l < L; ++l) ptrs[l] = static_cast<const unsigned char*>(ptrs[l]) + step[l];
    }
}

/// The leaves' first elements, when dst and every leaf are contiguous with dst's shape: then
/// one flat loop evaluates e. Leaves are visited with their element type, so nothing here
/// asks the run-time dtype: with the loop, this is the whole per-op cost of a tiny op.
/// `overlaps` says a leaf shares memory with dst other than element-for-element.
template <size_t L>
struct FlatOperands {
    SpanPointers<L> ptrs{};
    bool flat = true;
    bool overlaps = false;
    bool on_host = true;  ///< every leaf in host memory
};

template <class T, size_t L>
FlatOperands<L> flat_operands(const Tensor<T>& dst, const std::array<const TensorBase*, L>& leaves) {
    FlatOperands<L> f;
    const TensorImpl& d = dst.impl();
    f.flat = d.contiguous();
    size_t k = 0;
    for (const TensorBase* leaf : leaves) {
        const TensorImpl& l = leaf->impl();
        f.flat = f.flat && l.contiguous() && l.sizes() == d.sizes();
        f.on_host = f.on_host && l.storage->device().is_cpu();
        // Unchecked: a meta leaf (no buffer) makes on_host false, and the caller's device check reports it
        // (integer arithmetic: an offset from a null buffer is not a pointer the loop ever reads).
        f.ptrs[k++] = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(l.storage->data_or_null()) +
                                              static_cast<uintptr_t>(l.offset * l.dtype.itemsize()));
        if (l.storage == d.storage && may_overlap(d, l))
            f.overlaps |= leaf->element_size() != static_cast<int64_t>(sizeof(T)) || l.offset != d.offset;
    }
    return f;
}

template <class T, class E, size_t L>
void run_flat(T* out, const E& e, const FlatOperands<L>& f, int64_t numel) {
    evaluate_span<0, T, E>(&e, out, f.ptrs, numel);
}

/// Runs `k`'s expression, whose leaves are `leaves`, over `dst`'s shape (leaves broadcast to it)
/// and writes every element of dst.
template <class T, size_t L>
void run_expression_loops(const Tensor<T>& dst, const std::array<const TensorBase*, L>& leaves, const SpanKernel<T, L>& k) {
    constexpr size_t N = L + 1;
    const int64_t numel = dst.numel();
    if (numel == 0) return;
    if (numel < kParallelThreshold) {
        // The common small case: no geometry to build, one flat vectorisable loop.
        if (const auto f = flat_operands(dst, leaves); f.flat) return k.span(dst.data_ptr(), f.ptrs, numel);
    }
    const LoopGeometry<N> g = expression_geometry(dst, leaves);
    const int64_t inner = g.inner(), rows = g.rows();
    const size_t nd = g.sizes.size();

    bool unit = true;
    bool transposed = false;  // an operand walks its rows across memory: tile to reuse its cache lines
    for (size_t o = 0; o < N; ++o) {
        const int64_t s = g.inner_stride(o);
        unit = unit && s == 1;
        if (nd >= 2 && s != 0 && s != 1 && std::abs(g.strides[o][nd - 2]) < std::abs(s)) transposed = true;
    }
    // Tiles of 64 rows x 32 columns: a transposed operand's 32 rows of 64 elements each (4 cache lines,
    // 32 pages) stay in L1 and the TLB. Measured on W4 (4096 x 4096, 2-core EPYC VM): 16 x 256 took
    // 1.6x the time of a 32 x 32 tiled plain loop; 32 x 32 matched it; 64 x 32 is 5-10% faster still.
    constexpr int64_t kTileRows = 64, kTileCols = 32;
    // Results larger than the last-level cache are streamed past it (backend/host/streaming_stores.hpp),
    // unless tiled: W4's 32-column tile rows took 4% longer streamed.
    const StreamCopy stream =
        g.inner_stride(0) == 1 && !transposed ? stream_copy_for(numel * int64_t{sizeof(T)}) : nullptr;

    // Rows [row_begin, row_end), columns [col_begin, col_end) of each.
    auto run_block = [&](int64_t row_begin, int64_t row_end, int64_t col_begin, int64_t col_end) {
        IntArray counter;
        std::array<int64_t, N> off = g.row_offsets(row_begin, counter);
        if (!transposed) {
            for (int64_t r = row_begin; r < row_end; ++r) {
                if (stream)
                    run_row_segment<true>(g, k, off, col_begin, col_end, unit, stream);
                else
                    run_row_segment<false>(g, k, off, col_begin, col_end, unit);
                if (r + 1 < row_end) g.next_row(counter, off);
            }
            if (stream) stream_fence();
            return;
        }
        // Tiles of kTileRows rows x kTileCols columns: the transposed operand's cache lines
        // are loaded once per tile instead of once per row.
        std::array<std::array<int64_t, N>, kTileRows> tile;
        for (int64_t r0 = row_begin; r0 < row_end; r0 += kTileRows) {
            const int64_t nrows = std::min(kTileRows, row_end - r0);
            for (int64_t j = 0; j < nrows; ++j) {
                tile[j] = off;
                if (r0 + j + 1 < row_end) g.next_row(counter, off);
            }
            for (int64_t c0 = col_begin; c0 < col_end; c0 += kTileCols)
                for (int64_t j = 0; j < nrows; ++j)
                    run_row_segment<false>(g, k, tile[j], c0, std::min(c0 + kTileCols, col_end), unit);
        }
    };

    const int threads = dst.numel() >= kParallelThreshold ? get_num_threads() : 1;
    if (threads <= 1) {
        run_block(0, rows, 0, inner);
        return;
    }
    // Split rows across threads; a single long row is split by columns instead.
#ifdef _OPENMP  // without OpenMP, one thread: no pragma for -Wall to report
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
        const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
        const int64_t t = 0, nt = 1;
#endif
        if (rows >= nt) {
            run_block(rows * t / nt, rows * (t + 1) / nt, 0, inner);
        } else {
            // Column ranges aligned to 16 elements so threads never share a cache line of a row.
            const int64_t per = (inner / nt + 15) / 16 * 16;
            const int64_t c0 = std::min(inner, per * t), c1 = t + 1 == nt ? inner : std::min(inner, per * (t + 1));
            if (c0 < c1) run_block(0, rows, c0, c1);
        }
    }
}

template <class T, class E>
void run_expression(const Tensor<T>& dst, const E& e) {
    expr::with_fast_pows(e, [&](const auto& fe) { run_expression_loops(dst, expr::leaf_tensors(fe), span_kernel<T>(fe)); });
}

/// Whether writing dst element-by-element could change a value the expression has yet to
/// read: a leaf shares memory with dst but not element-for-element.
template <class T, size_t L>
bool needs_temporary(const Tensor<T>& dst, const std::array<const TensorBase*, L>& leaves) {
    for (const TensorBase* leaf : leaves) {
        if (leaf->impl().storage != dst.impl().storage || !may_overlap(dst.impl(), leaf->impl())) continue;
        const bool same_elements =
            leaf->element_size() == static_cast<int64_t>(sizeof(T)) && leaf->storage_offset() == dst.storage_offset() &&
            expand_geometry(leaf->sizes(), leaf->strides(), dst.sizes(), "evaluate").second == dst.strides();
        if (!same_elements) return true;
    }
    return false;
}

/// Runs `e` over dst's shape on dst's device: the host loops, or one device kernel. On the
/// meta device nothing runs: the result's shape, dtype and strides are all there is.
template <class T, class E>
void run_on_device_of(const Tensor<T>& dst, const E& e) {
    if (dst.is_cpu()) return run_expression(dst, e);
    if (dst.is_meta()) return;
#if TENET_DEVICE_EVALUATOR
    device_evaluate(dst, e);
#else
    no_device_evaluator("evaluate", dst.device());
#endif
}

/// run_assign with names: refuses the ops PyTorch has no name inference for, infers the result's
/// names (nullopt: none, false returned), evaluates, names the result (below).
template <class T, class E>
bool run_assign_named(Tensor<T>& dst, const E& e, AssignMode mode);

/// Evaluates `e` into `dst` (no autograd: evaluate_into, in autograd/record.hpp, records
/// and then calls this). A fresh result lives on the expression's device; writing into an
/// existing tensor requires the expression to be on the tensor's device.
template <class T, class E>
void run_assign(Tensor<T>& dst, const E& e, AssignMode mode, bool names_done = false) {
    static_assert(TensorExpression<E>, "tenet: evaluate_into needs an expression");
    // Named operands: names inferred first, then this function again (core/name_inference.hpp).
    if (!names_done && names_in_use.load(std::memory_order_relaxed)) [[unlikely]]
        if (run_assign_named(dst, e, mode)) return;
    if constexpr (E::num_leaves > 0) {
        // Small and flat on the host (the common out= case): one pass over the leaves decides it
        // all, which keeps the per-op cost of tiny tensors low. Leaves of dst's shape mean e has
        // dst's shape; all on the host, e's device is the host. A contiguous dst cannot overlap itself.
        if (mode != AssignMode::Fresh && dst.defined() && dst.is_cpu()) {
            if (const int64_t numel = dst.numel(); numel < kParallelThreshold) {
                const auto f = flat_operands(dst, expr::leaf_tensors(e));
                if (f.flat && f.on_host && (mode == AssignMode::IntoNoAlias || !f.overlaps)) {
                    run_flat(dst.data_ptr(), e, f, numel);
                    dst.impl().storage->bump_version();
                    return;
                }
            }
        }
    }
    const IntArray& shape = e.shape();
    const std::optional<Device> source = e.device();
    if (mode == AssignMode::Fresh || (mode == AssignMode::Out && (!dst.defined() || dst.sizes() != shape))) {
        // PyTorch's out= resizes a destination of the wrong shape; a fresh result is the same.
        Tensor<T> fresh(make_contiguous_impl(shape, dtype_of<T>, source ? *source : Device(DeviceType::CPU)));
        run_on_device_of(fresh, e);
        dst = std::move(fresh);
        return;
    }
    expr::common_device(source, dst.device(), "assign");
    if (dst.sizes() != shape)
        expand_geometry(shape, IntArray(shape.size(), 0), dst.sizes(), "assign");  // e must broadcast to dst
    check_no_internal_overlap(dst.impl(), "assign");
    if (mode != AssignMode::IntoNoAlias && needs_temporary(dst, expr::leaf_tensors(e))) {
        Tensor<T> tmp(make_contiguous_impl(shape, dtype_of<T>, dst.device()));
        run_on_device_of(tmp, e);
        dst.copy_data_(tmp);
        return;
    }
    run_on_device_of(dst, e);
    dst.impl().storage->bump_version();
}

template <class T, class E>
[[gnu::noinline, gnu::cold]] bool run_assign_named(Tensor<T>& dst, const E& e, AssignMode mode) {
    refuse_named_ops(e);  // where, lerp, ... on named operands
    std::optional<DimnameList> names = result_names(dst, expr::leaf_tensors(e), mode == AssignMode::Fresh);
    if (!names) return false;
    run_assign(dst, e, mode, true);
    if (dst.dim() == static_cast<int64_t>(names->size())) set_names(dst.impl(), *names);
    return true;
}

template <class T, class U>
void convert_on_device(const Tensor<T>& dst, const Tensor<U>& src) {
    Tensor<T> out = dst;
    run_assign(out, expr::make_unary<fn::CastTo<T>>(src), AssignMode::Into);
}

}  // namespace tenet::detail
