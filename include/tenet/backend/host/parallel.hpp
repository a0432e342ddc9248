#pragma once
// Intra-op parallelism: the number of threads large element-wise work is split across
// (PyTorch's set_num_threads / get_num_threads). Results never depend on it.

#include "tenet/config.hpp"
#include <algorithm>
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

namespace detail {
/// f(begin, end) over [0, n), split into one contiguous chunk per thread when n is large. f must
/// not throw (an exception cannot leave an OpenMP region): check arguments before.
template <class F>
void parallel_range(int64_t n, F&& f) {
#ifdef _OPENMP
    const int threads = get_num_threads();
    if (threads > 1 && n >= kParallelThreshold) {
#pragma omp parallel num_threads(threads)
        {
            const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
            const int64_t chunk = (n + nt - 1) / nt;
            const int64_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
            if (b < e) f(b, e);
        }
        return;
    }
#endif
    f(int64_t{0}, n);
}
}  // namespace detail

}  // namespace tenet
