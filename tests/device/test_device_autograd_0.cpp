// The PyTorch-generated autograd cases (part 0 of 4, tests/autograd/autograd_cases_0.inc)
// with every leaf on the device: forward values, grad_fn names and gradients.
#include "../autograd/autograd_check.hpp"

using namespace tenet;
using namespace autograd_case;

#include "../autograd/autograd_cases_0.inc"
