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

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "tenet/core/expression_fwd.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::detail {

inline constexpr int64_t kChunk = 256;

/// Copies `count` elements of `itemsize` bytes, `stride` elements apart, into `out`.
inline void gather(unsigned char* out, const unsigned char* in, int64_t stride, int64_t count, int64_t itemsize) {
    auto typed = [&](auto tag) {
        using W = decltype(tag);
        const W* src = reinterpret_cast<const W*>(in);
        W* dst = reinterpret_cast<W*>(out);
        for (int64_t j = 0; j < count; ++j) std::memcpy(dst + j, src + j * stride, sizeof(W));
    };
    switch (itemsize) {
        case 1: return typed(uint8_t{});
        case 2: return typed(uint16_t{});
        case 4: return typed(uint32_t{});
        default: return typed(uint64_t{});
    }
}

/// Runs `e` over `dst`'s shape (leaves broadcast to it) and writes every element of dst.
template <class T, class E>
void run_expression(const Tensor<T>& dst, const E& e) {
    constexpr size_t L = E::num_leaves;
    constexpr size_t N = L + 1;  // operand 0 is the destination
    if (dst.numel() == 0) return;

    std::array<IntArray, N> strides;
    std::array<unsigned char*, N> base;
    std::array<int64_t, N> itemsize;
    strides[0] = dst.strides();
    base[0] = reinterpret_cast<unsigned char*>(dst.data_ptr());
    itemsize[0] = sizeof(T);
    size_t k = 1;
    e.for_each_leaf([&](const TensorBase& leaf) {
        strides[k] = expand_geometry(leaf.sizes(), leaf.strides(), dst.sizes(), "evaluate").second;
        base[k] = static_cast<unsigned char*>(leaf.impl().storage->data()) + leaf.storage_offset() * leaf.element_size();
        itemsize[k] = leaf.element_size();
        ++k;
    });
    IntArray sizes = dst.sizes();
    if (sizes.empty()) {  // a 0-d result: one element
        sizes = IntArray{1};
        for (auto& s : strides) s = IntArray{0};
    }
    coalesce_dims(sizes, strides);

    const size_t nd = sizes.size();
    const int64_t inner = sizes[nd - 1];
    std::array<int64_t, N> inner_stride;
    bool unit = true;
    for (size_t o = 0; o < N; ++o) {
        inner_stride[o] = strides[o][nd - 1];
        unit = unit && inner_stride[o] == 1;
    }

    std::array<int64_t, N> offset{};  // byte offset of the current row, per operand
    IntArray counter(nd, 0);
    std::array<const void*, L + (L == 0)> ptrs{};
    alignas(64) unsigned char buffers[L + 1][kChunk * 8];

    while (true) {
        T* out = reinterpret_cast<T*>(base[0] + offset[0]);
        if (unit) {
            for (size_t l = 0; l < L; ++l) ptrs[l] = base[l + 1] + offset[l + 1];
            for (int64_t i = 0; i < inner; ++i) out[i] = convert<T>(e.template at<0>(ptrs, i));
        } else {
            for (int64_t i0 = 0; i0 < inner; i0 += kChunk) {
                const int64_t count = std::min(kChunk, inner - i0);
                for (size_t l = 0; l < L; ++l) {
                    const unsigned char* row = base[l + 1] + offset[l + 1];
                    const int64_t s = inner_stride[l + 1];
                    if (s == 1) {
                        ptrs[l] = row + i0 * itemsize[l + 1];
                    } else {
                        gather(buffers[l], row + i0 * s * itemsize[l + 1], s, count, itemsize[l + 1]);
                        ptrs[l] = buffers[l];
                    }
                }
                if (inner_stride[0] == 1) {
                    T* o = out + i0;
                    for (int64_t i = 0; i < count; ++i) o[i] = convert<T>(e.template at<0>(ptrs, i));
                } else {
                    T* o = reinterpret_cast<T*>(buffers[L]);
                    for (int64_t i = 0; i < count; ++i) o[i] = convert<T>(e.template at<0>(ptrs, i));
                    for (int64_t i = 0; i < count; ++i) out[(i0 + i) * inner_stride[0]] = o[i];
                }
            }
        }
        // Next row: advance the outer dims like an odometer.
        size_t d = nd - 1;
        while (true) {
            if (d == 0) return;
            --d;
            if (++counter[d] < sizes[d]) {
                for (size_t o = 0; o < N; ++o) offset[o] += strides[o][d] * itemsize[o];
                break;
            }
            for (size_t o = 0; o < N; ++o) offset[o] -= (sizes[d] - 1) * strides[o][d] * itemsize[o];
            counter[d] = 0;
        }
    }
}

/// Whether writing dst element-by-element could change a value the expression has yet to
/// read: a leaf shares memory with dst but not element-for-element.
template <class T, class E>
bool needs_temporary(const Tensor<T>& dst, const E& e) {
    bool needed = false;
    e.for_each_leaf([&](const TensorBase& leaf) {
        if (needed || !may_overlap(dst.impl(), leaf.impl())) return;
        const bool same_elements =
            leaf.element_size() == static_cast<int64_t>(sizeof(T)) && leaf.storage_offset() == dst.storage_offset() &&
            expand_geometry(leaf.sizes(), leaf.strides(), dst.sizes(), "evaluate").second == dst.strides();
        needed = !same_elements;
    });
    return needed;
}

template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode) {
    static_assert(TensorExpression<E>, "tenet: evaluate_into needs an expression");
    if (auto device = e.device(); device && !device->is_cpu())
        fail<device_error>("evaluate: expressions on ", *device, " are not supported in this build");
    const IntArray& shape = e.shape();
    if (mode == AssignMode::Fresh || (mode == AssignMode::Out && (!dst.defined() || dst.sizes() != shape))) {
        // PyTorch's out= resizes a destination of the wrong shape; a fresh result is the same.
        Tensor<T> fresh(make_contiguous_impl(shape, dtype_of<T>, Device(DeviceType::CPU)));
        run_expression(fresh, e);
        dst = std::move(fresh);
        return;
    }
    expand_geometry(shape, IntArray(shape.size(), 0), dst.sizes(), "assign");  // e must broadcast to dst
    check_no_internal_overlap(dst.impl(), "assign");
    if (needs_temporary(dst, e)) {
        Tensor<T> tmp(make_contiguous_impl(shape, dtype_of<T>, Device(DeviceType::CPU)));
        run_expression(tmp, e);
        dst.copy_(tmp);
        return;
    }
    run_expression(dst, e);
    dst.impl().storage->bump_version();
}

}  // namespace tenet::detail
