// The PyTorch-generated cases of issue 18 items 2 and 3 (tests/autograd/autograd_masks_cases.inc)
// with every input on the device: masking rules select, rounding and sign give zero gradients.
#include "../autograd/masks_check.hpp"

using namespace tenet;
using namespace masks_case;

#include "../autograd/autograd_masks_cases.inc"
