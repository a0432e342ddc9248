#pragma once
// Intra-op parallelism: the number of threads large element-wise work is split across
// (PyTorch's set_num_threads / get_num_threads). Results never depend on it.

#include "tenet/config.hpp"
#include <atomic>
#include <cstdint>

#include "tenet/core/errors.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tenet::inline TENET_ABI {

namespace detail {
/// Read by every large operation on any thread, set by set_num_threads on any other.
inline std::atomic<int>& num_threads_setting() {
#ifdef _OPENMP
    static std::atomic<int> n{omp_get_max_threads()};
#else
    static std::atomic<int> n{1};
#endif
    return n;
}
/// Outputs smaller than this stay on the calling thread: below ~2^18 elements (tens of
/// microseconds of work) waking a second thread costs more than it saves, especially on
/// a machine whose other cores are busy.
inline constexpr int64_t kParallelThreshold = int64_t{1} << 18;
}  // namespace detail

/// The number of threads tenet splits large operations across.
inline int get_num_threads() { return detail::num_threads_setting().load(std::memory_order_relaxed); }

/// Sets the number of threads for large operations (n >= 1). Without OpenMP only 1 is valid.
inline void set_num_threads(int n) {
    if (n < 1) detail::fail<value_error>("set_num_threads: expected a positive number of threads, got ", n);
#ifndef _OPENMP
    if (n != 1)
        detail::fail<value_error>("set_num_threads: tenet was compiled without OpenMP, so only 1 thread is available");
#endif
    detail::num_threads_setting().store(n, std::memory_order_relaxed);
}

}  // namespace tenet
