#pragma once
// tenet's core module: Tensor (strided views of shared storage), dtypes and their promotion,
// devices, views and indexing, static shapes, errors, grad mode, the creation functions
// (tensor, zeros, ones, arange, full, ...) and printing. The elementwise
// operations are in tenet/expr.hpp, the rest of the op library in tenet/ops.hpp and
// tenet/linalg.hpp, the autograd API in tenet/autograd.hpp; tenet/tenet.hpp has everything.

#include "tenet/config.hpp"
#include "tenet/version.hpp"

#include "tenet/core/host_device.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/core/device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/backend/host/parallel.hpp"
#include "tenet/core/static_tensor.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/core/advanced_index.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/io/print.hpp"

#include "tenet/core/hook_definitions.hpp"
