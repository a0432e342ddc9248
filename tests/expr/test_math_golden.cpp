// The PyTorch-generated unary math cases (math_cases.inc, from tests/golden/gen_math.py, compared
// as math_check.hpp says): functions, methods, strided inputs and in-place forms. A placed file
// (tests/CMakeLists.txt): its inputs go where tests/placement.hpp puts them, the host or a device.
#include "math_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace math_case;
#include "math_cases.inc"

}}  // namespace TENET_TEST_FILE
