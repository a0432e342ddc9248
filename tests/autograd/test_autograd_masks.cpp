// Issue 18, items 2 and 3, against PyTorch (cases in autograd_masks_cases.inc, from
// tests/golden/gen_autograd_masks.py): masking rules select, so a nan or inf upstream gradient
// of a masked-away element gives 0; rounding and sign are recorded and give zero gradients.
#include "masks_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace masks_case;

#include "autograd_masks_cases.inc"

}}  // namespace TENET_TEST_FILE
