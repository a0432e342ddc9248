#pragma once
// The N-d strided walk used by copies, fills and conversions in the core layer.
// Dims that all operands walk contiguously are merged first, so a dense copy is a
// flat loop; otherwise the innermost dim runs as a tight strided loop.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>

#include "tenet/core/geometry.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Calls `body(offsets)` once per element of `sizes`, in row-major order, where
/// offsets[k] = base[k] + sum_d index[d] * strides[k][d] is operand k's element offset.
template <size_t N, class Body>
void for_each_offset(IntArray sizes, std::array<IntArray, N> strides, std::array<int64_t, N> base, Body&& body) {
    if (product(sizes) == 0) return;
    if (sizes.empty()) {
        body(base);
        return;
    }
    coalesce_dims(sizes, strides);
    const size_t nd = sizes.size();
    const int64_t inner = sizes[nd - 1];
    std::array<int64_t, N> inner_stride;
    for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][nd - 1];

    IntArray counter(nd, 0);
    std::array<int64_t, N> outer = base;
    while (true) {
        std::array<int64_t, N> off = outer;
        for (int64_t i = 0; i < inner; ++i) {
            body(off);
            for (size_t k = 0; k < N; ++k) off[k] += inner_stride[k];
        }
        // Advance the outer dims like an odometer.
        size_t d = nd - 1;
        while (true) {
            if (d == 0) return;
            --d;
            if (++counter[d] < sizes[d]) {
                for (size_t k = 0; k < N; ++k) outer[k] += strides[k][d];
                break;
            }
            for (size_t k = 0; k < N; ++k) outer[k] -= (sizes[d] - 1) * strides[k][d];
            counter[d] = 0;
        }
    }
}

}  // namespace tenet::detail
