#pragma once
// Portability macros for code that also runs inside device kernels.
//
// TENET_HD marks functions that device code calls (element functors, conversions, the
// 16-bit float types, the random generator): `__host__ __device__` under nvcc, nothing
// otherwise.
//
// TENET_DEVICE_EVALUATOR is 1 in translation units that can evaluate expressions on a
// device: those compiled by nvcc, and those compiled with TENET_DEVICE_EMULATION, where
// Thrust's OpenMP device system stands in for CUDA on the host (how CI tests the device
// code without a GPU). Elsewhere, an expression over device tensors throws device_error.
// Moving data (to, cuda, cpu, copy_, fill_, printing) works in every translation unit once
// a device backend is linked in (backend/device/device_backend.hpp).

#if defined(__CUDACC__)
#define TENET_HD __host__ __device__
#else
#define TENET_HD
#endif

#if defined(TENET_DEVICE_EMULATION) || (defined(__CUDACC__) && !defined(TENET_NO_DEVICE_EVALUATOR))
#define TENET_DEVICE_EVALUATOR 1
#else
#define TENET_DEVICE_EVALUATOR 0
#endif
