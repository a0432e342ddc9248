#pragma once
// tenet: a header-only C++20 tensor library with PyTorch's semantics. Include this one header
// for everything (namespace tenet), or a module header for less: tenet/core.hpp,
// tenet/expr.hpp, tenet/ops.hpp, tenet/linalg.hpp, tenet/autograd.hpp, tenet/optim.hpp.

#include "tenet/core.hpp"
#include "tenet/expr.hpp"
#include "tenet/ops.hpp"
#include "tenet/linalg.hpp"
#if TENET_AUTOGRAD
#include "tenet/autograd.hpp"
#include "tenet/optim.hpp"
#endif

// The device side (kernels/): under nvcc, or with TENET_DEVICE_EMULATION.
#if TENET_DEVICE_EVALUATOR
#include "tenet/cuda.cuh"
#endif
