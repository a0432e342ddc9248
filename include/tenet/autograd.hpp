#pragma once
// tenet's autograd API: autograd::grad, gradcheck/gradgradcheck, the graph (Node, to_dot).
// Recording itself needs no include: every module header records when tenet is built with
// TENET_AUTOGRAD=1 (the default).

#include "tenet/config.hpp"

#if !TENET_AUTOGRAD
#error "tenet/autograd.hpp: tenet is built without autograd (TENET_AUTOGRAD=0; CMake option TENET_AUTOGRAD=OFF)"
#endif

#include "tenet/ops.hpp"

#include "tenet/autograd/node.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/accumulate_hooks.hpp"
#include "tenet/autograd/grad.hpp"
#include "tenet/autograd/gradcheck.hpp"
#include "tenet/autograd/graphviz.hpp"

// Compiled mode: autograd's instantiations the compiled library holds (declared extern here).
#include "tenet/compiled/autograd_instantiations.hpp"
