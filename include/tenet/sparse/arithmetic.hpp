#pragma once
// Arithmetic on sparse COO tensors, as PyTorch 1.13 on the CPU:
//   a + b (same size): PyTorch's merge of the two entry lists (equal indices at the merge front
//     add up), coalesced when both operands are;
//   s * scalar, scalar * s: the values scaled, the indices kept;
//   sparse::sum(s): the sum of every element, a 0-d dense tensor (torch.sparse.sum(s));
//   sparse::sum(s, dims): torch.sparse.sum(s, dims): summed dense dims sum in the values, summed
//     sparse dims merge entries (coalesced); a dense tensor when every sparse dim is summed,
//     else a sparse one.
// Each passes the values' gradient on (see sparse_tensor.hpp): add to both operands' values
// (AddBackward0), mul scaled (MulBackward0), sum through coalesce and the values' dense sums.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <variant>
#include <vector>

#include "tenet/sparse/sparse_tensor.hpp"

namespace tenet::inline TENET_ABI {

template <class T>
SparseTensor<T> operator+(const SparseTensor<T>& a, const SparseTensor<T>& b) {
    if (a.sizes() != b.sizes())
        detail::fail<shape_error>("add: expected both sparse operands to have the same size, but got ", a.sizes(),
                                  " and ", b.sizes(), " (sparse addition does not broadcast)");
    if (a.sparse_dim() != b.sparse_dim())
        detail::fail<shape_error>("add: expected both sparse operands to have the same sparse_dim, but got ",
                                  a.sparse_dim(), " and ", b.sparse_dim());
    const int64_t sd = a.sparse_dim(), row = a.row_size(), na = a._nnz(), nb = b._nnz();
    const int64_t *ia = a._indices().data_ptr(), *ib = b._indices().data_ptr();
    const T *va = a._values().data_ptr(), *vb = b._values().data_ptr();
    if (nb == 0)
        return SparseTensor<T>(a._indices().clone(), Tensor<T>(a._values().clone()), a.sizes(), a.is_coalesced());
    if (na == 0)
        return SparseTensor<T>(b._indices().clone(), Tensor<T>(b._values().clone()), b.sizes(), b.is_coalesced());
    IntArray vsizes = a._values().sizes();
    // PyTorch's merge, run whether or not the operands are coalesced: entries compared index
    // by index, the smaller first, equal ones added.
    std::vector<int64_t> from_a, from_b;  // per output entry: the source entry or -1
    int64_t i = 0, j = 0;
    while (i < na || j < nb) {
        const int64_t la = i < na ? a.linear_index(i) : INT64_MAX, lb = j < nb ? b.linear_index(j) : INT64_MAX;
        from_a.push_back(la <= lb ? i++ : -1);
        from_b.push_back(lb <= la ? j++ : -1);
    }
    const auto n = static_cast<int64_t>(from_a.size());
    vsizes[0] = n;
    Tensor<int64_t> ix = empty<int64_t>({sd, n});
    Tensor<T> vals = empty<T>(vsizes);
    int64_t* pi = ix.data_ptr();
    T* pv = vals.data_ptr();
    for (int64_t k = 0; k < n; ++k) {
        const int64_t ka = from_a[static_cast<size_t>(k)], kb = from_b[static_cast<size_t>(k)];
        for (int64_t d = 0; d < sd; ++d) pi[d * n + k] = ka >= 0 ? ia[d * na + ka] : ib[d * nb + kb];
        for (int64_t e = 0; e < row; ++e)
            pv[k * row + e] = ka >= 0 && kb >= 0 ? va[ka * row + e] + vb[kb * row + e]
                              : ka >= 0          ? va[ka * row + e]
                                                 : vb[kb * row + e];
    }
    if constexpr (FloatingElement<T>) {
        if (autograd::GradMode::is_enabled() && (a._values().requires_grad() || b._values().requires_grad()))
            detail::record_function(
                "AddBackward0", vals, {},
                [from_a = std::move(from_a), from_b = std::move(from_b), row, sa = a._values().sizes(),
                 sb = b._values().sizes()](const TensorBase& grad) {
                    const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                    Tensor<T> ga = empty<T>(sa), gb = empty<T>(sb);
                    const T* pg = g.data_ptr();
                    for (size_t k = 0; k < from_a.size(); ++k) {
                        const T* src = pg + static_cast<int64_t>(k) * row;
                        if (from_a[k] >= 0) std::copy(src, src + row, ga.data_ptr() + from_a[k] * row);
                        if (from_b[k] >= 0) std::copy(src, src + row, gb.data_ptr() + from_b[k] * row);
                    }
                    return std::array<TensorBase, 2>{ga, gb};
                },
                a._values(), b._values());
    }
    return SparseTensor<T>(ix, vals, a.sizes(), a.is_coalesced() && b.is_coalesced());
}

/// The values times `s` (converted to T first, as PyTorch's sparse mul by a Python number).
template <class T, Scalar S>
SparseTensor<T> operator*(const SparseTensor<T>& a, S s) {
    const Tensor<T> vals = a._values() * convert<T>(s);
    return SparseTensor<T>(a._indices().clone(), vals, a.sizes(), a.is_coalesced());
}
template <class T, Scalar S>
SparseTensor<T> operator*(S s, const SparseTensor<T>& a) {
    return a * s;
}

namespace sparse {
/// torch.sparse.sum(s): the sum of every element (of the coalesced values), a 0-d tensor.
template <class T>
Tensor<T> sum(const SparseTensor<T>& s) {
    return Tensor<T>(s.coalesce()._values().sum());
}

/// torch.sparse.sum(s, dims): s summed over `dims` (each in [-dim, dim), none twice; an empty
/// list sums nothing and gives s coalesced). Summing every sparse dim gives a dense tensor
/// (holding the dense dims not summed), anything else a coalesced sparse one. Throws
/// index_error for a dim out of range and value_error for a repeated one.
template <class T>
std::variant<SparseTensor<T>, Tensor<T>> sum(const SparseTensor<T>& s, const IntArray& dims) {
    const int64_t nd = s.dim(), sd = s.sparse_dim();
    std::vector<bool> summed(static_cast<size_t>(nd), false);
    for (const int64_t d : dims) {
        const int64_t w = detail::wrap_dim(d, nd, "sparse.sum");
        if (summed[static_cast<size_t>(w)])
            detail::fail<value_error>("sparse.sum: dim ", w, " appears multiple times in the list of dims");
        summed[static_cast<size_t>(w)] = true;
    }
    const SparseTensor<T> c = s.coalesce();
    IntArray dense_dims, kept_sparse, size;
    for (int64_t d = 0; d < nd; ++d) {
        if (!summed[static_cast<size_t>(d)]) size.push_back(s.size(d));
        if (d < sd && !summed[static_cast<size_t>(d)]) kept_sparse.push_back(d);
        if (d >= sd && summed[static_cast<size_t>(d)]) dense_dims.push_back(d - sd + 1);  // a dim of the values
    }
    const Tensor<T> vals = dense_dims.empty() ? c._values() : Tensor<T>(c._values().sum(dense_dims));
    if (kept_sparse.empty()) return Tensor<T>(vals.sum(IntArray{0}));
    if (static_cast<int64_t>(kept_sparse.size()) == sd) return SparseTensor<T>(c._indices(), vals, size, true);
    const auto n = c._nnz(), ks = static_cast<int64_t>(kept_sparse.size());
    Tensor<int64_t> ix = empty<int64_t>({ks, n});
    for (int64_t r = 0; r < ks; ++r)
        std::copy(c._indices().data_ptr() + kept_sparse[static_cast<size_t>(r)] * n,
                  c._indices().data_ptr() + (kept_sparse[static_cast<size_t>(r)] + 1) * n, ix.data_ptr() + r * n);
    return SparseTensor<T>(ix, vals, size).coalesce();
}

/// torch.sparse.sum(s, dim): sum(s, {dim}).
template <class T>
std::variant<SparseTensor<T>, Tensor<T>> sum(const SparseTensor<T>& s, int64_t dim) {
    return sum(s, IntArray{dim});
}
}  // namespace sparse

}  // namespace tenet
