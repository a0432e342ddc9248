#pragma once
// The host loops' instruction set, chosen when the program runs, as PyTorch's CPU kernels choose
// theirs: a program built for x86-64's baseline (SSE2, what the compilers target without -march)
// runs its hot loops with AVX2, in vectors twice as wide, on a CPU that has it.
//
// run_vectorised(f) calls f() through a copy of it compiled for AVX2 when the CPU has AVX2, and
// f() itself otherwise. The copy is flattened: everything f calls is inlined into it, and so
// compiled for AVX2 too (a function may inline callees whose instruction set is a subset of its
// own; the loops' building blocks are always_inline as well, since Clang's flatten does not
// reach through every level). Nothing else is compiled for AVX2, so no AVX2 instruction runs
// on a CPU without it. AVX2 without FMA: nothing can then contract a*b + c, so both copies round
// every operation alike and give the same bits (the lanes of a sum are the source's, not the
// vector unit's). The C library's functions (expf, sinf, ...) are called by both; glibc picks
// their own versions by CPU, so those may differ between CPUs, as they do for any program.
//
// The environment variable TENET_CPU_CAPABILITY=default (PyTorch: ATEN_CPU_CAPABILITY) keeps a
// program on the baseline loops; cpu_capability() says which ones run.
//
// TENET_SIMD_DISPATCH: 1 by default in an optimised x86-64 build whose baseline lacks AVX2.
// It may differ between the TUs of a program (an -O0 TU has one copy of each loop), and then
// cpu_capability() answers for the TU whose copy the linker kept. (A TU built with -mavx2 has
// AVX2 loops only: as with any inline code, build every TU for the CPUs the program runs on.)
// An unoptimised build (-O0: the tests, debugging) or one built for AVX2 already (-mavx2,
// -march=native) has nothing to gain from a second copy of each loop, which costs compile time;
// nor has nvcc's host pass. Define it 0 to compile one copy only.

#include "tenet/config.hpp"
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#ifndef TENET_SIMD_DISPATCH
#if defined(__OPTIMIZE__) && defined(__x86_64__) && !defined(__AVX2__) && !defined(__CUDACC__) && \
    (defined(__GNUC__) || defined(__clang__))
#define TENET_SIMD_DISPATCH 1
#else
#define TENET_SIMD_DISPATCH 0
#endif
#endif

namespace tenet::inline TENET_ABI::detail {

#if TENET_SIMD_DISPATCH
/// Whether the AVX2 copies run: the CPU has AVX2 and TENET_CPU_CAPABILITY does not say
/// "default". Asked once; set_avx2_loops changes it (the tests compare both).
inline bool cpu_has_avx2() noexcept {
    __builtin_cpu_init();  // a no-op once libgcc's constructor has run; needed before it
    return __builtin_cpu_supports("avx2");
}
inline bool initial_avx2_loops() noexcept {
    const bool cpu = cpu_has_avx2();
    const char* env = std::getenv("TENET_CPU_CAPABILITY");
    if (env == nullptr || *env == '\0') return cpu;
    const std::string_view want(env);
    if (want == "default" || want == "DEFAULT") return false;
    if (want != "avx2" && want != "AVX2")
        std::fprintf(stderr, "tenet: TENET_CPU_CAPABILITY=%s is not 'default' or 'avx2'; using %s\n", env,
                     cpu ? "avx2" : "default");
    return cpu;
}
inline std::atomic<bool>& avx2_loops() noexcept {
    static std::atomic<bool> on{initial_avx2_loops()};
    return on;
}
/// Runs the AVX2 copies (when the CPU has AVX2) or the baseline loops; returns the old setting.
inline bool set_avx2_loops(bool on) noexcept {
    return avx2_loops().exchange(on && cpu_has_avx2());
}

template <class F>
[[gnu::target("avx2"), gnu::flatten]] inline void run_avx2(const F& f) {
    f();
}
#endif

#if !TENET_SIMD_DISPATCH && defined(__OPTIMIZE__) && !defined(__CUDACC__) && (defined(__GNUC__) || defined(__clang__))
#define TENET_FLATTEN_ONE_COPY 1
/// The one copy of a build that targets its vector instructions already (-mavx2, -march=native),
/// flattened as run_avx2 is: without it, GCC's -O2 inliner leaves functors (SmallPow, Sigmoid)
/// out of line in the fused backward's loop, which then runs scalar (the polynomial fit with
/// autograd ran 5x slower with -march=native than without; bench/RESULTS.md).
template <class F>
[[gnu::flatten]] inline void run_flattened(const F& f) {
    f();
}
#else
#define TENET_FLATTEN_ONE_COPY 0
#endif

/// Calls f(), compiled for the widest vector instructions the CPU has (see above).
template <class F>
TENET_ALWAYS_INLINE inline void run_vectorised(const F& f) {
#if TENET_SIMD_DISPATCH
    if (avx2_loops().load(std::memory_order_relaxed)) return run_avx2(f);
#endif
#if TENET_FLATTEN_ONE_COPY
    run_flattened(f);
#else
    f();
#endif
}

}  // namespace tenet::detail

namespace tenet::inline TENET_ABI {

/// The vector instructions tenet's host loops run with: "AVX2" or "DEFAULT" (the build's
/// baseline), as PyTorch's torch.backends.cpu.get_cpu_capability().
inline std::string_view cpu_capability() noexcept {
#if TENET_SIMD_DISPATCH
    return detail::avx2_loops().load(std::memory_order_relaxed) ? "AVX2" : "DEFAULT";
#elif defined(__AVX2__)
    return "AVX2";
#else
    return "DEFAULT";
#endif
}

}  // namespace tenet
