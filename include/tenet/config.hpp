#pragma once
// Program-wide build switches, and the ABI tag that keeps programs from mixing them.
//
// TENET_AUTOGRAD (default 1): 0 builds tenet with no recording code at all (CMake:
// -DTENET_AUTOGRAD=OFF). Grad-mode queries still work; requires_grad_(true) and backward()
// throw. Every TU of one program must agree: everything tenet declares lives in an inline
// namespace named after the mode (tenet::ag1 or tenet::ag0), so a program whose TUs were
// built in different modes fails to link (as libstdc++'s and fmt's version namespaces do),
// never running as a silent violation of the one-definition rule.

#ifndef TENET_AUTOGRAD
#define TENET_AUTOGRAD 1
#endif

// TENET_COMPILED (default 0): 1 in a program linked with the compiled library (CMake target
// tenet::compiled, which defines it). The machinery every program instantiates the same way
// (the backward engine, the evaluator's shared walk, views and geometry, the allocator, the
// nodes of views, copies and sums, linalg's Eigen-backed kernels) is then compiled once, in that
// library, and the headers only declare it: functions marked TENET_FIXED are defined there, and
// the element-type instantiations listed under TENET_EXTERN_TEMPLATE (or, for the walk and
// linalg, `extern`, defined in one TU per element type) are explicit instantiations there. Header
// only (0) defines everything inline, as before. A program must not mix the modes: the ABI tag
// below differs, so it fails to link.
#ifndef TENET_COMPILED
#define TENET_COMPILED 0
#endif

#if TENET_AUTOGRAD && TENET_COMPILED
#define TENET_ABI ag1c
#elif TENET_AUTOGRAD
#define TENET_ABI ag1
#elif TENET_COMPILED
#define TENET_ABI ag0c
#else
#define TENET_ABI ag0
#endif

// TENET_FIXED declares and defines a fixed (non-template) function: inline in header-only mode,
// an ordinary external function of the library in compiled mode. TENET_HEADER_DEFINITIONS is 1
// where their bodies are compiled: every TU in header-only mode, the library's one TU
// (TENET_LIBRARY_SOURCE, include/tenet/compiled/library.cpp) in compiled mode.
// TENET_EXTERN_TEMPLATE goes before `template` in the lists of fixed instantiations (guarded
// by `#if TENET_COMPILED`): `extern` (declared here, instantiated in the library) in users' TUs,
// nothing (the explicit instantiation definition) in the library's.
#if TENET_COMPILED
#define TENET_FIXED
#if defined(TENET_LIBRARY_SOURCE)
#define TENET_HEADER_DEFINITIONS 1
#define TENET_EXTERN_TEMPLATE
#else
#define TENET_HEADER_DEFINITIONS 0
#define TENET_EXTERN_TEMPLATE extern
#endif
#else
#define TENET_FIXED inline
#define TENET_HEADER_DEFINITIONS 1
#endif

// Declares the inline namespace before any header reopens it as `tenet::inline TENET_ABI`.
namespace tenet {
inline namespace TENET_ABI {}
}  // namespace tenet

// Forced inlining for the hot loops' building blocks (TENET_ALWAYS_INLINE on a function,
// TENET_LOOP_INLINE on an inline free function, TENET_LOOP_FLATTEN on a loop that inlines
// everything it calls): GCC's -O2 inliner leaves them out of line in a large translation unit,
// which keeps the loop scalar. An unoptimised build (-O0: the tests, debugging) keeps them calls:
// inlined there, where nothing removes the values that several gradients recompute, they only
// multiply the code it compiles.
// TENET_FLATTEN_INLINE marks what a flattened function calls through a further level (a loop in
// a lambda, a helper): GCC's flatten inlines those on its own, Clang's flatten stops at the first
// level, so only Clang gets always_inline there (forcing it under GCC only costs compile time).
// It goes after a lambda's parameter list or before a function's return type.
#if defined(__OPTIMIZE__)
#define TENET_ALWAYS_INLINE [[gnu::always_inline]]
#define TENET_LOOP_FLATTEN [[gnu::flatten]]
#else
#define TENET_ALWAYS_INLINE
#define TENET_LOOP_FLATTEN
#endif
#if defined(__OPTIMIZE__) && defined(__clang__)
#define TENET_FLATTEN_INLINE __attribute__((always_inline))
#else
#define TENET_FLATTEN_INLINE
#endif
#define TENET_LOOP_INLINE TENET_ALWAYS_INLINE inline

// TENET_UNROLL goes before a loop of a small constant trip count (the lanes of a sum, a run of
// them) that must become straight-line code for its body to vectorise: GCC does that at -O3
// (-fpeel-loops), not at -O2 (the polynomial fit took 1.2x as long at -O2 without it).
#if defined(__clang__)
#define TENET_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define TENET_UNROLL _Pragma("GCC unroll 16")
#else
#define TENET_UNROLL
#endif
