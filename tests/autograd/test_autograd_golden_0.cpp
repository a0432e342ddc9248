// Gradients and grad_fn names of the differentiable element-wise ops against PyTorch
// (part 0 of 4; cases in autograd_cases_0.inc, from tests/golden/gen_autograd.py).
#include "autograd_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace autograd_case;

#include "autograd_cases_0.inc"

}}  // namespace TENET_TEST_FILE
