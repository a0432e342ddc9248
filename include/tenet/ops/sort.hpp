#pragma once
// Sorting and order statistics along a dim, as PyTorch's: sort, argsort, msort, topk, kthvalue,
// median, nanmedian and mode. (quantile: ops/quantile.hpp.)
//
// Each row is sorted as packed keys: the element's order key (its bits mapped so that unsigned
// order is PyTorch's order: NaN after +inf, -0 equal to +0; inverted for descending) in the high
// half and its index in the low half. Ties then keep their original order (every sort is
// stable, and sort's `stable` only documents it), and one sort of plain integers gives values
// and indices. 32-bit keys pack into uint64, 64-bit ones into 128 bits. The integers are sorted
// by Highway's vqsort when tenet is built with it (TENET_HAVE_VQSORT, CMake finds libhwy-dev),
// else by std::sort. The value results send their gradient back through the returned indices.
//
// Device tensors (where the device evaluator exists): sort, argsort, msort, topk, kthvalue, median,
// nanmedian and mode run on the device (backend/device/device_order.hpp: a segmented stable sort
// of the same order keys, so the same order, ties and NaNs), their backward too.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <queue>
#include <type_traits>
#include <vector>

#if TENET_HAVE_VQSORT
#include <hwy/contrib/sort/vqsort.h>
#endif

#include "tenet/backend/device/device_order.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI {

namespace return_types {
/// The results of sort, topk, kthvalue, median(dim), nanmedian(dim), cummax and cummin: values and their
/// indices along the dim; they print as PyTorch's torch.return_types (with tenet's prefix).
#define TENET_VALUES_INDICES(NAME)                                                                  \
    template <class T>                                                                              \
    struct NAME {                                                                                   \
        Tensor<T> values;                                                                           \
        Tensor<int64_t> indices;                                                                    \
    };                                                                                              \
    template <class T>                                                                              \
    std::ostream& operator<<(std::ostream& os, const NAME<T>& r) {                                  \
        return os << "tenet.return_types." #NAME "(\nvalues=" << r.values << ",\nindices=" << r.indices << ")"; \
    }
TENET_VALUES_INDICES(sort)
TENET_VALUES_INDICES(topk)
TENET_VALUES_INDICES(kthvalue)
TENET_VALUES_INDICES(median)
TENET_VALUES_INDICES(nanmedian)
TENET_VALUES_INDICES(mode)
TENET_VALUES_INDICES(cummax)
TENET_VALUES_INDICES(cummin)
#undef TENET_VALUES_INDICES
}  // namespace return_types

namespace detail {

// ---- Packed keys ------------------------------------------------------------------------------

/// The unsigned order key of an element type: 32 bits for types up to 4 bytes, else 64.
template <class T>
using order_key_t = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;

/// v's key: unsigned order of keys is PyTorch's order of values (NaN greatest, -0 == +0).
/// Branch-free (integer selects), so that the loops that pack a row vectorise.
template <class T>
TENET_ALWAYS_INLINE TENET_HD inline order_key_t<T> order_key(T v) {
    using K = order_key_t<T>;
    constexpr K sign = K(1) << (sizeof(K) * 8 - 1);
    if constexpr (FloatingElement<T>) {
        using F = std::conditional_t<sizeof(T) <= 4, float, double>;
        const F f = convert<F>(v);
        K bits = std::bit_cast<K>(f);
        bits = f != f ? std::bit_cast<K>(std::numeric_limits<F>::quiet_NaN()) : bits;  // one NaN: above +inf
        bits = (bits << 1) == 0 ? K(0) : bits;                                          // -0 sorts with +0
        const K flip = K(0) - (bits >> (sizeof(K) * 8 - 1));  // all ones for negative values
        return bits ^ (flip | sign);
    } else if constexpr (std::is_signed_v<T>) {
        using S = std::make_signed_t<K>;
        return static_cast<K>(static_cast<S>(v)) ^ sign;
    } else {
        return static_cast<K>(v);
    }
}

/// The value whose order key is `key` (order_key's inverse). NaN and zero come back canonical
/// (a positive quiet NaN, +0): for those the caller reads the element itself.
template <class T>
TENET_ALWAYS_INLINE inline T value_of_key(order_key_t<T> key) {
    using K = order_key_t<T>;
    constexpr K sign = K(1) << (sizeof(K) * 8 - 1);
    if constexpr (FloatingElement<T>) {
        using F = std::conditional_t<sizeof(T) <= 4, float, double>;
        return convert<T>(std::bit_cast<F>((key & sign) ? K(key & ~sign) : K(~key)));
    } else if constexpr (std::is_signed_v<T>) {
        return static_cast<T>(static_cast<std::make_signed_t<K>>(key ^ sign));
    } else {
        return static_cast<T>(key);
    }
}

#if TENET_HAVE_VQSORT
using Packed128 = hwy::uint128_t;  // {lo: index, hi: key}
/// This thread's vqsort sorter (it owns a buffer, made once).
inline const hwy::Sorter& vqsorter() {
    thread_local const hwy::Sorter sorter;
    return sorter;
}
#else
struct alignas(16) Packed128 {
    uint64_t lo;  // index
    uint64_t hi;  // key
};
#endif
inline bool packed_less(const Packed128& a, const Packed128& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }

/// The packed (key, index) of an element type: uint64 for 32-bit keys, else 128 bits.
template <class T>
using packed_t = std::conditional_t<sizeof(T) <= 4, uint64_t, Packed128>;

template <class T>
TENET_ALWAYS_INLINE inline packed_t<T> pack(T v, int64_t index, bool descending) {
    using K = order_key_t<T>;
    const K key = order_key(v) ^ (K(0) - K(descending));  // descending: the keys inverted
    if constexpr (sizeof(T) <= 4) return (uint64_t{key} << 32) | static_cast<uint64_t>(index);
    else return Packed128{static_cast<uint64_t>(index), key};
}
inline int64_t packed_index(uint64_t p) { return static_cast<int64_t>(p & 0xffffffffu); }
inline int64_t packed_index(const Packed128& p) { return static_cast<int64_t>(p.lo); }
inline uint64_t packed_key(uint64_t p) { return p >> 32; }
inline uint64_t packed_key(const Packed128& p) { return p.hi; }

inline void sort_packed(uint64_t* p, size_t n) {
#if TENET_HAVE_VQSORT
    if (n > 64) return vqsorter()(p, n, hwy::SortAscending());
#endif
    std::sort(p, p + n);
}
inline void sort_packed(Packed128* p, size_t n) {
#if TENET_HAVE_VQSORT
    if (n > 64) return vqsorter()(p, n, hwy::SortAscending());
#endif
    std::sort(p, p + n, packed_less);
}
inline bool packed_less(uint64_t a, uint64_t b) { return a < b; }

// ---- Rows -------------------------------------------------------------------------------------

/// Calls f(row, n, stride) for each row along the middle dim of s (row: its first element's
/// offset in the contiguous tensor).
template <class F>
void for_each_row(const DimSplit& s, F&& f) {
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i) f(o * s.n * s.inner + i, s.n, s.inner);
}

/// for_each_row on `device`: the host's loop, or one device thread per row.
template <class F>
void for_each_row_on(Device device, const DimSplit& s, const F& f, const char* what) {
    if (device.is_cpu()) return for_each_row(s, f);
    for_each_index_on(device, s.outer * s.inner, EachRow<F>{f, s.n, s.inner}, what);
}

/// Row r (of outer * inner) of the gradient through indices: dx[o, idx[o, k, i], i] += g[o, k, i]
/// for k < gn (dx's dim has xn elements). One row per call: repeated indices (cummax) add up.
template <class T>
struct AddThroughIndices {
    const T* g;
    const int64_t* idx;
    T* dx;
    int64_t gn, xn, inner;
    TENET_HD void operator()(int64_t r) const {
        const int64_t o = r / inner, i = r % inner;
        for (int64_t k = 0; k < gn; ++k) {
            const int64_t j = (o * gn + k) * inner + i, at = (o * xn + idx[j]) * inner + i;
            dx[at] = convert<T>(convert<double>(dx[at]) + convert<double>(g[j]));
        }
    }
};

/// The dim of an op on `input` (0 for a 0-d input, which takes dim 0 or -1 as PyTorch).
inline int64_t sort_dim(const TensorBase& t, int64_t dim, const char* op) {
    if (t.dim() == 0) return wrap_dim(dim, 1, op), 0;
    return wrap_dim(dim, t.dim(), op);
}

/// The values' gradient sent back through the indices along dim: dx = zeros, dx[idx] = g.
/// `indices`: in the input's rank (a dim that the result dropped kept as 1).
template <class T>
void record_through_indices(const char* name, const Tensor<T>& input, const Tensor<T>& values,
                            const Tensor<int64_t>& indices, int64_t dim) {
    const Tensor<int64_t> idx = indices.detach();
    record_function(
        name, values, {idx},
        [name, idx, dim, sizes = input.sizes()](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx = zeros<T>(sizes, TensorOptions().device(g.device()));
            const IntArray& isz = idx.sizes();
            const DimSplit gs = split_at_dim(isz, isz.empty() ? 0 : dim);
            const DimSplit xs = split_at_dim(sizes, sizes.empty() ? 0 : dim);
            const Tensor<int64_t> ic = idx.contiguous();
            const AddThroughIndices<T> add{g.data_ptr(), ic.data_ptr(), dx.data_ptr(), gs.n, xs.n, gs.inner};
            for_each_index_on(g.device(), gs.outer * gs.inner, add, name);
            return std::array<TensorBase, 1>{dx};
        },
        input);
}

/// Every row of the contiguous tensor x along dim d sorted (values, indices), on x's device;
/// not recorded.
template <class T>
return_types::sort<T> sorted_rows(const Tensor<T>& x, int64_t d, bool descending, const char* op) {
    const DimSplit s = split_at_dim(x.sizes(), d);
    if (s.n >= (int64_t{1} << 32) && sizeof(T) <= 4)
        fail<value_error>(op, ": a row of ", s.n, " elements is longer than tenet's sort handles (2^32)");
    return_types::sort<T> r{Tensor<T>(make_contiguous_impl(x.sizes(), dtype_of<T>, x.device())),
                            Tensor<int64_t>(make_contiguous_impl(x.sizes(), dtype_of<int64_t>, x.device()))};
    if (!x.device().is_cpu()) {
#if TENET_DEVICE_EVALUATOR
        device_sort_rows(x, r.values, r.indices, s, descending);
        return r;
#else
        no_device_evaluator(op, x.device());
#endif
    }
    std::vector<packed_t<T>> keys(static_cast<size_t>(s.n));
    const T* xp = x.data_ptr();
    T* vp = r.values.data_ptr();
    int64_t* ip = r.indices.data_ptr();
    packed_t<T>* kp = keys.data();
    for_each_row(s, [&](int64_t row, int64_t n, int64_t stride) {
        TENET_SIMD_LOOP
        for (int64_t k = 0; k < n; ++k) kp[k] = pack(xp[row + k * stride], k, descending);
        sort_packed(kp, static_cast<size_t>(n));
        TENET_SIMD_LOOP
        for (int64_t k = 0; k < n; ++k) {
            // The value from its key (a stream, not a gather), but for zero and NaN, whose keys
            // dropped the sign and the payload.
            const auto& p = kp[k];
            const int64_t from = packed_index(p);
            const auto key = static_cast<order_key_t<T>>(packed_key(p));
            const T v = value_of_key<T>(descending ? static_cast<order_key_t<T>>(~key) : key);
            ip[row + k * stride] = from;
            if constexpr (FloatingElement<T>) vp[row + k * stride] = (v == T(0) || v != v) ? xp[row + from * stride] : v;
            else vp[row + k * stride] = v;
        }
    });
    return r;
}

template <class T>
return_types::sort<T> sort_impl(const Tensor<T>& input, int64_t dim, bool descending,
                                const char* backward = "SortBackward0") {
    const int64_t d = sort_dim(input, dim, "sort");
    return_types::sort<T> r = sorted_rows(input.contiguous(), d, descending, "sort");
    record_through_indices(backward, input, r.values, r.indices, d);
    return r;
}

template <class T>
return_types::topk<T> topk_impl(const Tensor<T>& input, int64_t k, int64_t dim, bool largest) {
    const char* op = "topk";
    const int64_t d = sort_dim(input, dim, op);
    const int64_t n = input.dim() == 0 ? 1 : input.size(d);
    if (k < 0 || k > n) fail<index_error>(op, ": k (", k, ") is out of range for a dim of size ", n);
    const Tensor<T> x = input.contiguous();
    if (!x.device().is_cpu()) {  // the rows sorted (largest first for largest), their first k
        return_types::sort<T> all = sorted_rows(x, d, largest, op);
        return_types::topk<T> r{all.values, all.indices};
        if (x.dim() > 0) r = {all.values.narrow(d, 0, k).contiguous(), all.indices.narrow(d, 0, k).contiguous()};
        record_through_indices("TopkBackward0", input, r.values, r.indices, d);
        return r;
    }
    IntArray out_sizes = x.sizes();
    if (!out_sizes.empty()) out_sizes[static_cast<size_t>(d)] = k;
    return_types::topk<T> r{empty<T>(out_sizes), empty<int64_t>(out_sizes)};
    const DimSplit s = split_at_dim(x.sizes(), d);
    const T* xp = x.data_ptr();
    T* vp = r.values.data_ptr();
    int64_t* ip = r.indices.data_ptr();
    std::vector<packed_t<T>> best;
    best.reserve(static_cast<size_t>(k) + 1);
    auto less = [](const packed_t<T>& a, const packed_t<T>& b) { return packed_less(a, b); };
    for_each_row(s, [&](int64_t row, int64_t len, int64_t stride) {
        // The k smallest packed keys (largest: of the inverted keys), in a max-heap: most
        // elements are rejected by one compare with its top.
        best.clear();
        int64_t j = 0;
        for (; j < len && static_cast<int64_t>(best.size()) < k; ++j) {
            best.push_back(pack(xp[row + j * stride], j, largest));
            std::push_heap(best.begin(), best.end(), less);
        }
        if (k > 0) {
            // The heap's top key: an element whose key is above it cannot enter (its index is
            // larger, so a tie cannot either); only the rare others are packed.
            using K = order_key_t<T>;
            auto top_key = static_cast<K>(packed_key(best.front()));
            // The top's value: most elements are rejected by comparing values, one branch each
            // (a NaN fails the compare and takes the key path).
            auto top_value = value_of_key<T>(largest ? static_cast<K>(~top_key) : top_key);
            for (; j < len; ++j) {
                const T v = xp[row + j * stride];
                if (largest ? v <= top_value : v >= top_value) continue;
                const K key = largest ? static_cast<K>(~order_key(v)) : order_key(v);
                if (key >= top_key) continue;
                std::pop_heap(best.begin(), best.end(), less);
                best.back() = pack(v, j, largest);
                std::push_heap(best.begin(), best.end(), less);
                top_key = static_cast<K>(packed_key(best.front()));
                top_value = value_of_key<T>(largest ? static_cast<K>(~top_key) : top_key);
            }
        }
        std::sort_heap(best.begin(), best.end(), less);
        const int64_t out_row = (row / (s.n * s.inner)) * k * s.inner + row % s.inner;
        for (int64_t j = 0; j < k; ++j) {
            const int64_t from = packed_index(best[static_cast<size_t>(j)]);
            ip[out_row + j * stride] = from;
            vp[out_row + j * stride] = xp[row + from * stride];
        }
    });
    record_through_indices("TopkBackward0", input, r.values, r.indices, d);
    return r;
}

/// The number of non-NaN keys at the front of a row's sorted ascending keys (NaN sorts last).
template <class T, class P>
int64_t count_numbers(const std::vector<P>& keys, int64_t n) {
    if constexpr (!FloatingElement<T>) {
        return n;
    } else {
        const uint64_t nan = order_key(convert<T>(std::numeric_limits<double>::quiet_NaN()));
        int64_t m = n;
        while (m > 0 && packed_key(keys[static_cast<size_t>(m - 1)]) == nan) --m;
        return m;
    }
}

/// The pick of the rules' selections (select_impl's pick is mode's).
inline constexpr auto no_pick = [](const auto&, int64_t) -> int64_t { return 0; };

/// Which element of a sorted row kthvalue, median and nanmedian take, from the row's length n
/// and its number m of values that are not NaN (sorted before the NaNs). Mode's element depends
/// on the values: PickSorted finds it on a device, select_impl's pick on the host.
struct SelectRule {
    enum Kind { Kth, Median, NanMedian, Mode } kind;
    int64_t k = 0;  // Kth: the 0-based position
    TENET_HD int64_t position(int64_t n, int64_t m) const {
        if (kind == Kth) return k;
        if (kind == Median) return m < n ? m : (n - 1) / 2;  // the first NaN, else the lower median
        return m == 0 ? 0 : (m - 1) / 2;
    }
};

/// Row r of the rows (outer * inner) sorted on a device: the element that rule picks.
template <class T>
struct PickSorted {
    const T* values;
    const int64_t* indices;
    T* out_values;
    int64_t* out_indices;
    int64_t n, inner;
    SelectRule rule;
    TENET_HD void operator()(int64_t r) const {
        const int64_t row = (r / inner) * n * inner + r % inner;
        int64_t m = n;  // the NaNs sort last: the first of them by bisection
        if constexpr (FloatingElement<T>) {
            int64_t lo = 0;
            while (lo < m) {
                const int64_t mid = lo + (m - lo) / 2;
                const T v = values[row + mid * inner];
                if (v != v) m = mid;
                else lo = mid + 1;
            }
        }
        const int64_t at = row + (rule.kind == SelectRule::Mode ? mode_position(row) : rule.position(n, m)) * inner;
        out_values[r] = values[at];
        out_indices[r] = indices[at];
    }
    /// The last position of the first longest run of equal values (the smallest of the most
    /// frequent; ties sort in index order, so it holds the value's last index). Each NaN is a
    /// run of its own, as on the host.
    TENET_HD int64_t mode_position(int64_t row) const {
        int64_t best = 0, best_length = 0;
        for (int64_t start = 0; start < n;) {
            const T v = values[row + start * inner];
            int64_t end = start + 1;
            if (v == v)
                while (end < n && order_key(values[row + end * inner]) == order_key(v)) ++end;
            if (end - start > best_length) {
                best_length = end - start;
                best = end - 1;
            }
            start = end;
        }
        return best;
    }
};

/// The element of each row at sorted position pick(row's sorted keys, n) (kthvalue, median,
/// nanmedian by their rule; mode by its own pick on the host, by PickSorted on a device): values
/// and indices with the dim removed (or kept as 1).
template <class Result, class T, class Pick>
Result select_impl(const Tensor<T>& input, int64_t dim, bool keepdim, const char* op, const char* backward,
                   Pick&& pick, std::optional<SelectRule> rule) {
    if (input.is_meta()) fail_not_on_meta(op);
    if (!rule) check_host_access(input, op);
    const int64_t d = sort_dim(input, dim, op);
    const Tensor<T> x = input.contiguous();
    IntArray keep = x.sizes(), out = x.sizes();
    if (!keep.empty()) {
        keep[static_cast<size_t>(d)] = 1;
        out.erase(static_cast<size_t>(d));
    }
    const Device device = x.device();
    Result r{Tensor<T>(make_contiguous_impl(keepdim ? keep : out, dtype_of<T>, device)),
             Tensor<int64_t>(make_contiguous_impl(keepdim ? keep : out, dtype_of<int64_t>, device))};
    const DimSplit s = split_at_dim(x.sizes(), d);
    if (!device.is_cpu()) {
        const return_types::sort<T> sorted = sorted_rows(x, d, false, op);
        for_each_index_on(device, s.outer * s.inner,
                          PickSorted<T>{sorted.values.data_ptr(), sorted.indices.data_ptr(), r.values.data_ptr(),
                                        r.indices.data_ptr(), s.n, s.inner, *rule},
                          op);
    } else {
        std::vector<packed_t<T>> keys(static_cast<size_t>(s.n));
        const T* xp = x.data_ptr();
        for_each_row(s, [&](int64_t row, int64_t n, int64_t stride) {
            for (int64_t k = 0; k < n; ++k) keys[static_cast<size_t>(k)] = pack(xp[row + k * stride], k, false);
            sort_packed(keys.data(), static_cast<size_t>(n));
            const int64_t position =
                rule && rule->kind != SelectRule::Mode ? rule->position(n, count_numbers<T>(keys, n)) : pick(keys, n);
            const int64_t from = packed_index(keys[static_cast<size_t>(position)]);
            const int64_t j = (row / (s.n * s.inner)) * s.inner + row % s.inner;
            r.indices.data_ptr()[j] = from;
            r.values.data_ptr()[j] = xp[row + from * stride];
        });
    }
    record_through_indices(backward, input, r.values, r.indices.detach().view(keep), d);
    return r;
}

}  // namespace detail

/// torch.sort(x, dim = -1, descending = false): {values, indices}; stable (ties keep their order),
/// NaN sorted as the largest value.
template <class T>
return_types::sort<T> sort(const Tensor<T>& x, int64_t dim = -1, bool descending = false) {
    detail::refuse_named(x, "aten::sort");
    return detail::sort_impl(x, dim, descending);
}
/// torch.sort(x, stable, dim, descending): the same (every tenet sort is stable), recorded as
/// PyTorch records this overload (SortBackward1).
template <class T>
return_types::sort<T> sort(const Tensor<T>& x, bool stable, int64_t dim, bool descending = false) {
    (void)stable;
    detail::refuse_named(x, "aten::sort");
    return detail::sort_impl(x, dim, descending, "SortBackward1");
}
/// torch.argsort(x, dim = -1, descending = false): sort's indices.
template <class T>
Tensor<int64_t> argsort(const Tensor<T>& x, int64_t dim = -1, bool descending = false) {
    detail::refuse_named(x, "aten::sort");
    return detail::sort_impl(x, dim, descending).indices;
}
/// torch.msort(x): sort's values along dim 0.
template <class T>
Tensor<T> msort(const Tensor<T>& x) {
    detail::refuse_named(x, "aten::sort");
    return detail::sort_impl(x, 0, false).values;
}
/// torch.topk(x, k, dim = -1, largest = true, sorted = true): the k largest (smallest) values
/// along dim and their indices, in order; ties keep their original order. index_error for k
/// outside [0, size].
template <class T>
return_types::topk<T> topk(const Tensor<T>& x, int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true) {
    (void)sorted;  // always sorted: the heap is sorted at the end for free
    detail::refuse_named(x, "aten::topk");
    return detail::topk_impl(x, k, dim, largest);
}
/// torch.kthvalue(x, k, dim = -1, keepdim = false): the k-th smallest value (1-based) and its
/// index; index_error for k outside [1, size].
template <class T>
return_types::kthvalue<T> kthvalue(const Tensor<T>& x, int64_t k, int64_t dim = -1, bool keepdim = false) {
    const int64_t n = x.dim() == 0 ? 1 : x.size(detail::sort_dim(x, dim, "kthvalue"));
    if (k < 1 || k > n) detail::fail<index_error>("kthvalue(): selected number k (", k, ") out of range for a dim of size ", n);
    return detail::name_values_indices(
        detail::select_impl<return_types::kthvalue<T>>(x, dim, keepdim, "kthvalue", "KthvalueBackward0",
                                                       detail::no_pick, detail::SelectRule{detail::SelectRule::Kth, k - 1}),
        x, dim, keepdim);
}
/// torch.median(x, dim, keepdim): the lower median along dim and its index; NaN when the row
/// has a NaN (the first NaN's index).
template <class T>
return_types::median<T> median(const Tensor<T>& x, int64_t dim, bool keepdim = false) {
    if (x.dim() > 0 && x.size(detail::sort_dim(x, dim, "median")) == 0)
        detail::fail<index_error>("median(): Expected reduction dim ", dim, " to have non-zero size.");
    return detail::name_values_indices(
        detail::select_impl<return_types::median<T>>(x, dim, keepdim, "median", "MedianBackward1", detail::no_pick,
                                                     detail::SelectRule{detail::SelectRule::Median}),
        x, dim, keepdim);
}
/// torch.nanmedian(x, dim, keepdim): median of the values that are not NaN (NaN if none are).
template <class T>
return_types::nanmedian<T> nanmedian(const Tensor<T>& x, int64_t dim, bool keepdim = false) {
    if (x.dim() > 0 && x.size(detail::sort_dim(x, dim, "nanmedian")) == 0)
        detail::fail<index_error>("nanmedian(): Expected reduction dim ", dim, " to have non-zero size.");
    return detail::name_values_indices(
        detail::select_impl<return_types::nanmedian<T>>(x, dim, keepdim, "nanmedian", "NanmedianBackward1",
                                                        detail::no_pick, detail::SelectRule{detail::SelectRule::NanMedian}),
        x, dim, keepdim);
}
/// torch.mode(x, dim = -1, keepdim = false): the most frequent value along dim (the smallest of
/// the most frequent ones) and the index of its last occurrence. Each NaN counts as a value of its own.
template <class T>
return_types::mode<T> mode(const Tensor<T>& x, int64_t dim = -1, bool keepdim = false) {
    if (x.dim() > 0 && x.size(detail::sort_dim(x, dim, "mode")) == 0)
        detail::fail<index_error>("mode(): Expected reduction dim ", dim, " to have non-zero size.");
    return detail::name_values_indices(detail::select_impl<return_types::mode<T>>(x, dim, keepdim, "mode", "ModeBackward0",
        [](const auto& keys, int64_t n) {
            // The longest run of equal keys (the first of the longest: the smallest value); its last
            // position, which holds the value's last index (the keys' ties are in index order).
            const int64_t numbers = detail::count_numbers<T>(keys, n);  // NaNs (at the end) are runs of one
            int64_t best = 0, best_length = 0;
            for (int64_t start = 0; start < n;) {
                int64_t end = start + 1;
                if (start < numbers)
                    while (end < numbers && detail::packed_key(keys[static_cast<size_t>(end)]) ==
                                                detail::packed_key(keys[static_cast<size_t>(start)]))
                        ++end;
                if (end - start > best_length) {
                    best_length = end - start;
                    best = end - 1;
                }
                start = end;
            }
            return best;
        }, detail::SelectRule{detail::SelectRule::Mode}), x, dim, keepdim);
}

/// torch.median(x): the lower median of all elements (0-d; NaN if any is NaN).
template <class T>
Tensor<T> median(const Tensor<T>& x) {
    if (x.numel() == 0) return full<T>({}, std::numeric_limits<double>::quiet_NaN(), TensorOptions().device(x.device()));
    return detail::select_impl<return_types::median<T>>(detail::drop_names(x).reshape({-1}), 0, false, "median", "MedianBackward0",
                                                        detail::no_pick, detail::SelectRule{detail::SelectRule::Median})
        .values;
}
/// torch.nanmedian(x): the lower median of the elements that are not NaN.
template <class T>
Tensor<T> nanmedian(const Tensor<T>& x) {
    if (x.numel() == 0) return full<T>({}, std::numeric_limits<double>::quiet_NaN(), TensorOptions().device(x.device()));
    return detail::select_impl<return_types::nanmedian<T>>(detail::drop_names(x).reshape({-1}), 0, false, "nanmedian", "NanmedianBackward0",
                                                           detail::no_pick, detail::SelectRule{detail::SelectRule::NanMedian})
        .values;
}

}  // namespace tenet
