// Decompositions and solvers against PyTorch, part 3 of 3 (tests/golden/gen_linalg.py ->
// decomp_cases_3.inc): values directly; factors unique only up to sign column/row-wise after
// matching signs. Reconstruction checks are in test_decompositions_*.cpp.
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("linalg: decompositions golden cases against PyTorch part 3") {
#include "decomp_cases_3.inc"
}

}}  // namespace TENET_TEST_FILE
