// linalg::eigh checked by mathematics: Q diag(L) Q^T = A, Q orthonormal, L ascending, only the
// chosen triangle read (batched).
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace linalg_case;

TEMPLATE_TEST_CASE("linalg eigh reconstructs its input", "", float, double) {
    using T = TestType;
    manual_seed(11);
    const Tensor<T> A = randn({2, 4, 3}, dtype_t<T>{});   // batched, tall
    const Tensor<T> W = randn({3, 5}, dtype_t<T>{});      // wide
    const Tensor<T> S = matmul(A, mT(A)) + eye_batch<T>(4, {2});  // symmetric positive definite, (2, 4, 4)
    SECTION("eigh") {
        auto [L, Q] = linalg::eigh(S);
        CHECK(L.sizes() == IntArray{2, 4});
        check_near("Q diag(L) Q^T = A", Tensor<T>(matmul(Tensor<T>(Q * L.unsqueeze(-2)), mT(Q))), S, 10);
        check_near("Q^T Q = I", Tensor<T>(matmul(mT(Q), Q)), eye_batch<T>(4, {2}));
        const auto l = L.to_vector();
        CHECK(std::is_sorted(l.begin(), l.begin() + 4));
        // Only the chosen triangle is read: garbage in the other one changes nothing.
        const Tensor<T> lower = tril(S) + triu(full({4, 4}, 100.0, dtype_t<T>{}), 1);
        check_near("eigh reads the lower triangle", linalg::eigh(lower).eigenvalues, L, 10);
        const Tensor<T> upper = triu(S) + tril(full({4, 4}, -7.0, dtype_t<T>{}), -1);
        check_near("eigh(U) reads the upper triangle", linalg::eigh(upper, "U").eigenvalues, L, 10);
    }
}

}}  // namespace TENET_TEST_FILE
