#pragma once
// Arithmetic on sparse COO tensors, as PyTorch 1.13 on the CPU:
//   a + b (same size): PyTorch's merge of the two entry lists (equal indices at the merge front
//     add up), coalesced when both operands are;
//   s * scalar, scalar * s: the values scaled, the indices kept;
//   sum(s): the sum of every element, a 0-d dense tensor (torch.sparse.sum(s)).

#include "tenet/config.hpp"
#include <cstdint>

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
    if (nb == 0) return SparseTensor<T>(a._indices().clone(), a._values().clone(), a.sizes(), a.is_coalesced());
    if (na == 0) return SparseTensor<T>(b._indices().clone(), b._values().clone(), b.sizes(), b.is_coalesced());
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
    return SparseTensor<T>(ix, vals, a.sizes(), a.is_coalesced() && b.is_coalesced());
}

/// The values times `s` (converted to T first, as PyTorch's sparse mul by a Python number).
template <class T, Scalar S>
SparseTensor<T> operator*(const SparseTensor<T>& a, S s) {
    Tensor<T> vals = a._values().clone();
    const T f = convert<T>(s);
    T* p = vals.data_ptr();
    for (int64_t k = 0, n = vals.numel(); k < n; ++k) p[k] = p[k] * f;
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
}  // namespace sparse

}  // namespace tenet
