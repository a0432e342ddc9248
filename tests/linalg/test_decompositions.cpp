// Decompositions checked by mathematics: each factorisation reconstructs its input, factors
// have their structure (orthonormal, triangular, sorted), solvers satisfy their equations —
// batched, on views and expressions. Plus the errors (PyTorch's messages).
#include "linalg_check.hpp"

using namespace tenet;
using Catch::Matchers::Contains;
using linalg_case::check_near;

namespace {
template <class T>
Tensor<T> eye_batch(int64_t n, const IntArray& batch) {
    IntArray shape = batch;
    shape.push_back(n);
    shape.push_back(n);
    return Tensor<T>(eye<T>(n, dtype_t<T>{}).expand(shape)).contiguous();
}
template <class T>
Tensor<T> mT(const Tensor<T>& t) {
    return t.transpose(-2, -1);
}
}  // namespace

TEMPLATE_TEST_CASE("linalg decompositions reconstruct their input", "", float, double) {
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
        check_near("eigh of a view", linalg::eigh(At).eigenvalues, linalg::eigh(S).eigenvalues, 10);
        check_near("inv of an expression", linalg::inv(S * T(2)), Tensor<T>(linalg::inv(S) * T(0.5)), 10);
    }
}

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
