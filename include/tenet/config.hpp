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

#if TENET_AUTOGRAD
#define TENET_ABI ag1
#else
#define TENET_ABI ag0
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
