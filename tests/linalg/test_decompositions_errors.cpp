// linalg norms on a matrix whose norms are known, and the errors (PyTorch's messages: which
// diagonal element or leading minor failed, non-square and non-floating inputs).
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace linalg_case;

using Catch::Matchers::Contains;

TEST_CASE("linalg decompositions: norms") {
    const Tensor<double> A = linalg_case::make<double>({2, 2}, {3, -4, 0, 0});
    CHECK(linalg::matrix_norm(A).item() == Approx(5));
    CHECK(linalg::matrix_norm(A, 1.0).item() == Approx(4));
    CHECK(linalg::matrix_norm(A, linalg_case::kInf).item() == Approx(7));
    CHECK(linalg::matrix_norm(A, "nuc").item() == Approx(5));
    CHECK(linalg::matrix_norm(A, 2.0).item() == Approx(5));
    CHECK(linalg::norm(A).item() == Approx(5));
    CHECK(linalg::vector_norm(A, 1.0).item() == Approx(7));
}

TEST_CASE("linalg decompositions: errors name the op and the problem") {
    const auto sing = linalg_case::make<double>({3, 3}, {1, 2, 3, 2, 4, 6, 1, 0, 1});
    CHECK_THROWS_AS(linalg::inv(sing), value_error);
    CHECK_THROWS_WITH(linalg::inv(sing), "linalg.inv: The diagonal element 3 is zero, the inversion could not be "
                                         "completed because the input matrix is singular.");
    CHECK_THROWS_WITH(linalg::solve(sing, ones({3}, kFloat64)), Contains("linalg.solve") && Contains("singular"));
    const auto notpd = linalg_case::make<double>({2, 2}, {1, 2, 2, 1});
    CHECK_THROWS_WITH(linalg::cholesky(notpd),
                      "linalg.cholesky: The factorization could not be completed because the input is not "
                      "positive-definite (the leading minor of order 2 is not positive-definite).");
    auto batch = eye<double>(2, kFloat64).unsqueeze(0).expand({3, 2, 2}).contiguous();
    batch[1][1][1] = -1.0;
    CHECK_THROWS_WITH(linalg::cholesky(batch), Contains("(Batch element 1)") && Contains("order 2"));
    CHECK_THROWS_AS(linalg::inv(ones({2, 3}, kFloat64)), shape_error);
    CHECK_THROWS_WITH(linalg::det(ones({2, 3}, kFloat64)),
                      "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices");
    CHECK_THROWS_WITH(linalg::eigh(ones({3}, kFloat64)), Contains("linalg.eigh") && Contains("at least 2 dimensions"));
    CHECK_THROWS_AS(linalg::inv(ones({2, 2}, kInt64)), dtype_error);
    CHECK_THROWS_WITH(linalg::svd(ones({2, 2}, kInt64)), Contains("linalg.svd") && Contains("int64"));
    CHECK_THROWS_WITH(linalg::qr(ones({2, 2}), "full"), Contains("qr received unrecognized mode 'full'"));
    CHECK_THROWS_WITH(linalg::eigh(ones({2, 2}), "X"), Contains("UPLO"));
    CHECK_THROWS_WITH(linalg::solve(eye<double>(3, kFloat64), ones({4, 2}, kFloat64)),
                      Contains("linalg.solve") && Contains("3x3") && Contains("4x2"));
    CHECK_THROWS_WITH(linalg::matrix_norm(ones({2, 2}), 3.0), Contains("linalg.matrix_norm: Order 3 not supported"));
    CHECK_THROWS_WITH(linalg::norm(ones({2, 2, 2}), 2.0), Contains("the input must be 1D or 2D. Got 3D"));
}

}}  // namespace TENET_TEST_FILE
