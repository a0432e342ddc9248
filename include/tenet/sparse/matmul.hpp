#pragma once
// Sparse-dense matrix products, as PyTorch 1.13's: mm(S, D), sparse::mm(S, D) and
// addmm(input, S, D, beta, alpha) for a 2-D sparse S (both dims sparse) and a 2-D dense D. The
// sparse operand is coalesced first; each output row is then the sum over its entries, in
// column order, of (alpha * value) * D[column, :] (PyTorch's axpy loop), rows split across
// tenet's threads. The result is dense.

#include "tenet/config.hpp"
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

}  // namespace detail::sparse

/// torch.mm(S, D) for a sparse S: the dense product. Throws shape_error unless S is a 2-D sparse
/// matrix and D a 2-D dense one with S.size(1) == D.size(0).
template <class T>
Tensor<T> mm(const SparseTensor<T>& s, const Tensor<T>& d) {
    detail::sparse::check_mm("mm", s, d);
    Tensor<T> out = zeros<T>({s.size(0), d.size(1)});
    detail::sparse::spmm_into(s.coalesce(), d, T(1), out);
    return out;
}

/// torch.addmm(input, S, D, beta=1, alpha=1): beta * input + alpha * (S @ D), input broadcast to
/// [S.size(0), D.size(1)] (beta == 0 ignores input's values, NaN included, as PyTorch).
template <class T>
Tensor<T> addmm(const Tensor<T>& input, const SparseTensor<T>& s, const Tensor<T>& d, double beta = 1.0,
                double alpha = 1.0) {
    detail::sparse::check_mm("addmm", s, d);
    const IntArray shape{s.size(0), d.size(1)};
    Tensor<T> out = zeros<T>(shape);
    if (beta != 0) {
        const T b = convert<T>(beta);
        out.copy_(input.expand(shape));
        T* p = out.data_ptr();
        for (int64_t i = 0, n = out.numel(); i < n; ++i) p[i] = p[i] * b;
    }
    detail::sparse::spmm_into(s.coalesce(), d, convert<T>(alpha), out);
    return out;
}

namespace sparse {
/// torch.sparse.mm(S, D): mm(S, D).
template <class T>
Tensor<T> mm(const SparseTensor<T>& s, const Tensor<T>& d) {
    return tenet::mm(s, d);
}
}  // namespace sparse

}  // namespace tenet
