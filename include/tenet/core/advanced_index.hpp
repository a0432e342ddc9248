#pragma once
// PyTorch's advanced indexing: `x.index({...})` and `x.index_put_({...}, v)` with index tensors
// (int64 or int32 positions, bool masks) among the basic entries, on the host or a device.
//
// As PyTorch's: the basic entries apply first (an integer selects, so its dim is gone before the
// tensors index); a k-D mask stands for the k position tensors of its nonzero(); all position
// tensors broadcast together to a shape B. The result holds B where the indexed dims were when
// those dims are adjacent, else B first and the other dims after. It is a copy; its gradient is
// a scatter-add (IndexBackward0), so duplicate positions accumulate. A value assigned to the
// copy itself (`x.index({mask}) = v`) is written into x, as index_put_ (storage.hpp's WriteBack).
//
// On a device x.index({mask}) with a mask of x's shape and no gradient is one stream compaction
// of x's values. Otherwise the positions stay there (a mask's come from a stream compaction),
// are checked with one reduction, and the copy, the write and the gradient go through the
// result's source offsets (backend/device/device_index.hpp). Index tensors on the host index a device tensor too
// (moved to it, as PyTorch does); device index tensors cannot index a host tensor.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <sstream>
#include <utility>
#include <optional>
#include <vector>

#include "tenet/backend/device/device_index.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::detail {

/// An index list resolved against a tensor: the view its basic entries leave, the view's dims
/// indexed by tensors, and for each of them the positions (wrapped to >= 0, one per element of
/// the broadcast shape B, row-major).
struct ResolvedIndex {
    std::vector<int64_t> dims;
    std::vector<std::vector<int64_t>> positions;
    IntArray broadcast;     // B
    IntArray before, after; // the view's dims before and after B in the result
    IntArray result_sizes;
    /// On a device, instead of `positions`: B-shaped contiguous int64 device tensors, checked
    /// but not wrapped (the kernel wraps them).
    std::vector<Tensor<int64_t>> device_positions;
};

/// The offsets (row-major over `dims` of a tensor with `sizes` and `strides`) of the elements
/// of those dims.
inline std::vector<int64_t> dim_offsets(const IntArray& dims, const IntArray& sizes, const IntArray& strides) {
    std::vector<int64_t> out{0};
    for (int64_t d : dims) {
        std::vector<int64_t> next;
        next.reserve(out.size() * static_cast<size_t>(sizes[d]));
        for (int64_t o : out)
            for (int64_t i = 0; i < sizes[d]; ++i)
                next.push_back(o + i * strides[d]);
        out = std::move(next);
    }
    return out;
}

/// Calls f(r, offset) for each element r of the result (row-major) with the offset of its
/// source element in a tensor of the view's sizes with `strides` (from `base`).
template <class F>
void for_each_indexed(const ResolvedIndex& a, const IntArray& view_sizes, const IntArray& strides, int64_t base,
                      F&& f) {
    const std::vector<int64_t> pre = dim_offsets(a.before, view_sizes, strides);
    const std::vector<int64_t> post = dim_offsets(a.after, view_sizes, strides);
    const int64_t nb = product(a.broadcast);
    std::vector<int64_t> adv(static_cast<size_t>(nb), 0);
    for (size_t k = 0; k < a.dims.size(); ++k)
        for (int64_t b = 0; b < nb; ++b)
            adv[static_cast<size_t>(b)] += a.positions[k][static_cast<size_t>(b)] * strides[a.dims[k]];
    int64_t r = 0;
    for (int64_t p : pre)
        for (int64_t b : adv)
            for (int64_t s : post)
                f(r++, base + p + b + s);
}

/// The int64 positions an index tensor holds (int64 or int32), row-major.
/// (A device tensor's are copied: how a 0-d index tensor's one value is read.)
inline std::vector<int64_t> index_positions(const TensorBase& t) {
    if (t.dtype() == dtype_of<int64_t>) {
        const Tensor<int64_t> c = Tensor<int64_t>(t.impl_ptr()).cpu().contiguous();
        return std::vector<int64_t>(c.data_ptr(), c.data_ptr() + c.numel());
    }
    const Tensor<int32_t> c = Tensor<int32_t>(t.impl_ptr()).cpu().contiguous();
    return std::vector<int64_t>(c.data_ptr(), c.data_ptr() + c.numel());
}

/// Resolves `indices` against x: the view of its basic entries (recorded for autograd) and the
/// index tensors' positions. index_error for a mask of the wrong shape or a position out of range.
/// The list with each 0-d integer index tensor as the integer it holds: PyTorch selects with it
/// (a view, SelectBackward0), as with a Python int.
inline std::vector<TensorIndex> integers_for_scalar_indices(std::span<const TensorIndex> indices) {
    std::vector<TensorIndex> out;
    for (const TensorIndex& ix : indices) {
        if (ix.kind() == TensorIndex::Kind::Indices && ix.tensor().dim() == 0 && ix.tensor().dtype() != dtype_of<bool>)
            out.emplace_back(index_positions(ix.tensor()).front());
        else
            out.push_back(ix);
    }
    return out;
}

template <class T>
std::pair<Tensor<T>, ResolvedIndex> resolve_index(const Tensor<T>& x, std::span<const TensorIndex> indices) {
    using Kind = TensorIndex::Kind;
    // The basic entries, with a full slice for each dim an index tensor consumes, and where
    // (in the view) each index tensor applies.
    std::vector<TensorIndex> basic;
    struct Pending {
        int64_t dim;
        const TensorBase* tensor;
    };
    std::vector<Pending> pending;
    int64_t consumed = 0;
    for (const TensorIndex& ix : indices) {
        if (ix.kind() == Kind::Indices)
            consumed += ix.tensor().dtype() == dtype_of<bool> ? ix.tensor().dim() : 1;
        else
            consumed += ix.consumes_dim();
    }
    if (consumed > x.dim())
        fail<index_error>("index: too many indices for tensor of dimension ", x.dim(), " (got ", consumed, ")");
    int64_t view_dim = 0;
    for (const TensorIndex& ix : indices) {
        switch (ix.kind()) {
        case Kind::Integer:
            basic.push_back(ix);
            break;
        case Kind::Slice:
        case Kind::None:
        case Kind::Boolean:
            basic.push_back(ix);
            ++view_dim;
            break;
        case Kind::Ellipsis:
            basic.push_back(ix);
            view_dim += x.dim() - consumed;
            break;
        case Kind::Indices: {
            const TensorBase& t = ix.tensor();
            const bool mask = t.dtype() == dtype_of<bool>;
            if (mask && t.dim() == 0) { // a 0-d mask: a new dim of size 1 or 0, as the bool `true`/`false`
                basic.emplace_back(Tensor<bool>(t.impl_ptr()).cpu().item());
                ++view_dim;
                break;
            }
            pending.push_back({view_dim, &t});
            const int64_t k = mask ? t.dim() : 1;
            for (int64_t i = 0; i < k; ++i)
                basic.emplace_back(Slice());
            view_dim += k;
            break;
        }
        }
    }
    Tensor<T> view(index(x.impl(), basic));
    record_view(x, view, "SliceBackward0");

    ResolvedIndex a;
    std::vector<IntArray> shapes;
    const bool on_device = !x.is_cpu();
    std::vector<Tensor<int64_t>> device_lists; // on a device: the position lists, as `positions`
    for (const Pending& p : pending) {
        const TensorBase& t = *p.tensor;
        if (t.is_cpu() == x.is_cpu())
            check_same_device("index", x.device(), {&t});
        else if (!t.is_cpu())
            fail<device_error>("index: indices should be either on cpu or on the same device as the indexed tensor (",
                               x.device(), "), got ", t.device());
        if (t.dtype() == dtype_of<bool>) {
            const IntArray& vs = view.sizes();
            for (int64_t i = 0; i < t.dim(); ++i)
                if (t.size(i) != vs[p.dim + i])
                    fail<index_error>("index: the shape of the mask ", t.sizes(), " at index ", i,
                                      " does not match the shape of the indexed tensor ", vs, " at index ", p.dim + i);
            if (on_device) {
#if TENET_DEVICE_EVALUATOR
                // The mask's nonzero(): a compaction, then one column per dim it covers.
                const Tensor<bool> m = Tensor<bool>(t.impl_ptr()).to(x.device());
                const Tensor<int64_t> nz = device_unravel(
                    device_nonzero_positions(m.data_ptr(), m.sizes(), m.strides(), m.device()), m.sizes());
                for (int64_t i = 0; i < t.dim(); ++i) {
                    a.dims.push_back(p.dim + i);
                    shapes.push_back({nz.size(0)});
                    device_lists.push_back(nz.select(1, i));
                }
#endif
                continue;
            }
            // The mask's nonzero(): one position list per dim it covers.
            const Tensor<bool> m = Tensor<bool>(t.impl_ptr()).contiguous();
            const bool* mp = m.data_ptr();
            const int64_t count = std::count(mp, mp + m.numel(), true);
            std::vector<std::vector<int64_t>> pos(static_cast<size_t>(t.dim()));
            for (auto& v : pos)
                v.reserve(static_cast<size_t>(count));
            if (t.dim() == 1) { // the common case: no division
                for (int64_t flat = 0; flat < m.numel(); ++flat)
                    if (mp[flat])
                        pos[0].push_back(flat);
            } else {
                for (int64_t flat = 0; flat < m.numel(); ++flat) {
                    if (!mp[flat])
                        continue;
                    int64_t rest = flat;
                    for (int64_t i = t.dim() - 1; i >= 0; --i) {
                        pos[static_cast<size_t>(i)].push_back(rest % t.size(i));
                        rest /= t.size(i);
                    }
                }
            }
            for (int64_t i = 0; i < t.dim(); ++i) {
                a.dims.push_back(p.dim + i);
                shapes.push_back({static_cast<int64_t>(pos[static_cast<size_t>(i)].size())});
                a.positions.push_back(std::move(pos[static_cast<size_t>(i)]));
            }
        } else {
            a.dims.push_back(p.dim);
            shapes.push_back(t.sizes());
            if (on_device) {
                device_lists.push_back(t.dtype() == dtype_of<int64_t>
                                           ? Tensor<int64_t>(t.impl_ptr()).to(x.device())
                                           : Tensor<int32_t>(t.impl_ptr()).to(x.device()).template to<int64_t>());
                continue;
            }
            a.positions.push_back(index_positions(t));
        }
    }
    // Broadcast the position lists to one shape B; check and wrap them.
    if (!shapes.empty())
        a.broadcast = shapes.front();
    for (const IntArray& s : shapes) {
        try {
            a.broadcast = broadcast_shapes(a.broadcast, s, "index");
        } catch (const shape_error&) {
            std::ostringstream all;
            for (const IntArray& t : shapes)
                all << " " << t;
            fail<index_error>("index: shape mismatch: indexing tensors could not be broadcast together with shapes",
                              all.str());
        }
    }
    IntArray all_dims;
    for (int64_t d = 0; d < static_cast<int64_t>(a.broadcast.size()); ++d)
        all_dims.push_back(d);
    for (size_t k = 0; k < a.dims.size() && on_device; ++k) {
#if TENET_DEVICE_EVALUATOR
        const int64_t size = view.size(a.dims[k]);
        if (const auto i = device_first_outside(device_lists[k], -size, size))
            fail<index_error>("index ", *i, " is out of bounds for dimension ", a.dims[k], " with size ", size);
        a.device_positions.push_back(device_lists[k].expand(a.broadcast).contiguous());
#endif
    }
    for (size_t k = 0; k < a.dims.size() && !on_device; ++k) {
        std::vector<int64_t> full;
        if (shapes[k] == a.broadcast) { // already B's shape: no broadcast copy
            full = std::move(a.positions[k]);
        } else {
            const IntArray strides =
                expand_geometry(shapes[k], contiguous_strides(shapes[k]), a.broadcast, "index").second;
            for (int64_t o : dim_offsets(all_dims, a.broadcast, strides))
                full.push_back(a.positions[k][static_cast<size_t>(o)]);
        }
        const int64_t size = view.size(a.dims[k]);
        for (int64_t& i : full) {
            if (i < -size || i >= size)
                fail<index_error>("index ", i, " is out of bounds for dimension ", a.dims[k], " with size ", size);
            if (i < 0)
                i += size;
        }
        a.positions[k] = std::move(full);
    }
    // Where B goes: in place of the indexed dims when they are adjacent, else first.
    bool adjacent = true;
    for (size_t k = 1; k < a.dims.size(); ++k)
        adjacent = adjacent && a.dims[k] == a.dims[k - 1] + 1;
    for (int64_t d = 0; d < view.dim(); ++d) {
        if (std::find(a.dims.begin(), a.dims.end(), d) != a.dims.end())
            continue;
        (adjacent && !a.dims.empty() && d < a.dims.front() ? a.before : a.after).push_back(d);
    }
    for (int64_t d : a.before)
        a.result_sizes.push_back(view.size(d));
    for (int64_t s : a.broadcast)
        a.result_sizes.push_back(s);
    for (int64_t d : a.after)
        a.result_sizes.push_back(view.size(d));
    return {view, std::move(a)};
}

/// Sends a value assigned to an advanced index's result into the indexed tensor.
template <class T>
struct WriteBackTo final : WriteBack {
    Tensor<T> target;
    std::vector<TensorIndex> indices;
    void put(const TensorBase& value) const override {
        advanced_index_put(target, std::span<const TensorIndex>(indices), Tensor<T>(value.impl_ptr()), false);
    }
};

#if TENET_DEVICE_EVALUATOR
/// On a device: the pairs (source offset, result element) of an advanced index over a tensor of
/// the view's sizes laid out with `strides` from `base`. (A template, R = ResolvedIndex, so that
/// only the translation units that index on a device compile its kernels.)
template <class R>
DevicePairs device_index_pairs(const R& a, const IntArray& view_sizes, const IntArray& strides, int64_t base,
                               Device device) {
    IntArray dim_sizes, dim_strides, bs, bst, as, ast;
    for (int64_t d : a.dims) {
        dim_sizes.push_back(view_sizes[d]);
        dim_strides.push_back(strides[d]);
    }
    for (int64_t d : a.before) {
        bs.push_back(view_sizes[d]);
        bst.push_back(strides[d]);
    }
    for (int64_t d : a.after) {
        as.push_back(view_sizes[d]);
        ast.push_back(strides[d]);
    }
    return {device_advanced_offsets(a.device_positions, dim_sizes, dim_strides, product(a.broadcast), bs, bst, as, ast,
                                    base, device),
            Tensor<int64_t>()};
}
#endif

/// Refuses a device tensor where this translation unit cannot compute on it.
inline void check_index_device(const TensorBase& x, const char* op) {
    if (!x.is_cpu() && !TENET_DEVICE_EVALUATOR)
        no_device_evaluator(op, x.device());
}

/// The mask of x.index({mask}) when it is the one index, has x's shape, and no gradient is
/// recorded: the result is then a compaction of x's values, without positions or offsets.
template <class T>
std::optional<Tensor<bool>> whole_shape_mask(const Tensor<T>& x, const std::vector<TensorIndex>& indices) {
    if (indices.size() != 1 || indices[0].kind() != TensorIndex::Kind::Indices) return std::nullopt;
    const TensorBase& t = indices[0].tensor();
    if (t.dtype() != dtype_of<bool> || x.dim() == 0 || t.sizes() != x.sizes()) return std::nullopt;
    if (!(t.is_cpu() || t.device() == x.device())) return std::nullopt;
    if (x.requires_grad() && autograd::GradMode::is_enabled()) return std::nullopt;
    return Tensor<bool>(t.impl_ptr()).to(x.device());
}

/// x's values where mask holds, in row-major order, on the host: a count, then one branch-free
/// pass (each value is stored, and the position moves on where the mask holds; so the buffer
/// has one spare element, and the result is a view of its first `count`).
template <class T>
Tensor<T> host_masked_values(const Tensor<T>& x, const Tensor<bool>& mask) {
    const Tensor<T> xc = x.contiguous();
    const Tensor<bool> mc = mask.contiguous();
    const T* xp = xc.data_ptr();
    const bool* mp = mc.data_ptr();
    const int64_t n = xc.numel();
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += mp[i];
    Tensor<T> buffer(make_contiguous_impl({count + 1}, dtype_of<T>, Device(DeviceType::CPU)));
    T* out = buffer.data_ptr();
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
        out[k] = xp[i];
        k += mp[i];
    }
    return buffer.narrow(0, 0, count);
}

template <class T>
Tensor<T> advanced_index(const Tensor<T>& x, std::span<const TensorIndex> list) {
    check_index_device(x, "index");
    const std::vector<TensorIndex> indices = integers_for_scalar_indices(list);
    if (!has_index_tensors(indices)) { // only 0-d integer tensors: basic indexing, a view
        Tensor<T> view(index(x.impl(), indices));
        record_view(x, view, "SelectBackward0");
        return view;
    }
    // A value assigned to the result itself goes into x (index_put_ through the same list).
    const auto write_back = [&](Tensor<T>& result) {
        auto back = std::make_shared<WriteBackTo<T>>();
        back->result = result.impl_ptr().get();
        back->target = x;
        back->indices.assign(indices.begin(), indices.end());
        result.impl().storage->write_back = std::move(back);
    };
    // x.index({mask}), the mask of x's shape, no gradient: one compaction of x's values.
    if (const std::optional<Tensor<bool>> m = whole_shape_mask(x, indices)) {
        Tensor<T> result;
        if (x.is_cpu()) result = host_masked_values(x, *m);
#if TENET_DEVICE_EVALUATOR
        else
            result = device_masked_values(x.data_ptr(), x.strides(), m->data_ptr(), m->strides(), x.sizes(), x.device());
#endif
        write_back(result);
        return result;
    }
    auto [view, a] = resolve_index(x, std::span<const TensorIndex>(indices));
    Tensor<T> result(make_contiguous_impl(a.result_sizes, dtype_of<T>, x.device()));
    const T* from = static_cast<const T*>(view.impl().storage->data());
    T* to = result.data_ptr();
    if (x.is_cpu())
        for_each_indexed(a, view.sizes(), view.strides(), view.storage_offset(),
                         [&](int64_t r, int64_t src) { to[r] = from[src]; });
#if TENET_DEVICE_EVALUATOR
    else
        device_gather_pairs(to, from,
                            device_index_pairs(a, view.sizes(), view.strides(), view.storage_offset(), x.device()),
                            x.device());
#endif
    auto plan = std::make_shared<const ResolvedIndex>(std::move(a));
    record_function(
        "IndexBackward0", result, {},
        [plan, sizes = view.sizes()](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx(make_contiguous_impl(sizes, dtype_of<T>, g.device()));
            dx.fill_(0);
#if TENET_DEVICE_EVALUATOR
            if (!g.is_cpu()) {
                device_reduce_pairs(dx.data_ptr(),
                                    device_index_pairs(*plan, sizes, contiguous_strides(sizes), 0, g.device()),
                                    g.data_ptr(), T{}, IndexReduce::Sum, true, 1, g.device());
                return std::array<TensorBase, 1>{dx};
            }
#endif
            T* d = dx.data_ptr();
            const T* gp = g.data_ptr();
            for_each_indexed(*plan, sizes, contiguous_strides(sizes), 0, [&](int64_t r, int64_t pos) {
                d[pos] = convert<T>(convert<double>(d[pos]) + convert<double>(gp[r]));
            });
            return std::array<TensorBase, 1>{dx};
        },
        view);
    write_back(result);
    return result;
}

/// index_put_ into a contiguous 1-D host x through one 1-D int64 index tensor, with values of
/// the index's length or one value: written straight through the positions (no plan). False
/// (nothing done) for anything else. Sums of float, double and integers are the native ones
/// (the general path's sum through double rounds the same for float and double).
template <class T>
bool put_along_vector(const Tensor<T>& x, const std::vector<TensorIndex>& indices, const Tensor<T>& values,
                      bool accumulate) {
    if (x.dim() != 1 || !x.is_contiguous() || indices.size() != 1 ||
        indices[0].kind() != TensorIndex::Kind::Indices)
        return false;
    const TensorBase& t = indices[0].tensor();
    if (t.dtype() != dtype_of<int64_t> || t.dim() != 1 || !t.is_cpu() || values.dim() > 1 ||
        (values.numel() != t.numel() && values.numel() != 1))
        return false;
    const Tensor<int64_t> at = Tensor<int64_t>(t.impl_ptr()).contiguous();
    const int64_t n = at.numel(), size = x.size(0);
    const int64_t* ap = at.data_ptr();
    for (int64_t k = 0; k < n; ++k)
        if (ap[k] < -size || ap[k] >= size)
            fail<index_error>("index ", ap[k], " is out of bounds for dimension 0 with size ", size);
    const Tensor<T> v = values.contiguous();
    const T* vp = v.data_ptr();
    const int64_t step = v.numel() == 1 ? 0 : 1;  // one value for every position
    T* data = x.data_ptr();
    for (int64_t k = 0; k < n; ++k) {
        const int64_t i = ap[k] < 0 ? ap[k] + size : ap[k];
        if (!accumulate) data[i] = vp[k * step];
        else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                           (std::is_integral_v<T> && !std::is_same_v<T, bool>))
            data[i] += vp[k * step];
        else data[i] = convert<T>(convert<double>(data[i]) + convert<double>(vp[k * step]));
    }
    x.impl().storage->bump_version();
    return true;
}

template <class T>
void advanced_index_put(const Tensor<T>& x, std::span<const TensorIndex> indices, const Tensor<T>& values,
                        bool accumulate) {
    refuse_named(x, "aten::index_put_");
    check_index_device(x, "index_put_");
    check_same_device("index_put_", x.device(), {&values});
    if (autograd::GradMode::is_enabled() && (x.requires_grad() || values.requires_grad()))
        fail<value_error>("index_put_ with index tensors: gradients through it are not supported yet; write under "
                          "NoGradGuard, or build the result out of place (where, index_add, scatter)");
    const std::vector<TensorIndex> list = integers_for_scalar_indices(indices);
    if (x.is_cpu() && put_along_vector(x, list, values, accumulate)) return;
    auto [view, a] = resolve_index(x, std::span<const TensorIndex>(list));
    try {
        broadcast_shapes(values.sizes(), a.result_sizes, "index_put_");
    } catch (const shape_error&) {
        fail<value_error>("index_put_: shape mismatch: value tensor of shape ", values.sizes(),
                          " cannot be broadcast to indexing result of shape ", a.result_sizes);
    }
    const Tensor<T> v = values.expand(a.result_sizes).contiguous();
    T* data = static_cast<T*>(view.impl().storage->data());
    const T* vp = v.data_ptr();
#if TENET_DEVICE_EVALUATOR
    if (!x.is_cpu()) {
        device_reduce_pairs(data,
                            device_index_pairs(a, view.sizes(), view.strides(), view.storage_offset(), x.device()), vp,
                            T{}, accumulate ? IndexReduce::Sum : IndexReduce::Copy, true, 1, x.device());
        x.impl().storage->bump_version();
        return;
    }
#endif
    for_each_indexed(a, view.sizes(), view.strides(), view.storage_offset(), [&](int64_t r, int64_t dst) {
        data[dst] = accumulate ? convert<T>(convert<double>(data[dst]) + convert<double>(vp[r])) : vp[r];
    });
    x.impl().storage->bump_version();
}

} // namespace tenet::inline TENET_ABI::detail
