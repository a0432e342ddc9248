// Decompositions and solvers against PyTorch (tests/golden/gen_linalg.py -> decomp_cases.inc):
// values directly, factors unique only up to sign column/row-wise after matching signs.
// Reconstruction checks (A = Q diag(L) Q^T, U S Vh, Q R, L L^T, A inv(A) = I, A X = B) are in
// test_decompositions.cpp.
#include "linalg_check.hpp"

TEST_CASE("linalg: decompositions golden cases against PyTorch") {
#include "decomp_cases.inc"
}
