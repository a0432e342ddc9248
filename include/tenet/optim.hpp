#pragma once
// tenet::optim: the update rules that training loops call, as LibTorch's torch::optim: SGD,
// Adam and AdamW over a list of parameters, with zero_grad() and step(). Needs autograd.

#include "tenet/config.hpp"

#if !TENET_AUTOGRAD
#error "tenet/optim.hpp: the optimizers need autograd (tenet is built with TENET_AUTOGRAD=0)"
#endif

#include "tenet/autograd.hpp"
#include "tenet/optim/optimizer.hpp"
#include "tenet/optim/sgd.hpp"
#include "tenet/optim/adam.hpp"
