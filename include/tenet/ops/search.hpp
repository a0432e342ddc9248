#pragma once
// Binary search in sorted sequences, as PyTorch's: searchsorted and bucketize, on the host or a
// device (one thread per value; a sorter is range-checked on the host first).
//
// The comparisons are PyTorch's (`!(m >= v)` for the left side, `!(m > v)` for the right), so a
// NaN value lands after every number, and a sequence with NaNs at its end (where sort puts them)
// is searched as PyTorch searches it. The result is int64, or int32 for `searchsorted<int32_t>`
// (PyTorch's out_int32 = True, which changes the result's type: a template argument here).

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/backend/device/device_order.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// Where v goes in the sorted row whose k-th element is row[k] (row[order[k]]
/// with a sorter): the first position whose element is >= v (left) or > v (right).
template <class T>
TENET_HD int64_t search_row(const T* row, int64_t n, const int64_t* order, T v, bool right) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const T m = row[order ? order[mid] : mid];
        if (right ? !(m > v) : !(m >= v))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// Value i's insertion index: in the one row of a 1-D sequence, else in row i / per_row.
template <class Index, class T>
struct SearchAt {
    const T *seq, *values;
    const int64_t* order;
    Index* result;
    int64_t n, per_row;
    bool one_row, right;
    TENET_HD void operator()(int64_t i) const {
        const int64_t row = one_row ? 0 : i / per_row;
        result[i] = static_cast<Index>(search_row(seq + row * n, n, order ? order + row * n : nullptr, values[i], right));
    }
};

/// Whether searchsorted searches right of equal elements: `right`, or side "right" (side and
/// right must not contradict each other, as PyTorch checks).
inline bool search_side(bool right, std::optional<std::string_view> side) {
    if (!side)
        return right;
    if (*side != "left" && *side != "right")
        fail<value_error>("torch.searchsorted(): side can only be 'left' or 'right' but got ", *side);
    if (*side == "left" && right)
        fail<value_error>(
            "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
    return *side == "right";
}

template <class Index, class T>
Tensor<Index> searchsorted_impl(const Tensor<T>& sequence, const Tensor<T>& values, bool right,
                                const Tensor<int64_t>& sorter, bool scalar_value) {
    const char* op = "torch.searchsorted()";
    const Device device = sequence.device();
    if (values.device() != device || (sorter.defined() && sorter.device() != device))
        fail<device_error>(op, ": expected the boundaries (on ", device, "), the values (on ", values.device(),
                           ") and the sorter on one device");
    if (sequence.dim() == 0)
        fail<value_error>(op, ": boundaries tensor should have positive dimension, but got 0 dimension");
    if (scalar_value && sequence.dim() != 1)
        fail<value_error>(op,
                          ": input value can be a scalar only when boundaries tensor dimension is 1, but we got "
                          "boundaries tensor dim(",
                          sequence.dim(), ") and input value's dim(0) numel(1)");
    if (sequence.dim() > 1) {
        const IntArray& s = sequence.sizes();
        const IntArray& v = values.sizes();
        const bool leading_match = values.dim() == sequence.dim() && std::equal(s.begin(), s.end() - 1, v.begin());
        if (!leading_match)
            fail<value_error>(op,
                              ": boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
                              "tensor and input value tensor must match, but we got boundaries tensor ",
                              s, " and input value tensor ", v);
    }
    if (sorter.defined()) {
        if (sorter.sizes() != sequence.sizes())
            fail<value_error>(op, ": boundary and sorter must have the same size, but got boundary tensor ",
                              sequence.sizes(), " and got sorter tensor ", sorter.sizes());
    }
    const Tensor<T> seq = sequence.contiguous();
    const Tensor<T> val = values.contiguous();
    const Tensor<int64_t> order = sorter.defined() ? sorter.contiguous() : Tensor<int64_t>();
    const int64_t n = seq.size(-1);
    if (order.defined()) {  // checked on the host (a device's sorter copied back)
        const std::vector<int64_t> at = order.to_vector();
        for (size_t i = 0; i < at.size(); ++i)
            if (at[i] < 0 || at[i] >= n)
                fail<index_error>(op, ": sorter index ", at[i], " (at ", i, ") is out of range for a boundary dim of size ", n);
    }
    Tensor<Index> result(make_contiguous_impl(values.sizes(), dtype_of<Index>, device));
    const int64_t rows = seq.numel() / std::max<int64_t>(n, 1);
    const int64_t per_row = seq.dim() == 1 ? val.numel() : (val.dim() == 0 ? 1 : val.size(-1));
    const SearchAt<Index, T> search{seq.data_ptr(), val.data_ptr(), order.defined() ? order.data_ptr() : nullptr,
                                    result.data_ptr(), n, per_row, seq.dim() == 1 || rows == 0, right};
    for_each_index_on(device, val.numel(), search, op);
    return result;
}

} // namespace detail

/// torch.searchsorted(sorted_sequence, values, right = false, side = nullopt, sorter = {}): for
/// each value, the index in the sorted last dim of sorted_sequence where it would be inserted to
/// keep the order: before equal elements (side "left", the default) or after them (`right`, or
/// side "right"). A 1-D sequence serves every value; an N-D one holds one sequence per row,
/// whose leading dims must match values'. `sorter` (int64, the sequence's shape) gives the
/// order of an unsorted sequence, as argsort makes it. Index: int64 (int32 is PyTorch's
/// out_int32). Errors: value_error for mismatched shapes or sides, index_error for a sorter
/// index out of range.
template <class Index = int64_t, class T>
Tensor<Index> searchsorted(const Tensor<T>& sorted_sequence, const Tensor<T>& values, bool right = false,
                           std::optional<std::string_view> side = std::nullopt, const Tensor<int64_t>& sorter = {}) {
    static_assert(std::is_same_v<Index, int64_t> || std::is_same_v<Index, int32_t>,
                  "tenet: searchsorted gives int64 or int32 indices");
    return detail::searchsorted_impl<Index>(sorted_sequence, values, detail::search_side(right, side), sorter, false);
}
/// torch.searchsorted with one number: a 0-d index (the sequence must be 1-D).
template <class Index = int64_t, class T, class S>
requires std::is_arithmetic_v<S> Tensor<Index> searchsorted(const Tensor<T>& sorted_sequence, S value,
                                                            bool right = false,
                                                            std::optional<std::string_view> side = std::nullopt,
                                                            const Tensor<int64_t>& sorter = {}) {
    static_assert(std::is_same_v<Index, int64_t> || std::is_same_v<Index, int32_t>,
                  "tenet: searchsorted gives int64 or int32 indices");
    return detail::searchsorted_impl<Index>(sorted_sequence,
                                            full<T>({}, static_cast<double>(value),
                                                    TensorOptions().device(sorted_sequence.device())),
                                            detail::search_side(right, side), sorter, true);
}

/// torch.bucketize(input, boundaries, right = false): the bucket of each element of input given
/// the 1-D sorted boundaries: i with boundaries[i-1] < x <= boundaries[i] (right:
/// boundaries[i-1] <= x < boundaries[i]). Index: int64, or int32 (PyTorch's out_int32).
template <class Index = int64_t, class T>
Tensor<Index> bucketize(const Tensor<T>& input, const Tensor<T>& boundaries, bool right = false) {
    if (boundaries.dim() != 1)
        detail::fail<value_error>("bucketize: boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(),
                                  ")");
    return searchsorted<Index>(boundaries, input, right);
}
/// torch.bucketize with one number: a 0-d index.
template <class Index = int64_t, class T, class S>
requires std::is_arithmetic_v<S> Tensor<Index> bucketize(S value, const Tensor<T>& boundaries, bool right = false) {
    if (boundaries.dim() != 1)
        detail::fail<value_error>("bucketize: boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(),
                                  ")");
    return searchsorted<Index>(boundaries, value, right);
}

} // namespace tenet::inline TENET_ABI
