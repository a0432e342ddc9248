// Matrix products, add* forms, cross, multi_dot, trace/diag/tril/triu against PyTorch, part 2 of 3
// (tests/golden/gen_linalg.py -> products_cases_2.inc); comparison rules in linalg_check.hpp.
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("linalg: products golden cases against PyTorch part 2") {
#include "products_cases_2.inc"
}

}}  // namespace TENET_TEST_FILE
