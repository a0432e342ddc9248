// Matrix products, add* forms, cross, multi_dot, trace/diag/tril/triu against PyTorch
// (tests/golden/gen_linalg.py -> products_cases.inc); comparison rules in linalg_check.hpp.
#include "linalg_check.hpp"

TEST_CASE("linalg: products golden cases against PyTorch") {
#include "products_cases.inc"
}
