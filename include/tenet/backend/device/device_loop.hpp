#pragma once
// DeviceLoop: N operands laid over one shape, as a device kernel receives them. A plain,
// trivially copyable struct (fixed-size arrays, no pointers to host memory), so it can be
// passed by value to a kernel; built on the host from sizes and per-operand strides, with
// the dims that every operand walks contiguously merged first.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <type_traits>

#include "tenet/core/errors.hpp"
#include "tenet/core/geometry.hpp"
#include "tenet/core/host_device.hpp"

namespace tenet::inline TENET_ABI::detail {

/// The most dims a device kernel walks after merging (PyTorch's CUDA kernels allow 25;
/// merged layouts rarely have more than three).
inline constexpr int kMaxDeviceDims = 16;

template <size_t N>
struct DeviceLoop {
    int ndim = 0;        ///< dims after merging; 0 for a single element
    int64_t numel = 0;
    int64_t sizes[kMaxDeviceDims] = {};
    int64_t strides[N][kMaxDeviceDims] = {};  ///< in elements, per operand

    /// The element offset of flat (row-major) index i in each operand.
    TENET_HD void offsets(int64_t i, int64_t (&off)[N]) const {
        for (size_t k = 0; k < N; ++k) off[k] = 0;
        for (int d = ndim - 1; d >= 0; --d) {
            const int64_t c = i % sizes[d];
            i /= sizes[d];
            for (size_t k = 0; k < N; ++k) off[k] += c * strides[k][d];
        }
    }
    /// Whether every operand is contiguous over the loop (then offset == index).
    bool flat() const {
        if (ndim == 0) return true;
        if (ndim > 1) return false;
        for (size_t k = 0; k < N; ++k)
            if (strides[k][0] != 1) return false;
        return true;
    }
};

/// Lays N operands (their strides over `sizes`) out for a kernel; `op` names the caller.
template <size_t N>
DeviceLoop<N> make_device_loop(IntArray sizes, std::array<IntArray, N> strides, const char* op) {
    static_assert(std::is_trivially_copyable_v<DeviceLoop<N>>);
    DeviceLoop<N> loop;
    loop.numel = product(sizes);
    coalesce_dims(sizes, strides);
    if (sizes.size() == 1 && sizes[0] == 1) sizes.resize(0);
    if (static_cast<int>(sizes.size()) > kMaxDeviceDims)
        fail<shape_error>(op, ": a device kernel walks at most ", kMaxDeviceDims, " dims, but the layout of shape ",
                          sizes, " needs ", sizes.size(), " after merging contiguous dims");
    loop.ndim = static_cast<int>(sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) {
        loop.sizes[d] = sizes[d];
        for (size_t k = 0; k < N; ++k) loop.strides[k][d] = strides[k][d];
    }
    return loop;
}

}  // namespace tenet::detail
