#pragma once
// tenet: a header-only C++20 tensor library with PyTorch's semantics.
// Include this one header; everything is in namespace tenet. The headers below are not
// standalone: the core calls autograd hooks (core/expression_fwd.hpp) that the autograd
// headers, included last, define.

#include "tenet/version.hpp"

#include "tenet/core/host_device.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/core/device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/parallel.hpp"
#include "tenet/core/tensor.hpp"

#include "tenet/expr/promotion.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/expr/binary_ops.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/fast_pow.hpp"
#include "tenet/expr/evaluate.hpp"

#include "tenet/ops/reduce.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/random.hpp"
#include "tenet/ops/join.hpp"
#include "tenet/ops/flip.hpp"

#include "tenet/linalg/matmul.hpp"
#include "tenet/linalg/products.hpp"
#include "tenet/linalg/decompositions.hpp"
#include "tenet/linalg/einsum.hpp"
#include "tenet/linalg/static_einsum.hpp"

#include "tenet/io/print.hpp"
#include "tenet/autograd/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/autograd/variable.hpp"
#include "tenet/autograd/reductions.hpp"
#include "tenet/autograd/grad.hpp"
#include "tenet/autograd/gradcheck.hpp"
#include "tenet/autograd/linalg.hpp"
#include "tenet/autograd/join.hpp"
#include "tenet/autograd/flip.hpp"
#include "tenet/autograd/graphviz.hpp"

// The device side (kernels/): under nvcc, or with TENET_DEVICE_EMULATION.
#if TENET_DEVICE_EVALUATOR
#include "tenet/cuda.cuh"
#endif
