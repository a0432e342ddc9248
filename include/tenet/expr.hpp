#pragma once
// tenet's expression module: lazy elementwise expressions (arithmetic, comparisons, math
// functions, where, clamp, pow, casts) that fuse into one pass when assigned to a tensor.

#include "tenet/core.hpp"

#include "tenet/expr/promotion.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/expr/binary_ops.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/complex.hpp"
#include "tenet/expr/activations.hpp"
#include "tenet/expr/pow_rewrite.hpp"
#include "tenet/backend/host/evaluate.hpp"

#include "tenet/core/hook_definitions.hpp"

// Compiled mode: the instantiations the compiled library holds (declared extern here).
#include "tenet/compiled/instantiations.hpp"
