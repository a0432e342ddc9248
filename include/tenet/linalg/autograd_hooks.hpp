#pragma once
// What the linalg/ headers know of autograd: whether a result must be recorded, and the
// recording hooks that autograd/linalg.hpp (included after the autograd core) defines.
// A kernel runs with recording off (its internal views and copies are not the operation's
// history); the public function then records its result as one node with PyTorch's name.

#include <utility>

#include "tenet/autograd/grad_mode.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::detail {

/// Runs f with recording off and returns its result.
template <class F>
auto untracked(F&& f) {
    NoGradGuard no_grad;
    return f();
}

/// Whether a result computed from these operands is recorded: grad mode on, a floating
/// element type, and one operand that requires grad.
template <class T, class... Ts>
bool linalg_records(const Tensor<T>& t, const Tensor<Ts>&... rest) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        return autograd::GradMode::is_enabled() && (t.requires_grad() || (rest.requires_grad() || ...));
    else
        return false;
}

/// How a product's result depends on its operands (autograd/linalg.hpp has the gradients).
enum class ProductKind {
    Matmul,    ///< torch.matmul's rules (dot, mv, mm, bmm and broadcast batches)
    BatchSum,  ///< addbmm: the sum over the batch of a[i] @ b[i]
    Outer,     ///< addr: the outer product of two vectors
};

// The hooks record `result` when linalg_records(inputs...) holds; otherwise they do nothing.
/// result = beta * input + alpha * product(a, b); an undefined input means no added term.
template <class T>
void record_product(const char* name, ProductKind kind, const Tensor<T>& result, const Tensor<T>& a,
                    const Tensor<T>& b, const Tensor<T>& input, double beta, double alpha);
/// result = A^-1.
template <class T>
void record_inv(const Tensor<T>& A, const Tensor<T>& result);
/// result = det(A).
template <class T>
void record_det(const Tensor<T>& A, const Tensor<T>& result);
/// logabsdet = log|det(A)| (the sign has no gradient).
template <class T>
void record_slogdet(const Tensor<T>& A, const Tensor<T>& logabsdet);
/// X = solve(A, B); `vector`: B and X are batches of vectors (no trailing k dim).
template <class T>
void record_solve(const Tensor<T>& A, const Tensor<T>& B, const Tensor<T>& X, bool vector);
/// eigenvalues L and eigenvectors V of symmetric A; V may be undefined (eigvalsh).
template <class T>
void record_eigh(const Tensor<T>& A, const Tensor<T>& L, const Tensor<T>& V);
/// A = U diag(S) Vh (U and Vh full or reduced).
template <class T>
void record_svd(const Tensor<T>& A, const Tensor<T>& U, const Tensor<T>& S, const Tensor<T>& Vh);
/// S = svdvals(A).
template <class T>
void record_svdvals(const Tensor<T>& A, const Tensor<T>& S);
/// result = tril(A, k) (Lower) or triu(A, k).
template <bool Lower, class T>
void record_triangle(const Tensor<T>& A, const Tensor<T>& result, int64_t k);
/// L = cholesky(A) (upper: L holds U = L^T).
template <class T>
void record_cholesky(const Tensor<T>& A, const Tensor<T>& L, bool upper);

}  // namespace tenet::detail
