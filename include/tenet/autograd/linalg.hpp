#pragma once
// Gradients of the linear algebra (the hooks of linalg/autograd_hooks.hpp). Each recorded
// result is one LinalgNode holding a backward formula from PyTorch's derivatives.yaml /
// FunctionsManual.cpp, evaluated with tenet's own ops (grad mode is off during backward) or,
// for the per-matrix decompositions, with Eigen matrix by matrix.
//
// Multi-output decompositions get one node per differentiable output (eigh's eigenvalues and
// eigenvectors): the backward of a decomposition is linear in its outputs' gradients, so the
// engine's sum of the per-output contributions at A is the joint gradient.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/LU>
#include <Eigen/SVD>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/linalg/autograd_hooks.hpp"
#include "tenet/linalg/decompositions.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/linalg/products.hpp"

namespace tenet::autograd {

/// A recorded linear-algebra result: the tensors its formula needs (checked against in-place
/// writes when it runs) and the formula, which maps the output's gradient to one gradient
/// per input (an undefined tensor for an input without an edge). Saved tensors are detached
/// handles: a saved output that kept its grad_fn (this node) would be a reference cycle.
template <class T>
struct LinalgNode final : Node {
    using Formula = std::function<std::vector<Tensor<T>>(const Tensor<T>& grad, const std::vector<Tensor<T>>& saved,
                                                         const std::vector<bool>& needed)>;
    LinalgNode(std::string n, const std::vector<TensorBase>& inputs, const std::vector<Tensor<T>>& to_save, Formula f)
        : name_(std::move(n)), formula(std::move(f)) {
        for (const TensorBase& t : inputs) next_edges.push_back(gradient_edge(t));
        for (const Tensor<T>& t : to_save) saved.push_back(SavedVersion::save(t.detach()));
    }
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override {
        if (!formula) throw_released(name_);
        std::vector<Tensor<T>> values;
        for (size_t i = 0; i < saved.size(); ++i) {
            saved[i].check(name_, i);
            values.push_back(Tensor<T>(saved[i].tensor.impl_ptr()));
        }
        std::vector<bool> needed;
        for (const Edge& e : next_edges) needed.push_back(e.valid());
        const std::vector<Tensor<T>> grads = formula(Tensor<T>(grad.impl_ptr()).contiguous(), values, needed);
        // The engine adds gradients as dense buffers.
        GradientList out(next_edges.size());
        for (size_t i = 0; i < grads.size() && i < out.size(); ++i)
            if (needed[i] && grads[i].defined()) out[i] = grads[i].contiguous();
        return out;
    }
    void release_variables() override {
        saved.clear();
        formula = nullptr;
    }

    std::string name_;
    Formula formula;
    std::vector<SavedVersion> saved;
};

/// Makes `result` the output of a LinalgNode.
template <class T>
void attach(const Tensor<T>& result, std::string name, const std::vector<TensorBase>& inputs,
            const std::vector<Tensor<T>>& to_save, typename LinalgNode<T>::Formula f) {
    auto node = detail::make_pooled<LinalgNode<T>>(std::move(name), inputs, to_save, std::move(f));
    bool any = false;
    for (const Edge& e : node->next_edges) any = any || e.valid();
    if (any) set_history(result, std::move(node));
}

/// The last two dims swapped (a view).
template <class T>
Tensor<T> mT(const Tensor<T>& t) {
    return t.transpose(-2, -1);
}

/// x * s as a new tensor (s = 1: x itself).
template <class T>
Tensor<T> scaled(const Tensor<T>& x, double s) {
    if (s == 1.0) return x;
    return Tensor<T>(x * static_cast<T>(s));
}

/// torch.matmul's backward: a 1-D operand is a row (a) or column (b) matrix, the gradient gets
/// back the dims the product dropped, and broadcast batch dims are summed away.
template <class T>
std::pair<Tensor<T>, Tensor<T>> matmul_backward(Tensor<T> g, const Tensor<T>& a, const Tensor<T>& b, bool need_a,
                                                bool need_b) {
    const Tensor<T> A = a.dim() == 1 ? a.unsqueeze(0) : a;
    const Tensor<T> B = b.dim() == 1 ? b.unsqueeze(-1) : b;
    if (b.dim() == 1) g = g.unsqueeze(-1);
    if (a.dim() == 1) g = g.unsqueeze(-2);
    Tensor<T> ga, gb;
    if (need_a) ga = sum_to(tenet::matmul(g, mT(B)).contiguous(), A.sizes()).view(a.sizes());
    if (need_b) gb = sum_to(tenet::matmul(mT(A), g).contiguous(), B.sizes()).view(b.sizes());
    return {ga, gb};
}

/// Gradient of each matrix of a batch, computed with Eigen: f(b) returns matrix b's gradient.
template <class T, class F>
Tensor<T> per_matrix(const IntArray& shape, F&& f) {
    Tensor<T> out = detail::new_tensor<T>(shape);
    const int64_t count = product(detail::batch_of(shape));
    for (int64_t b = 0; b < count; ++b) detail::store(out, b, f(b));
    return out;
}

}  // namespace tenet::autograd

namespace tenet::detail {

template <class T>
void record_product(const char* name, ProductKind kind, const Tensor<T>& result, const Tensor<T>& a,
                    const Tensor<T>& b, const Tensor<T>& input, double beta, double alpha) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const bool with_input = input.defined();
        if (!(with_input ? linalg_records(a, b, input) : linalg_records(a, b))) return;
        const IntArray input_sizes = with_input ? input.sizes() : IntArray{};
        std::vector<TensorBase> inputs{a, b};
        if (with_input) inputs.push_back(input);
        autograd::attach<T>(result, name, inputs, {a, b},
                            [=](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>& needed) {
                                const Tensor<T>& u = s[0];
                                const Tensor<T>& v = s[1];
                                std::vector<Tensor<T>> out(3);
                                const Tensor<T> gp = autograd::scaled(g, alpha);
                                if (kind == ProductKind::Outer) {  // result[i][j] = u[i] * v[j]
                                    if (needed[0]) out[0] = tenet::matmul(gp, v);
                                    if (needed[1]) out[1] = tenet::matmul(autograd::mT(gp), u);
                                } else {
                                    // addbmm summed the batch: every a[i] @ b[i] receives the same gradient.
                                    const Tensor<T> gm = kind == ProductKind::BatchSum
                                                             ? gp.unsqueeze(0).expand({u.sizes()[0], gp.sizes()[0],
                                                                                       gp.sizes()[1]})
                                                             : gp;
                                    std::tie(out[0], out[1]) = autograd::matmul_backward(gm, u, v, needed[0], needed[1]);
                                }
                                if (with_input && needed[2])
                                    out[2] = autograd::sum_to(autograd::scaled(g, beta).contiguous(), input_sizes);
                                return out;
                            });
    }
}

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

/// tril/triu: the gradient keeps the same triangle.
template <bool Lower, class T>
void record_triangle(const Tensor<T>& A, const Tensor<T>& result, int64_t k) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(result, Lower ? "TrilBackward0" : "TriuBackward0", {A}, {},
                        [k](const Tensor<T>& g, const std::vector<Tensor<T>>&, const std::vector<bool>&) {
                            return std::vector<Tensor<T>>{triangle_impl<Lower>(g, k, Lower ? "tril" : "triu")};
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
