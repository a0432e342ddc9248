// einsum (run-time form) against PyTorch (tests/golden/gen_linalg.py -> einsum_cases.inc),
// including the seed's grayscale conversion '...chw,c->...hw'.
#include "linalg_check.hpp"

TEST_CASE("linalg: einsum golden cases against PyTorch") {
#include "einsum_cases.inc"
}
