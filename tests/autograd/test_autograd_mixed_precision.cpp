// Issue 18, item 4, against PyTorch (cases in autograd_mixed_precision_cases.inc, from
// tests/golden/gen_autograd_masks.py): with float64 and float32 operands, gradients are
// computed in the promoted type through every reduction seed (whole-tensor sum and mean,
// sum over a dim, a tensor assigned first), broadcast either way.
#include "masks_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace masks_case;

#include "autograd_mixed_precision_cases.inc"

}}  // namespace TENET_TEST_FILE
