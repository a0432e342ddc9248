#pragma once
// tenet's op library beyond the elementwise expressions: reductions, creation and random
// functions, joins and splits, flips, softmax, scans, sorting, order statistics, search,
// unique, counting, matmul and the products, einsum. Linear-algebra
// decompositions (and the Eigen headers they need) are in tenet/linalg.hpp.

#include "tenet/expr.hpp"

#include "tenet/ops/reduce.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/random.hpp"
#include "tenet/ops/join.hpp"
#include "tenet/ops/flip.hpp"
#include "tenet/ops/softmax.hpp"
#include "tenet/ops/scan.hpp"
#include "tenet/ops/sort.hpp"
#include "tenet/ops/quantile.hpp"
#include "tenet/ops/search.hpp"
#include "tenet/ops/unique.hpp"
#include "tenet/ops/histogram.hpp"
#include "tenet/ops/gather.hpp"
#include "tenet/ops/masks.hpp"
#include "tenet/ops/reshape_ops.hpp"
#include "tenet/ops/forwarded_methods.hpp"
#include "tenet/ops/closeness.hpp"
#include "tenet/core/named.hpp"
#include "tenet/nn/functional.hpp"

#include "tenet/linalg/matmul.hpp"
#include "tenet/linalg/products.hpp"
#include "tenet/linalg/einsum.hpp"
#include "tenet/linalg/static_einsum.hpp"

#include "tenet/core/hook_definitions.hpp"
#if TENET_AUTOGRAD
#include "tenet/autograd/products.hpp"
#endif
