#pragma once
// Index ops, gather and scatter, as PyTorch 1.13's: index_select, gather, take_along_dim, take,
// scatter (src, value, reduce "add"/"multiply"), scatter_add, scatter_reduce, index_add,
// index_copy, index_fill, index_reduce, put, and their in-place forms, on the host or a device.
//
// Each op first turns its index into a map of element pairs (contiguous offsets): `at`, the element
// of the indexed tensor (x of gather, self of scatter), and `other`, the element of the other
// tensor (gather's result, scatter's src). The forward pass and every gradient are then loops over
// the pairs, in index order (PyTorch's order on the CPU, so sums round as its do). On a device
// the pairs are device tensors and the loops are kernels (backend/device/device_index.hpp): the
// same results, sums within rounding (a target's values are folded before its old value).
// gather's device forward needs no pairs: one thread per result element reads x through the
// index (the pairs are built only for its gradient).

#include "tenet/config.hpp"
#include <atomic>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/backend/device/device_index.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// Element pairs of an index op: at[k] in the indexed tensor, other[k] in the other one; on a
/// device, in `device` instead.
struct IndexMap {
    std::vector<int64_t> at, other;
    DevicePairs device;
    bool on_device() const { return device.at.defined(); }
};

[[noreturn]] inline void fail_out_of_bounds(const char* op, int64_t v, int64_t dim, int64_t size,
                                            const char* bounds = "out of bounds") {
    fail<index_error>(op, ": index ", v, " is ", bounds, " for dimension ", dim, " with size ", size);
}
[[noreturn]] inline void fail_flat_out_of_range(const char* op, int64_t v, int64_t numel) {
    fail<index_error>(op, ": out of range: tried to access index ", v, " on a tensor of ", numel, " elements");
}

/// Sizes with a 0-d tensor seen as [1] (PyTorch's ensure_nonempty_size).
inline IntArray nonempty_sizes(const IntArray& s) {
    return s.empty() ? IntArray{1} : s;
}

/// gather's and scatter's rule: index has self's rank (0-d as 1-D), and index.size(d) <=
/// self.size(d) for d != dim and <= src.size(d) for every d (src: scatter's). An empty index
/// is not checked, as PyTorch.
inline void check_along_shapes(const char* op, const IntArray& self, int64_t dim, const IntArray& index,
                               const IntArray* src) {
    const IntArray s = nonempty_sizes(self), i = nonempty_sizes(index);
    int64_t numel = 1;
    for (int64_t v : index)
        numel *= v;
    if (numel == 0)
        return;
    if (s.size() != i.size())
        fail<value_error>(op, ": index tensor must have the same number of dimensions as ", src ? "self" : "input",
                          " tensor (index ", index, ", ", src ? "self " : "input ", self, ")");
    if (src && nonempty_sizes(*src).size() != s.size())
        fail<value_error>(op, ": src ", *src, " must have the same number of dimensions as self ", self);
    bool wrong = false;
    for (size_t d = 0; d < s.size(); ++d) {
        if (static_cast<int64_t>(d) != dim && i[d] > s[d])
            wrong = true;
        if (src && i[d] > nonempty_sizes(*src)[d])
            wrong = true;
    }
    if (wrong) {
        if (src)
            fail<value_error>(op, ": expected index ", index, " to be smaller than self ", self,
                              " apart from dimension ", dim, " and to be smaller size than src ", *src);
        fail<value_error>(op, ": size does not match: expected index ", index, " to be smaller than input ", self,
                          " apart from dimension ", dim);
    }
}

/// The pairs of gather (other: the result, index's shape) and scatter (other: src): for each
/// element of index at coordinate c, at = self's element at c with c[dim] = index[c].
inline IndexMap along_map(const char* op, const IntArray& self_sizes, int64_t dim, const Tensor<int64_t>& index,
                          const IntArray& other_sizes) {
    const IntArray s = nonempty_sizes(self_sizes), i = nonempty_sizes(index.sizes()), o = nonempty_sizes(other_sizes);
    const IntArray ss = contiguous_strides(s), os = contiguous_strides(o);
#if TENET_DEVICE_EVALUATOR
    if (!index.is_cpu()) {
        if (const auto v = device_first_outside(index, 0, s[dim]))
            fail_out_of_bounds(op, *v, dim, s[dim]);
        return IndexMap{{}, {}, device_along_pairs(self_sizes, dim, index, other_sizes)};
    }
#endif
    const Tensor<int64_t> ic = index.contiguous();
    const int64_t n = ic.numel(), nd = static_cast<int64_t>(i.size());
    IndexMap m;
    m.at.resize(static_cast<size_t>(n));
    m.other.resize(static_cast<size_t>(n));
    std::vector<int64_t> c(static_cast<size_t>(nd), 0);
    const int64_t* ip = ic.data_ptr();
    for (int64_t k = 0; k < n; ++k) {
        const int64_t v = ip[k];
        if (v < 0 || v >= s[dim])
            fail_out_of_bounds(op, v, dim, s[dim]);
        int64_t a = 0, b = 0;
        for (int64_t d = 0; d < nd; ++d) {
            a += (d == dim ? v : c[d]) * ss[d];
            b += c[d] * os[d];
        }
        m.at[k] = a;
        m.other[k] = b;
        for (int64_t d = nd - 1; d >= 0 && ++c[d] == i[d]; --d)
            c[d] = 0; // the next coordinate
    }
    return m;
}

/// The pairs of the index_* ops: slice index[k] of self along dim and slice k of other (of
/// other_sizes: self's with other_n along dim). `negatives`: index_fill's [-size, size).
inline IndexMap slice_map(const char* op, const IntArray& self_sizes, int64_t dim, const Tensor<int64_t>& index,
                          int64_t other_n, bool negatives = false) {
    const DimSplit s = split_at_dim(nonempty_sizes(self_sizes), dim);
#if TENET_DEVICE_EVALUATOR
    if (!index.is_cpu()) {
        if (const auto v = device_first_outside(index, negatives ? -s.n : 0, s.n))
            fail_out_of_bounds(op, *v, dim, s.n, "out of range");
        return IndexMap{{}, {}, device_slice_pairs(self_sizes, dim, index, other_n)};
    }
#endif
    const Tensor<int64_t> ic = index.contiguous();
    const int64_t n = ic.numel();
    IndexMap m;
    m.at.reserve(static_cast<size_t>(n * s.outer * s.inner));
    m.other.reserve(m.at.capacity());
    for (int64_t k = 0; k < n; ++k) {
        int64_t v = ic.data_ptr()[k];
        if (v < (negatives ? -s.n : 0) || v >= s.n)
            fail_out_of_bounds(op, v, dim, s.n, "out of range");
        if (v < 0)
            v += s.n;
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t i = 0; i < s.inner; ++i) {
                m.at.push_back((o * s.n + v) * s.inner + i);
                m.other.push_back((o * other_n + k) * s.inner + i);
            }
    }
    return m;
}

/// The pairs of take and put: the flat element index[k] (negatives from the end) and k.
inline IndexMap flat_map(const char* op, int64_t numel, const Tensor<int64_t>& index) {
#if TENET_DEVICE_EVALUATOR
    if (!index.is_cpu()) {
        if (const auto v = device_first_outside(index, -numel, numel))
            fail_flat_out_of_range(op, *v, numel);
        return IndexMap{{}, {}, device_flat_pairs(numel, index)};
    }
#endif
    const Tensor<int64_t> ic = index.contiguous();
    IndexMap m;
    for (int64_t k = 0; k < ic.numel(); ++k) {
        const int64_t v = ic.data_ptr()[k];
        if (v < -numel || v >= numel)
            fail_flat_out_of_range(op, v, numel);
        m.at.push_back(v < 0 ? v + numel : v);
        m.other.push_back(k);
    }
    return m;
}

inline void check_vector_index(const char* op, const Tensor<int64_t>& index) {
    if (index.dim() > 1)
        fail<value_error>(op, ": index is supposed to be a vector (0-d or 1-D), got a tensor of shape ", index.sizes());
}

/// The gradient of a result read from x through m (gather, index_select, take): sums into x's
/// elements, duplicates accumulating.
template <class T>
void record_gather_like(const char* name, const Tensor<T>& input, const Tensor<T>& result, IndexMap m) {
    if constexpr (FloatingElement<T>) {
        if (!input.requires_grad())
            return;
        record_function(
            name, result, {},
            [m = std::move(m), sizes = input.sizes()](const TensorBase& grad) {
                const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                Tensor<T> dx = zeros<T>(sizes, TensorOptions().device(g.device()));
#if TENET_DEVICE_EVALUATOR
                if (m.on_device()) {
                    device_reduce_pairs(dx.data_ptr(), m.device, g.data_ptr(), T{}, IndexReduce::Sum, true, 1,
                                        g.device());
                    return std::array<TensorBase, 1>{dx};
                }
#endif
                T* d = dx.data_ptr();
                const T* gp = g.data_ptr();
                for (size_t k = 0; k < m.at.size(); ++k)
                    d[m.at[k]] += gp[m.other[k]];
                return std::array<TensorBase, 1>{dx};
            },
            input);
    }
}

/// result = x's elements at m.at, laid out at m.other in a fresh tensor of `sizes`.
template <class T>
Tensor<T> gather_by_map(const Tensor<T>& x, const IndexMap& m, const IntArray& sizes) {
    const Tensor<T> xc = x.detach().contiguous();
    Tensor<T> r = empty<T>(sizes, TensorOptions().device(x.device()));
#if TENET_DEVICE_EVALUATOR
    if (m.on_device()) {
        device_gather_pairs(r.data_ptr(), xc.data_ptr(), m.device, x.device());
        return r;
    }
#endif
    const T* xp = xc.data_ptr();
    T* rp = r.data_ptr();
    for (size_t k = 0; k < m.at.size(); ++k)
        rp[m.other[k]] = xp[m.at[k]];
    return r;
}

/// index_select on the host, without pairs: each selected slice (`inner` contiguous elements of
/// the contiguous x) copied whole. Every index is checked before anything is read.
template <class T>
Tensor<T> select_slices(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const IntArray& sizes,
                        const char* op) {
    const DimSplit s = split_at_dim(nonempty_sizes(x.sizes()), dim);
    const Tensor<int64_t> ic = index.contiguous();
    const int64_t n = ic.numel();
    const int64_t* ip = ic.data_ptr();
    for (int64_t k = 0; k < n; ++k)
        if (ip[k] < 0 || ip[k] >= s.n) fail_out_of_bounds(op, ip[k], dim, s.n, "out of range");
    const Tensor<T> xc = x.detach().contiguous();
    Tensor<T> r = empty<T>(sizes);
    const T* xp = xc.data_ptr();
    T* rp = r.data_ptr();
    parallel_range(s.outer * n, [&](int64_t lo, int64_t hi) {
        for (int64_t j = lo; j < hi; ++j)
            std::copy_n(xp + ((j / n) * s.n + ip[j % n]) * s.inner, s.inner, rp + j * s.inner);
    });
    return r;
}

/// gather on the host, without pairs: each result element read from x (through its strides) at
/// the position its index names. An index out of range stops its chunk before x is read there,
/// and the first one (in order) is reported once the loop is done.
template <class T>
Tensor<T> gather_direct(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const char* op) {
    const IntArray xs = nonempty_sizes(x.sizes()), is = nonempty_sizes(index.sizes());
    const IntArray xst = x.dim() == 0 ? IntArray{1} : x.strides();
    const DimSplit s = split_at_dim(is, dim);
    const int64_t size = xs[static_cast<size_t>(dim)], stride = xst[static_cast<size_t>(dim)];
    const Tensor<int64_t> ic = index.contiguous();
    const int64_t* ip = ic.data_ptr();
    // x's offset of each position over the dims after dim, and of one over the dims before it.
    std::vector<int64_t> inner_offset(static_cast<size_t>(s.inner));
    for (int64_t i = 0; i < s.inner; ++i) {
        int64_t rest = i, off = 0;
        for (auto d = static_cast<int64_t>(is.size()) - 1; d > dim; --d) {
            off += (rest % is[static_cast<size_t>(d)]) * xst[static_cast<size_t>(d)];
            rest /= is[static_cast<size_t>(d)];
        }
        inner_offset[static_cast<size_t>(i)] = off;
    }
    auto outer_offset = [&](int64_t o) {
        int64_t off = 0;
        for (int64_t d = dim - 1; d >= 0; --d) {
            off += (o % is[static_cast<size_t>(d)]) * xst[static_cast<size_t>(d)];
            o /= is[static_cast<size_t>(d)];
        }
        return off;
    };
    Tensor<T> r = empty<T>(index.sizes());
    const T* xp = x.data_ptr();
    T* rp = r.data_ptr();
    const auto in_range = [size](int64_t v) { return static_cast<uint64_t>(v) < static_cast<uint64_t>(size); };
    std::atomic<bool> outside{false};
    parallel_range(s.outer, [&](int64_t lo, int64_t hi) {
        for (int64_t o = lo; o < hi; ++o) {
            const T* row = xp + outer_offset(o);
            const int64_t* at = ip + o * s.n * s.inner;
            T* out = rp + o * s.n * s.inner;
            for (int64_t j = 0; j < s.n * s.inner; ++j) {
                const int64_t v = at[j];
                if (!in_range(v)) {
                    outside.store(true, std::memory_order_relaxed);
                    return;
                }
                // Along a contiguous last dim (the common case) the offset is the index itself.
                out[j] = s.inner == 1 && stride == 1 ? row[v]
                                                     : row[v * stride + inner_offset[static_cast<size_t>(j % s.inner)]];
            }
        }
    });
    if (outside.load())
        for (int64_t k = 0; k < ic.numel(); ++k)
            if (!in_range(ip[k])) fail_out_of_bounds(op, ip[k], dim, size);
    return r;
}

/// Whether an op on x records a gradient (its pairs are then worth building).
template <class T>
bool records_gradient(const Tensor<T>& x) {
    return FloatingElement<T> && autograd::GradMode::is_enabled() && x.requires_grad();
}

// ---- Scatter's reductions ---------------------------------------------------------------------

/// The reduction a `reduce` argument names, among `names` (value_error naming the op, the choices
/// and the argument otherwise).
struct ReduceName {
    std::string_view name;
    IndexReduce kind;
};
inline IndexReduce reduce_kind(std::string_view reduce, std::initializer_list<ReduceName> names, const char* op) {
    for (const ReduceName& n : names)
        if (n.name == reduce)
            return n.kind;
    std::string choices;
    for (const ReduceName& n : names)
        choices += (choices.empty() ? "" : ", ") + std::string(n.name);
    fail<value_error>(op, ": reduce argument must be one of ", choices, ", got ", reduce);
}
/// scatter_reduce's: sum, prod, mean, amax, amin.
inline IndexReduce scatter_reduce_kind(std::string_view reduce, const char* op) {
    return reduce_kind(reduce,
                       {{"sum", IndexReduce::Sum},
                        {"prod", IndexReduce::Prod},
                        {"mean", IndexReduce::Mean},
                        {"amax", IndexReduce::Amax},
                        {"amin", IndexReduce::Amin}},
                       op);
}
/// index_reduce's: prod, mean, amax, amin.
inline IndexReduce index_reduce_kind(std::string_view reduce, const char* op) {
    return reduce_kind(reduce,
                       {{"prod", IndexReduce::Prod},
                        {"mean", IndexReduce::Mean},
                        {"amax", IndexReduce::Amax},
                        {"amin", IndexReduce::Amin}},
                       op);
}
/// scatter's reduce: "add" or "multiply".
inline IndexReduce scatter_legacy_kind(std::string_view reduce, const char* op) {
    return reduce_kind(reduce, {{"add", IndexReduce::Sum}, {"multiply", IndexReduce::Prod}}, op);
}

template <class T>
T reduce_identity(IndexReduce kind) {
    if (kind == IndexReduce::Prod)
        return T(1);
    if constexpr (!std::is_same_v<T, bool>) {
        constexpr bool inf = std::numeric_limits<T>::has_infinity;
        if (kind == IndexReduce::Amax)
            return inf ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
        if (kind == IndexReduce::Amin)
            return inf ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    } else {
        if (kind == IndexReduce::Amax)
            return false;
        if (kind == IndexReduce::Amin)
            return true;
    }
    return T(0);
}

template <class T>
bool index_is_nan(T v) {
    if constexpr (FloatingElement<T>)
        return v != v;
    else
        return false;
}

/// out (self's copy) with src's elements m.other reduced into its elements m.at. `value`: the
/// value forms (no src). include_self false: the targets start from the reduction's identity.
template <class T>
void scatter_into(Tensor<T>& out, const IndexMap& m, const T* src, T value, IndexReduce kind, bool include_self,
                  double alpha = 1) {
#if TENET_DEVICE_EVALUATOR
    if (m.on_device())
        return device_reduce_pairs(out.data_ptr(), m.device, src, value, kind, include_self, alpha, out.device());
#endif
    T* p = out.data_ptr();
    const size_t n = m.at.size();
    if (!include_self)
        for (size_t k = 0; k < n; ++k)
            p[m.at[k]] = reduce_identity<T>(kind);
    std::vector<int64_t> count;
    if (kind == IndexReduce::Mean)
        count.assign(static_cast<size_t>(out.numel()), include_self ? 1 : 0);
    for (size_t k = 0; k < n; ++k) {
        T& d = p[m.at[k]];
        const T s = src ? src[m.other[k]] : value;
        switch (kind) {
        case IndexReduce::Copy:
            d = s;
            break;
        case IndexReduce::Sum:
        case IndexReduce::Mean:
            if constexpr (std::is_same_v<T, bool>)
                d = d || s;
            else
                d = alpha == 1 ? T(d + s) : T(d + s * convert<T>(alpha));
            if (kind == IndexReduce::Mean)
                ++count[static_cast<size_t>(m.at[k])];
            break;
        case IndexReduce::Prod:
            if constexpr (std::is_same_v<T, bool>)
                d = d && s;
            else
                d = T(d * s);
            break;
        case IndexReduce::Amax:
            d = index_is_nan(s) ? s : (s > d ? s : d);
            break;
        case IndexReduce::Amin:
            d = index_is_nan(s) ? s : (s < d ? s : d);
            break;
        }
    }
    if (kind == IndexReduce::Mean) {
        for (size_t j = 0; j < count.size(); ++j) {
            const int64_t c = count[j] == 0 ? 1 : count[j];
            if constexpr (FloatingElement<T>)
                p[j] = T(p[j] / T(c));
            else if constexpr (std::is_same_v<T, bool>)
                p[j] = p[j];
            else { // integers: floor division, as PyTorch's
                const auto q = p[j] / c;
                p[j] = static_cast<T>((p[j] % c != 0 && ((p[j] < 0) != (c < 0))) ? q - 1 : q);
            }
        }
    }
}

#if TENET_DEVICE_EVALUATOR
/// scatter_gradients on a device: the same formulas, with the pair loops as gathers through the
/// pairs and reductions into their targets (backend/device/device_index.hpp), the rest elementwise.
template <class T>
std::array<TensorBase, 2> device_scatter_gradients(const Tensor<T>& g_in, const IndexMap& m, IndexReduce kind,
                                                   bool include_self, double alpha, const Tensor<T>& self,
                                                   const Tensor<T>& src, const Tensor<T>& result,
                                                   const IntArray& src_sizes, bool want_src) {
    NoGradGuard no_grad;
    const Device device = g_in.device();
    const TensorOptions on = TensorOptions().device(device);
    const Tensor<T> g = g_in.contiguous();
    const int64_t n = m.device.size();
    Tensor<T> dself = g.clone();
    Tensor<T> dsrc = want_src ? zeros<T>(src_sizes, on) : Tensor<T>();
    const DevicePairs by_src{m.device.other, m.device.at}; // src's element other[k] meets self's at[k]
    // Values per pair k: src's (sk) and the result's at the target (rk).
    auto per_pair = [&](const Tensor<T>& from, const DevicePairs& pairs) {
        Tensor<T> out = empty<T>({n}, on);
        device_gather_pairs(out.data_ptr(), from.data_ptr(), DevicePairs{pairs.at, Tensor<int64_t>()}, device);
        return out;
    };
    if (kind == IndexReduce::Copy || kind == IndexReduce::Sum) {
        if (want_src)
            device_reduce_pairs(dsrc.data_ptr(), by_src, g.data_ptr(), T{}, IndexReduce::Sum, true, alpha, device);
        if (kind == IndexReduce::Copy)
            device_reduce_pairs(dself.data_ptr(), m.device, static_cast<const T*>(nullptr), T(0), IndexReduce::Copy,
                                true, 1, device);
    } else if (kind == IndexReduce::Mean) {
        Tensor<T> count = full<T>(g.sizes(), include_self ? T(1) : T(0), on);
        device_reduce_pairs(count.data_ptr(), m.device, static_cast<const T*>(nullptr), T(1), IndexReduce::Sum, true, 1,
                            device);
        dself = Tensor<T>(g / count.clamp_min(T(1)));
        if (want_src)
            device_gather_pairs(dsrc.data_ptr(), dself.data_ptr(), m.device, device);
    } else {
        const Tensor<T> sk = per_pair(src, by_src);
        const Tensor<int64_t> ks = arange<int64_t>(n, TensorOptions().device(device));
        const DevicePairs to_target{m.device.at, ks};
        if (kind == IndexReduce::Amax || kind == IndexReduce::Amin) {
            // Shared among the elements equal to the result (self counts when equal).
            const Tensor<T> rk = per_pair(result, m.device);
            const Tensor<bool> hit = Tensor<bool>(sk == rk);
            const Tensor<T> hits = hit.template to<T>();
            Tensor<T> ties = (self == result).template to<T>();
            device_reduce_pairs(ties.data_ptr(), to_target, hits.data_ptr(), T{}, IndexReduce::Sum, true, 1, device);
            const Tensor<T> share = Tensor<T>(g / ties.clamp_min(T(1)));
            dself = Tensor<T>(where(self == result, share, T(0)));
            if (want_src) {
                const Tensor<T> dk = Tensor<T>(where(hit, per_pair(share, m.device), T(0)));
                device_reduce_pairs(dsrc.data_ptr(), DevicePairs{m.device.other, ks}, dk.data_ptr(), T{},
                                    IndexReduce::Copy, true, 1, device);
            }
        } else { // Prod: the product of the others, from the zeros' count and the nonzero product
            Tensor<T> nonzero = include_self ? Tensor<T>(where(self == T(0), T(1), self)) : ones<T>(g.sizes(), on);
            Tensor<T> zeros_at = include_self ? (self == T(0)).template to<T>() : zeros<T>(g.sizes(), on);
            const Tensor<T> sk_nonzero = Tensor<T>(where(sk == T(0), T(1), sk));
            const Tensor<T> sk_zero = (sk == T(0)).template to<T>();
            device_reduce_pairs(nonzero.data_ptr(), to_target, sk_nonzero.data_ptr(), T{}, IndexReduce::Prod, true, 1,
                                device);
            device_reduce_pairs(zeros_at.data_ptr(), to_target, sk_zero.data_ptr(), T{}, IndexReduce::Sum, true, 1,
                                device);
            auto others = [](const auto& v, const auto& nz, const auto& zc) {
                return where(v != T(0), where(zc == T(0), nz / where(v == T(0), T(1), v), T(0)),
                             where(zc == T(1), nz, T(0)));
            };
            Tensor<T> target = zeros<T>(g.sizes(), on);
            device_reduce_pairs(target.data_ptr(), m.device, static_cast<const T*>(nullptr), T(1), IndexReduce::Copy,
                                true, 1, device);
            dself = Tensor<T>(where(target != T(0), g * others(self, nonzero, zeros_at), g));
            if (want_src) {
                const Tensor<T> gk = per_pair(g, m.device), nzk = per_pair(nonzero, m.device),
                                zk = per_pair(zeros_at, m.device);
                const Tensor<T> dk = Tensor<T>(gk * others(sk, nzk, zk));
                device_reduce_pairs(dsrc.data_ptr(), DevicePairs{m.device.other, ks}, dk.data_ptr(), T{},
                                    IndexReduce::Copy, true, 1, device);
            }
        }
    }
    if (!include_self)
        device_reduce_pairs(dself.data_ptr(), m.device, static_cast<const T*>(nullptr), T(0), IndexReduce::Copy, true,
                            1, device);
    return {dself, dsrc};
}
#endif

/// The gradients of a scatter-like result (PyTorch's formulas, for self and src): `self`, `src`
/// and `result` detached, m the pairs. Copy: self's targets get none, src the result's gradient;
/// Sum: both get it (src times alpha); Mean: divided by the count; Amax/Amin: shared among the
/// elements equal to the result; Prod: times the product of the other elements. include_self
/// false: self's targets get none.
template <class T>
std::array<TensorBase, 2> scatter_gradients(const Tensor<T>& g_in, const IndexMap& m, IndexReduce kind,
                                            bool include_self, double alpha, const Tensor<T>& self,
                                            const Tensor<T>& src, const Tensor<T>& result, const IntArray& src_sizes,
                                            bool want_src) {
#if TENET_DEVICE_EVALUATOR
    if (m.on_device())
        return device_scatter_gradients(g_in, m, kind, include_self, alpha, self, src, result, src_sizes, want_src);
#endif
    const Tensor<T> g = g_in.contiguous();
    const T* gp = g.data_ptr();
    const size_t n = m.at.size();
    const int64_t numel = g.numel();
    Tensor<T> dself = g.clone();
    T* ds = dself.data_ptr();
    Tensor<T> dsrc;
    T* dp = nullptr;
    if (want_src) {
        dsrc = zeros<T>(src_sizes);
        dp = dsrc.data_ptr();
    }
    const T* sp = want_src || kind == IndexReduce::Amax || kind == IndexReduce::Amin || kind == IndexReduce::Prod
                      ? src.data_ptr()
                      : nullptr;
    if (kind == IndexReduce::Copy || kind == IndexReduce::Sum) {
        if (dp)
            for (size_t k = 0; k < n; ++k)
                dp[m.other[k]] += T(gp[m.at[k]] * T(alpha)); // (index_fill: one value for all k)
        if (kind == IndexReduce::Copy)
            for (size_t k = 0; k < n; ++k)
                ds[m.at[k]] = T(0);
    } else if (kind == IndexReduce::Mean) {
        std::vector<T> count(static_cast<size_t>(numel), include_self ? T(1) : T(0));
        for (size_t k = 0; k < n; ++k)
            count[static_cast<size_t>(m.at[k])] += T(1);
        for (int64_t j = 0; j < numel; ++j)
            ds[j] = gp[j] / (count[j] == T(0) ? T(1) : count[j]);
        if (dp)
            for (size_t k = 0; k < n; ++k)
                dp[m.other[k]] = ds[m.at[k]];
    } else if (kind == IndexReduce::Amax || kind == IndexReduce::Amin) {
        const T* xp = self.data_ptr();
        const T* rp = result.data_ptr();
        std::vector<T> ties(static_cast<size_t>(numel));
        for (int64_t j = 0; j < numel; ++j)
            ties[j] = xp[j] == rp[j] ? T(1) : T(0); // self counts when equal
        for (size_t k = 0; k < n; ++k)
            if (sp[m.other[k]] == rp[m.at[k]])
                ties[static_cast<size_t>(m.at[k])] += T(1);
        for (int64_t j = 0; j < numel; ++j)
            ds[j] = xp[j] == rp[j] ? gp[j] / ties[j] : T(0);
        if (dp)
            for (size_t k = 0; k < n; ++k) {
                const int64_t a = m.at[k];
                dp[m.other[k]] = sp[m.other[k]] == rp[a] ? gp[a] / ties[static_cast<size_t>(a)] : T(0);
            }
    } else { // Prod: the product of the others, from the zeros' count and the nonzero product
        const T* xp = self.data_ptr();
        std::vector<T> nonzero(static_cast<size_t>(numel), T(1));
        std::vector<int64_t> zeros_at(static_cast<size_t>(numel), 0);
        auto take = [&](int64_t j, T v) {
            if (v == T(0))
                ++zeros_at[j];
            else
                nonzero[j] *= v;
        };
        if (include_self)
            for (int64_t j = 0; j < numel; ++j)
                take(j, xp[j]);
        std::vector<char> target(static_cast<size_t>(numel), 0);
        for (size_t k = 0; k < n; ++k) {
            take(m.at[k], sp[m.other[k]]);
            target[static_cast<size_t>(m.at[k])] = 1;
        }
        auto others = [&](int64_t j, T v) {
            if (v != T(0))
                return zeros_at[j] == 0 ? T(nonzero[j] / v) : T(0);
            return zeros_at[j] == 1 ? nonzero[j] : T(0);
        };
        for (int64_t j = 0; j < numel; ++j)
            if (target[j])
                ds[j] = gp[j] * others(j, xp[j]);
        if (dp)
            for (size_t k = 0; k < n; ++k)
                dp[m.other[k]] = gp[m.at[k]] * others(m.at[k], sp[m.other[k]]);
    }
    if (!include_self)
        for (size_t k = 0; k < n; ++k)
            ds[m.at[k]] = T(0);
    return {dself, dsrc};
}

/// The result of a scatter-like op: self's copy with src (or value) reduced in through m, and
/// its gradients for self and src (`src` undefined: the value forms). `differentiable` false:
/// PyTorch has no derivative (scatter with reduce): its backward raises as PyTorch's.
template <class T>
Tensor<T> scatter_like(const char* name, const Tensor<T>& self, const Tensor<T>& src, T value, IndexMap m,
                       IndexReduce kind, bool include_self, double alpha = 1, bool differentiable = true,
                       const char* op = "") {
    Tensor<T> out = self.detach().contiguous().clone(); // its history: this op's alone
    const Tensor<T> sc = src.defined() ? src.detach().contiguous() : Tensor<T>();
    scatter_into(out, m, sc.defined() ? sc.data_ptr() : nullptr, value, kind, include_self, alpha);
    if constexpr (FloatingElement<T>) {
        const bool want = self.requires_grad() || (src.defined() && src.requires_grad());
        if (!want)
            return out;
        const bool needs_values = kind == IndexReduce::Amax || kind == IndexReduce::Amin || kind == IndexReduce::Prod;
        const Tensor<T> self_saved = needs_values ? self.detach().contiguous().clone() : Tensor<T>();
        const Tensor<T> src_saved = src.defined() ? sc.detach() : Tensor<T>();
        const Tensor<T> result_saved = needs_values ? out.detach() : Tensor<T>();
        auto backward = [=, m = std::move(m), src_sizes = src.defined() ? src.sizes() : IntArray{},
                         has_src = src.defined(), sizes = self.sizes()](const TensorBase& grad) {
            if (!differentiable)
                fail<error>("the derivative for '", op, "' with reduce is not implemented (as in PyTorch 1.13)");
            auto r = scatter_gradients(Tensor<T>(grad.impl_ptr()), m, kind, include_self, alpha, self_saved, src_saved,
                                       result_saved, src_sizes, has_src);
            return r;
        };
        // amax, amin and prod read src and the result: checked against later in-place writes
        // (self's values are a private copy)
        if (needs_values && src.defined())
            record_function(name, out, {src_saved, result_saved}, std::move(backward), self, src);
        else if (src.defined())
            record_function(name, out, {}, std::move(backward), self, src);
        else
            record_function(name, out, {}, std::move(backward), self, Tensor<T>());
    }
    return out;
}

/// dim of an index op on `t` (a 0-d tensor takes 0 or -1).
inline int64_t index_dim(const TensorBase& t, int64_t dim, const char* op) {
    return wrap_dim(dim, t.dim(), op);
}

/// x, index and other (if given) on one device; a device needs the device evaluator.
template <class T>
void check_operands(const char* op, const Tensor<T>& x, const Tensor<int64_t>& index, const Tensor<T>& other = {}) {
    check_same_device(op, x.device(), {&index, &other});
    if (!x.is_cpu() && !TENET_DEVICE_EVALUATOR)
        no_device_evaluator(op, x.device());
}

/// The checks of index_add, index_copy and index_reduce (PyTorch's index_func_meta_impl): a
/// vector index, one per slice of source along dim, source's slices of self's shape. Returns the
/// pairs (other: source's elements).
template <class T>
IndexMap index_source_map(const char* op, const Tensor<T>& self, int64_t& dim, const Tensor<int64_t>& index,
                          const Tensor<T>& source) {
    check_operands(op, self, index, source);
    dim = index_dim(self, dim, op);
    check_vector_index(op, index);
    const IntArray s = nonempty_sizes(self.sizes()), src = nonempty_sizes(source.sizes());
    if (s.size() != src.size())
        fail<value_error>(op, ": when source and destination are not scalars, their dimensionality must match (source ",
                          source.sizes(), ", self ", self.sizes(), ")");
    if (index.numel() != src[static_cast<size_t>(dim)])
        fail<value_error>(op, ": number of indices (", index.numel(), ") should be equal to source.size(dim) (",
                          src[static_cast<size_t>(dim)], "), for dim ", dim);
    for (size_t d = 0; d < s.size(); ++d)
        if (static_cast<int64_t>(d) != dim && s[d] != src[d])
            fail<value_error>(op, ": source/destination slices must have the same shape (source ", source.sizes(),
                              ", self ", self.sizes(), ", dim ", dim, ")");
    return slice_map(op, self.sizes(), dim, index, src[static_cast<size_t>(dim)]);
}

template <class T>
IndexMap scatter_map(const char* op, const Tensor<T>& self, int64_t& dim, const Tensor<int64_t>& index,
                     const Tensor<T>& src) {
    check_operands(op, self, index, src);
    dim = index_dim(self, dim, op);
    const IntArray src_sizes = src.defined() ? src.sizes() : IntArray{};
    check_along_shapes(op, self.sizes(), dim, index.sizes(), src.defined() ? &src_sizes : nullptr);
    return along_map(op, self.sizes(), dim, index, src.defined() ? src_sizes : index.sizes());
}

} // namespace detail

// ---- Reading through an index -----------------------------------------------------------------

/// torch.index_select(x, dim, index): x's slices index[k] along dim (index 0-d or 1-D, each in
/// [0, size): PyTorch 1.13 refuses negatives here). Differentiable (IndexSelectBackward0).
template <class T>
Tensor<T> index_select(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index) {
    const char* op = "index_select";
    detail::refuse_named(x, "aten::index_select");
    detail::check_operands(op, x, index);
    dim = detail::index_dim(x, dim, op);
    detail::check_vector_index(op, index);
    if (x.dim() > 0 && x.size(dim) == 0 && index.numel() > 0)
        detail::fail<index_error>(op, ": index ", index.cpu().contiguous().data_ptr()[0],
                                  " is out of range for dimension ", dim, " of size 0");
    IntArray sizes = x.sizes();
    if (x.dim() == 0)
        sizes = index.sizes(); // a 0-d x: the index's shape
    else
        sizes[static_cast<size_t>(dim)] = index.numel();
    if (index.is_cpu() && !detail::records_gradient(x)) return detail::select_slices(x, dim, index, sizes, op);
    detail::IndexMap m = detail::slice_map(op, x.sizes(), dim, index, index.numel());
    Tensor<T> r = detail::gather_by_map(x, m, sizes);
    detail::record_gather_like("IndexSelectBackward0", x, r, std::move(m));
    return r;
}

/// torch.gather(x, dim, index): out[c] = x[c with c[dim] = index[c]]; index has x's rank and
/// index.size(d) <= x.size(d) for d != dim; the result has index's shape. Differentiable
/// (GatherBackward0: duplicates accumulate).
template <class T>
Tensor<T> gather(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index) {
    const char* op = "gather";
    detail::refuse_named(x, "aten::gather");
    detail::check_operands(op, x, index);
    dim = detail::index_dim(x, dim, op);
    detail::check_along_shapes(op, x.sizes(), dim, index.sizes(), nullptr);
#if TENET_DEVICE_EVALUATOR
    if (!index.is_cpu()) {
        // One thread per result element reading x through the index directly (no pairs); the
        // pairs only for a gradient.
        const int64_t size = detail::nonempty_sizes(x.sizes())[static_cast<size_t>(dim)];
        if (const auto v = detail::device_first_outside(index, 0, size))
            detail::fail_out_of_bounds(op, *v, dim, size);
        Tensor<T> r = empty<T>(index.sizes(), TensorOptions().device(x.device()));
        detail::device_gather_along(r.data_ptr(), x.data_ptr(), x.strides(), dim, index);
        if (detail::records_gradient(x))
            detail::record_gather_like("GatherBackward0", x, r,
                                       detail::along_map(op, x.sizes(), dim, index, index.sizes()));
        return r;
    }
#endif
    if (!detail::records_gradient(x)) return detail::gather_direct(x, dim, index, op);
    detail::IndexMap m = detail::along_map(op, x.sizes(), dim, index, index.sizes());
    Tensor<T> r = detail::gather_by_map(x, m, index.sizes());
    detail::record_gather_like("GatherBackward0", x, r, std::move(m));
    return r;
}

/// torch.take_along_dim(x, indices, dim): gather after broadcasting x and indices against each
/// other but along dim (same rank required); without dim, of the flattened x and indices.
template <class T>
Tensor<T> take_along_dim(const Tensor<T>& x, const Tensor<int64_t>& indices,
                         std::optional<int64_t> dim = std::nullopt) {
    const char* op = "take_along_dim";
    detail::check_operands(op, x, indices);
    if (!dim)
        return gather(x.reshape({-1}), 0, indices.reshape({-1}));
    const int64_t d = detail::index_dim(x, *dim, op);
    if (x.dim() != indices.dim())
        detail::fail<value_error>(op, ": input and indices should have the same number of dimensions, but got ",
                                  x.dim(), " dimensions for input, and ", indices.dim(), " dimensions for indices");
    IntArray xs = x.sizes(), is = indices.sizes();
    for (int64_t k = 0; k < x.dim(); ++k) {
        if (k == d)
            continue;
        int64_t& a = xs[static_cast<size_t>(k)];
        int64_t& b = is[static_cast<size_t>(k)];
        if (a != b && a != 1 && b != 1)
            detail::fail<value_error>(op, ": the size of input (", a, ") must match the size of indices (", b,
                                      ") at non-singleton dimension ", k, " (input ", x.sizes(), ", indices ",
                                      indices.sizes(), ")");
        a = b = std::max(a, b);
    }
    return gather(xs == x.sizes() ? x : x.expand(xs), d, is == indices.sizes() ? indices : indices.expand(is));
}

/// torch.take(x, index): x's flat elements index (any shape; negatives count from the end), in
/// index's shape. Differentiable (TakeBackward0).
template <class T>
Tensor<T> take(const Tensor<T>& x, const Tensor<int64_t>& index) {
    const char* op = "take";
    detail::check_operands(op, x, index);
    if (x.numel() == 0 && index.numel() > 0)
        detail::fail<index_error>(op, ": tried to take from an empty tensor");
    detail::IndexMap m = detail::flat_map(op, x.numel(), index);
    Tensor<T> r = detail::gather_by_map(x, m, index.sizes());
    detail::record_gather_like("TakeBackward0", x, r, std::move(m));
    return r;
}

// ---- Writing through an index: scatter ---------------------------------------------------------

/// torch.scatter(x, dim, index, src): x with x[c with c[dim] = index[c]] = src[c] for each c of
/// index (index has x's rank, index.size(d) <= src.size(d), and <= x.size(d) for d != dim).
/// Differentiable in x and src (ScatterBackward0).
template <class T>
Tensor<T> scatter(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src) {
    detail::IndexMap m = detail::scatter_map("scatter", x, dim, index, src);
    return detail::scatter_like("ScatterBackward0", x, src, T{}, std::move(m), detail::IndexReduce::Copy, true);
}
/// torch.scatter(x, dim, index, value): the value written at each indexed place (ScatterBackward1).
template <class T>
Tensor<T> scatter(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value) {
    detail::IndexMap m = detail::scatter_map("scatter", x, dim, index, Tensor<T>());
    return detail::scatter_like("ScatterBackward1", x, Tensor<T>(), convert<T>(value), std::move(m),
                                detail::IndexReduce::Copy, true);
}
/// torch.scatter(x, dim, index, src, reduce = "add" | "multiply"): src added to / multiplied
/// into the indexed places. No derivative, as in PyTorch 1.13 (backward raises).
template <class T>
Tensor<T> scatter(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src,
                  std::string_view reduce) {
    const auto kind = detail::scatter_legacy_kind(reduce, "scatter");
    detail::IndexMap m = detail::scatter_map("scatter", x, dim, index, src);
    return detail::scatter_like("ScatterBackward0", x, src, T{}, std::move(m), kind, true, 1, false, "scatter");
}
template <class T>
Tensor<T> scatter(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value,
                  std::string_view reduce) {
    const auto kind = detail::scatter_legacy_kind(reduce, "scatter");
    detail::IndexMap m = detail::scatter_map("scatter", x, dim, index, Tensor<T>());
    return detail::scatter_like("ScatterBackward1", x, Tensor<T>(), convert<T>(value), std::move(m), kind, true, 1,
                                false, "scatter");
}

/// torch.scatter_add(x, dim, index, src): src summed into the indexed places (duplicates
/// accumulate). Differentiable in x and src (ScatterAddBackward0).
template <class T>
Tensor<T> scatter_add(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src) {
    detail::IndexMap m = detail::scatter_map("scatter_add", x, dim, index, src);
    return detail::scatter_like("ScatterAddBackward0", x, src, T{}, std::move(m), detail::IndexReduce::Sum, true);
}

/// torch.scatter_reduce(x, dim, index, src, reduce, include_self = true): src reduced into the
/// indexed places by "sum", "prod", "mean", "amax" or "amin"; include_self false: x's values at
/// those places take no part. Integer means round down. Differentiable (ScatterReduceBackward0).
template <class T>
Tensor<T> scatter_reduce(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src,
                         std::string_view reduce, bool include_self = true) {
    const auto kind = detail::scatter_reduce_kind(reduce, "scatter_reduce");
    if (std::is_same_v<T, bool> && kind == detail::IndexReduce::Mean)
        detail::fail<dtype_error>(
            "scatter_reduce: reduce \"mean\" is not implemented for bool tensors (as in PyTorch)");
    detail::IndexMap m = detail::scatter_map("scatter_reduce", x, dim, index, src);
    return detail::scatter_like("ScatterReduceBackward0", x, src, T{}, std::move(m), kind, include_self);
}

// ---- Writing through an index: slices ----------------------------------------------------------

/// torch.index_add(x, dim, index, source, alpha = 1): x with alpha * source's slice k added to
/// slice index[k] along dim (duplicates accumulate). Differentiable (IndexAddBackward0).
template <class T>
Tensor<T> index_add(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source,
                    double alpha = 1) {
    detail::IndexMap m = detail::index_source_map("index_add", x, dim, index, source);
    return detail::scatter_like("IndexAddBackward0", x, source, T{}, std::move(m), detail::IndexReduce::Sum, true,
                                alpha);
}

/// torch.index_copy(x, dim, index, source): x with slice index[k] replaced by source's slice k.
/// Differentiable (IndexCopyBackward0).
template <class T>
Tensor<T> index_copy(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source) {
    detail::IndexMap m = detail::index_source_map("index_copy", x, dim, index, source);
    return detail::scatter_like("IndexCopyBackward0", x, source, T{}, std::move(m), detail::IndexReduce::Copy, true);
}

/// torch.index_fill(x, dim, index, value): x with the slices index along dim set to value
/// (negative indices count from the end, as PyTorch 1.13's index_fill). IndexFillBackward0.
template <class T>
Tensor<T> index_fill(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value) {
    const char* op = "index_fill";
    detail::check_operands(op, x, index);
    dim = detail::index_dim(x, dim, op);
    detail::check_vector_index(op, index);
    detail::IndexMap m = detail::slice_map(op, x.sizes(), dim, index, index.numel(), true);
    return detail::scatter_like("IndexFillBackward0", x, Tensor<T>(), convert<T>(value), std::move(m),
                                detail::IndexReduce::Copy, true);
}

/// torch.index_fill(x, dim, index, value) with a 0-d tensor value: differentiable in x and value
/// (IndexFillBackward1).
template <class T>
Tensor<T> index_fill(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& value) {
    const char* op = "index_fill";
    detail::check_operands(op, x, index, value);
    if (value.dim() != 0)
        detail::fail<value_error>(op, ": only a 0-dimensional value tensor is supported, but got a tensor of shape ",
                                  value.sizes());
    dim = detail::index_dim(x, dim, op);
    detail::check_vector_index(op, index);
    detail::IndexMap m = detail::slice_map(op, x.sizes(), dim, index, index.numel(), true);
    // Every place reads the one value, each once (PyTorch's value gradient sums over the unique
    // indices: a repeated index counts once).
#if TENET_DEVICE_EVALUATOR
    if (m.on_device())
        return detail::scatter_like("IndexFillBackward1", x, value, T{},
                                    detail::IndexMap{{}, {}, detail::device_unique_targets(m.device.at)},
                                    detail::IndexReduce::Copy, true);
#endif
    std::vector<char> seen(static_cast<size_t>(x.numel()), 0);
    detail::IndexMap once;
    for (int64_t a : m.at)
        if (!seen[static_cast<size_t>(a)]) {
            seen[static_cast<size_t>(a)] = 1;
            once.at.push_back(a);
            once.other.push_back(0);
        }
    m = std::move(once);
    return detail::scatter_like("IndexFillBackward1", x, value, T{}, std::move(m), detail::IndexReduce::Copy, true);
}

/// torch.index_reduce(x, dim, index, source, reduce, include_self = true): source's slices
/// reduced into x's slices index by "prod", "mean", "amax" or "amin". IndexReduceBackward0.
template <class T>
Tensor<T> index_reduce(const Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source,
                       std::string_view reduce, bool include_self = true) {
    const auto kind = detail::index_reduce_kind(reduce, "index_reduce");
    if (std::is_same_v<T, bool> && (kind == detail::IndexReduce::Mean || !include_self))
        detail::fail<dtype_error>("index_reduce: reduce \"", reduce, "\"",
                                  include_self ? "" : " with include_self false",
                                  " is not implemented for bool tensors (as in PyTorch)");
    detail::IndexMap m = detail::index_source_map("index_reduce", x, dim, index, source);
    return detail::scatter_like("IndexReduceBackward0", x, source, T{}, std::move(m), kind, include_self);
}

/// torch.put(x, index, source, accumulate = false): x with its flat elements index (negatives
/// from the end) set to (accumulate: added) source's, elementwise. PutBackward0.
template <class T>
Tensor<T> put(const Tensor<T>& x, const Tensor<int64_t>& index, const Tensor<T>& source, bool accumulate = false) {
    const char* op = "put";
    detail::check_operands(op, x, index, source);
    if (index.numel() != source.numel())
        detail::fail<value_error>(op,
                                  ": expected source and index to have the same number of elements, but got "
                                  "source.numel() = ",
                                  source.numel(), ", index.numel() = ", index.numel());
    if (x.numel() == 0 && index.numel() > 0)
        detail::fail<index_error>(op, ": tried to put into an empty tensor");
    detail::IndexMap m = detail::flat_map(op, x.numel(), index);
    return detail::scatter_like("PutBackward0", x, source.reshape({-1}), T{}, std::move(m),
                                accumulate ? detail::IndexReduce::Sum : detail::IndexReduce::Copy, true);
}

// ---- In place ----------------------------------------------------------------------------------
// Each computes the op's result and copies it into x (copy_ records it for autograd: PyTorch
// refuses these on a leaf that requires grad, and so does copy_).

template <class T>
Tensor<T>& scatter_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src) {
    return x.copy_(scatter(x, dim, index, src));
}
template <class T>
Tensor<T>& scatter_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value) {
    return x.copy_(scatter(x, dim, index, value));
}
template <class T>
Tensor<T>& scatter_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src,
                    std::string_view reduce) {
    return x.copy_(scatter(x, dim, index, src, reduce));
}
template <class T>
Tensor<T>& scatter_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value, std::string_view reduce) {
    return x.copy_(scatter(x, dim, index, value, reduce));
}
template <class T>
Tensor<T>& scatter_add_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src) {
    return x.copy_(scatter_add(x, dim, index, src));
}
template <class T>
Tensor<T>& scatter_reduce_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& src,
                           std::string_view reduce, bool include_self = true) {
    return x.copy_(scatter_reduce(x, dim, index, src, reduce, include_self));
}
template <class T>
Tensor<T>& index_add_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source,
                      double alpha = 1) {
    return x.copy_(index_add(x, dim, index, source, alpha));
}
template <class T>
Tensor<T>& index_copy_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source) {
    return x.copy_(index_copy(x, dim, index, source));
}
template <class T>
Tensor<T>& index_fill_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, double value) {
    return x.copy_(index_fill(x, dim, index, value));
}
template <class T>
Tensor<T>& index_fill_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& value) {
    return x.copy_(index_fill(x, dim, index, value));
}
template <class T>
Tensor<T>& index_reduce_(Tensor<T>& x, int64_t dim, const Tensor<int64_t>& index, const Tensor<T>& source,
                         std::string_view reduce, bool include_self = true) {
    return x.copy_(index_reduce(x, dim, index, source, reduce, include_self));
}
template <class T>
Tensor<T>& put_(Tensor<T>& x, const Tensor<int64_t>& index, const Tensor<T>& source, bool accumulate = false) {
    return x.copy_(put(x, index, source, accumulate));
}

} // namespace tenet::inline TENET_ABI
