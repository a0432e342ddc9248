// Element conversion between all ten dtypes against real PyTorch 1.13 on x86-64
// (golden_conversion.inc, written by tests/golden/gen_core.py). Inputs are built
// bit-exactly; outputs are compared bit for bit: float -> int truncation, NaN, inf and
// out-of-range floats to integers (x86 "integer indefinite" wrapped as PyTorch wraps
// it), negative floats to uint8, anything -> bool, and rounding to float16/bfloat16
// (nearest-even, overflow to inf, subnormals).
#include "golden_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("conversion: golden cases from PyTorch (all dtype pairs)") {
#include "golden_conversion.inc"
}

}}  // namespace TENET_TEST_FILE
