#pragma once
// What every device kernel header needs: Thrust, pointed at CUDA (nvcc) or at its OpenMP
// system on the host (TENET_DEVICE_EMULATION: how CI runs this same code without a GPU),
// the execution policy tenet launches with, and CUDA error checking.

#if defined(TENET_DEVICE_EMULATION)
#if defined(__CUDACC__)
#error "tenet: TENET_DEVICE_EMULATION is for host compilers; under nvcc tenet runs on CUDA itself"
#endif
#if defined(THRUST_DEVICE_SYSTEM) && THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_OMP
#error "tenet: TENET_DEVICE_EMULATION needs Thrust's OpenMP device system"
#endif
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_OMP
#endif
#endif

#include "tenet/config.hpp"
#include <atomic>
#include <cstdint>
#include <string>

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI::kernels {

/// True when this build runs kernels on a real CUDA device.
#if defined(__CUDACC__)
inline constexpr bool kCuda = true;
#else
inline constexpr bool kCuda = false;
#endif

/// The policy element-wise launches use. On CUDA it does not wait for the kernel (work is
/// queued on the default stream, in order; reading results back synchronises), so a chain
/// of assignments costs launches, not round trips.
inline auto launch_policy() {
#if defined(__CUDACC__)
    return thrust::cuda::par_nosync;
#else
    return thrust::device;
#endif
}

#if defined(__CUDACC__)
/// Throws device_error naming `what` and CUDA's message unless `status` is cudaSuccess.
inline void check_cuda(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        detail::fail<device_error>(what, ": CUDA error ", static_cast<int>(status), " (", cudaGetErrorName(status),
                                   "): ", cudaGetErrorString(status));
}
#endif

/// Reports a failed launch (an asynchronous kernel error shows up at the next check).
inline void check_launch(const char* what) {
#if defined(__CUDACC__)
    check_cuda(cudaGetLastError(), what);
#else
    (void)what;
#endif
}

/// The number of device operations tenet has launched (element-wise kernels and reductions):
/// how the tests show that one assignment is one kernel.
inline std::atomic<int64_t>& launch_counter() {
    static std::atomic<int64_t> count{0};
    return count;
}
inline int64_t launches() { return launch_counter().load(std::memory_order_relaxed); }

/// Calls f(i) for i in [0, n) on the current device, in one launch.
template <class F>
void for_each_index(int64_t n, const F& f, const char* what) {
    if (n <= 0) return;
    launch_counter().fetch_add(1, std::memory_order_relaxed);
    thrust::for_each_n(launch_policy(), thrust::counting_iterator<int64_t>(0), n, f);
    check_launch(what);
}

}  // namespace tenet::kernels
