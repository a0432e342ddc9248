#pragma once
// Sparse COO tensors (PyTorch 1.13's torch.sparse_coo layout): SparseTensor<T>,
// sparse_coo_tensor, coalesce, to_dense and to_sparse.
//
// A SparseTensor<T> holds int64 indices of shape [sparse_dim, nnz], values of shape
// [nnz, dense sizes...] and its size; the first sparse_dim dims are sparse, the rest dense. As in
// PyTorch an uncoalesced tensor may hold an index more than once (the values add up) and in any
// order; coalesce() sorts the indices (row-major) and sums the duplicates. Host only.
//
// Autograd: the values tensor carries a SparseTensor's gradient. Built from values that require
// grad, coalesce (CoalesceBackward0), to_dense (ToDenseBackward0) and sparse::mm
// (sparse/matmul.hpp) send gradients back to those values, as PyTorch's gradient of
// sparse_coo_tensor(indices, values, size) reaches `values`: each stored entry, duplicates
// included, gets the gradient at its index. A SparseTensor can also be a leaf itself
// (requires_grad_()); its grad() is then sparse, as PyTorch's: the gradient at each of its
// indices, coalesced. Every op here is a function of the dense equivalent, so the duplicates of
// an index all hold that index's gradient, and grad() keeps one of them.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "tenet/core.hpp"
#include "tenet/ops.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::sparse {

/// Records `result` (rows of `row` elements) as read from `values` (the same): stored row k
/// went to result row at[k], so its gradient is the result's gradient row at[k].
template <class T>
void record_gather(const char* name, const Tensor<T>& result, const Tensor<T>& values, std::vector<int64_t> at,
                   int64_t row) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled() || !values.requires_grad()) return;
        record_function(
            name, result, {},
            [at = std::move(at), row, sizes = values.sizes()](const TensorBase& grad) {
                const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                Tensor<T> out = empty<T>(sizes);
                const T* pg = g.data_ptr();
                T* po = out.data_ptr();
                for (size_t k = 0; k < at.size(); ++k)
                    std::copy(pg + at[k] * row, pg + (at[k] + 1) * row, po + static_cast<int64_t>(k) * row);
                return std::array<TensorBase, 1>{out};
            },
            values);
    }
}

}  // namespace detail::sparse

template <class T>
class SparseTensor {
public:
    using value_type = T;
    SparseTensor() = default;

    /// Checked construction: see sparse_coo_tensor.
    SparseTensor(Tensor<int64_t> indices, Tensor<T> values, IntArray size, bool coalesced = false)
        : indices_(std::move(indices)), values_(std::move(values)), size_(std::move(size)), coalesced_(coalesced) {
        check("sparse_coo_tensor");
        indices_ = indices_.contiguous();
        values_ = values_.contiguous();
        if (nnz() <= 1) coalesced_ = true;  // as PyTorch: one entry or none is coalesced
    }

    bool defined() const { return indices_.defined(); }
    const IntArray& sizes() const { return size_; }
    const IntArray& shape() const { return size_; }
    int64_t size(int64_t d) const { return size_[static_cast<size_t>(detail::wrap_dim(d, dim(), "size"))]; }
    int64_t dim() const { return static_cast<int64_t>(size_.size()); }
    int64_t numel() const { return product(size_); }
    DType dtype() const { return dtype_of<T>; }
    Layout layout() const { return Layout::kSparseCOO; }
    bool is_sparse() const { return true; }
    /// The number of stored entries (duplicates included until coalesced), PyTorch's _nnz().
    int64_t _nnz() const { return indices_.size(1); }
    int64_t nnz() const { return _nnz(); }
    int64_t sparse_dim() const { return indices_.size(0); }
    int64_t dense_dim() const { return dim() - sparse_dim(); }
    bool is_coalesced() const { return coalesced_; }

    /// The indices / values of a coalesced tensor (an error otherwise, as PyTorch's).
    Tensor<int64_t> indices() const {
        require_coalesced("indices");
        return indices_;
    }
    Tensor<T> values() const {
        require_coalesced("values");
        return values_;
    }
    /// The stored indices and values as they are (PyTorch's _indices() / _values()).
    const Tensor<int64_t>& _indices() const { return indices_; }
    const Tensor<T>& _values() const { return values_; }

    /// The coalesced tensor: indices sorted row-major and unique, duplicates' values summed in
    /// their stored order. Returns *this when already coalesced.
    SparseTensor coalesce() const { return coalesce_values(true); }
    /// The dense tensor: zeros plus every stored value added at its index.
    Tensor<T> to_dense() const;

    /// Makes this sparse tensor a leaf that requires grad (or no longer requires it), as
    /// PyTorch's `s.requires_grad_()`: its stored values, detached from what made them, become
    /// the leaf. Throws error when turning it off on a non-leaf, and dtype_error for a
    /// non-floating T.
    SparseTensor& requires_grad_(bool requires_grad = true) {
        if (requires_grad && values_.is_leaf() && !values_.requires_grad()) values_ = values_.detach();
        values_.requires_grad_(requires_grad);
        return *this;
    }
    bool requires_grad() const { return values_.requires_grad(); }
    bool is_leaf() const { return values_.is_leaf(); }
    /// The accumulated gradient of a leaf, sparse (PyTorch's `s.grad`): the gradient at each
    /// stored index, coalesced. Undefined before a backward pass reaches it.
    SparseTensor grad() const {
        const Tensor<T> g = values_.grad();
        if (!g.defined()) return SparseTensor();
        NoGradGuard no_grad;
        return SparseTensor(indices_, g, size_, coalesced_).coalesce_values(false);
    }
    /// Drops the accumulated gradient (PyTorch's `s.grad = None`).
    void reset_grad() const { values_.reset_grad(); }
    /// The linear index of entry k over the sparse dims (row-major).
    int64_t linear_index(int64_t k) const {
        const int64_t* ix = indices_.data_ptr();
        const int64_t n = nnz(), sd = sparse_dim();
        int64_t l = 0;
        for (int64_t d = 0; d < sd; ++d) l = l * size_[static_cast<size_t>(d)] + ix[d * n + k];
        return l;
    }
    /// Elements per entry (the product of the dense sizes).
    int64_t row_size() const {
        int64_t r = 1;
        for (int64_t d = sparse_dim(); d < dim(); ++d) r *= size_[static_cast<size_t>(d)];
        return r;
    }

private:
    /// coalesce(): duplicates' values summed (`sum`), or the first one kept (grad()).
    SparseTensor coalesce_values(bool sum) const;
    void require_coalesced(const char* op) const {
        if (!coalesced_)
            detail::fail<error>(op, ": cannot get ", op, " on an uncoalesced tensor; call .coalesce() first");
    }
    void check(const char* op) const {
        if (!indices_.is_cpu() || !values_.is_cpu())
            detail::fail<device_error>(op, ": sparse tensors live on the host (indices on ", indices_.device(),
                                       ", values on ", values_.device(), ")");
        if (indices_.dim() != 2)
            detail::fail<shape_error>(op, ": indices must be 2-D [sparse_dim, nnz], got shape ", indices_.sizes());
        if (values_.dim() < 1)
            detail::fail<shape_error>(op, ": values must have at least 1 dim [nnz, ...], got shape ", values_.sizes());
        const int64_t sd = indices_.size(0), n = indices_.size(1);
        if (values_.size(0) != n)
            detail::fail<shape_error>(op, ": indices and values must have the same nnz, but got nnz ", n,
                                      " from indices (shape ", indices_.sizes(), ") and ", values_.size(0),
                                      " from values (shape ", values_.sizes(), ")");
        const int64_t dd = values_.dim() - 1;
        if (sd + dd != static_cast<int64_t>(size_.size()))
            detail::fail<shape_error>(op, ": number of dimensions must be sparse_dim (", sd, ") + dense_dim (", dd,
                                      "), but got size ", size_);
        for (int64_t d = 0; d < dd; ++d)
            if (values_.size(d + 1) != size_[static_cast<size_t>(sd + d)])
                detail::fail<shape_error>(op, ": values has shape ", values_.sizes(), " but size ", size_,
                                          " needs values of shape [nnz, ", IntArray(size_.begin() + sd, size_.end()),
                                          "]");
        const Tensor<int64_t> ix = indices_.contiguous();
        const int64_t* p = ix.data_ptr();
        for (int64_t d = 0; d < sd; ++d)
            for (int64_t k = 0; k < n; ++k) {
                const int64_t i = p[d * n + k];
                if (i < 0 || i >= size_[static_cast<size_t>(d)])
                    detail::fail<index_error>(op, ": index ", i, " (entry ", k, ") is out of range for dim ", d,
                                              " of size ", size_[static_cast<size_t>(d)]);
            }
    }

    Tensor<int64_t> indices_;
    Tensor<T> values_;
    IntArray size_;
    bool coalesced_ = false;
};

/// torch.sparse_coo_tensor(indices, values, size): indices int64 [sparse_dim, nnz], values
/// [nnz, size[sparse_dim:]...]. Throws shape_error for mismatched shapes and index_error for an
/// index outside its dim (naming the index, the entry, the dim and its size).
template <class T>
SparseTensor<T> sparse_coo_tensor(const Tensor<int64_t>& indices, const Tensor<T>& values, const IntArray& size) {
    return SparseTensor<T>(indices, values, size);
}

template <class T>
SparseTensor<T> SparseTensor<T>::coalesce_values(bool sum) const {
    if (coalesced_) return *this;
    const int64_t n = nnz(), sd = sparse_dim(), row = row_size();
    std::vector<int64_t> lin(static_cast<size_t>(n)), order(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) lin[static_cast<size_t>(k)] = linear_index(k);
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return lin[static_cast<size_t>(a)] < lin[static_cast<size_t>(b)]; });
    int64_t unique = 0;
    for (int64_t k = 0; k < n; ++k)
        if (k == 0 || lin[static_cast<size_t>(order[static_cast<size_t>(k)])] !=
                          lin[static_cast<size_t>(order[static_cast<size_t>(k - 1)])])
            ++unique;
    IntArray vsizes = values_.sizes();
    vsizes[0] = unique;
    Tensor<int64_t> ix = empty<int64_t>({sd, unique});
    Tensor<T> vals = empty<T>(vsizes);
    const int64_t* src_ix = indices_.data_ptr();
    const T* src_v = values_.data_ptr();
    int64_t* dst_ix = ix.data_ptr();
    T* dst_v = vals.data_ptr();
    int64_t u = -1, last = -1;
    std::vector<int64_t> dest(static_cast<size_t>(n));  // each stored entry's coalesced entry
    for (int64_t k = 0; k < n; ++k) {
        const int64_t s = order[static_cast<size_t>(k)], l = lin[static_cast<size_t>(s)];
        if (u < 0 || l != last) {
            ++u;
            last = l;
            for (int64_t d = 0; d < sd; ++d) dst_ix[d * unique + u] = src_ix[d * n + s];
            std::copy(src_v + s * row, src_v + (s + 1) * row, dst_v + u * row);
        } else if (sum) {
            for (int64_t e = 0; e < row; ++e) dst_v[u * row + e] += src_v[s * row + e];
        }
        dest[static_cast<size_t>(s)] = u;
    }
    detail::sparse::record_gather("CoalesceBackward0", vals, values_, std::move(dest), row);
    return SparseTensor(ix, vals, size_, true);
}

template <class T>
Tensor<T> SparseTensor<T>::to_dense() const {
    Tensor<T> out = zeros<T>(size_);
    T* o = out.data_ptr();
    const T* v = values_.data_ptr();
    const int64_t n = nnz(), row = row_size();
    for (int64_t k = 0; k < n; ++k) {
        const int64_t base = linear_index(k) * row;
        for (int64_t e = 0; e < row; ++e) o[base + e] += v[k * row + e];
    }
    if (autograd::GradMode::is_enabled() && values_.requires_grad()) {
        std::vector<int64_t> at(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) at[static_cast<size_t>(k)] = linear_index(k);
        detail::sparse::record_gather("ToDenseBackward0", out, values_, std::move(at), row);
    }
    return out;
}

/// x.to_sparse(sparse_dim) (default: every dim sparse): an entry for each index over the first
/// sparse_dim dims whose slice holds a nonzero, in row-major order (coalesced).
template <class T>
SparseTensor<T> to_sparse(const Tensor<T>& x, std::optional<int64_t> sparse_dim = std::nullopt) {
    detail::check_host_access(x, "to_sparse");
    const int64_t sd = sparse_dim.value_or(x.dim());
    if (sd < 0 || sd > x.dim())
        detail::fail<index_error>("to_sparse: sparse_dim ", sd, " is out of range for a tensor of ", x.dim(),
                                  " dims (expected [0, ", x.dim(), "])");
    const Tensor<T> c = x.contiguous();
    const IntArray& size = c.sizes();
    int64_t outer = 1, row = 1;
    for (int64_t d = 0; d < sd; ++d) outer *= size[static_cast<size_t>(d)];
    for (int64_t d = sd; d < c.dim(); ++d) row *= size[static_cast<size_t>(d)];
    const T* p = c.data_ptr();
    std::vector<int64_t> keep;
    for (int64_t i = 0; i < outer; ++i)
        for (int64_t e = 0; e < row; ++e)
            if (p[i * row + e] != T(0)) {
                keep.push_back(i);
                break;
            }
    const auto n = static_cast<int64_t>(keep.size());
    Tensor<int64_t> ix = empty<int64_t>({sd, n});
    IntArray vsizes{n};
    for (int64_t d = sd; d < c.dim(); ++d) vsizes.push_back(size[static_cast<size_t>(d)]);
    Tensor<T> vals = empty<T>(vsizes);
    int64_t* pi = ix.data_ptr();
    T* pv = vals.data_ptr();
    for (int64_t k = 0; k < n; ++k) {
        int64_t l = keep[static_cast<size_t>(k)];
        for (int64_t d = sd - 1; d >= 0; --d) {
            pi[d * n + k] = l % size[static_cast<size_t>(d)];
            l /= size[static_cast<size_t>(d)];
        }
        std::copy(p + keep[static_cast<size_t>(k)] * row, p + (keep[static_cast<size_t>(k)] + 1) * row, pv + k * row);
    }
    return SparseTensor<T>(ix, vals, size, true);
}

}  // namespace tenet
