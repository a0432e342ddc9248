// Complex matrix products and linear algebra against PyTorch 1.13 (tests/golden/gen_complex_linalg.py
// writes the cases) and against mathematics: A V = V diag(L), U S V^H = A, Q R = A, A A^-1 = I,
// L L^H = A, sign exp(logabsdet) = det, A^H (A X - B) = 0.
// Data-driven: one instantiation per op and dtype, the cases read at run time.
#include "../require_throws.hpp"
#include "complex_golden.hpp"

#include <algorithm>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using complex_golden::check_close;
using golden::Case;
using golden::Golden;
using golden::GoldenFile;
using c64 = complex<float>;
using c128 = complex<double>;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "complex_linalg_cases.txt"); }
const Golden& input_of(const Case& c, const std::string& key) { return cases().inputs.at(c.arg(key)); }

/// The tolerance of a comparison of results of magnitude about 1 in T's precision.
template <class T>
double tol() {
    return std::is_same_v<real_t<T>, float> ? 2e-4 : 1e-10;
}

/// max |x - y| over all elements (complex differences by modulus).
template <class T>
double max_diff(const Tensor<T>& x, const Tensor<T>& y) {
    REQUIRE(x.sizes() == y.sizes());
    double m = 0;
    const auto a = x.contiguous().to_vector(), b = y.contiguous().to_vector();
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, static_cast<double>(abs(a[i] - b[i])));
    return m;
}

/// The identities of shape (..., n, n), of element type T.
template <class T>
Tensor<T> eye_like(const IntArray& shape) {
    Tensor<T> I = empty<T>(shape);
    I.fill_(T(0));
    I.diagonal(0, -2, -1).fill_(T(1));
    return I;
}
/// shape with its last two sizes set to n.
IntArray with_last(IntArray shape, int64_t n) {
    shape[shape.size() - 1] = n;
    shape[shape.size() - 2] = n;
    return shape;
}

/// The conjugate transpose of the last two dims.
template <class T>
Tensor<T> mH(const Tensor<T>& t) {
    return Tensor<T>(conj(t.transpose(-2, -1)));
}

/// Each expected eigenvalue matched with a distinct computed one (the order is the solver's).
template <class C>
void check_multiset(const Golden& expected, const Tensor<C>& got) {
    CHECK(std::string(got.dtype().name()) == expected.dtype);
    REQUIRE(got.sizes() == expected.sizes);
    const int64_t n = got.sizes().back();
    const auto g = got.contiguous().to_vector();
    for (int64_t b = 0; b < got.numel() / std::max<int64_t>(n, 1); ++b) {
        std::vector<bool> used(static_cast<size_t>(n), false);
        for (int64_t i = 0; i < n; ++i) {
            const size_t e = static_cast<size_t>(2 * (b * n + i));
            const C want(static_cast<real_t<C>>(expected.values[e]), static_cast<real_t<C>>(expected.values[e + 1]));
            double best = 1e300;
            int64_t at = -1;
            for (int64_t j = 0; j < n; ++j) {
                const double d = abs(g[static_cast<size_t>(b * n + j)] - want);
                if (!used[static_cast<size_t>(j)] && d < best) best = d, at = j;
            }
            INFO("batch " << b << ", eigenvalue " << i << ": distance " << best);
            REQUIRE(at >= 0);
            CHECK(best <= tol<C>() * std::max(1.0, static_cast<double>(abs(want))));
            used[static_cast<size_t>(at)] = true;
        }
    }
}

// ---- One instantiation per element type ----------------------------------------------------

/// cholesky: PyTorch's L (unique: a real positive diagonal), lower triangular, L L^H = A; upper
/// gives L^H.
template <class T>
void run_cholesky(const Case& c, const Tensor<T>& A, const Golden& expected) {
    const bool upper = c.flag("upper");
    const Tensor<T> out = linalg::cholesky(A, upper);
    check_close(expected, out, 10.0);
    const Tensor<T> L = upper ? mH(out) : out;
    CHECK(max_diff(L, Tensor<T>(tril(L))) == 0);
    for (const T& d : L.diagonal(0, -2, -1).contiguous().to_vector()) CHECK((d.imag() == 0 && d.real() > 0));
    CHECK(max_diff(Tensor<T>(matmul(L, mH(L))), A) <= tol<T>() * 10 * 10);  // |A| about 10
    if (!upper) CHECK(max_diff(linalg::cholesky(A, true), mH(L)) == 0);
}

/// slogdet: a complex sign of unit modulus (0 for a singular matrix) and a real logabsdet, with
/// sign exp(logabsdet) = det.
template <class T>
void run_slogdet(const Case& c, const Tensor<T>& A, const Golden& expected) {
    const linalg::SlogdetResult<T> r = linalg::slogdet(A);
    static_assert(std::is_same_v<decltype(r.logabsdet), Tensor<real_t<T>>>);
    check_close(expected, r.sign, 10.0);
    check_close(golden::parse_part(c.parts.at(1)), r.logabsdet, 10.0);
    const Tensor<T> det = linalg::det(A);
    const Tensor<real_t<T>> absdet = exp(r.logabsdet);
    const auto s = r.sign.contiguous().to_vector(), d = det.contiguous().to_vector();
    const auto a = absdet.contiguous().to_vector();
    for (size_t i = 0; i < s.size(); ++i) {
        INFO("matrix " << i << ": det " << d[i].real() << " + " << d[i].imag() << "i");
        if (a[i] == 0) {
            CHECK((s[i] == T(0)));
        } else {
            CHECK(std::abs(static_cast<double>(abs(s[i])) - 1) <= tol<T>());
            CHECK(static_cast<double>(abs(s[i] * a[i] - d[i])) <= tol<T>() * 10 * static_cast<double>(abs(d[i])));
        }
    }
}

/// lstsq (gelsy): PyTorch's solution (unique: the minimum-norm one) and rank; the residual is
/// orthogonal to A's columns, A^H (A X - B) = 0.
template <class T>
void run_lstsq(const Case& c, const Golden& expected) {
    const Tensor<T> A = golden::host_tensor<T>(input_of(c, "a")), B = golden::host_tensor<T>(input_of(c, "b"));
    const auto [X, rank] = linalg::lstsq(A, B);
    check_close(expected, X, 100.0);
    check_close(golden::parse_part(c.parts.at(1)), rank);
    const bool vector = B.dim() == A.dim() - 1;
    const Tensor<T> Xm = vector ? X.unsqueeze(-1) : X, Bm = vector ? B.unsqueeze(-1) : B;
    const Tensor<T> residual = matmul(A, Xm) - Bm;
    const Tensor<T> normal = matmul(mH(A), residual);
    CHECK(max_diff(normal, Tensor<T>(zeros_like(normal))) <= tol<T>() * 100);
}

/// matrix_norm, norm and vector_norm: real results as PyTorch's.
template <class T>
void run_norm(const Case& c, const Tensor<T>& A, const Golden& expected) {
    const std::string op = c.arg("op"), ord = c.arg("ord");
    const bool named = ord == "fro" || ord == "nuc";
    const double p = named ? 0.0 : std::stod(ord);  // "inf" and "-inf" too
    const std::optional<IntArray> dim = c.dims();
    const bool keepdim = c.flag("keepdim");
    Tensor<real_t<T>> r;
    if (op == "matrix_norm") {
        const IntArray d = dim ? *dim : IntArray{-2, -1};
        r = named ? linalg::matrix_norm(A, ord, d, keepdim) : linalg::matrix_norm(A, p, d, keepdim);
    } else if (op == "norm") {
        r = named ? linalg::norm(A, ord, dim, keepdim) : linalg::norm(A, p, dim, keepdim);
    } else {
        r = linalg::vector_norm(A, p, dim, keepdim);
    }
    check_close(expected, r, 10.0);
}

template <class T>
void run_decomp(const Case& c) {
    const std::string op = c.arg("op");
    const Golden expected = golden::parse_part(c.parts.at(0));
    using C = complex<real_t<T>>;
    if constexpr (is_complex_v<T>) {  // real inputs: eig and eigvals only (the rest is in tests/linalg)
        if (op == "solve") {
            const Tensor<T> A = golden::host_tensor<T>(input_of(c, "a")), B = golden::host_tensor<T>(input_of(c, "b"));
            const Tensor<T> X = linalg::solve(A, B);
            check_close(expected, X, 10.0);
            const Tensor<T> AX = B.dim() == A.dim() ? matmul(A, X) : matmul(A, X.unsqueeze(-1)).squeeze(-1);
            CHECK(max_diff(AX, B) <= tol<T>() * 10);
            return;
        }
        if (op == "lstsq") return run_lstsq<T>(c, expected);
    }
    Tensor<T> A = golden::host_tensor<T>(input_of(c, "x"));
    if (c.flag("t")) A = A.transpose(-2, -1);  // a strided view, read in place
    if constexpr (is_complex_v<T>) {
        if (op == "cholesky") return run_cholesky<T>(c, A, expected);
        if (op == "slogdet") return run_slogdet<T>(c, A, expected);
        if (op == "matrix_norm" || op == "norm" || op == "vector_norm") return run_norm<T>(c, A, expected);
        if (op == "inv") {
            const Tensor<T> Ai = linalg::inv(A);
            check_close(expected, Ai, 10.0);
            CHECK(max_diff(Tensor<T>(matmul(A, Ai)), eye_like<T>(A.sizes())) <= tol<T>() * 10);
            return;
        }
        if (op == "det") return check_close(expected, linalg::det(A), 10.0);
        if (op == "eigvalsh") return check_close(expected, linalg::eigvalsh(A), 10.0);
        if (op == "eigh") {  // real eigenvalues, unitary V, A V = V diag(L)
            const auto [L, V] = linalg::eigh(A);
            check_close(expected, L, 10.0);
            CHECK(max_diff(Tensor<T>(matmul(mH(V), V)), eye_like<T>(A.sizes())) <= tol<T>());
            CHECK(max_diff(matmul(A, V), Tensor<T>(V * L.unsqueeze(-2).template to<T>())) <= tol<T>() * 10);
            const auto [Lu, Vu] = linalg::eigh(A, "U");  // A is Hermitian: either triangle
            CHECK(max_diff(Lu, L) <= tol<T>() * 10);
            return;
        }
        if (op == "svdvals") return check_close(expected, linalg::svdvals(A), 10.0);
        if (op == "svd") {  // U S V^H = A, real S
            for (bool full : {true, false}) {
                const auto [U, S, Vh] = linalg::svd(A, full);
                check_close(expected, S, 10.0);
                const int64_t k = S.sizes().back();
                const Tensor<T> Uk = U.narrow(-1, 0, k), Vhk = Vh.narrow(-2, 0, k);
                CHECK(max_diff(Tensor<T>(matmul(Uk * S.unsqueeze(-2).template to<T>(), Vhk)), A) <= tol<T>() * 10);
                CHECK(max_diff(Tensor<T>(matmul(mH(U), U)), eye_like<T>(with_last(U.sizes(), U.sizes().back()))) <=
                      tol<T>() * 10);
            }
            return;
        }
        if (op == "qr") {  // Q R = A, Q^H Q = I, R upper triangular; |diag R| as PyTorch's
            for (const char* mode : {"reduced", "complete"}) {
                const auto [Q, R] = linalg::qr(A, mode);
                CHECK(max_diff(Tensor<T>(matmul(Q, R)), A) <= tol<T>() * 10);
                CHECK(max_diff(Tensor<T>(matmul(mH(Q), Q)), eye_like<T>(with_last(Q.sizes(), Q.sizes().back()))) <=
                      tol<T>() * 10);
                CHECK(max_diff(R, Tensor<T>(triu(R))) == 0);
                const int64_t k = std::min(A.sizes()[A.dim() - 2], A.sizes().back());
                const Tensor<real_t<T>> d = abs(R.diagonal(0, -2, -1).narrow(-1, 0, k));
                check_close(expected, d, 10.0);
            }
            return;
        }
    }
    if (op == "eigvals") return check_multiset(expected, linalg::eigvals(A));
    if (op == "eig") {  // A V = V diag(L), unit columns, complex results
        const auto [L, V] = linalg::eig(A);
        check_multiset(expected, L);
        const Tensor<C> Ac = A.template to<C>();
        CHECK(max_diff(matmul(Ac, V), Tensor<C>(V * L.unsqueeze(-2))) <= tol<T>() * 10);
        const Tensor<real_t<T>> norms = Tensor<real_t<T>>(vector_norm(abs(V), 2.0, IntArray{-2}));
        CHECK(max_diff(norms, Tensor<real_t<T>>(ones_like(norms))) <= tol<T>());
        return;
    }
    FAIL("unexpected op " << op << " for " << dtype_of<T>.name());
}

}  // namespace

TEST_CASE("complex linalg: matmul, mm, bmm, mv, dot and vdot as PyTorch", "[complex][linalg]") {
    CHECK(complex_golden::check_products(cases(), Device("cpu")) == 34);
    // vdot conjugates its first operand; dot does not.
    const Tensor<c64> x = tensor({c64(1, 2), c64(2, -1)}), y = tensor({c64(3, 1), c64(0, 1)});
    CHECK(vdot(x, y).item() == c64(4, -3));
    CHECK(dot(x, y).item() == c64(2, 9));
    // Expressions are evaluated once; a conj expression as an operand.
    CHECK(max_diff(matmul(conj(x), y), vdot(x, y)) < 1e-6);
    // Strided (non-unit) vectors: copied for the GEMM, read by the BLAS dot with their stride.
    const Tensor<c128> z = arange(12).to<double>().to<c128>() * c128(1, -1);
    CHECK(vdot(z.slice(0, 0, 12, 3), z.slice(0, 1, 12, 3)).item() == c128(2 * (0 * 1 + 3 * 4 + 6 * 7 + 9 * 10), 0));
}

TEST_CASE("complex linalg: inv, det, solve, eigh, svd, qr, cholesky, slogdet, lstsq, the norms on complex and "
          "eig on real and complex inputs",
          "[complex][linalg]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op != "decomp") continue;
        INFO(c.line.substr(0, 120));
        const std::string dtype = input_of(c, c.has("a") ? "a" : "x").dtype;
        golden::with_dtype_or_complex(dtype, [&]<class T>() {
            if constexpr (FloatingElement<T> || is_complex_v<T>) run_decomp<T>(c);
        });
        ++n;
    }
    CHECK(n == 140);
    // eigvals of a real rotation are a conjugate pair; an empty matrix has none.
    CHECK(linalg::eigvals(zeros({0, 0})).sizes() == IntArray{0});
    CHECK(linalg::eig(zeros({2, 0, 0}, kFloat64)).eigenvectors.dtype() == kComplex128);
}

TEST_CASE("complex linalg: errors name the op, the shapes and the dtypes", "[complex][linalg]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        std::string message = c.parts.at(0);
        message.erase(0, message.find_first_not_of(' '));
        if (message.back() == '.') message.pop_back();  // tenet may go on: ", got shape [3]"
        const std::string op = c.op, kind = c.arg("kind");
        const Tensor<c64> a = ones({2, 3}, kComplex64);
        if (kind == "mixed") {  // PyTorch: "expected scalar type Float but found ComplexFloat"; tenet names both
            if (op == "mm")
                TENET_REQUIRE_THROWS(mm(ones({2, 2}), ones({2, 2}, kComplex64)), dtype_error,
                                     Catch::Contains("mm") && Catch::Contains("float32 and complex64"));
            else if (op == "matmul")
                TENET_REQUIRE_THROWS(matmul(a, ones({3, 2}, kComplex128)), dtype_error,
                                     Catch::Contains("matmul") && Catch::Contains("complex64 and complex128"));
            else
                TENET_REQUIRE_THROWS(linalg::solve(ones({2, 2}, kComplex64), ones({2})), dtype_error,
                                     Catch::Contains("linalg.solve") && Catch::Contains("complex64 and float32"));
        } else if (op == "eig" && kind == "nonsquare") {
            TENET_REQUIRE_THROWS(linalg::eig(a), shape_error, Catch::Contains(message));
        } else if (op == "eigvals") {
            TENET_REQUIRE_THROWS(linalg::eigvals(a), shape_error, Catch::Contains(message));
        } else if (op == "eig") {
            TENET_REQUIRE_THROWS(linalg::eig(ones({3}, kComplex64)), shape_error,
                                 Catch::Contains(message) && Catch::Contains("[3]"));
        } else if (op == "eigh") {
            TENET_REQUIRE_THROWS(linalg::eigh(a), shape_error, Catch::Contains(message));
        } else if (op == "inv" && kind == "nonsquare") {
            TENET_REQUIRE_THROWS(linalg::inv(a), shape_error, Catch::Contains(message));
        } else if (op == "inv") {
            TENET_REQUIRE_THROWS(linalg::inv(ones({2, 2}, kComplex64)), value_error, Catch::Contains(message));
        } else if (op == "cholesky" && kind == "notpd") {  // Hermitian, eigenvalues -1 and 3
            const Tensor<c64> h = tensor({c64(1, 0), c64(0, 2), c64(0, -2), c64(1, 0)}).view({2, 2});
            TENET_REQUIRE_THROWS(linalg::cholesky(h), value_error, Catch::Contains(message));
        } else if (op == "cholesky") {
            TENET_REQUIRE_THROWS(linalg::cholesky(a), shape_error, Catch::Contains(message));
        } else if (op == "slogdet") {
            TENET_REQUIRE_THROWS(linalg::slogdet(a), shape_error, Catch::Contains(message));
        } else if (op == "lstsq") {  // PyTorch: "input's dtype ComplexFloat and other's dtype ComplexDouble"
            TENET_REQUIRE_THROWS(linalg::lstsq(a, ones({2, 1}, kComplex128)), dtype_error,
                                 Catch::Contains("linalg.lstsq") && Catch::Contains("complex64 and complex128"));
        } else {
            TENET_REQUIRE_THROWS(mm(a, a), shape_error, Catch::Contains("mm") && Catch::Contains(message));
        }
        ++n;
    }
    CHECK(n == 14);
    // Integer input: the decompositions want a floating point or complex tensor (PyTorch: "Unknown
    // Complex ScalarType for Int" from eig) and name the dtype.
    TENET_REQUIRE_THROWS(linalg::eig(ones({2, 2}, kInt64)), dtype_error,
                         Catch::Contains("linalg.eig") && Catch::Contains("int64"));
    TENET_REQUIRE_THROWS(linalg::cholesky(ones({2, 2}, kInt64)), dtype_error,
                         Catch::Contains("linalg.cholesky") && Catch::Contains("int64"));
    TENET_REQUIRE_THROWS(mm(ones({2, 2}, kBool), ones({2, 2}, kBool)), dtype_error,
                         Catch::Contains("complex64 or complex128"));
}

}}  // namespace TENET_TEST_FILE
