#pragma once
// The device side of indexing with tensors (backend/device/device_index.hpp): building element
// pairs from index values, gathering through them, reducing values into their targets (stable
// sort by target + reduce_by_key: deterministic, duplicates accumulate), and the stream
// compaction behind nonzero and masks (copy_if). Thrust only, so the same code runs on CUDA and
// on Thrust's OpenMP system.

#include "tenet/config.hpp"
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/extrema.h>
#include <thrust/find.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include "tenet/backend/device/device_copy.hpp"
#include "tenet/backend/device/device_index.hpp"
#include "tenet/backend/device/device_loop.hpp"
#include "tenet/core/convert.hpp"
#include "tenet/cuda/config.cuh"

namespace tenet::inline TENET_ABI::kernels {

/// Sizes and strides of up to kMaxDeviceDims dims, by value (a kernel argument).
struct DimTable {
    int nd = 0;
    int64_t sizes[detail::kMaxDeviceDims] = {};
    int64_t strides[detail::kMaxDeviceDims] = {};
};

inline DimTable dim_table(const IntArray& sizes, const IntArray& strides, const char* op) {
    if (static_cast<int>(sizes.size()) > detail::kMaxDeviceDims)
        detail::fail<shape_error>(op, ": a device kernel walks at most ", detail::kMaxDeviceDims, " dims, got ",
                                  sizes.size());
    DimTable t;
    t.nd = static_cast<int>(sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) {
        t.sizes[d] = sizes[d];
        t.strides[d] = strides.empty() ? 0 : strides[d];
    }
    return t;
}

template <class I>
struct Outside {
    int64_t lo, hi;
    TENET_HD bool operator()(I v) const { return static_cast<int64_t>(v) < lo || static_cast<int64_t>(v) >= hi; }
};

/// gather's pairs: index element k at coordinate c (over `index`'s sizes).
template <class I>
struct AlongPairs {
    const I* index;
    int64_t* at;
    int64_t* other;
    int dim;
    DimTable shape, self, dst;  // shape: index's sizes; self/dst: their contiguous strides
    TENET_HD void operator()(int64_t k) const {
        int64_t rest = k, a = 0, b = 0;
        for (int d = shape.nd - 1; d >= 0; --d) {
            const int64_t c = rest % shape.sizes[d];
            rest /= shape.sizes[d];
            a += (d == dim ? static_cast<int64_t>(index[k]) : c) * self.strides[d];
            b += c * dst.strides[d];
        }
        at[k] = a;
        other[k] = b;
    }
};

/// The index_* ops' pairs, in the host's order: index k, then outer o, then inner i.
template <class I>
struct SlicePairs {
    const I* index;
    int64_t* at;
    int64_t* other;
    int64_t outer, inner, n, other_n;
    TENET_HD void operator()(int64_t p) const {
        const int64_t i = p % inner, o = (p / inner) % outer, k = p / (inner * outer);
        int64_t v = static_cast<int64_t>(index[k]);
        if (v < 0) v += n;
        at[p] = (o * n + v) * inner + i;
        other[p] = (o * other_n + k) * inner + i;
    }
};

template <class I>
struct FlatPairs {
    const I* index;
    int64_t* at;
    int64_t* other;
    int64_t numel;
    TENET_HD void operator()(int64_t k) const {
        const int64_t v = static_cast<int64_t>(index[k]);
        at[k] = v < 0 ? v + numel : v;
        other[k] = k;
    }
};

/// gather's result element k (row-major over index's sizes): x at k's coordinate, with the
/// index's value at coordinate dim.
template <class T, class I>
struct GatherAlong {
    const T* x;
    const I* index;
    T* out;
    int dim;
    DimTable shape;  // sizes: index's; strides: x's
    DimTable index_layout;  // strides: index's
    TENET_HD void operator()(int64_t k) const {
        int64_t rest = k, a = 0, b = 0;
        for (int d = shape.nd - 1; d >= 0; --d) {
            const int64_t c = rest % shape.sizes[d];
            rest /= shape.sizes[d];
            if (d != dim) a += c * shape.strides[d];
            b += c * index_layout.strides[d];
        }
        out[k] = x[a + static_cast<int64_t>(index[b]) * shape.strides[dim]];
    }
};

/// Element f (row-major) of a strided layout, operand `which` of a two-operand loop (0: the
/// values, 1: the mask).
template <class T, int which>
struct LoopRead {
    const T* first;
    detail::DeviceLoop<2> loop;
    TENET_HD T operator()(int64_t f) const {
        int64_t off[2];
        loop.offsets(f, off);
        return first[off[which]];
    }
};

struct IsTrue {
    TENET_HD bool operator()(bool b) const { return b; }
};

template <class T>
struct GatherPairs {
    T* out;
    const T* src;
    const int64_t* at;
    const int64_t* other;  // null: k
    TENET_HD void operator()(int64_t k) const { out[other ? other[k] : k] = src[at[k]]; }
};

template <class T>
TENET_HD bool index_nan(T v) {
    if constexpr (std::is_integral_v<T>) return false;
    else return v != v;  // floating types, the 16-bit ones included
}

/// Folds two values written to one place; associative, with b the later one.
template <class T>
struct PairReduce {
    detail::IndexReduce kind;
    TENET_HD T operator()(const T& a, const T& b) const {
        using K = detail::IndexReduce;
        switch (kind) {
        case K::Copy:
            return b;
        case K::Sum:
        case K::Mean:
            if constexpr (std::is_same_v<T, bool>) return a || b;
            else return T(a + b);
        case K::Prod:
            if constexpr (std::is_same_v<T, bool>) return a && b;
            else return T(a * b);
        case K::Amax:
        case K::Amin:
            if constexpr (requires(T v) { v < v; }) { // (complex numbers have no order: never asked)
                if (index_nan(a)) return a;
                if (index_nan(b)) return b;
                return (kind == K::Amax ? b > a : b < a) ? b : a;
            }
            break;
        }
        return b;
    }
};

/// The value pair k writes: src[other[k]] (times alpha for a sum), or the one value.
template <class T>
struct PairValue {
    const T* src;
    const int64_t* other;  // null: k
    T value;
    bool scale;
    T alpha;
    TENET_HD T operator()(int64_t k) const {
        if (!src) return value;
        const T v = src[other ? other[k] : k];
        if constexpr (std::is_same_v<T, bool>) return v;
        else return scale ? T(v * alpha) : v;
    }
};

/// Writes the folded value of one target into dst (and divides a mean by its count).
template <class T>
struct CombineTarget {
    T* dst;
    const int64_t* targets;
    const T* folded;
    const int64_t* counts;  // Mean only
    PairReduce<T> r;
    bool include_self;
    TENET_HD void operator()(int64_t j) const {
        T& d = dst[targets[j]];
        T v = include_self && r.kind != detail::IndexReduce::Copy ? r(d, folded[j]) : folded[j];
        if (r.kind == detail::IndexReduce::Mean) {
            const int64_t c = counts[j] + (include_self ? 1 : 0);
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {  // round down, as PyTorch's
                const auto q = v / c;
                v = static_cast<T>((v % c != 0 && ((v < 0) != (c < 0))) ? q - 1 : q);
            } else if constexpr (!std::is_same_v<T, bool>) {
                v = T(v / T(c));
            }
        }
        d = v;
    }
};

/// Whether the element at flat position f of a strided layout is nonzero.
template <class T>
struct IsNonzero {
    const T* first;
    detail::DeviceLoop<1> loop;
    TENET_HD bool operator()(int64_t f) const {
        int64_t off[1];
        loop.offsets(f, off);
        return first[off[0]] != T(0);
    }
};

struct Unravel {
    const int64_t* flat;
    int64_t* out;
    DimTable shape;
    TENET_HD void operator()(int64_t k) const {
        int64_t rest = flat[k];
        for (int d = shape.nd - 1; d >= 0; --d) {
            out[k * shape.nd + d] = rest % shape.sizes[d];
            rest /= shape.sizes[d];
        }
    }
};

struct OffsetsOf {
    const int64_t* flat;
    int64_t* out;
    DimTable layout;
    TENET_HD void operator()(int64_t k) const {
        int64_t rest = flat[k], off = 0;
        for (int d = layout.nd - 1; d >= 0; --d) {
            off += (rest % layout.sizes[d]) * layout.strides[d];
            rest /= layout.sizes[d];
        }
        out[k] = off;
    }
};

/// adv[b] = sum over k of wrap(positions[k][b]) * strides[k].
struct AdvancedSum {
    const int64_t* positions[detail::kMaxDeviceDims];
    DimTable dims;  // sizes: the indexed dims' sizes; strides: theirs in the view
    int64_t* adv;
    TENET_HD void operator()(int64_t b) const {
        int64_t off = 0;
        for (int k = 0; k < dims.nd; ++k) {
            int64_t v = positions[k][b];
            if (v < 0) v += dims.sizes[k];
            off += v * dims.strides[k];
        }
        adv[b] = off;
    }
};

/// Result element r over [before..., B, after...] (B as one dim at `bdim`) -> source offset.
struct AdvancedOffsets {
    const int64_t* adv;
    int64_t* out;
    DimTable layout;  // stride unused at bdim
    int bdim;
    int64_t base;
    TENET_HD void operator()(int64_t r) const {
        int64_t rest = r, off = base;
        for (int d = layout.nd - 1; d >= 0; --d) {
            const int64_t c = rest % layout.sizes[d];
            rest /= layout.sizes[d];
            off += d == bdim ? adv[c] : c * layout.strides[d];
        }
        out[r] = off;
    }
};

/// A contiguous int64 device tensor of n elements on `device`.
inline Tensor<int64_t> device_longs(int64_t n, Device device) {
    return Tensor<int64_t>(detail::make_contiguous_impl(IntArray{n}, dtype_of<int64_t>, device));
}

template <class T>
thrust::device_ptr<T> dptr(T* p) {
    return thrust::device_pointer_cast(p);
}

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class I>
std::optional<int64_t> device_first_outside(const Tensor<I>& index, int64_t lo, int64_t hi) {
    const int64_t n = index.numel();
    if (n == 0) return std::nullopt;
    const Tensor<I> c = packed(index);
    DeviceGuard guard(c.device());
    const auto p = kernels::dptr(const_cast<I*>(c.data_ptr()));
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    const auto mm = thrust::minmax_element(thrust::device, p, p + n);
    I extremes[2];
    auto& backend = device_backend(c.device(), "index");
    backend.copy_bytes(&extremes[0], Device(DeviceType::CPU), thrust::raw_pointer_cast(mm.first), c.device(), sizeof(I));
    backend.copy_bytes(&extremes[1], Device(DeviceType::CPU), thrust::raw_pointer_cast(mm.second), c.device(),
                       sizeof(I));
    if (extremes[0] >= lo && extremes[1] < hi) return std::nullopt;
    const auto bad = thrust::find_if(thrust::device, p, p + n, kernels::Outside<I>{lo, hi});
    I v;
    backend.copy_bytes(&v, Device(DeviceType::CPU), thrust::raw_pointer_cast(bad), c.device(), sizeof(I));
    return static_cast<int64_t>(v);
}

template <class I>
DevicePairs device_along_pairs(const IntArray& self_sizes, int64_t dim, const Tensor<I>& index,
                               const IntArray& other_sizes) {
    const Tensor<I> ic = packed(index);
    const int64_t n = ic.numel();
    DevicePairs m{kernels::device_longs(n, ic.device()), kernels::device_longs(n, ic.device())};
    const IntArray shape = index.dim() == 0 ? IntArray{1} : index.sizes();
    const IntArray s = self_sizes.empty() ? IntArray{1} : self_sizes, o = other_sizes.empty() ? IntArray{1} : other_sizes;
    DeviceGuard guard(ic.device());
    kernels::for_each_index(n,
                            kernels::AlongPairs<I>{ic.data_ptr(), m.at.data_ptr(), m.other.data_ptr(),
                                                   static_cast<int>(dim), kernels::dim_table(shape, {}, "gather"),
                                                   kernels::dim_table(s, contiguous_strides(s), "gather"),
                                                   kernels::dim_table(o, contiguous_strides(o), "gather")},
                            "gather");
    return m;
}

template <class I>
DevicePairs device_slice_pairs(const IntArray& self_sizes, int64_t dim, const Tensor<I>& index, int64_t other_n) {
    const DimSplit s = split_at_dim(self_sizes.empty() ? IntArray{1} : self_sizes, dim);
    const Tensor<I> ic = packed(index);
    const int64_t n = ic.numel() * s.outer * s.inner;
    DevicePairs m{kernels::device_longs(n, ic.device()), kernels::device_longs(n, ic.device())};
    DeviceGuard guard(ic.device());
    kernels::for_each_index(n,
                            kernels::SlicePairs<I>{ic.data_ptr(), m.at.data_ptr(), m.other.data_ptr(), s.outer,
                                                   s.inner, s.n, other_n},
                            "index_select");
    return m;
}

template <class I>
DevicePairs device_flat_pairs(int64_t numel, const Tensor<I>& index) {
    const Tensor<I> ic = packed(index);
    DevicePairs m{kernels::device_longs(ic.numel(), ic.device()), kernels::device_longs(ic.numel(), ic.device())};
    DeviceGuard guard(ic.device());
    kernels::for_each_index(ic.numel(),
                            kernels::FlatPairs<I>{ic.data_ptr(), m.at.data_ptr(), m.other.data_ptr(), numel}, "take");
    return m;
}

template <class I>
DevicePairs device_unique_targets(const Tensor<I>& at) {
    const int64_t n = at.numel();
    Tensor<int64_t> keys = kernels::device_longs(n, at.device());
    DeviceGuard guard(at.device());
    const auto src = kernels::dptr(const_cast<I*>(at.data_ptr()));
    const auto k = kernels::dptr(keys.data_ptr());
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    thrust::copy(thrust::device, src, src + n, k);
    thrust::sort(thrust::device, k, k + n);
    const int64_t u = thrust::unique(thrust::device, k, k + n) - k;
    kernels::check_launch("index_fill");
    DevicePairs m{kernels::device_longs(u, at.device()), kernels::device_longs(u, at.device())};
    copy_strided_on_device(m.at, keys.narrow(0, 0, u));
    const int64_t zero = 0;
    fill_on_device(m.other, &zero, sizeof(zero));
    return m;
}

template <class T>
void device_gather_pairs(T* out, const T* src, const DevicePairs& m, Device device) {
    DeviceGuard guard(device);
    kernels::for_each_index(m.size(),
                            kernels::GatherPairs<T>{out, src, m.at.data_ptr(),
                                                    m.other.defined() ? m.other.data_ptr() : nullptr},
                            "index");
}

template <class T>
void device_reduce_pairs(T* dst, const DevicePairs& m, const T* src, T value, IndexReduce kind, bool include_self,
                         double alpha, Device device) {
    const int64_t n = m.size();
    if (n == 0) return;
    DeviceGuard guard(device);
    // (target, value) pairs, sorted by target keeping index order within one target.
    Tensor<int64_t> keys = kernels::device_longs(n, device);
    copy_strided_on_device(keys, m.at);
    const Tensor<T> vals(make_contiguous_impl(IntArray{n}, dtype_of<T>, device));
    T a{};
    if constexpr (!std::is_same_v<T, bool>) a = convert<T>(alpha);
    const kernels::PairValue<T> pair_value{src, m.other.defined() ? m.other.data_ptr() : nullptr, value,
                                           kind == IndexReduce::Sum && alpha != 1, a};
    const auto k = kernels::dptr(keys.data_ptr());
    const auto v = kernels::dptr(vals.data_ptr());
    const auto positions = thrust::counting_iterator<int64_t>(0);
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    thrust::transform(thrust::device, positions, positions + n, v, pair_value);
    thrust::stable_sort_by_key(thrust::device, k, k + n, v);
    // One folded value per target (reduce_by_key keeps the order: Copy's fold keeps the last).
    Tensor<int64_t> targets = kernels::device_longs(n, device);
    const Tensor<T> folded(make_contiguous_impl(IntArray{n}, dtype_of<T>, device));
    const kernels::PairReduce<T> fold{kind};
    const auto ends = thrust::reduce_by_key(thrust::device, k, k + n, v, kernels::dptr(targets.data_ptr()),
                                            kernels::dptr(folded.data_ptr()), thrust::equal_to<int64_t>(), fold);
    const int64_t u = ends.first - kernels::dptr(targets.data_ptr());
    Tensor<int64_t> counts;
    if (kind == IndexReduce::Mean) {
        counts = kernels::device_longs(u, device);
        thrust::reduce_by_key(thrust::device, k, k + n, thrust::constant_iterator<int64_t>(1),
                              thrust::make_discard_iterator(), kernels::dptr(counts.data_ptr()));
    }
    kernels::check_launch("index_put_");
    kernels::for_each_index(u,
                            kernels::CombineTarget<T>{dst, targets.data_ptr(), folded.data_ptr(),
                                                      counts.defined() ? counts.data_ptr() : nullptr, fold,
                                                      include_self},
                            "index_put_");
}

template <class T>
Tensor<int64_t> device_nonzero_positions(const T* first, const IntArray& sizes, const IntArray& strides,
                                         Device device) {
    const DeviceLoop<1> loop = make_device_loop<1>(sizes, {strides}, "nonzero");
    const kernels::IsNonzero<T> pred{first, loop};
    DeviceGuard guard(device);
    const auto begin = thrust::counting_iterator<int64_t>(0);
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    const int64_t count = thrust::count_if(thrust::device, begin, begin + loop.numel, pred);
    Tensor<int64_t> out = kernels::device_longs(count, device);
    if (count > 0) thrust::copy_if(thrust::device, begin, begin + loop.numel, kernels::dptr(out.data_ptr()), pred);
    kernels::check_launch("nonzero");
    return out;
}

template <class T, class I>
void device_gather_along(T* out, const T* x, const IntArray& x_strides, int64_t dim, const Tensor<I>& index) {
    const int64_t n = index.numel();
    if (n == 0) return;
    const IntArray shape = index.dim() == 0 ? IntArray{1} : index.sizes();
    DeviceGuard guard(index.device());
    kernels::for_each_index(n,
                            kernels::GatherAlong<T, I>{x, index.data_ptr(), out, static_cast<int>(dim),
                                                       kernels::dim_table(shape, x_strides, "gather"),
                                                       kernels::dim_table(shape, index.strides(), "gather")},
                            "gather");
}

template <class T>
Tensor<T> device_masked_values(const T* x, const IntArray& x_strides, const bool* mask, const IntArray& mask_strides,
                               const IntArray& sizes, Device device) {
    const DeviceLoop<2> loop = make_device_loop<2>(sizes, {x_strides, mask_strides}, "masked_select");
    const int64_t n = loop.numel;
    DeviceGuard guard(device);
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    const auto begin = thrust::counting_iterator<int64_t>(0);
    const auto m = kernels::dptr(const_cast<bool*>(mask));
    const bool flat = loop.flat();  // both contiguous over the loop: plain pointers
    const int64_t count = flat ? thrust::count_if(thrust::device, m, m + n, kernels::IsTrue{})
                               : thrust::count_if(thrust::device, begin, begin + n,
                                                  kernels::LoopRead<bool, 1>{mask, loop});
    Tensor<T> out(make_contiguous_impl(IntArray{count}, dtype_of<T>, device));
    if (count > 0) {
        const auto o = kernels::dptr(out.data_ptr());
        if (flat) {
            const auto v = kernels::dptr(const_cast<T*>(x));
            thrust::copy_if(thrust::device, v, v + n, m, o, kernels::IsTrue{});
        } else {
            const auto v = thrust::make_transform_iterator(begin, kernels::LoopRead<T, 0>{x, loop});
            const auto st = thrust::make_transform_iterator(begin, kernels::LoopRead<bool, 1>{mask, loop});
            thrust::copy_if(thrust::device, v, v + n, st, o, kernels::IsTrue{});
        }
    }
    kernels::check_launch("masked_select");
    return out;
}

template <class I>
Tensor<int64_t> device_unravel(const Tensor<I>& flat, const IntArray& sizes) {
    const int64_t n = flat.numel(), nd = static_cast<int64_t>(sizes.size());
    Tensor<int64_t> out(make_contiguous_impl(IntArray{n, nd}, dtype_of<int64_t>, flat.device()));
    if (nd == 0) return out;
    DeviceGuard guard(flat.device());
    kernels::for_each_index(n, kernels::Unravel{flat.data_ptr(), out.data_ptr(), kernels::dim_table(sizes, {}, "nonzero")},
                            "nonzero");
    return out;
}

template <class I>
Tensor<int64_t> device_offsets_of(const Tensor<I>& flat, const IntArray& sizes, const IntArray& strides) {
    Tensor<int64_t> out = kernels::device_longs(flat.numel(), flat.device());
    DeviceGuard guard(flat.device());
    kernels::for_each_index(flat.numel(),
                            kernels::OffsetsOf{flat.data_ptr(), out.data_ptr(), kernels::dim_table(sizes, strides, "mask")},
                            "mask");
    return out;
}

template <class I>
Tensor<int64_t> device_advanced_offsets(const std::vector<Tensor<I>>& positions, const IntArray& dim_sizes,
                                        const IntArray& dim_strides, int64_t nb, const IntArray& before_sizes,
                                        const IntArray& before_strides, const IntArray& after_sizes,
                                        const IntArray& after_strides, int64_t base, Device device) {
    kernels::AdvancedSum sum{};
    sum.dims = kernels::dim_table(dim_sizes, dim_strides, "index");
    for (size_t k = 0; k < positions.size(); ++k) sum.positions[k] = positions[k].data_ptr();
    Tensor<int64_t> adv = kernels::device_longs(nb, device);
    sum.adv = adv.data_ptr();
    DeviceGuard guard(device);
    kernels::for_each_index(nb, sum, "index");
    IntArray sizes = before_sizes, strides = before_strides;
    const int bdim = static_cast<int>(sizes.size());
    sizes.push_back(nb);
    strides.push_back(0);
    for (size_t d = 0; d < after_sizes.size(); ++d) {
        sizes.push_back(after_sizes[d]);
        strides.push_back(after_strides[d]);
    }
    Tensor<int64_t> out = kernels::device_longs(product(sizes), device);
    kernels::for_each_index(out.numel(),
                            kernels::AdvancedOffsets{adv.data_ptr(), out.data_ptr(),
                                                     kernels::dim_table(sizes, strides, "index"), bdim, base},
                            "index");
    return out;
}

}  // namespace tenet::detail
