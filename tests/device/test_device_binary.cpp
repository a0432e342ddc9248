// The PyTorch-generated binary and ternary cases (tests/expr/binary_cases.inc) with every input
// on the device (tests/placement.hpp).
#include "../expr/binary_check.hpp"

TEST_CASE("device binary: golden values and dtypes from PyTorch") {
    using namespace binary_case;
#include "../expr/binary_cases.inc"
}
