// The PyTorch-generated binary and ternary cases (binary_cases.inc, from tests/golden/gen_binary.py):
// values and dtypes. A placed file (tests/CMakeLists.txt): its inputs go where
// tests/placement.hpp puts them, the host or a device.
#include "binary_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("binary: golden values and dtypes from PyTorch") {
    using namespace binary_case;
#include "binary_cases.inc"
}

}}  // namespace TENET_TEST_FILE
