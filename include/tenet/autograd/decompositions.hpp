#pragma once
// Gradients of the decompositions and solvers (the record_inv ... record_cholesky hooks of
// core/hooks.hpp), as FunctionNodes (attach, autograd/products.hpp) whose formulas come from PyTorch's
// derivatives.yaml / FunctionsManual.cpp, computed with Eigen matrix by matrix.
//
// Multi-output decompositions get one node per differentiable output (eigh's eigenvalues and
// eigenvectors): the backward of a decomposition is linear in its outputs' gradients, so the
// engine's sum of the per-output contributions at A is the joint gradient.

#include "tenet/config.hpp"
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/LU>
#include <Eigen/SVD>

#include "tenet/autograd/products.hpp"
#include "tenet/linalg/decompositions.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// Gradient of each matrix of a batch, computed with Eigen: f(b) returns matrix b's gradient.
template <class T, class F>
Tensor<T> per_matrix(const IntArray& shape, F&& f) {
    Tensor<T> out = detail::new_tensor<T>(shape);
    const int64_t count = product(detail::batch_of(shape));
    for (int64_t b = 0; b < count; ++b) detail::store(out, b, f(b));
    return out;
}

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

/// inv: gA = -A^-T g A^-T (from the saved inverse).
template <class T>
void record_inv(const Tensor<T>& A, const Tensor<T>& result) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(result, "LinalgInvExBackward0", {A}, {result},
                        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                            const Tensor<T> invT = autograd::mT(s[0]);
                            const Tensor<T> p = tenet::matmul(tenet::matmul(invT, g), invT);
                            return std::vector<Tensor<T>>{Tensor<T>(-p)};
                        });
}

/// det: gA = g * cof(A), the cofactor matrix, from the SVD A = U S V^T:
/// cof(A) = det(U) det(V) U diag(prod_{j != i} s_j) V^T. Unlike det * A^-T it holds for
/// singular A too (PyTorch also falls back on the SVD there).
template <class T>
void record_det(const Tensor<T>& A, const Tensor<T>& result) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(
        result, "LinalgDetBackward0", {A}, {A},
        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
            const Tensor<T>& a = s[0];
            const T* gp = g.data_ptr();
            return std::vector<Tensor<T>>{autograd::per_matrix<T>(a.sizes(), [&](int64_t b) {
                const EMat<T> M = load(a, b);
                const int64_t n = M.rows();
                if (n == 0) return EMat<T>(M);
                Eigen::JacobiSVD<EMat<T>> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
                const auto& sv = svd.singularValues();
                Eigen::Matrix<T, Eigen::Dynamic, 1> others(n);
                for (int64_t i = 0; i < n; ++i) {
                    T p = 1;
                    for (int64_t j = 0; j < n; ++j)
                        if (j != i) p *= sv(j);
                    others(i) = p;
                }
                const T sign = svd.matrixU().determinant() * svd.matrixV().determinant();
                return EMat<T>(gp[b] * sign * svd.matrixU() * others.asDiagonal() * svd.matrixV().transpose());
            })};
        });
}

/// slogdet's logabsdet: gA = g * A^-T.
template <class T>
void record_slogdet(const Tensor<T>& A, const Tensor<T>& logabsdet) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(logabsdet, "LinalgSlogdetBackward0", {A}, {A},
                        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                            const Tensor<T>& a = s[0];
                            const T* gp = g.data_ptr();
                            return std::vector<Tensor<T>>{autograd::per_matrix<T>(a.sizes(), [&](int64_t b) {
                                const EMat<T> M = load(a, b);
                                if (M.rows() == 0) return M;
                                return EMat<T>(gp[b] * Eigen::PartialPivLU<EMat<T>>(M).inverse().transpose());
                            })};
                        });
}

/// solve X = A^-1 B: gB = A^-T g, gA = -gB X^T, each summed over the batch dims it was
/// broadcast along.
template <class T>
void record_solve(const Tensor<T>& A, const Tensor<T>& B, const Tensor<T>& X, bool vector) {
    if (!linalg_records(A, B)) return;
    const IntArray b_sizes = B.sizes();
    IntArray bm_sizes = B.sizes();  // B as a matrix batch
    if (vector) bm_sizes.push_back(1);
    autograd::attach<T>(X, "LinalgSolveExBackward0", {A, B}, {A, X},
                        [=](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>& needed) {
                            const Tensor<T>& a = s[0];
                            const Tensor<T> gm = vector ? g.unsqueeze(-1) : g;
                            const Tensor<T> xm = vector ? s[1].unsqueeze(-1) : s[1];
                            const Tensor<T> gb = solve_impl(autograd::mT(a), gm, false, "linalg.solve backward");
                            std::vector<Tensor<T>> out(2);
                            if (needed[0]) {
                                const Tensor<T> p = tenet::matmul(gb, autograd::mT(xm));
                                out[0] = autograd::sum_to(Tensor<T>(-p), a.sizes());
                            }
                            if (needed[1]) out[1] = autograd::sum_to(gb, bm_sizes).view(b_sizes);
                            return out;
                        });
}

/// eigh (PyTorch's linalg_eig_backward, Hermitian case). Eigenvalues: gA = V diag(gL) V^T.
/// Eigenvectors: gA = V (skew(V^T gV) / E) V^T with skew(X) = (X - X^T) / 2 and
/// E_ij = L_j - L_i (the diagonal, where skew is 0, divided by 1). Both are symmetric: the
/// gradient with respect to the symmetric matrix, not to the triangle eigh reads.
template <class T>
void record_eigh(const Tensor<T>& A, const Tensor<T>& L, const Tensor<T>& V) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(L, "LinalgEighBackward0", {A}, {V},
                        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                            const Tensor<T>& v = s[0];
                            const Tensor<T> vg = v * g.unsqueeze(-2);  // V diag(gL)
                            return std::vector<Tensor<T>>{tenet::matmul(vg, autograd::mT(v))};
                        });
    autograd::attach<T>(V, "LinalgEighBackward0", {A}, {L, V},
                        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                            const Tensor<T>& l = s[0];
                            const Tensor<T>& v = s[1];
                            const Tensor<T> vtg = tenet::matmul(autograd::mT(v), g);
                            Tensor<T> e = l.unsqueeze(-2) - l.unsqueeze(-1);
                            diagonal_view(e, 0).fill_(T(1));
                            const Tensor<T> inner = (vtg - autograd::mT(vtg)) * T(0.5) / e;
                            return std::vector<Tensor<T>>{
                                tenet::matmul(tenet::matmul(v, inner), autograd::mT(v))};
                        });
}

/// PyTorch's svd_backward (real case) for one matrix, from the reduced U (m x k), S, Vh
/// (k x n) and the gradients that are defined (null: zero). With skew(X) = X - X^T and
/// E_ij = S_j^2 - S_i^2 (1 on the diagonal), the core is
///   R = (skew(U^T gU) S + S skew(Vh gVh^T)) / E + diag(gS),
/// and gA = U R Vh, plus (I - U U^T) gU S^-1 Vh when m > n, or U S^-1 gVh (I - Vh^T Vh)
/// when m < n.
template <class T>
EMat<T> svd_backward_matrix(const EMat<T>& U, const EMat<T>& S, const EMat<T>& Vh, const EMat<T>* gU,
                            const EMat<T>* gS, const EMat<T>* gVh) {
    const int64_t m = U.rows(), n = Vh.cols(), k = S.rows();
    const Eigen::Matrix<T, Eigen::Dynamic, 1> s = S.col(0);
    if (!gU && !gVh) return U * gS->col(0).asDiagonal() * Vh;
    EMat<T> R = EMat<T>::Zero(k, k);
    if (gU) {
        const EMat<T> x = U.transpose() * *gU;
        R += (x - x.transpose()) * s.asDiagonal();
    }
    if (gVh) {
        const EMat<T> y = Vh * gVh->transpose();
        R += s.asDiagonal() * (y - y.transpose());
    }
    for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < k; ++j) R(i, j) /= i == j ? T(1) : s(j) * s(j) - s(i) * s(i);
    if (gS) R += gS->col(0).asDiagonal();
    const Eigen::Matrix<T, Eigen::Dynamic, 1> sinv = s.cwiseInverse();
    if (m > n && gU) {
        const EMat<T> gus = *gU * sinv.asDiagonal();
        return (U * R + gus - U * (U.transpose() * gus)) * Vh;
    }
    if (m < n && gVh) {
        const EMat<T> sgv = sinv.asDiagonal() * *gVh;
        return U * (R * Vh + sgv - (sgv * Vh.transpose()) * Vh);
    }
    return U * R * Vh;
}

/// svd: one node per output (U, S, Vh), each the svd backward with the other gradients zero.
/// Full U and Vh are narrowed to their first k = min(m, n) columns / rows, as PyTorch does:
/// the rest is an arbitrary completion with no gradient.
template <class T>
void record_svd(const Tensor<T>& A, const Tensor<T>& U, const Tensor<T>& S, const Tensor<T>& Vh) {
    if (!linalg_records(A)) return;
    const int64_t k = S.sizes()[S.dim() - 1];
    for (int which = 0; which < 3; ++which) {
        const Tensor<T>& out = which == 0 ? U : (which == 1 ? S : Vh);
        autograd::attach<T>(
            out, "LinalgSvdBackward0", {A}, {U, S, Vh},
            [which, k](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                const IntArray shape =
                    with_dims(batch_of(s[0].sizes()), {s[0].sizes()[s[0].dim() - 2], s[2].sizes()[s[2].dim() - 1]});
                return std::vector<Tensor<T>>{autograd::per_matrix<T>(shape, [&](int64_t b) {
                    const EMat<T> u = load(s[0], b).leftCols(k), vh = load(s[2], b).topRows(k);
                    const EMat<T> sv = load(s[1].unsqueeze(-1), b);
                    if (which == 1) {
                        const EMat<T> gs = load(g.unsqueeze(-1), b);
                        return svd_backward_matrix<T>(u, sv, vh, nullptr, &gs, nullptr);
                    }
                    if (which == 0) {
                        const EMat<T> gu = load(g, b).leftCols(k);
                        return svd_backward_matrix<T>(u, sv, vh, &gu, nullptr, nullptr);
                    }
                    const EMat<T> gvh = load(g, b).topRows(k);
                    return svd_backward_matrix<T>(u, sv, vh, nullptr, nullptr, &gvh);
                })};
            });
    }
}

/// svdvals: gA = U diag(gS) V^T with the reduced SVD of A (recomputed on backward).
template <class T>
void record_svdvals(const Tensor<T>& A, const Tensor<T>& S) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(S, "LinalgSvdBackward0", {A}, {A},
                        [](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
                            const Tensor<T>& a = s[0];
                            const int64_t k = g.sizes()[g.dim() - 1];
                            return std::vector<Tensor<T>>{autograd::per_matrix<T>(a.sizes(), [&](int64_t b) {
                                Eigen::JacobiSVD<EMat<T>> svd(load(a, b), Eigen::ComputeThinU | Eigen::ComputeThinV);
                                const Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> gs(g.data_ptr() + b * k, k);
                                return EMat<T>(svd.matrixU() * gs.asDiagonal() * svd.matrixV().transpose());
                            })};
                        });
}


/// cholesky (Murray 2016, as PyTorch's cholesky_backward): with P = tril(L^T gL) and
/// Phi = (P + tril(P, -1)^T) / 2, gA = L^-T Phi L^-1 (symmetric).
template <class T>
void record_cholesky(const Tensor<T>& A, const Tensor<T>& L, bool upper) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(
        L, "LinalgCholeskyExBackward0", {A}, {L},
        [upper](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>&) {
            const Tensor<T>& l = s[0];
            return std::vector<Tensor<T>>{autograd::per_matrix<T>(l.sizes(), [&](int64_t b) {
                const EMat<T> lm = upper ? EMat<T>(load(l, b).transpose()) : load(l, b);
                const EMat<T> gl = upper ? EMat<T>(load(g, b).transpose()) : load(g, b);
                const EMat<T> p = (lm.transpose() * gl).template triangularView<Eigen::Lower>();
                const EMat<T> strict = p.template triangularView<Eigen::StrictlyLower>();
                const EMat<T> phi = T(0.5) * (p + strict.transpose());
                const EMat<T> lt = lm.transpose();
                const EMat<T> x = lt.template triangularView<Eigen::Upper>().solve(phi);  // L^-T Phi
                return EMat<T>(lt.template triangularView<Eigen::Upper>().solve(EMat<T>(x.transpose())).transpose());
            })};
        });
}

}  // namespace tenet::detail
