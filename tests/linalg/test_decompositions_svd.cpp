// linalg::svd / svdvals checked by mathematics: U S Vh = A, U orthonormal, S descending (batched,
// full and reduced, tall and wide).
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace linalg_case;

TEMPLATE_TEST_CASE("linalg svd reconstructs its input", "", float, double) {
    using T = TestType;
    manual_seed(11);
    const Tensor<T> A = randn({2, 4, 3}, dtype_t<T>{});   // batched, tall
    const Tensor<T> W = randn({3, 5}, dtype_t<T>{});      // wide
    const Tensor<T> S = matmul(A, mT(A)) + eye_batch<T>(4, {2});  // symmetric positive definite, (2, 4, 4)
    SECTION("svd") {
        for (bool full : {true, false}) {
            auto [U, Sv, Vh] = linalg::svd(A, full);
            CHECK(U.sizes() == (full ? IntArray{2, 4, 4} : IntArray{2, 4, 3}));
            CHECK(Vh.sizes() == IntArray{2, 3, 3});
            const Tensor<T> Uk = U.narrow(-1, 0, 3);
            check_near("U S Vh = A", Tensor<T>(matmul(Tensor<T>(Uk * Sv.unsqueeze(-2)), Vh)), A, 10);
            check_near("U^T U = I", Tensor<T>(matmul(mT(U), U)), eye_batch<T>(full ? 4 : 3, {2}));
            const auto s = Sv.to_vector();
            CHECK(std::is_sorted(s.begin(), s.begin() + 3, std::greater<T>()));
            check_near("svdvals = S", linalg::svdvals(A), Sv);
        }
        auto [U, Sv, Vh] = linalg::svd(W, false);
        check_near("U S Vh = A (wide)", Tensor<T>(matmul(Tensor<T>(U * Sv.unsqueeze(-2)), Vh)), W, 10);
    }
}

}}  // namespace TENET_TEST_FILE
