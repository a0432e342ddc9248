#pragma once
// Which engine transforms a device tensor.
//
// TENET_CUFFT is 1 in translation units compiled by nvcc with the device evaluator
// (core/host_device.hpp; define TENET_NO_CUFFT to opt out): there a device tensor's transform
// runs on its device through cuFFT (kernels/tenet/cuda/fft.cuh; link CUDA::cufft), its copies,
// padding and norm by the device evaluator. Elsewhere it is 0: under the Thrust OpenMP
// emulation (TENET_DEVICE_EMULATION) and in host-compiled translation units, a device tensor
// is copied to the host, transformed by the host engine (engine.hpp) and the result copied back.

#include "tenet/config.hpp"
#include "tenet/core/host_device.hpp"

#if defined(__CUDACC__) && TENET_DEVICE_EVALUATOR && !defined(TENET_NO_CUFFT)
#define TENET_CUFFT 1
#include "tenet/cuda/fft.cuh"
#else
#define TENET_CUFFT 0
#endif

#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::fft::detail {

/// Whether t's transform runs on t's device (cuFFT) rather than on the host engine.
inline bool on_device_engine(const TensorBase& t) {
    return TENET_CUFFT && !t.is_cpu() && !t.is_meta();  // a meta tensor goes to the host path, which refuses it
}

}  // namespace tenet::inline TENET_ABI::fft::detail
