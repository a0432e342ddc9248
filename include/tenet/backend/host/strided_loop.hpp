#pragma once
// The N-d strided walk used by copies, fills and conversions in the core layer.
// Dims that all operands walk contiguously are merged first, so a dense copy is a
// flat loop; otherwise the innermost dim runs as a tight strided loop.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tenet/core/geometry.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"

// TENET_SIMD_LOOP goes right before a loop whose iterations are independent (no iteration
// stores what another one reads, except each its own element), and asks the compiler to
// vectorise it whatever the optimisation level's cost model says. GCC's -O2 model only
// vectorises loops that need no run-time alias check and no scalar remainder, so without it
// tenet's loops stay scalar at -O2 (they vectorise at -O3, and with Clang at -O2). `omp simd`
// needs -fopenmp (which tenet::tenet requires) or -fopenmp-simd (then define TENET_OPENMP_SIMD:
// that flag defines no macro); otherwise the compilers' own no-dependence pragmas stand in,
// which lift the alias check but not GCC's -O2 cost model. Clang gets no hint: it vectorises
// these loops at -O2 on its own (with a run-time alias check), and a forced one becomes a
// -Wpass-failed warning wherever it cannot vectorise (16-bit floats, for one).
#if defined(__clang__)
#define TENET_SIMD_LOOP
#elif defined(_OPENMP) || defined(TENET_OPENMP_SIMD)
#define TENET_SIMD_LOOP _Pragma("omp simd")
#elif defined(__GNUC__)
#define TENET_SIMD_LOOP _Pragma("GCC ivdep")
#else
#define TENET_SIMD_LOOP
#endif

namespace tenet::inline TENET_ABI::detail {

/// Writes v to p[0, n). All-zero bytes (zero_(), zeros(), a gradient reset) go to memset, the C
/// library's widest stores; other values to a loop TENET_SIMD_LOOP vectorises (std::fill_n of a
/// run-time length stays scalar at GCC's -O2: zero_ of 100,000 floats took 40 us).
template <class T>
void fill_contiguous(T* p, int64_t n, T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    bool zero = true;
    for (unsigned char b : bytes) zero = zero && b == 0;
    if (zero) {
        if (n > 0) std::memset(static_cast<void*>(p), 0, static_cast<size_t>(n) * sizeof(T));
        return;
    }
    TENET_SIMD_LOOP
    for (int64_t i = 0; i < n; ++i) p[i] = v;
}

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
