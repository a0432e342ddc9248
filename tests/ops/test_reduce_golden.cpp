// The PyTorch-generated reduction cases (reduce_cases.inc, from tests/golden/gen_reduce.py):
// values, dtypes and shapes. A placed file (tests/CMakeLists.txt): its inputs go where
// tests/placement.hpp puts them, the host or a device.
#include "reduce_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("reduce: golden cases against PyTorch") {
#include "reduce_cases.inc"
}

}}  // namespace TENET_TEST_FILE
