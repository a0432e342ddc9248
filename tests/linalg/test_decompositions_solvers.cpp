// linalg::qr, cholesky, inv, solve, det, slogdet, lstsq checked by mathematics (Q R = A, L L^T = A,
// A inv(A) = I, A X = B, det = prod(eigenvalues), normal equations), on batches, views and expressions.
#include "linalg_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace linalg_case;

TEMPLATE_TEST_CASE("linalg qr cholesky inv solve det lstsq reconstruct", "", float, double) {
    using T = TestType;
    manual_seed(11);
    const Tensor<T> A = randn({2, 4, 3}, dtype_t<T>{});   // batched, tall
    const Tensor<T> W = randn({3, 5}, dtype_t<T>{});      // wide
    const Tensor<T> S = matmul(A, mT(A)) + eye_batch<T>(4, {2});  // symmetric positive definite, (2, 4, 4)
    SECTION("qr") {
        auto [Q, R] = linalg::qr(A);
        check_near("Q R = A", matmul(Q, R), A, 10);
        check_near("Q^T Q = I", Tensor<T>(matmul(mT(Q), Q)), eye_batch<T>(3, {2}));
        check_near("R is upper triangular", R, triu(R));
        auto [Qc, Rc] = linalg::qr(A, "complete");
        CHECK(Qc.sizes() == IntArray{2, 4, 4});
        check_near("Q R = A (complete)", matmul(Qc, Rc), A, 10);
        auto [Qw, Rw] = linalg::qr(W);
        check_near("Q R = A (wide)", matmul(Qw, Rw), W, 10);
        CHECK(linalg::qr(A, "r").Q.numel() == 0);
    }
    SECTION("cholesky, inv, solve, det") {
        const Tensor<T> L = linalg::cholesky(S);
        check_near("L L^T = A", Tensor<T>(matmul(L, mT(L))), S, 10);
        check_near("L is lower triangular", L, tril(L));
        const Tensor<T> U = linalg::cholesky(S, true);
        check_near("U^T U = A", Tensor<T>(matmul(mT(U), U)), S, 10);
        check_near("A inv(A) = I", Tensor<T>(matmul(S, linalg::inv(S))), eye_batch<T>(4, {2}), 10);
        const Tensor<T> B = randn({4, 2}, dtype_t<T>{});
        const Tensor<T> X = linalg::solve(S, B);  // batch dims broadcast: (2, 4, 4) with (4, 2)
        CHECK(X.sizes() == IntArray{2, 4, 2});
        check_near("A X = B", Tensor<T>(matmul(S, X)), Tensor<T>(B.expand({2, 4, 2})), 10);
        const Tensor<T> x = linalg::solve(S[0], B.select(1, 0));
        check_near("A x = b", matmul(S[0], x), Tensor<T>(B.select(1, 0)).contiguous(), 10);
        // det = product of the eigenvalues; slogdet agrees with det.
        const Tensor<T> d = linalg::det(S);
        const Tensor<T> p = linalg::eigvalsh(S).prod(-1);
        check_near("det = prod(eigenvalues)", d, p, std::abs(double(d[0].item())) + std::abs(double(d[1].item())));
        auto [sign, logabs] = linalg::slogdet(S);
        check_near("sign exp(logabsdet) = det", Tensor<T>(sign * logabs.exp()), d,
                   std::abs(double(d[0].item())) + std::abs(double(d[1].item())));
    }
    SECTION("lstsq") {
        const Tensor<T> B = randn({2, 4, 2}, dtype_t<T>{});
        auto [X, rank] = linalg::lstsq(A, B);
        CHECK(rank.to_vector() == std::vector<int64_t>{3, 3});
        // The normal equations: A^T (A X - B) = 0.
        const Tensor<T> residual = matmul(A, X) - B;
        check_near("A^T (A X - B) = 0", Tensor<T>(matmul(mT(A), residual)), zeros({2, 3, 2}, dtype_t<T>{}), 10);
    }
    SECTION("inputs may be views and expressions") {
        const Tensor<T> At = mT(S);  // symmetric, so the transposed view is the same matrix
        check_near("det of a view", linalg::det(At), linalg::det(S), 10);
        check_near("inv of an expression", linalg::inv(S * T(2)), Tensor<T>(linalg::inv(S) * T(0.5)), 10);
    }
}

}}  // namespace TENET_TEST_FILE
