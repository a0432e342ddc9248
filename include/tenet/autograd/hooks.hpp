#pragma once
// The definitions of the autograd seam (core/hooks.hpp) when tenet records history
// (TENET_AUTOGRAD=1): assignments and sum/mean (autograd/record.hpp), views, copies and
// Tensor's autograd methods (autograd/tensor_autograd.hpp), the other reductions, joins and flips, and
// the operations with a backward of their own (autograd/function_node.hpp).
// The linear algebra's hooks are defined beside their operations' modules:
// autograd/products.hpp (tenet/ops.hpp) and autograd/decompositions.hpp (tenet/linalg.hpp).

#include "tenet/config.hpp"

#if !TENET_AUTOGRAD
#error "tenet/autograd/hooks.hpp: tenet is built without autograd (TENET_AUTOGRAD=0)"
#endif

#include "tenet/autograd/record.hpp"
#include "tenet/autograd/tensor_autograd.hpp"
#include "tenet/autograd/reductions.hpp"
#include "tenet/autograd/join.hpp"
#include "tenet/autograd/flip.hpp"
#include "tenet/autograd/function_node.hpp"
