#pragma once
// tenet::linalg decompositions and solvers on the host, through Eigen: eig/eigvals, eigh/eigvalsh,
// svd, svdvals, qr, cholesky, inv, det, slogdet, solve, lstsq, and the norms matrix_norm and norm
// (vector_norm is tenet::vector_norm from ops/reduce.hpp). All take float32, float64, complex64
// and complex128 tensors (or expressions, evaluated once) of shape (..., m, n) and work matrix
// by matrix over the leading dims (Eigen computes tenet::complex<R> as std::complex<R>). Results
// follow PyTorch: eigenvalues ascending (eigh), singular values descending, Vh = V^H; eigh's
// eigenvalues, the singular values, slogdet's logabsdet and the norms are real for complex inputs
// too (sign is complex, det/|det|); eig's results are always complex.
// Multi-output functions return structs with named fields, so `auto [L, Q] = linalg::eigh(A);` works.
//
// Each public function materialises its operand and calls a kernel over the element type only
// (detail::eigh_impl<T>, svd_impl<T>, ...), which holds all the Eigen code; the public function
// records the result. In compiled mode the kernels are instantiated once, in the compiled
// library (compiled/linalg_instantiations.hpp), not in every TU that calls them.
//
// Singular and non-positive-definite inputs throw value_error with PyTorch's message (which
// diagonal element or leading minor failed, and which batch element).
//
// Gradients (autograd/decompositions.hpp): inv, det, slogdet (logabsdet), solve, eigh/eigvalsh, svd,
// svdvals and cholesky record one node per differentiable output with PyTorch's grad_fn
// name, for real inputs; qr, lstsq and the matrix norms built on singular values are not
// differentiable yet, nor is eig (its gradient is complex, and tenet has no complex autograd;
// complex tensors cannot require grad, so complex inputs are never recorded).

#include "tenet/config.hpp"
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "tenet/linalg/common.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {
namespace linalg {

/// linalg.eigh: A = Q diag(L) Q^H with eigenvalues ascending (real, for complex Hermitian A too).
template <class T>
struct EighResult {
    Tensor<real_t<T>> eigenvalues;
    Tensor<T> eigenvectors;
};
/// linalg.eig: A V = V diag(L), both complex (complex64 for float32 and complex64 inputs,
/// complex128 for float64 and complex128), each eigenvector of unit 2-norm.
template <class T>
struct EigResult {
    Tensor<complex<real_t<T>>> eigenvalues;
    Tensor<complex<real_t<T>>> eigenvectors;
};
/// linalg.svd: A = U diag(S) Vh with S descending (real, for complex A too).
template <class T>
struct SVDResult {
    Tensor<T> U;
    Tensor<real_t<T>> S;
    Tensor<T> Vh;
};
/// linalg.qr: A = Q R, Q with orthonormal columns, R upper triangular.
template <class T>
struct QRResult {
    Tensor<T> Q;
    Tensor<T> R;
};
/// linalg.slogdet: det(A) = sign * exp(logabsdet); for complex A, sign = det/|det| (complex, unit
/// modulus) and logabsdet is real. Singular A: sign 0, logabsdet -inf.
template <class T>
struct SlogdetResult {
    Tensor<T> sign;
    Tensor<real_t<T>> logabsdet;
};
/// linalg.lstsq: the least-squares (minimum-norm, for rank-deficient A) solution and the
/// effective rank of each matrix — the outputs of PyTorch's default CPU driver, gelsy (its
/// residuals and singular_values are empty, for complex inputs too).
template <class T>
struct LstsqResult {
    Tensor<T> solution;
    Tensor<int64_t> rank;
};

}  // namespace linalg

namespace detail {

/// An Eigen matrix of element type T (std::complex<R> for tenet::complex<R>).
template <class T>
using EMat = Eigen::Matrix<eigen_scalar_t<T>, Eigen::Dynamic, Eigen::Dynamic>;

/// The element types of the decompositions that take complex inputs too.
template <class T>
inline constexpr bool is_linalg_element =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, complex<float>> ||
    std::is_same_v<T, complex<double>>;
template <class T>
void check_floating_or_complex(const char* op) {
    if constexpr (!is_linalg_element<T>)
        fail<dtype_error>(op, ": Expected a floating point or complex tensor (float32, float64, complex64 or "
                              "complex128) as input. Got ",
                          dtype_of<T>.name());
}

/// A float32, float64, complex64 or complex128 operand of shape (..., m, n) with at least two dims.
template <class X>
auto matrix_operand(const X& x, const char* op) {
    using T = operand_value_t<X>;
    check_floating_or_complex<T>(op);
    if constexpr (is_linalg_element<T>) {
        Tensor<T> t = materialize(x, op);
        if (t.dim() < 2)
            fail<shape_error>(op, ": The input tensor A must have at least 2 dimensions, got shape ", t.sizes());
        return t;
    } else {
        return Tensor<double>();  // unreachable: the check threw
    }
}

template <class T>
void check_square(const Tensor<T>& t, const char* op) {
    const int64_t nd = t.dim();
    if (t.sizes()[nd - 2] != t.sizes()[nd - 1])
        fail<shape_error>(op, ": A must be batches of square matrices, but they are ", t.sizes()[nd - 2], " by ",
                          t.sizes()[nd - 1], " matrices");
}

inline IntArray batch_of(const IntArray& s, size_t matrix_dims = 2) {
    return IntArray(s.begin(), s.end() - static_cast<int64_t>(matrix_dims));
}
inline IntArray with_dims(IntArray s, std::initializer_list<int64_t> tail) {
    for (int64_t d : tail) s.push_back(d);
    return s;
}

/// Matrix b of t (..., m, n), copied into an Eigen matrix.
template <class T>
EMat<T> load(const Tensor<T>& t, int64_t b) {
    const int64_t nd = t.dim(), m = t.sizes()[nd - 2], n = t.sizes()[nd - 1];
    int64_t off = t.storage_offset(), rest = b;
    for (int64_t d = nd - 3; d >= 0; --d) {
        off += (rest % t.sizes()[d]) * t.strides()[d];
        rest /= t.sizes()[d];
    }
    const T* p = static_cast<const T*>(t.impl().storage->data()) + off;
    const int64_t rs = t.strides()[nd - 2], cs = t.strides()[nd - 1];
    EMat<T> M(m, n);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) M(i, j) = p[i * rs + j * cs];
    return M;
}

/// Writes matrix (or vector) m as item b of the contiguous tensor out.
template <class T, class M>
void store(Tensor<T>& out, int64_t b, const M& m) {
    const int64_t rows = m.rows(), cols = m.cols();
    T* p = out.data_ptr() + b * rows * cols;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) p[i * cols + j] = m(i, j);
}

inline std::string batch_prefix(int64_t b, int64_t count) {
    return count > 1 || b > 0 ? "(Batch element " + std::to_string(b) + "): " : "";
}

/// LU with partial pivoting of each matrix; throws when a pivot is exactly zero.
template <class T>
Eigen::PartialPivLU<EMat<T>> checked_lu(const EMat<T>& A, const char* op, const char* what, int64_t b, int64_t count) {
    Eigen::PartialPivLU<EMat<T>> lu(A);
    const auto& LU = lu.matrixLU();
    for (int64_t i = 0; i < LU.rows(); ++i)
        if (LU(i, i) == eigen_scalar_t<T>(0))
            fail<value_error>(op, ": ", batch_prefix(b, count), "The diagonal element ", i + 1, " is zero, the ", what,
                              " could not be completed because the input matrix is singular.");
    return lu;
}

/// L lower triangular with A = L L^H, from A's lower triangle (a complex diagonal's imaginary
/// parts are ignored, as LAPACK's potrf does). For real T, conj is the identity and abs2 is x * x.
template <class T>
EMat<T> cholesky_lower(const EMat<T>& A, const char* op, int64_t b, int64_t count) {
    using S = eigen_scalar_t<T>;
    using R = real_t<T>;
    const int64_t n = A.rows();
    EMat<T> L = EMat<T>::Zero(n, n);
    for (int64_t j = 0; j < n; ++j) {
        R d = Eigen::numext::real(A(j, j));
        for (int64_t k = 0; k < j; ++k) d -= Eigen::numext::abs2(L(j, k));
        if (!(d > R(0)))
            fail<value_error>(op, ": ", batch_prefix(b, count),
                              "The factorization could not be completed because the input is not positive-definite "
                              "(the leading minor of order ",
                              j + 1, " is not positive-definite).");
        L(j, j) = S(std::sqrt(d));
        for (int64_t i = j + 1; i < n; ++i) {
            S s = A(i, j);
            for (int64_t k = 0; k < j; ++k) s -= L(i, k) * Eigen::numext::conj(L(j, k));
            L(i, j) = s / L(j, j);
        }
    }
    return L;
}

/// The singular values of A, descending (real for complex A).
template <class T>
auto singular_values(const EMat<T>& A) {
    return Eigen::JacobiSVD<EMat<T>>(A).singularValues().eval();
}

/// dims (d0, d1) of t moved to the end, as a view: (..., d0, d1).
template <class T>
Tensor<T> move_to_end(const Tensor<T>& t, int64_t d0, int64_t d1) {
    IntArray perm;
    for (int64_t d = 0; d < t.dim(); ++d)
        if (d != d0 && d != d1) perm.push_back(d);
    perm.push_back(d0);
    perm.push_back(d1);
    return t.permute(perm);
}

/// Reduces a (..., n, n)-shaped per-matrix value (shape (...)) back to keepdim form.
template <class T>
Tensor<T> restore_dims(Tensor<T> r, int64_t d0, int64_t d1, bool keepdim) {
    if (!keepdim) return r;
    const int64_t lo = std::min(d0, d1), hi = std::max(d0, d1);
    return r.unsqueeze(lo).unsqueeze(hi);
}

/// linalg.matrix_norm's kernel: real results (float32 for complex64, float64 for complex128).
template <class T>
Tensor<real_t<T>> matrix_norm_impl(const Tensor<T>& A, std::string_view ord_name, double ord, const IntArray& dim,
                                   bool keepdim) {
    using R = real_t<T>;
    const char* op = "linalg.matrix_norm";
    if (dim.size() != 2) fail<value_error>(op, ": dim must be a 2-tuple. Got ", dim);
    const int64_t d0 = wrap_dim(dim[0], A.dim(), op), d1 = wrap_dim(dim[1], A.dim(), op);
    if (d0 == d1) fail<value_error>(op, ": dims must be different. Got (", dim[0], ", ", dim[1], ")");
    if (ord_name == "fro") return tenet::vector_norm(A, 2.0, IntArray{d0, d1}, keepdim);
    const bool abs_ord = ord_name.empty() && (ord == 1 || ord == -1 || std::isinf(ord));
    if (abs_ord) {
        // 1 / -1: max / min over columns of the column sums; inf / -inf: the same over rows.
        const bool cols = std::abs(ord) == 1;
        const int64_t sum_dim = cols ? d0 : d1, pick_dim = cols ? d1 : d0;
        Tensor<R> sums = tenet::sum(tenet::abs(A), sum_dim, true);
        Tensor<R> r = ord > 0 ? tenet::amax(sums, pick_dim, true) : tenet::amin(sums, pick_dim, true);
        if (!keepdim) r = r.squeeze(std::max(d0, d1)).squeeze(std::min(d0, d1)).contiguous();
        return r;
    }
    const bool sv_ord = ord_name == "nuc" || (ord_name.empty() && (ord == 2 || ord == -2));
    if (!sv_ord) {
        if (ord_name.empty()) fail<value_error>(op, ": Order ", ord, " not supported.");
        fail<value_error>(op, ": Order ", ord_name, " not supported.");
    }
    const Tensor<T> M = move_to_end(A, d0, d1);
    const IntArray batch = batch_of(M.sizes());
    const int64_t count = product(batch);
    Tensor<R> r = new_tensor<R>(batch);
    if (M.sizes()[M.dim() - 2] * M.sizes()[M.dim() - 1] == 0 && count > 0 && ord_name != "nuc")
        fail<value_error>(op, ": the ", ord, " norm of an empty matrix is not defined");
    for (int64_t b = 0; b < count; ++b) {
        const auto s = singular_values<T>(load(M, b));
        R v;
        if (ord_name == "nuc") v = s.sum();
        else v = ord > 0 ? s.maxCoeff() : s.minCoeff();
        r.data_ptr()[b] = v;
    }
    return restore_dims(r, d0, d1, keepdim);
}

/// solve's kernel: X with A X = B, B a batch of vectors when `vector`.
template <class T>
Tensor<T> solve_impl(const Tensor<T>& A, const Tensor<T>& B, bool vector, const char* op) {
    const int64_t n = A.sizes()[A.dim() - 1];
    if (B.dim() == 0) fail<shape_error>(op, ": B must have at least 1 dimension");
    const Tensor<T> Bm = vector ? B.unsqueeze(-1) : B;
    if (Bm.sizes()[Bm.dim() - 2] != n)
        fail<shape_error>(op, ": Incompatible shapes of A and B for the equation AX = B (", dims_x(A.sizes()), " and ",
                          dims_x(B.sizes()), ")");
    const int64_t k = Bm.sizes()[Bm.dim() - 1];
    const IntArray batch = broadcast_shapes(batch_of(A.sizes()), batch_of(Bm.sizes()), op);
    const Tensor<T> Ae = A.expand(with_dims(batch, {n, n}));
    const Tensor<T> Be = Bm.expand(with_dims(batch, {n, k}));
    Tensor<T> out = new_tensor<T>(with_dims(batch, {n, k}));
    const int64_t count = product(batch);
    for (int64_t i = 0; i < count; ++i) {
        const auto lu = checked_lu<T>(load(Ae, i), op, "solve", i, count);
        store(out, i, lu.solve(load(Be, i)));
    }
    return vector ? out.squeeze(-1) : out;
}

/// linalg.eigh's kernel (no recording).
template <class T>
linalg::EighResult<T> eigh_impl(const Tensor<T>& A, std::string_view uplo) {
    const char* op = "linalg.eigh";
    check_square(A, op);
    if (uplo != "L" && uplo != "U") fail<value_error>(op, ": Expected UPLO argument to be 'L' or 'U', but got ", uplo);
    const int64_t n = A.sizes()[A.dim() - 1];
    const IntArray batch = batch_of(A.sizes());
    const int64_t count = product(batch);
    linalg::EighResult<T> r{new_tensor<real_t<T>>(with_dims(batch, {n})), new_tensor<T>(with_dims(batch, {n, n}))};
    for (int64_t b = 0; b < count; ++b) {
        EMat<T> M = load(A, b);
        if (uplo == "U") M = M.adjoint().eval();  // Eigen reads the lower triangle
        Eigen::SelfAdjointEigenSolver<EMat<T>> es(M);
        if (es.info() != Eigen::Success)
            fail<value_error>(op, ": ", batch_prefix(b, count), "The algorithm failed to converge.");
        store(r.eigenvalues, b, es.eigenvalues());
        store(r.eigenvectors, b, es.eigenvectors());
    }
    return r;
}

}  // namespace detail

namespace linalg {

/// torch.linalg.eigh: eigenvalues (ascending, real) and orthonormal eigenvectors (columns) of
/// symmetric (complex: Hermitian) matrices; only the lower ("L") or upper ("U") triangle is read.
template <expr::TensorOperand X>
auto eigh(const X& x, std::string_view uplo = "L") {
    auto A = detail::matrix_operand(x, "linalg.eigh");
    using T = typename decltype(A)::value_type;
    auto r = detail::eigh_impl(A, uplo);
    if constexpr (!is_complex_v<T>) detail::record_eigh(A, r.eigenvalues, r.eigenvectors);
    return r;
}

/// torch.linalg.eigvalsh: the eigenvalues (ascending, real) of symmetric or Hermitian matrices.
template <expr::TensorOperand X>
auto eigvalsh(const X& x, std::string_view uplo = "L") {
    return eigh(x, uplo).eigenvalues;
}

}  // namespace linalg

namespace detail {
/// linalg.eig's kernel: eigenvalues (and eigenvectors, when `vectors`) of square A, complex, through
/// Eigen's EigenSolver (real A) or ComplexEigenSolver (complex A). Each eigenvector is scaled to
/// unit 2-norm with its component of largest modulus real and positive (LAPACK's geev, PyTorch's
/// backend, also makes it real: the phase is implementation-defined). The eigenvalues come in
/// Eigen's order, which need not be LAPACK's: neither is sorted.
template <class T>
linalg::EigResult<T> eig_impl(const Tensor<T>& A, bool vectors, const char* op) {
    using C = complex<real_t<T>>;
    const int64_t n = A.sizes()[A.dim() - 1];
    const IntArray batch = batch_of(A.sizes());
    const int64_t count = product(batch);
    linalg::EigResult<T> r{new_tensor<C>(with_dims(batch, {n})),
                           vectors ? new_tensor<C>(with_dims(batch, {n, n})) : Tensor<C>()};
    if (n == 0) return r;
    auto put = [&](int64_t b, const auto& es) {
        if (es.info() != Eigen::Success)
            fail<value_error>(op, ": ", batch_prefix(b, count), "The algorithm failed to converge.");
        store(r.eigenvalues, b, es.eigenvalues());
        if (!vectors) return;
        EMat<C> V = es.eigenvectors();
        for (int64_t j = 0; j < n; ++j) {
            Eigen::Index big = 0;
            V.col(j).cwiseAbs().maxCoeff(&big);
            const auto top = V(big, j);
            const real_t<T> scale = std::abs(top) * V.col(j).norm();
            if (scale > 0) V.col(j) *= std::conj(top) / scale;
        }
        store(r.eigenvectors, b, V);
    };
    for (int64_t b = 0; b < count; ++b) {
        if constexpr (is_complex_v<T>) put(b, Eigen::ComplexEigenSolver<EMat<T>>(load(A, b), vectors));
        else put(b, Eigen::EigenSolver<EMat<T>>(load(A, b), vectors));
    }
    return r;
}

/// linalg.svd's kernel (no recording).
template <class T>
linalg::SVDResult<T> svd_impl(const Tensor<T>& A, bool full_matrices) {
    const int64_t m = A.sizes()[A.dim() - 2], n = A.sizes()[A.dim() - 1], k = std::min(m, n);
    const IntArray batch = batch_of(A.sizes());
    const int64_t count = product(batch);
    const int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
    linalg::SVDResult<T> r{new_tensor<T>(with_dims(batch, {m, ucols})), new_tensor<real_t<T>>(with_dims(batch, {k})),
                           new_tensor<T>(with_dims(batch, {vrows, n}))};
    const unsigned options =
        full_matrices ? (Eigen::ComputeFullU | Eigen::ComputeFullV) : (Eigen::ComputeThinU | Eigen::ComputeThinV);
    for (int64_t b = 0; b < count; ++b) {
        Eigen::JacobiSVD<EMat<T>> sv(load(A, b), options);
        store(r.U, b, sv.matrixU());
        store(r.S, b, sv.singularValues());
        store(r.Vh, b, sv.matrixV().adjoint());
    }
    return r;
}

/// linalg.svdvals's kernel (no recording).
template <class T>
Tensor<real_t<T>> svdvals_impl(const Tensor<T>& A) {
    const int64_t k = std::min(A.sizes()[A.dim() - 2], A.sizes()[A.dim() - 1]);
    const IntArray batch = batch_of(A.sizes());
    Tensor<real_t<T>> S = new_tensor<real_t<T>>(with_dims(batch, {k}));
    for (int64_t b = 0, count = product(batch); b < count; ++b) store(S, b, singular_values<T>(load(A, b)));
    return S;
}

/// linalg.qr's kernel.
template <class T>
linalg::QRResult<T> qr_impl(const Tensor<T>& A, std::string_view mode) {
    if (mode != "reduced" && mode != "complete" && mode != "r")
        fail<value_error>("linalg.qr: qr received unrecognized mode '", mode,
                          "' but expected one of 'reduced' (default), 'r', or 'complete'");
    const int64_t m = A.sizes()[A.dim() - 2], n = A.sizes()[A.dim() - 1], k = std::min(m, n);
    const IntArray batch = batch_of(A.sizes());
    const int64_t qcols = mode == "complete" ? m : k, rrows = mode == "complete" ? m : k;
    linalg::QRResult<T> r{new_tensor<T>(mode == "r" ? IntArray{0} : with_dims(batch, {m, qcols})),
                          new_tensor<T>(with_dims(batch, {rrows, n}))};
    for (int64_t b = 0, count = product(batch); b < count; ++b) {
        Eigen::HouseholderQR<EMat<T>> h(load(A, b));
        const EMat<T> R = h.matrixQR().topRows(rrows).template triangularView<Eigen::Upper>().toDenseMatrix();
        store(r.R, b, R);
        if (mode != "r") {
            const EMat<T> Q = h.householderQ() * EMat<T>::Identity(m, qcols);
            store(r.Q, b, Q);
        }
    }
    return r;
}

/// linalg.cholesky's kernel (no recording).
template <class T>
Tensor<T> cholesky_impl(const Tensor<T>& A, bool upper) {
    const char* op = "linalg.cholesky";
    check_square(A, op);
    const int64_t count = product(batch_of(A.sizes()));
    Tensor<T> L = new_tensor<T>(A.sizes());
    for (int64_t b = 0; b < count; ++b) {
        const EMat<T> l = cholesky_lower<T>(load(A, b), op, b, count);
        if (upper) store(L, b, l.adjoint());  // U = L^H (L^T for real A)
        else store(L, b, l);
    }
    return L;
}

/// linalg.inv's kernel (no recording).
template <class T>
Tensor<T> inv_impl(const Tensor<T>& A) {
    const char* op = "linalg.inv";
    check_square(A, op);
    Tensor<T> out = new_tensor<T>(A.sizes());
    const int64_t count = product(batch_of(A.sizes()));
    for (int64_t b = 0; b < count; ++b)
        store(out, b, checked_lu<T>(load(A, b), op, "inversion", b, count).inverse());
    return out;
}

/// linalg.det's kernel (no recording).
template <class T>
Tensor<T> det_impl(const Tensor<T>& A) {
    check_square(A, "linalg.det");
    const IntArray batch = batch_of(A.sizes());
    Tensor<T> out = new_tensor<T>(batch);
    for (int64_t b = 0, count = product(batch); b < count; ++b) {
        const EMat<T> M = load(A, b);
        out.data_ptr()[b] = M.rows() == 0 ? T(1) : T(Eigen::PartialPivLU<EMat<T>>(M).determinant());
    }
    return out;
}

/// linalg.slogdet's kernel (no recording).
/// sign is the permutation's sign times the product of u/|u| over U's diagonal (for real A: the
/// signs of the u), logabsdet the sum of log|u|.
template <class T>
linalg::SlogdetResult<T> slogdet_impl(const Tensor<T>& A) {
    using S = eigen_scalar_t<T>;
    using R = real_t<T>;
    check_square(A, "linalg.slogdet");
    const IntArray batch = batch_of(A.sizes());
    linalg::SlogdetResult<T> r{new_tensor<T>(batch), new_tensor<R>(batch)};
    for (int64_t b = 0, count = product(batch); b < count; ++b) {
        const EMat<T> M = load(A, b);
        S sign = 1;
        R logabs = 0;
        if (M.rows() > 0) {
            Eigen::PartialPivLU<EMat<T>> lu(M);
            sign = static_cast<S>(lu.permutationP().determinant());
            for (int64_t i = 0; i < M.rows(); ++i) {
                const S u = lu.matrixLU()(i, i);
                if (u == S(0)) {
                    sign = 0;
                    logabs = -std::numeric_limits<R>::infinity();
                    break;
                }
                if constexpr (is_complex_v<T>) sign *= u / std::abs(u);
                else if (u < 0) sign = -sign;
                logabs += std::log(std::abs(u));
            }
        }
        r.sign.data_ptr()[b] = T(sign);
        r.logabsdet.data_ptr()[b] = logabs;
    }
    return r;
}

/// linalg.lstsq's kernel.
template <class T>
linalg::LstsqResult<T> lstsq_impl(const Tensor<T>& A, const Tensor<T>& B, std::optional<double> rcond) {
    const char* op = "linalg.lstsq";
    const int64_t m = A.sizes()[A.dim() - 2], n = A.sizes()[A.dim() - 1];
    const bool vector = B.dim() == A.dim() - 1;
    const Tensor<T> Bm = vector ? B.unsqueeze(-1) : B;
    if (Bm.dim() < 2 || Bm.sizes()[Bm.dim() - 2] != m)
        fail<shape_error>(op, ": input.size(-2) should match other.size(-2) (shapes ", A.sizes(), " and ", B.sizes(),
                          ")");
    const int64_t k = Bm.sizes()[Bm.dim() - 1];
    const IntArray batch = broadcast_shapes(batch_of(A.sizes()), batch_of(Bm.sizes()), op);
    const Tensor<T> Ae = A.expand(with_dims(batch, {m, n}));
    const Tensor<T> Be = Bm.expand(with_dims(batch, {m, k}));
    using R = real_t<T>;
    const double threshold = rcond ? *rcond : std::numeric_limits<R>::epsilon() * static_cast<double>(std::max(m, n));
    linalg::LstsqResult<T> r{new_tensor<T>(with_dims(batch, {n, k})), new_tensor<int64_t>(batch)};
    for (int64_t i = 0, count = product(batch); i < count; ++i) {
        Eigen::CompleteOrthogonalDecomposition<EMat<T>> cod;
        cod.setThreshold(static_cast<R>(threshold));
        cod.compute(load(Ae, i));
        store(r.solution, i, cod.solve(load(Be, i)));
        r.rank.data_ptr()[i] = cod.rank();
    }
    if (vector) r.solution = r.solution.squeeze(-1);
    return r;
}
}  // namespace detail

namespace linalg {

/// torch.linalg.eig: eigenvalues and eigenvectors (columns, unit 2-norm) of square, not
/// necessarily symmetric matrices, A V = V diag(L). Both are complex: complex64 for float32 and
/// complex64 input, complex128 for float64 and complex128. Not differentiable in tenet (the gradient
/// needs complex autograd).
template <expr::TensorOperand X>
auto eig(const X& x) {
    const char* op = "linalg.eig";
    auto A = detail::matrix_operand(x, op);
    detail::check_square(A, op);
    return detail::eig_impl(A, true, op);
}

/// torch.linalg.eigvals: the (complex) eigenvalues of square matrices, as linalg.eig's.
template <expr::TensorOperand X>
auto eigvals(const X& x) {
    const char* op = "linalg.eigvals";
    auto A = detail::matrix_operand(x, op);
    detail::check_square(A, op);
    return detail::eig_impl(A, false, op).eigenvalues;
}

/// torch.linalg.svd: A = U diag(S) Vh, S descending and real, Vh = V^H. full_matrices = true gives
/// square U (m x m) and Vh (n x n); false the reduced ones (m x k, k x n), k = min(m, n).
template <expr::TensorOperand X>
auto svd(const X& x, bool full_matrices = true) {
    auto A = detail::matrix_operand(x, "linalg.svd");
    using T = typename decltype(A)::value_type;
    auto r = detail::svd_impl(A, full_matrices);
    if constexpr (!is_complex_v<T>) detail::record_svd(A, r.U, r.S, r.Vh);
    return r;
}

/// torch.linalg.svdvals: the singular values, descending (real, for complex A too).
template <expr::TensorOperand X>
auto svdvals(const X& x) {
    auto A = detail::matrix_operand(x, "linalg.svdvals");
    using T = typename decltype(A)::value_type;
    auto S = detail::svdvals_impl(A);
    if constexpr (!is_complex_v<T>) detail::record_svdvals(A, S);
    return S;
}

/// torch.linalg.qr: mode "reduced" (Q m x k, R k x n), "complete" (Q m x m, R m x n) or "r"
/// (R only; Q is an empty tensor), k = min(m, n). Q has orthonormal (complex: unitary) columns.
template <expr::TensorOperand X>
auto qr(const X& x, std::string_view mode = "reduced") {
    return detail::qr_impl(detail::matrix_operand(x, "linalg.qr"), mode);
}

/// torch.linalg.cholesky: L lower triangular with A = L L^H (L L^T for real A) of symmetric
/// (complex: Hermitian) positive-definite A, read from its lower triangle; upper = true gives
/// U = L^H, A = U^H U. Throws value_error naming the leading minor that is not positive-definite.
template <expr::TensorOperand X>
auto cholesky(const X& x, bool upper = false) {
    auto A = detail::matrix_operand(x, "linalg.cholesky");
    using T = typename decltype(A)::value_type;
    auto L = detail::cholesky_impl(A, upper);
    if constexpr (!is_complex_v<T>) detail::record_cholesky(A, L, upper);
    return L;
}

/// torch.linalg.inv: the inverse of square matrices; throws value_error when one is singular.
template <expr::TensorOperand X>
auto inv(const X& x) {
    auto A = detail::matrix_operand(x, "linalg.inv");
    using T = typename decltype(A)::value_type;
    auto out = detail::inv_impl(A);
    if constexpr (!is_complex_v<T>) detail::record_inv(A, out);
    return out;
}

/// torch.linalg.det: determinants of square matrices (0 for singular ones).
template <expr::TensorOperand X>
auto det(const X& x) {
    auto A = detail::matrix_operand(x, "linalg.det");
    using T = typename decltype(A)::value_type;
    auto out = detail::det_impl(A);
    if constexpr (!is_complex_v<T>) detail::record_det(A, out);
    return out;
}

/// torch.linalg.slogdet: sign and log|det| (sign 0 and logabsdet -inf for singular matrices). For
/// complex A, sign = det/|det| is complex and logabsdet real (float32 for complex64, float64 for
/// complex128).
template <expr::TensorOperand X>
auto slogdet(const X& x) {
    auto A = detail::matrix_operand(x, "linalg.slogdet");
    using T = typename decltype(A)::value_type;
    auto r = detail::slogdet_impl(A);
    if constexpr (!is_complex_v<T>) detail::record_slogdet(A, r.logabsdet);
    return r;
}

/// torch.linalg.solve: X with A X = B, A (*, n, n); B (*, n, k), or (*, n) / (n) — a batch of
/// vectors — when B has one dim less than A and matches A's shape without its last dim. Batch
/// dims broadcast. Throws value_error when A is singular.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto solve(const X& a, const Y& b) {
    const char* op = "linalg.solve";
    auto A = detail::matrix_operand(a, op);
    using T = typename decltype(A)::value_type;
    detail::check_same_dtype<T, detail::operand_value_t<Y>>(op);
    if constexpr (!std::is_same_v<T, detail::operand_value_t<Y>>) {
        return Tensor<T>();  // unreachable: check_same_dtype threw
    } else {
        detail::check_square(A, op);
        const Tensor<T> B = detail::materialize(b, op);
        const bool vector = B.dim() == 1 || (B.dim() == A.dim() - 1 &&
                                             B.sizes() == IntArray(A.sizes().begin(), A.sizes().end() - 1));
        Tensor<T> solution = detail::untracked([&] { return detail::solve_impl(A, B, vector, op); });
        if constexpr (!is_complex_v<T>) detail::record_solve(A, B, solution, vector);
        return solution;
    }
}

/// torch.linalg.lstsq (driver gelsy): the X minimising ||A X - B|| (minimum norm when A is
/// rank-deficient), A (*, m, n), B (*, m, k) or (m) with 2-D A, real or complex (same dtype);
/// rank from a column-pivoted QR with threshold rcond (default: the real type's machine epsilon
/// times max(m, n)).
template <expr::TensorOperand X, expr::TensorOperand Y>
auto lstsq(const X& a, const Y& b, std::optional<double> rcond = std::nullopt) {
    const char* op = "linalg.lstsq";
    auto A = detail::matrix_operand(a, op);
    using T = typename decltype(A)::value_type;
    detail::check_same_dtype<T, detail::operand_value_t<Y>>(op);
    if constexpr (!std::is_same_v<T, detail::operand_value_t<Y>>) {
        return linalg::LstsqResult<T>();  // unreachable: check_same_dtype threw
    } else {
        return detail::lstsq_impl(A, Tensor<T>(detail::materialize(b, op)), rcond);
    }
}

/// torch.linalg.matrix_norm with a numeric ord: 1, -1 (max/min column sum), inf, -inf
/// (max/min row sum), 2, -2 (largest/smallest singular value), over the two dims `dim`. Complex
/// input gives real norms (float32 for complex64, float64 for complex128), as all the norms do.
template <expr::TensorOperand X>
auto matrix_norm(const X& x, double ord, const IntArray& dim = {-2, -1}, bool keepdim = false) {
    auto A = detail::matrix_operand(x, "linalg.matrix_norm");
    return detail::matrix_norm_impl(A, "", ord, dim, keepdim);
}
/// torch.linalg.matrix_norm with ord "fro" (default; Frobenius) or "nuc" (sum of singular values).
template <expr::TensorOperand X>
auto matrix_norm(const X& x, std::string_view ord = "fro", const IntArray& dim = {-2, -1}, bool keepdim = false) {
    auto A = detail::matrix_operand(x, "linalg.matrix_norm");
    if (ord != "fro" && ord != "nuc")
        detail::fail<value_error>("linalg.matrix_norm: Order ", ord, " not supported.");
    return detail::matrix_norm_impl(A, ord, 0.0, dim, keepdim);
}
template <expr::TensorOperand X>
auto matrix_norm(const X& x, const char* ord, const IntArray& dim = {-2, -1}, bool keepdim = false) {
    return matrix_norm(x, std::string_view(ord), dim, keepdim);
}

/// torch.linalg.vector_norm (ops/reduce.hpp).
using tenet::vector_norm;

/// torch.linalg.norm without ord: the 2-norm of all elements (dim = nullopt) or a vector norm
/// over one dim / the Frobenius norm over two.
template <expr::TensorOperand X>
auto norm(const X& x, std::optional<IntArray> dim = std::nullopt, bool keepdim = false) {
    if (dim && dim->size() == 2) return matrix_norm(x, "fro", *dim, keepdim);
    return Tensor<real_t<detail::operand_value_t<X>>>(tenet::vector_norm(x, 2.0, dim, keepdim));
}
/// torch.linalg.norm with a numeric ord: a vector norm when dim has one entry (or x is 1-D and
/// no dim is given), a matrix norm when dim has two (or x is 2-D).
template <expr::TensorOperand X>
auto norm(const X& x, double ord, std::optional<IntArray> dim = std::nullopt, bool keepdim = false) {
    using T = detail::operand_value_t<X>;
    using R = real_t<T>;
    const char* op = "linalg.norm";
    const Tensor<T> t = detail::materialize(x, op);
    if (!dim) {
        if (t.dim() == 1) return Tensor<R>(tenet::vector_norm(t, ord, std::nullopt, keepdim));
        if (t.dim() == 2) return Tensor<R>(matrix_norm(t, ord, IntArray{-2, -1}, keepdim));
        detail::fail<shape_error>(op, ": If dim is not specified but ord is, the input must be 1D or 2D. Got ",
                                  t.dim(), "D.");
    }
    if (dim->size() == 1) return Tensor<R>(tenet::vector_norm(t, ord, dim, keepdim));
    if (dim->size() == 2) return Tensor<R>(matrix_norm(t, ord, *dim, keepdim));
    detail::fail<value_error>(op, ": If dim is specified, it must be of length 1 or 2. Got ", *dim);
}
/// torch.linalg.norm with ord "fro" or "nuc": a matrix norm over dim (default: x must be 2-D).
template <expr::TensorOperand X>
auto norm(const X& x, std::string_view ord, std::optional<IntArray> dim = std::nullopt, bool keepdim = false) {
    const char* op = "linalg.norm";
    using T = detail::operand_value_t<X>;
    const Tensor<T> t = detail::materialize(x, op);
    if (!dim && t.dim() != 2)
        detail::fail<shape_error>(op, ": If dim is not specified but ord is, the input must be 1D or 2D. Got ",
                                  t.dim(), "D.");
    if (dim && dim->size() != 2)
        detail::fail<value_error>(op, ": ord ", ord, " requires dim to be of length 2. Got ", *dim);
    return matrix_norm(t, ord, dim ? *dim : IntArray{-2, -1}, keepdim);
}
template <expr::TensorOperand X>
auto norm(const X& x, const char* ord, std::optional<IntArray> dim = std::nullopt, bool keepdim = false) {
    return norm(x, std::string_view(ord), dim, keepdim);
}

}  // namespace linalg
}  // namespace tenet
