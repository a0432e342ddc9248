#pragma once
// Evaluating an expression on a device: ONE kernel for the whole tree. The kernel gets
// the tree's view (kernels/tenet/cuda/view.cuh), the destination and the leaves' addresses
// and, unless every operand is contiguous over the result, their strides over the result's
// shape (stride 0 where a leaf is broadcast). Contiguous operands take the flat kernel:
// element i of every operand is at index i, no index arithmetic at all.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstdint>

#include "tenet/backend/device/device_copy.hpp"
#include "tenet/backend/device/device_loop.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/cuda/config.cuh"
#include "tenet/cuda/view.cuh"

namespace tenet::inline TENET_ABI::kernels {

/// A kernel's parameters are limited (4 KiB before sm_70 and CUDA 12.1); an expression
/// whose view, pointers and strides exceed that must be split by the caller.
inline constexpr size_t kMaxKernelArgument = 4096;

/// The leaves of an expression, as a kernel reads them: first element and element size.
template <size_t L>
struct LeafPointers {
    const unsigned char* base[L + (L == 0)] = {};
    int64_t itemsize[L + (L == 0)] = {};

    TENET_HD void at_offsets(const int64_t* off, const void* (&ptrs)[L + (L == 0)]) const {
        for (size_t l = 0; l < L; ++l) ptrs[l] = base[l] + off[l] * itemsize[l];
    }
};

/// The addresses of e's leaves and, in strides[first + l], their strides over `shape`.
template <size_t L, class E, size_t N>
LeafPointers<L> leaf_pointers(const E& e, const IntArray& shape, std::array<IntArray, N>& strides, size_t first,
                              const char* op) {
    LeafPointers<L> p;
    size_t l = 0;
    e.for_each_leaf([&](const TensorBase& leaf) {
        strides[first + l] = detail::expand_geometry(leaf.sizes(), leaf.strides(), shape, op).second;
        p.base[l] = static_cast<const unsigned char*>(detail::first_byte(leaf));
        p.itemsize[l] = leaf.element_size();
        ++l;
    });
    return p;
}

/// out[i] = e(i): every operand contiguous over the result.
template <class T, class V, size_t L>
struct AssignFlat {
    T* out;
    LeafPointers<L> leaves;
    V e;
    TENET_HD void operator()(int64_t i) const {
        const void* ptrs[L + (L == 0)];
        for (size_t l = 0; l < L; ++l) ptrs[l] = leaves.base[l];
        out[i] = convert<T>(e.template at<0>(ptrs, i));
    }
};

/// The general layout: per-operand offsets from the result's flat index.
template <class T, class V, size_t L>
struct AssignStrided {
    T* out;
    LeafPointers<L> leaves;
    detail::DeviceLoop<L + 1> loop;  // operand 0 is the destination
    V e;
    TENET_HD void operator()(int64_t i) const {
        int64_t off[L + 1];
        loop.offsets(i, off);
        const void* ptrs[L + (L == 0)];
        leaves.at_offsets(off + 1, ptrs);
        out[off[0]] = convert<T>(e.template at<0>(ptrs, 0));
    }
};

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class T, class E>
void device_evaluate(const Tensor<T>& dst, const E& e) {
    constexpr size_t L = E::num_leaves;
    using V = kernels::view_t<E>;
    using Strided = kernels::AssignStrided<T, V, L>;
    static_assert(sizeof(Strided) <= kernels::kMaxKernelArgument,
                  "tenet: this expression has too many leaves for one device kernel (its parameters exceed 4 KiB); "
                  "evaluate part of it into a tensor first");
    std::array<IntArray, L + 1> strides;
    strides[0] = dst.strides();
    const kernels::LeafPointers<L> leaves = kernels::leaf_pointers<L>(e, dst.sizes(), strides, 1, "evaluate");
    const DeviceLoop<L + 1> loop = make_device_loop<L + 1>(dst.sizes(), strides, "evaluate");
    DeviceGuard guard(dst.device());
    if (loop.flat())
        kernels::for_each_index(loop.numel, kernels::AssignFlat<T, V, L>{dst.data_ptr(), leaves, kernels::view_of(e)},
                                "evaluate");
    else
        kernels::for_each_index(loop.numel, Strided{dst.data_ptr(), leaves, loop, kernels::view_of(e)}, "evaluate");
}

}  // namespace tenet::detail
