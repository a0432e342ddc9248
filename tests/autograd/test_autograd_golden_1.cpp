// Gradients and grad_fn names of the differentiable element-wise ops against PyTorch
// (part 1 of 4; cases in autograd_cases_1.inc, from tests/golden/gen_autograd.py).
#include "autograd_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace autograd_case;

#include "autograd_cases_1.inc"

}}  // namespace TENET_TEST_FILE
