#pragma once
// Sparse-dense matrix products, as PyTorch 1.13's: mm(S, D), sparse::mm(S, D) and
// addmm(input, S, D, beta, alpha) for a 2-D sparse S (both dims sparse) and a 2-D dense D. The
// sparse operand is coalesced first; each output row is then the sum over its entries, in
// column order, of (alpha * value) * D[column, :] (PyTorch's axpy loop), rows split across
// tenet's threads. The result is dense.
//
// Gradients, as PyTorch 1.13's:
//   mm (MmBackward0) and addmm (AddmmBackward0): D.grad = alpha * S^T @ grad, input.grad =
//     beta * grad summed to input's shape. Like PyTorch, they refuse a sparse operand whose
//     values require grad ("requires the 'self' tensor to be strided").
//   sparse::mm (SparseAddmmBackward0): D.grad = S^T @ grad, and the values' gradient: entry k,
//     at (r, c), gets grad[r, :] . D[c, :] (PyTorch's grad @ D^T masked to S's pattern, then
//     read back at each stored entry, duplicates included).
#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "tenet/sparse/sparse_tensor.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::sparse {

template <class T>
void check_mm(const char* op, const SparseTensor<T>& s, const Tensor<T>& d) {
    if (s.dim() != 2 || s.sparse_dim() != 2)
        fail<shape_error>(op, ": expected a 2-D sparse matrix with 2 sparse dims, got size ", s.sizes(),
                          " with sparse_dim ", s.sparse_dim());
    if (d.dim() != 2) fail<shape_error>(op, ": expected a 2-D dense matrix, got shape ", d.sizes());
    if (s.size(1) != d.size(0))
        fail<shape_error>(op, ": mat1 and mat2 shapes cannot be multiplied (", s.size(0), "x", s.size(1), " and ",
                          d.size(0), "x", d.size(1), ")");
    check_host_access(d, op);
}

/// out[r, :] (already beta * input or zeros) += sum over row r's entries of (alpha * v) * d[c, :].
template <class T>
void spmm_into(const SparseTensor<T>& coalesced, const Tensor<T>& dense, T alpha, Tensor<T>& out) {
    const int64_t rows = coalesced.size(0), nnz = coalesced._nnz(), k = dense.size(1);
    const int64_t* ix = coalesced._indices().data_ptr();
    const int64_t* col = ix + nnz;
    const T* v = coalesced._values().data_ptr();
    std::vector<int64_t> start(static_cast<size_t>(rows + 1), 0);
    for (int64_t e = 0; e < nnz; ++e) ++start[static_cast<size_t>(ix[e] + 1)];
    for (int64_t r = 0; r < rows; ++r) start[static_cast<size_t>(r + 1)] += start[static_cast<size_t>(r)];
    const Tensor<T> d = dense.contiguous();
    const T* pd = d.data_ptr();
    T* po = out.data_ptr();
    auto run = [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            T* o = po + r * k;
            for (int64_t e = start[static_cast<size_t>(r)]; e < start[static_cast<size_t>(r + 1)]; ++e) {
                const T a = alpha * v[e];
                const T* src = pd + col[e] * k;
#ifdef _OPENMP
#pragma omp simd
#endif
                for (int64_t j = 0; j < k; ++j) o[j] += a * src[j];
            }
        }
    };
#ifdef _OPENMP
    const int threads = get_num_threads();
    if (threads > 1 && nnz * k >= kParallelThreshold) {
#pragma omp parallel for num_threads(threads) schedule(static, 64)
        for (int64_t r = 0; r < rows; ++r) run(r, r + 1);
        return;
    }
#endif
    run(0, rows);
}

/// PyTorch's refusal of a sparse operand that requires grad in mm / addmm.
template <class T>
void refuse_sparse_grad(const char* op, const char* arg, const SparseTensor<T>& s) {
    if (autograd::GradMode::is_enabled() && s._values().requires_grad())
        fail<error>(op, ": the backward pass for this operation requires the '", arg,
                    "' tensor to be strided, but a sparse tensor of size ", s.sizes(),
                    " whose values require grad was given; use sparse::mm, or detach the values");
}

/// zeros (or the given start) plus alpha * (s @ d).
template <class T>
Tensor<T> spmm(const SparseTensor<T>& s, const Tensor<T>& d, T alpha) {
    Tensor<T> out = zeros<T>({s.size(0), d.size(1)});
    spmm_into(s.coalesce(), d, alpha, out);
    return out;
}

/// S^T (2-D), coalesced, its values detached.
template <class T>
SparseTensor<T> transposed(const SparseTensor<T>& s) {
    const Tensor<int64_t> ix = s._indices();
    Tensor<int64_t> t = empty<int64_t>(ix.sizes());
    const int64_t n = s._nnz();
    std::copy(ix.data_ptr() + n, ix.data_ptr() + 2 * n, t.data_ptr());
    std::copy(ix.data_ptr(), ix.data_ptr() + n, t.data_ptr() + n);
    return SparseTensor<T>(t, s._values().detach(), {s.size(1), s.size(0)}).coalesce();
}

/// The gradient of s's stored values in alpha * (s @ d): entry k at (r, c) gets
/// alpha * (g[r, :] . d[c, :]).
template <class T>
Tensor<T> mm_values_grad(const SparseTensor<T>& s, const Tensor<T>& grad, const Tensor<T>& dense, T alpha) {
    const int64_t n = s._nnz(), k = dense.size(1);
    const int64_t* ix = s._indices().data_ptr();
    const Tensor<T> g = grad.contiguous(), d = dense.contiguous();
    Tensor<T> out = empty<T>({n});
    T* po = out.data_ptr();
    const T *pg = g.data_ptr(), *pd = d.data_ptr();
    for (int64_t e = 0; e < n; ++e) {
        const T* gr = pg + ix[e] * k;
        const T* dc = pd + ix[n + e] * k;
        T acc = T(0);
        for (int64_t j = 0; j < k; ++j) acc += gr[j] * dc[j];
        po[e] = alpha * acc;
    }
    return out;
}

/// beta * g ([m, k]) summed back to the shape of addmm's input, which broadcast to [m, k].
template <class T>
Tensor<T> broadcast_back(const Tensor<T>& g, const IntArray& shape, T beta) {
    const int64_t m = g.size(0), k = g.size(1);
    const int64_t p0 = shape.size() == 2 ? shape[0] : 1, p1 = shape.empty() ? 1 : shape.back();
    Tensor<T> out = zeros<T>(shape);
    T* po = out.data_ptr();
    const T* pg = g.data_ptr();
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < k; ++j) po[(p0 == 1 ? 0 : i) * p1 + (p1 == 1 ? 0 : j)] += beta * pg[i * k + j];
    return out;
}

/// Records result = beta * input + alpha * (s @ d) for the dense operands (and the values when
/// with_values). `name` is PyTorch's node.
template <class T>
void record_spmm(const char* name, const Tensor<T>& result, const SparseTensor<T>& s, const Tensor<T>& d,
                 const Tensor<T>& input, double beta, double alpha, bool with_values) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled()) return;
        const bool need_v = with_values && s._values().requires_grad();
        if (!(need_v || d.requires_grad() || (input.defined() && input.requires_grad()))) return;
        const Tensor<T> saved_d = d.detach(), saved_v = s._values().detach();
        const SparseTensor<T> saved_s(s._indices(), saved_v, s.sizes(), s.is_coalesced());
        const IntArray input_sizes = input.defined() ? input.sizes() : IntArray{};
        const bool with_input = input.defined();
        record_function(
            name, result, {saved_d, saved_v},
            [saved_s, saved_d, input_sizes, with_input, need_v, beta, alpha](const TensorBase& grad) {
                const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                const T a = convert<T>(alpha);
                std::array<TensorBase, 3> out;
                out[0] = spmm(transposed(saved_s), g, a);
                if (need_v) out[1] = mm_values_grad(saved_s, g, saved_d, a);
                if (with_input) out[2] = broadcast_back(g, input_sizes, convert<T>(beta));
                return out;
            },
            d, need_v ? s._values() : Tensor<T>(), input);
    }
}

}  // namespace detail::sparse

/// torch.mm(S, D) for a sparse S: the dense product. Throws shape_error unless S is a 2-D sparse
/// matrix and D a 2-D dense one with S.size(1) == D.size(0).
template <class T>
Tensor<T> mm(const SparseTensor<T>& s, const Tensor<T>& d) {
    detail::sparse::check_mm("mm", s, d);
    detail::sparse::refuse_sparse_grad("mm", "self", s);
    Tensor<T> out = detail::sparse::spmm(s, d, T(1));
    detail::sparse::record_spmm("MmBackward0", out, s, d, Tensor<T>(), 0.0, 1.0, false);
    return out;
}

/// torch.addmm(input, S, D, beta=1, alpha=1): beta * input + alpha * (S @ D), input broadcast to
/// [S.size(0), D.size(1)] (beta == 0 ignores input's values, NaN included, as PyTorch).
template <class T>
Tensor<T> addmm(const Tensor<T>& input, const SparseTensor<T>& s, const Tensor<T>& d, double beta = 1.0,
                double alpha = 1.0) {
    detail::sparse::check_mm("addmm", s, d);
    detail::sparse::refuse_sparse_grad("addmm", "mat1", s);
    const IntArray shape{s.size(0), d.size(1)};
    Tensor<T> out = zeros<T>(shape);
    if (beta != 0) {
        const T b = convert<T>(beta);
        out.copy_(input.expand(shape));
        T* p = out.data_ptr();
        for (int64_t i = 0, n = out.numel(); i < n; ++i) p[i] = p[i] * b;
    }
    detail::sparse::spmm_into(s.coalesce(), d, convert<T>(alpha), out);
    detail::sparse::record_spmm("AddmmBackward0", out, s, d, input, beta, alpha, false);
    return out;
}

namespace sparse {
/// torch.sparse.mm(S, D): mm(S, D), differentiable in S's values too (SparseAddmmBackward0).
template <class T>
Tensor<T> mm(const SparseTensor<T>& s, const Tensor<T>& d) {
    detail::sparse::check_mm("sparse.mm", s, d);
    Tensor<T> out = detail::sparse::spmm(s, d, T(1));
    detail::sparse::record_spmm("SparseAddmmBackward0", out, s, d, Tensor<T>(), 0.0, 1.0, true);
    return out;
}
}  // namespace sparse

}  // namespace tenet
