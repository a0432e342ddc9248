#pragma once
// unique and unique_consecutive, as PyTorch's: the distinct elements (or slices along a dim), with
// the inverse indices and the counts on request; not differentiable (as in PyTorch). Device
// tensors take a composition of device ops (unique_on_device) with the host loop's results.
//
// Elements are equal when == says so: -0 and +0 are one value, and every NaN is its own (sorted
// last, after +inf). unique sorts with sort's packed keys (ops/sort.hpp: vqsort when tenet has
// it); slices are sorted lexicographically, by the same keys.

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <ostream>
#include <vector>

#include "tenet/ops/gather.hpp"
#include "tenet/ops/masks.hpp"
#include "tenet/ops/scan.hpp"
#include "tenet/ops/sort.hpp"

namespace tenet::inline TENET_ABI {

namespace return_types {
/// The results of unique and unique_consecutive: the distinct values, and where requested the
/// inverse indices (each input element's position in `output`; the input's shape, or the dim's
/// length for slices) and the counts. An output not requested is an empty int64 tensor, as
/// LibTorch's are.
template <class T>
struct unique {
    Tensor<T> output;
    Tensor<int64_t> inverse_indices;
    Tensor<int64_t> counts;
};
template <class T>
std::ostream& operator<<(std::ostream& os, const unique<T>& r) {
    return os << "tenet.return_types.unique(\noutput=" << r.output << ",\ninverse_indices=" << r.inverse_indices
              << ",\ncounts=" << r.counts << ")";
}
} // namespace return_types

namespace detail {

/// The runs of equal items among `count` items taken in `order`: run[k] is item order[k]'s run,
/// first[r] the position in `order` where run r starts. `equal(i, j)` compares two items.
struct Runs {
    std::vector<int64_t> run_of_item; // by item
    std::vector<int64_t> first;       // by run: its first position in the order
};
template <class Equal>
Runs find_runs(const std::vector<int64_t>& order, Equal&& equal) {
    Runs r;
    r.run_of_item.resize(order.size());
    for (size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || !equal(order[k - 1], order[k]))
            r.first.push_back(static_cast<int64_t>(k));
        r.run_of_item[static_cast<size_t>(order[k])] = static_cast<int64_t>(r.first.size()) - 1;
    }
    return r;
}

/// The inverse indices (shaped `inverse_sizes`) and counts of `runs`, or empty tensors where not requested.
inline void fill_inverse_and_counts(const Runs& runs, size_t items, const IntArray& inverse_sizes, bool return_inverse,
                                    bool return_counts, Tensor<int64_t>& inverse, Tensor<int64_t>& counts) {
    const auto n_runs = static_cast<int64_t>(runs.first.size());
    inverse = return_inverse ? empty<int64_t>(inverse_sizes) : empty<int64_t>({0});
    if (return_inverse)
        std::copy(runs.run_of_item.begin(), runs.run_of_item.end(), inverse.data_ptr());
    counts = return_counts ? empty<int64_t>({n_runs}) : empty<int64_t>({0});
    if (return_counts)
        for (int64_t r = 0; r < n_runs; ++r)
            counts.data_ptr()[r] =
                (r + 1 < n_runs ? runs.first[static_cast<size_t>(r + 1)] : static_cast<int64_t>(items)) -
                runs.first[static_cast<size_t>(r)];
}

/// unique of integers whose range is no wider than their count (ids, labels, small codes):
/// counted in a table over the range, O(n + range), instead of sorted. Empty when the range is
/// wider: sorting is then the better plan.
template <class T>
std::optional<return_types::unique<T>> unique_by_counting(const T* xp, int64_t n, const IntArray& sizes,
                                                          bool return_inverse, bool return_counts) {
    if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>) {
        return std::nullopt;
    } else {
        constexpr int64_t kMinCount = 4096;  // below it, the sort is as quick and allocates less
        if (n < kMinCount) return std::nullopt;
        const auto [lo_at, hi_at] = std::minmax_element(xp, xp + n);
        const auto lo = static_cast<int64_t>(*lo_at);
        const auto width = static_cast<uint64_t>(static_cast<int64_t>(*hi_at)) - static_cast<uint64_t>(lo);
        if (width >= static_cast<uint64_t>(n)) return std::nullopt;
        std::vector<int64_t> slot(width + 1, 0);  // first a count per value, then each value's output position
        for (int64_t i = 0; i < n; ++i) ++slot[static_cast<size_t>(static_cast<int64_t>(xp[i]) - lo)];
        int64_t runs = 0;
        for (const int64_t c : slot) runs += c > 0;
        return_types::unique<T> r;
        r.output = empty<T>({runs});
        r.counts = empty<int64_t>({return_counts ? runs : 0});
        T* out = r.output.data_ptr();
        int64_t u = 0;
        for (size_t v = 0; v < slot.size(); ++v) {
            if (slot[v] == 0) continue;
            out[u] = static_cast<T>(lo + static_cast<int64_t>(v));
            if (return_counts) r.counts.data_ptr()[u] = slot[v];
            slot[v] = u++;
        }
        r.inverse_indices = return_inverse ? empty<int64_t>(sizes) : empty<int64_t>({0});
        if (return_inverse) {
            int64_t* inv = r.inverse_indices.data_ptr();
            for (int64_t i = 0; i < n; ++i) inv[i] = slot[static_cast<size_t>(static_cast<int64_t>(xp[i]) - lo)];
        }
        return r;
    }
}

/// unique (sorted) or unique_consecutive (not) over all elements.
template <class T>
return_types::unique<T> unique_elements(const Tensor<T>& input, bool sort_first, bool return_inverse,
                                        bool return_counts, const char* op) {
    check_host_access(input, op);
    const Tensor<T> x = input.contiguous();
    const T* xp = x.data_ptr();
    const int64_t n = x.numel();
    if (sort_first)
        if (auto counted = unique_by_counting(xp, n, x.sizes(), return_inverse, return_counts)) return *counted;
    std::vector<int64_t> order(static_cast<size_t>(n));
    if (sort_first) {
        std::vector<packed_t<T>> keys(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k)
            keys[static_cast<size_t>(k)] = pack(xp[k], k, false);
        sort_packed(keys.data(), keys.size());
        for (int64_t k = 0; k < n; ++k)
            order[static_cast<size_t>(k)] = packed_index(keys[static_cast<size_t>(k)]);
    } else {
        std::iota(order.begin(), order.end(), int64_t{0});
    }
    const Runs runs = find_runs(order, [xp](int64_t a, int64_t b) { return xp[a] == xp[b]; });
    return_types::unique<T> r;
    r.output = empty<T>({static_cast<int64_t>(runs.first.size())});
    for (size_t u = 0; u < runs.first.size(); ++u)
        r.output.data_ptr()[u] = xp[order[static_cast<size_t>(runs.first[u])]];
    fill_inverse_and_counts(runs, order.size(), x.sizes(), return_inverse, return_counts, r.inverse_indices, r.counts);
    return r;
}

/// unique (sorted) or unique_consecutive (not) of the slices along dim.
template <class T>
return_types::unique<T> unique_slices(const Tensor<T>& input, int64_t dim, bool sort_first, bool return_inverse,
                                      bool return_counts, const char* op) {
    check_host_access(input, op);
    if (input.dim() == 0)
        fail<index_error>(op, ": dim ", dim, " given for a 0-d tensor, which has no dims");
    const int64_t d = wrap_dim(dim, input.dim(), op);
    const Tensor<T> moved = input.transpose(0, d).contiguous(); // the slices are its rows
    const int64_t n = moved.size(0);
    const int64_t len = n == 0 ? 0 : moved.numel() / n;
    if (n > 0 && len == 0) // PyTorch's refusal (slices of nothing)
        fail<value_error>(op, ": Number of zero sized dimensions is more than one, so unique cannot be applied");
    const T* xp = moved.data_ptr();
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    if (sort_first)
        std::stable_sort(order.begin(), order.end(), [xp, len](int64_t a, int64_t b) {
            for (int64_t k = 0; k < len; ++k) {
                const auto ka = order_key(xp[a * len + k]), kb = order_key(xp[b * len + k]);
                if (ka != kb)
                    return ka < kb;
            }
            return false;
        });
    const Runs runs = find_runs(order, [xp, len](int64_t a, int64_t b) {
        for (int64_t k = 0; k < len; ++k)
            if (!(xp[a * len + k] == xp[b * len + k]))
                return false;
        return true;
    });
    IntArray out_sizes = moved.sizes();
    out_sizes[0] = static_cast<int64_t>(runs.first.size());
    Tensor<T> out = empty<T>(out_sizes);
    for (size_t u = 0; u < runs.first.size(); ++u) {
        const T* from = xp + order[static_cast<size_t>(runs.first[u])] * len;
        std::copy(from, from + len, out.data_ptr() + static_cast<int64_t>(u) * len);
    }
    return_types::unique<T> r;
    r.output = out.transpose(0, d).contiguous();
    fill_inverse_and_counts(runs, order.size(), {n}, return_inverse, return_counts, r.inverse_indices, r.counts);
    return r;
}

/// unique / unique_consecutive of a device tensor, composed of device ops. The items (the
/// elements, or the slices along dim as rows) are put in order by stable sorts of their keys:
/// for slices one sort per column from the last, a least-significant-first radix sort, which
/// gives the host's lexicographic order. Then the starts of the runs of equal items (== as on the
/// host: NaN unequal, -0 == +0), the output gathered at the starts, the inverse scattered back
/// through the order, and the counts added into one bin per run.
template <class T>
return_types::unique<T> unique_on_device(const Tensor<T>& input, std::optional<int64_t> dim, bool sort_first,
                                         bool return_inverse, bool return_counts, const char* op) {
    if (input.is_meta()) fail_not_on_meta(op);
    const Device device = input.device();
    int64_t d = 0;
    Tensor<T> moved = input.reshape({-1});
    if (dim) {
        if (input.dim() == 0)
            fail<index_error>(op, ": dim ", *dim, " given for a 0-d tensor, which has no dims");
        d = wrap_dim(*dim, input.dim(), op);
        moved = input.transpose(0, d).contiguous();
    }
    const int64_t n = moved.size(0);
    int64_t len = 1;
    for (int64_t k = 1; k < moved.dim(); ++k) len *= moved.size(k);
    if (dim && n > 0 && len == 0)
        fail<value_error>(op, ": Number of zero sized dimensions is more than one, so unique cannot be applied");
    const Tensor<T> rows = moved.reshape({n, len});
    Tensor<int64_t> order = arange(n, device);
    if (sort_first)
        for (int64_t k = len - 1; k >= 0; --k)
            order = index_select(order, 0, sort(index_select(rows.select(1, k), 0, order), 0).indices);
    const Tensor<T> items = index_select(rows, 0, order);
    Tensor<bool> start = ones<bool>({n}, device);
    if (n > 1)
        start.narrow(0, 1, n - 1)
            .copy_(Tensor<bool>(logical_not((items.narrow(0, 1, n - 1) == items.narrow(0, 0, n - 1)).all(1))));
    const Tensor<int64_t> run = Tensor<int64_t>(cumsum(start.template to<int64_t>(), 0) - 1);
    const Tensor<int64_t> firsts = masked_select(arange(n, device), start);
    const int64_t runs = firsts.numel();
    return_types::unique<T> r;
    IntArray out_sizes = moved.sizes();
    out_sizes[0] = runs;
    r.output = index_select(items, 0, firsts).reshape(out_sizes);
    if (dim) r.output = r.output.transpose(0, d).contiguous();
    r.inverse_indices = return_inverse ? index_copy(empty<int64_t>({n}, device), 0, order, run)
                                             .reshape(dim ? IntArray{n} : input.sizes())
                                       : empty<int64_t>({0}, device);
    r.counts = return_counts ? index_add(zeros<int64_t>({runs}, device), 0, run, ones<int64_t>({n}, device))
                             : empty<int64_t>({0}, device);
    return r;
}

} // namespace detail

/// torch.unique(x, sorted = true, return_inverse = false, return_counts = false, dim = nullopt):
/// the distinct elements in ascending order (a 1-D tensor), or with `dim` the distinct slices
/// along dim, in lexicographic order. The order is ascending whatever `sorted` says (PyTorch
/// leaves the order unspecified when it is false).
template <class T>
return_types::unique<T> unique(const Tensor<T>& x, bool sorted = true, bool return_inverse = false,
                               bool return_counts = false, std::optional<int64_t> dim = std::nullopt) {
    (void)sorted; // any order is allowed when false: tenet's is always ascending
    if (!x.is_cpu()) return detail::unique_on_device(x, dim, true, return_inverse, return_counts, "unique");
    return dim ? detail::unique_slices(x, *dim, true, return_inverse, return_counts, "unique")
               : detail::unique_elements(x, true, return_inverse, return_counts, "unique");
}

/// torch.unique_consecutive(x, return_inverse = false, return_counts = false, dim = nullopt):
/// each run of equal consecutive elements (or slices along dim) kept once, in order.
template <class T>
return_types::unique<T> unique_consecutive(const Tensor<T>& x, bool return_inverse = false, bool return_counts = false,
                                           std::optional<int64_t> dim = std::nullopt) {
    if (!x.is_cpu())
        return detail::unique_on_device(x, dim, false, return_inverse, return_counts, "unique_consecutive");
    return dim ? detail::unique_slices(x, *dim, false, return_inverse, return_counts, "unique_consecutive")
               : detail::unique_elements(x, false, return_inverse, return_counts, "unique_consecutive");
}

} // namespace tenet::inline TENET_ABI
