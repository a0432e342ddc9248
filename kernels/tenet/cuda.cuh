#pragma once
// tenet's device side: the CUDA backend and the kernels that evaluate expressions,
// reductions and random numbers on a device. tenet.hpp includes this header itself where
// the device evaluator exists (nvcc, or TENET_DEVICE_EMULATION; see core/host_device.hpp),
// so a program that includes <tenet/tenet.hpp> needs nothing more.

#include "tenet/cuda/config.cuh"

#include "tenet/cuda/backend.cuh"
#include "tenet/cuda/view.cuh"
#include "tenet/cuda/evaluate.cuh"
#include "tenet/cuda/reduce.cuh"
#include "tenet/cuda/random.cuh"
#include "tenet/cuda/blas.cuh"
#include "tenet/cuda/order.cuh"
#include "tenet/cuda/index.cuh"
