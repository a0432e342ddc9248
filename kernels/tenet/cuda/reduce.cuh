#pragma once
// Reductions of expressions on a device, without materialising the expression. The
// input's dims are ordered kept-dims-first, reduced-dims-last, so result element j folds
// the contiguous range [j * count, (j + 1) * count) of flat positions, and position f is
// the value of the expression at that index, mapped through the reducer's step. Over all
// elements that is one transform_reduce (CUB's device reduction on CUDA); along dims, one
// reduce_by_key over the ranges. Both run the same code on Thrust's OpenMP system.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include "tenet/cuda/evaluate.cuh"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI::kernels {

/// Flat position f -> r.step(r.init(), e at f, f % count): one element folded alone.
template <class R, class V, size_t L>
struct FoldOne {
    R r;
    V e;
    int64_t count;
    bool flat;  // every leaf contiguous in the reduction's order: offset == f
    LeafPointers<L> leaves;
    detail::DeviceLoop<L + (L == 0)> loop;
    TENET_HD typename R::acc_t operator()(int64_t f) const {
        const void* ptrs[L + (L == 0)];
        int64_t i = f;
        if (flat) {
            for (size_t l = 0; l < L; ++l) ptrs[l] = leaves.base[l];
        } else {
            int64_t off[L + (L == 0)];
            loop.offsets(f, off);
            leaves.at_offsets(off, ptrs);
            i = 0;
        }
        return r.step(r.init(), e.template at<0>(ptrs, i), f % count);
    }
};

template <class R>
struct Combine {
    R r;
    TENET_HD typename R::acc_t operator()(const typename R::acc_t& a, const typename R::acc_t& b) const {
        return r.combine(a, b);
    }
};

/// The result element a flat position belongs to.
struct SegmentOf {
    int64_t count;
    TENET_HD int64_t operator()(int64_t f) const { return f / count; }
};

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class R, class E>
std::unique_ptr<typename R::acc_t[]> device_reduce_accumulate(const E& e, const R& r, const ReducePlan& p) {
    using A = typename R::acc_t;
    constexpr size_t L = E::num_leaves;
    std::unique_ptr<A[]> acc(new A[static_cast<size_t>(std::max<int64_t>(p.out_numel, 1))]);
    for (int64_t j = 0; j < p.out_numel; ++j) acc[static_cast<size_t>(j)] = r.init();
    if (p.out_numel == 0 || p.count == 0) return acc;
    const Device device = *e.device();

    // The input's dims, kept ones first: sizes and every leaf's strides in that order.
    std::array<IntArray, L + (L == 0)> strides;
    const kernels::LeafPointers<L> leaves = kernels::leaf_pointers<L>(e, p.shape, strides, 0, "reduce");
    IntArray sizes;
    std::array<IntArray, L + (L == 0)> ordered;
    for (int pass = 0; pass < 2; ++pass)
        for (size_t d = 0; d < p.shape.size(); ++d)
            if (static_cast<bool>(p.reduced[d]) == (pass == 1)) {
                sizes.push_back(p.shape[d]);
                for (size_t l = 0; l < L; ++l) ordered[l].push_back(strides[l][d]);
            }
    if constexpr (L == 0) ordered[0] = IntArray(sizes.size(), 0);
    const DeviceLoop<L + (L == 0)> loop = make_device_loop<L + (L == 0)>(sizes, ordered, "reduce");
    const kernels::FoldOne<R, kernels::view_t<E>, L> fold{r, kernels::view_of(e), p.count, loop.flat(), leaves, loop};
    const kernels::Combine<R> combine{r};
    const int64_t total = p.out_numel * p.count;
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);

    if (p.out_numel == 1) {
        acc[0] = thrust::transform_reduce(thrust::device, thrust::counting_iterator<int64_t>(0),
                                          thrust::counting_iterator<int64_t>(total), fold, r.init(), combine);
        kernels::check_launch("reduce");
        return acc;
    }
    // One accumulator per result element, in device memory, then copied back.
    const TensorBase out(make_contiguous_impl(IntArray{p.out_numel * static_cast<int64_t>(sizeof(A))},
                                              dtype_of<uint8_t>, device));
    A* out_acc = static_cast<A*>(out.impl().storage->data());
    const auto positions = thrust::counting_iterator<int64_t>(0);
    thrust::reduce_by_key(thrust::device, thrust::make_transform_iterator(positions, kernels::SegmentOf{p.count}),
                          thrust::make_transform_iterator(positions, kernels::SegmentOf{p.count}) + total,
                          thrust::make_transform_iterator(positions, fold), thrust::make_discard_iterator(),
                          thrust::device_pointer_cast(out_acc), thrust::equal_to<int64_t>(), combine);
    kernels::check_launch("reduce");
    device_backend(device, "reduce")
        .copy_bytes(acc.get(), Device(DeviceType::CPU), out_acc, device, static_cast<size_t>(p.out_numel) * sizeof(A));
    return acc;
}

}  // namespace tenet::detail
