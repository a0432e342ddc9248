// einsum (run-time form) against PyTorch, part 1 of 2 (tests/golden/gen_linalg.py ->
// einsum_cases_1.inc), including the seed's grayscale conversion '...chw,c->...hw'.
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("linalg: einsum golden cases against PyTorch part 1") {
#include "einsum_cases_1.inc"
}

}}  // namespace TENET_TEST_FILE
