// The PyTorch-generated cases of issue 18 item 4 (tests/autograd/autograd_mixed_precision_cases.inc)
// with every input on the device: float64/float32 gradients computed in the promoted type.
#include "../autograd/masks_check.hpp"

using namespace tenet;
using namespace masks_case;

#include "../autograd/autograd_mixed_precision_cases.inc"
