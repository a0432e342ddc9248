#pragma once
// Streaming (non-temporal) stores for outputs larger than the last-level cache. A normal
// store first reads the destination's cache line from memory, then evicts inputs to keep it;
// a streaming store writes the line around the cache. For an output that cannot stay cached
// anyway, that saves one of the memory transfers per element (y = a*b + c: five become four;
// W3's (X + bias) * scale: three become two); see bench/RESULTS.md for the times. The host
// evaluator uses them (backend/host/evaluate.hpp); results never depend on it.
//
// x86-64 only, chosen at run time (AVX-512 or AVX stores; 16-byte SSE2 stores were slower
// than normal ones on that machine, so they are not used), and not in code nvcc compiles.

#include "tenet/config.hpp"
#include <cstdint>
#include <cstdio>

#include "tenet/core/errors.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define TENET_HAVE_STREAMING_STORES 1
#else
#define TENET_HAVE_STREAMING_STORES 0
#endif

namespace tenet::inline TENET_ABI {

namespace detail {

/// Copies `bytes` (a multiple of 64) from `src` to `dst`, both 64-byte aligned, with streaming stores.
using StreamCopy = void (*)(void* dst, const void* src, int64_t bytes);

#if TENET_HAVE_STREAMING_STORES
using Lanes64 = long long __attribute__((vector_size(64)));
using Lanes32 = long long __attribute__((vector_size(32)));

__attribute__((target("avx512f"))) inline void stream_copy_avx512(void* dst, const void* src, int64_t bytes) {
    auto* d = static_cast<Lanes64*>(dst);
    const auto* s = static_cast<const Lanes64*>(src);
    for (int64_t i = 0; i < bytes / 64; ++i) {
#if defined(__clang__)
        __builtin_nontemporal_store(s[i], d + i);
#else
        __builtin_ia32_movntdq512(d + i, s[i]);
#endif
    }
}

__attribute__((target("avx"))) inline void stream_copy_avx(void* dst, const void* src, int64_t bytes) {
    auto* d = static_cast<Lanes32*>(dst);
    const auto* s = static_cast<const Lanes32*>(src);
    for (int64_t i = 0; i < bytes / 32; ++i) {
#if defined(__clang__)
        __builtin_nontemporal_store(s[i], d + i);
#else
        __builtin_ia32_movntdq256(d + i, s[i]);
#endif
    }
}
#endif

/// The widest streaming copy this CPU runs, or nullptr.
inline StreamCopy cpu_stream_copy() {
#if TENET_HAVE_STREAMING_STORES
    static const StreamCopy copy = []() -> StreamCopy {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) return stream_copy_avx512;
        if (__builtin_cpu_supports("avx")) return stream_copy_avx;
        return nullptr;
    }();
    return copy;
#else
    return nullptr;
#endif
}

/// Runs `copy` (from stream_copy_for). Where the compiler itself targets AVX-512 or AVX, the
/// matching copy is called directly, so it inlines into the loop that fills `src`: through the
/// pointer, W3 took 10% longer on the EPYC VM.
inline void stream_lines(StreamCopy copy, void* dst, const void* src, int64_t bytes) {
#if TENET_HAVE_STREAMING_STORES && defined(__AVX512F__)
    (void)copy;
    stream_copy_avx512(dst, src, bytes);
#elif TENET_HAVE_STREAMING_STORES && defined(__AVX__)
    if (copy == stream_copy_avx) return stream_copy_avx(dst, src, bytes);
    copy(dst, src, bytes);
#else
    copy(dst, src, bytes);
#endif
}

/// Orders this thread's streaming stores before its later stores (and so before any
/// barrier another thread waits on): they are weakly ordered otherwise.
inline void stream_fence() {
#if TENET_HAVE_STREAMING_STORES
    __builtin_ia32_sfence();
#endif
}

/// The size of the last-level cache a core sees, from Linux's sysfs: its L3, or its L2 where it
/// has no L3 (glibc's sysconf reported twelve times the 32 MiB L3 that sysfs and lscpu report
/// on the EPYC VM); 32 MiB where sysfs says neither.
inline int64_t last_level_cache_bytes() {
    constexpr int64_t kFallback = int64_t{32} << 20;
    for (const char* path : {"/sys/devices/system/cpu/cpu0/cache/index3/size",
                             "/sys/devices/system/cpu/cpu0/cache/index2/size"}) {
        std::FILE* f = std::fopen(path, "r");
        if (!f) continue;
        long long value = 0;
        char unit = 0;
        const int read = std::fscanf(f, "%lld%c", &value, &unit);
        std::fclose(f);
        if (read < 1 || value <= 0) continue;
        const int64_t scale = unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024 * 1024 * 1024 : 1;
        return value * scale;
    }
    return kFallback;
}

inline int64_t& streaming_threshold_setting() {
    static int64_t bytes = last_level_cache_bytes();
    return bytes;
}

/// The streaming copy to write an output of `bytes` with, or nullptr for normal stores.
inline StreamCopy stream_copy_for(int64_t bytes) {
    const int64_t threshold = streaming_threshold_setting();
    return threshold >= 0 && bytes >= threshold ? cpu_stream_copy() : nullptr;
}

}  // namespace detail

/// Expression results of at least this many bytes are written with streaming stores, which
/// bypass the cache (default: the last-level cache's size, read from the OS). -1: never. 0
/// streams every result but a contiguous one under 2^18 elements (one plain loop writes those)
/// and those of a tiled walk (W4 took 4% longer streamed).
inline int64_t get_streaming_threshold() { return detail::streaming_threshold_setting(); }

/// Sets the threshold of get_streaming_threshold(): a byte count, or -1 for never.
inline void set_streaming_threshold(int64_t bytes) {
    if (bytes < -1)
        detail::fail<value_error>("set_streaming_threshold: expected a byte count >= 0, or -1 for never, got ", bytes);
    detail::streaming_threshold_setting() = bytes;
}

}  // namespace tenet
