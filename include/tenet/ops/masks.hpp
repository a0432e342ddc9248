#pragma once
// Masks and conditions as PyTorch 1.13's: masked_fill, masked_select, masked_scatter,
// nonzero, argwhere, the one-argument where, count_nonzero.
//
// masked_fill is the lazy where(mask, value, x) evaluated at once: it runs wherever x lives
// and its gradient (for x and a 0-d value tensor) comes from where's, so its grad_fn is
// where's (WhereBackward0 in PyTorch's naming), not MaskedFillBackward0. masked_select and
// masked_scatter record MaskedSelectBackward0 / MaskedScatterBackward0; they and nonzero loop on
// the host, and on a device compact the mask's positions (copy_if) and go through them
// (backend/device/device_index.hpp); masked_select's forward compacts x's values themselves
// (the positions only for a gradient).
// The in-place forms compute out of place and copy_ the result in (grad_fn CopyBackwards).

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tenet/backend/device/device_index.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// The value of masked_fill as a 0-d tensor of T; PyTorch refuses a value with dims.
template <class T, class V>
Tensor<T> masked_fill_value(const Tensor<V>& value, const char* op) {
    if (value.dim() != 0)
        fail<value_error>(op, ": only supports a 0-dimensional value tensor, but got tensor with ", value.dim(),
                          " dimension(s)");
    return value.template to<T>();
}

/// Calls f(k, offset_in_a, offset_in_b) in row-major order over the broadcast shape of a and b
/// for every element where mask (broadcast too) holds; offsets are into each tensor's storage.
template <class F>
void for_each_masked(const IntArray& shape, const TensorBase& mask, const TensorBase& a, F&& f) {
    const auto ms = expand_geometry(mask.sizes(), mask.strides(), shape, "mask").second;
    const auto as = expand_geometry(a.sizes(), a.strides(), shape, "mask").second;
    const bool* mp = static_cast<const bool*>(mask.impl().storage->data());
    int64_t k = 0;
    for_each_offset<2>(shape, {ms, as}, {mask.storage_offset(), a.storage_offset()},
                       [&](const std::array<int64_t, 2>& o) {
                           if (mp[o[0]])
                               f(k++, o[1]);
                       });
}

/// x and mask on one device; a device needs the device evaluator.
inline void check_mask_operands(const char* op, const TensorBase& x, const TensorBase& mask,
                                const TensorBase* other = nullptr) {
    check_same_device(op, x.device(), {&mask, other});
    if (!x.is_cpu() && !TENET_DEVICE_EVALUATOR)
        no_device_evaluator(op, x.device());
}

/// g (of the broadcast `shape`) summed back to `sizes` (a masked op's input broadcast with its mask).
template <class T>
Tensor<T> sum_to_size(const Tensor<T>& g, const IntArray& shape, const IntArray& sizes) {
    IntArray summed;
    const int64_t lead = static_cast<int64_t>(shape.size() - sizes.size());
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
        if (d < lead || (sizes[static_cast<size_t>(d - lead)] == 1 && shape[static_cast<size_t>(d)] != 1))
            summed.push_back(d);
    const Tensor<T> dx = summed.empty() ? g : Tensor<T>(tenet::sum(g, summed, true));
    return dx.reshape(sizes);
}

#if TENET_DEVICE_EVALUATOR
/// The flat positions (row-major over `shape`) where the device mask, broadcast to shape, holds.
inline Tensor<int64_t> device_mask_positions(const IntArray& shape, const TensorBase& mask) {
    const IntArray ms = expand_geometry(mask.sizes(), mask.strides(), shape, "mask").second;
    return device_nonzero_positions(static_cast<const bool*>(first_byte(mask)), shape, ms, mask.device());
}
#endif

} // namespace detail

/// torch.masked_fill: x with `value` where mask holds; x and mask broadcast together.
template <class T, Scalar S>
Tensor<T> masked_fill(const Tensor<T>& x, const Tensor<bool>& mask, S value) {
    detail::broadcast_shapes(x.sizes(), mask.sizes(), "masked_fill");
    return Tensor<T>(detail::composed_where(mask, full<T>({}, convert<T>(value), TensorOptions().device(x.device())), x));
}
/// value: a 0-d tensor (converted to T); its gradient is the sum of the result's where mask holds.
template <class T, class V>
Tensor<T> masked_fill(const Tensor<T>& x, const Tensor<bool>& mask, const Tensor<V>& value) {
    detail::broadcast_shapes(x.sizes(), mask.sizes(), "masked_fill");
    return Tensor<T>(detail::composed_where(mask, detail::masked_fill_value<T>(value, "masked_fill"), x));
}

/// Tensor.masked_fill_: mask must broadcast to x's own shape.
template <class T, class V>
Tensor<T>& masked_fill_(Tensor<T>& x, const Tensor<bool>& mask, const V& value) {
    if (detail::broadcast_shapes(x.sizes(), mask.sizes(), "masked_fill_") != x.sizes())
        detail::fail<shape_error>("masked_fill_: output with shape ", x.sizes(),
                                  " doesn't match the broadcast shape of the mask ", mask.sizes());
    // where() saves its inputs: a clone, so that the write into x leaves them as they were.
    return x.copy_(masked_fill(x.clone(), mask, value));
}

/// torch.masked_select: the elements of x where mask holds (both broadcast), as a 1-D copy.
template <class T>
Tensor<T> masked_select(const Tensor<T>& x, const Tensor<bool>& mask) {
    const char* op = "masked_select";
    detail::check_mask_operands(op, x, mask);
    const IntArray shape = detail::broadcast_shapes(x.sizes(), mask.sizes(), op);
#if TENET_DEVICE_EVALUATOR
    if (!x.is_cpu()) {
        // One stream compaction straight from x's values (both broadcast); the selected places
        // only for a gradient.
        const IntArray xs = detail::expand_geometry(x.sizes(), x.strides(), shape, op).second;
        const IntArray ms = detail::expand_geometry(mask.sizes(), mask.strides(), shape, op).second;
        Tensor<T> out = detail::device_masked_values(static_cast<const T*>(detail::first_byte(x)), xs,
                                                     static_cast<const bool*>(detail::first_byte(mask)), ms, shape,
                                                     x.device());
        if constexpr (FloatingElement<T>) {
            if (!x.requires_grad() || !autograd::GradMode::is_enabled())
                return out;
            const Tensor<int64_t> flat = detail::device_mask_positions(shape, mask);
            detail::record_function(
                "MaskedSelectBackward0", out, {},
                [flat, shape, sizes = x.sizes()](const TensorBase& grad) {
                    // Back to x's places, summed where x was broadcast (stride 0: repeated targets).
                    const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                    Tensor<T> dx = zeros<T>(sizes, TensorOptions().device(g.device()));
                    const IntArray ds =
                        detail::expand_geometry(sizes, detail::contiguous_strides(sizes), shape, "mask").second;
                    const detail::DevicePairs write{detail::device_offsets_of(flat, shape, ds), Tensor<int64_t>()};
                    detail::device_reduce_pairs(dx.data_ptr(), write, g.data_ptr(), T{}, detail::IndexReduce::Sum, true,
                                                1, g.device());
                    return std::array<TensorBase, 1>{dx};
                },
                x);
        }
        return out;
    }
#endif
    std::vector<T> picked;
    const T* xp = static_cast<const T*>(x.impl().storage->data());
    detail::for_each_masked(shape, mask, x, [&](int64_t, int64_t o) { picked.push_back(xp[o]); });
    Tensor<T> out = empty<T>({static_cast<int64_t>(picked.size())});
    std::copy(picked.begin(), picked.end(), out.data_ptr());
    const Tensor<bool> m = mask.detach();
    detail::record_function(
        "MaskedSelectBackward0", out, {m},
        [m, shape, sizes = x.sizes()](const TensorBase& grad) {
            // Each selected element's gradient goes back to its place in x (summed where x
            // was broadcast).
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx = zeros<T>(sizes);
            detail::for_each_masked(shape, m, dx, [&](int64_t k, int64_t o) {
                dx.data_ptr()[o] = convert<T>(convert<double>(dx.data_ptr()[o]) + convert<double>(g.data_ptr()[k]));
            });
            return std::array<TensorBase, 1>{dx};
        },
        x);
    return out;
}

/// torch.masked_scatter: x (broadcast with mask) with the positions where mask holds filled,
/// in row-major order, by source's elements in row-major order.
template <class T>
Tensor<T> masked_scatter(const Tensor<T>& x, const Tensor<bool>& mask, const Tensor<T>& source) {
    const char* op = "masked_scatter";
    detail::check_mask_operands(op, x, mask, &source);
    const IntArray shape = detail::broadcast_shapes(x.sizes(), mask.sizes(), op);
    Tensor<T> out = empty<T>(shape, TensorOptions().device(x.device()));
    {
        NoGradGuard no_grad; // the node below is out's only history
        out.copy_(x.detach());
    }
    const Tensor<T> src = source.contiguous();
    int64_t count = 0;
#if TENET_DEVICE_EVALUATOR
    // On a device: the set places (flat in out, which is contiguous), source's k-th to the k-th.
    const Tensor<int64_t> flat = x.is_cpu() ? Tensor<int64_t>() : detail::device_mask_positions(shape, mask);
    if (!x.is_cpu())
        count = flat.numel();
#endif
    if (x.is_cpu())
        detail::for_each_masked(shape, mask, out, [&](int64_t, int64_t) { ++count; });
    if (count > src.numel())
        detail::fail<value_error>(op, ": expected source to have at least as many elements as the ones in mask (",
                                  count, "), but got ", src.numel());
#if TENET_DEVICE_EVALUATOR
    if (!x.is_cpu()) {
        detail::device_reduce_pairs(out.data_ptr(), detail::DevicePairs{flat, Tensor<int64_t>()}, src.data_ptr(), T{},
                                    detail::IndexReduce::Copy, true, 1, x.device());
        if constexpr (FloatingElement<T>) {
            detail::record_function(
                "MaskedScatterBackward0", out, {},
                [flat, shape, xsizes = x.sizes(), ssizes = source.sizes()](const TensorBase& grad) {
                    NoGradGuard no_grad;
                    const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                    const detail::DevicePairs places{flat, Tensor<int64_t>()};
                    Tensor<T> gx = g.clone();
                    detail::device_reduce_pairs(gx.data_ptr(), places, static_cast<const T*>(nullptr), T(0),
                                                detail::IndexReduce::Copy, true, 1, g.device());
                    Tensor<T> ds = zeros<T>(ssizes, TensorOptions().device(g.device()));
                    detail::device_gather_pairs(ds.data_ptr(), g.data_ptr(), places, g.device());
                    return std::array<TensorBase, 2>{detail::sum_to_size(gx, shape, xsizes), ds};
                },
                x, source);
        }
        return out;
    }
#endif
    detail::for_each_masked(shape, mask, out, [&](int64_t k, int64_t o) { out.data_ptr()[o] = src.data_ptr()[k]; });
    if constexpr (FloatingElement<T>) { // (the backward's sums are for gradients' types only)
        const Tensor<bool> m = mask.detach();
        detail::record_function(
            "MaskedScatterBackward0", out, {m},
            [m, shape, xsizes = x.sizes(), ssizes = source.sizes()](const TensorBase& grad) {
                const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                // x's gradient: g where mask does not hold, summed to x's shape.
                Tensor<T> gx = g.clone();
                detail::for_each_masked(shape, m, gx, [&](int64_t, int64_t o) { gx.data_ptr()[o] = T(0); });
                const Tensor<T> dx = detail::sum_to_size(gx, shape, xsizes);
                // source's gradient: its first elements (one per set mask element) take g there.
                Tensor<T> ds = zeros<T>(ssizes);
                const T* gp = static_cast<const T*>(g.impl().storage->data()); // o counts from the storage's start
                detail::for_each_masked(shape, m, g, [&](int64_t k, int64_t o) { ds.data_ptr()[k] = gp[o]; });
                return std::array<TensorBase, 2>{dx, ds};
            },
            x, source);
    }
    return out;
}

/// Tensor.masked_scatter_: mask must broadcast to x's own shape.
template <class T>
Tensor<T>& masked_scatter_(Tensor<T>& x, const Tensor<bool>& mask, const Tensor<T>& source) {
    if (detail::broadcast_shapes(x.sizes(), mask.sizes(), "masked_scatter_") != x.sizes())
        detail::fail<shape_error>("masked_scatter_: output with shape ", x.sizes(),
                                  " doesn't match the broadcast shape of the mask ", mask.sizes());
    return x.copy_(masked_scatter(x, mask, source));
}

/// torch.nonzero: the indices of the nonzero elements, [n, ndim] int64 in row-major order.
template <class T>
Tensor<int64_t> nonzero(const Tensor<T>& x) {
    detail::refuse_named(x, "aten::nonzero");
    const int64_t nd = x.dim();
    if (!x.is_cpu()) {
#if TENET_DEVICE_EVALUATOR
        const Tensor<int64_t> flat = detail::device_nonzero_positions(static_cast<const T*>(detail::first_byte(x)),
                                                                      x.sizes(), x.strides(), x.device());
        return detail::device_unravel(flat, x.sizes());
#else
        detail::no_device_evaluator("nonzero", x.device());
#endif
    }
    std::vector<int64_t> found;
    std::vector<int64_t> at(static_cast<size_t>(nd), 0);
    const T* xp = static_cast<const T*>(x.impl().storage->data());
    int64_t n = 0;
    detail::for_each_offset<1>(x.sizes(), {x.strides()}, {x.storage_offset()}, [&](const std::array<int64_t, 1>& o) {
        if (xp[o[0]] != T(0)) {
            found.insert(found.end(), at.begin(), at.end());
            ++n;
        }
        for (int64_t d = nd - 1; d >= 0; --d) { // the next index in row-major order
            if (++at[static_cast<size_t>(d)] < x.sizes()[static_cast<size_t>(d)])
                break;
            at[static_cast<size_t>(d)] = 0;
        }
    });
    Tensor<int64_t> out = empty<int64_t>({n, nd});
    std::copy(found.begin(), found.end(), out.data_ptr());
    return out;
}

/// torch.nonzero(x, as_tuple=True): one 1-D index tensor per dim (a 0-d x counts as 1-D).
template <class T>
std::vector<Tensor<int64_t>> nonzero_tuple(const Tensor<T>& x) {
    const Tensor<int64_t> idx = nonzero(x.dim() == 0 ? x.reshape({1}) : x);
    std::vector<Tensor<int64_t>> out;
    for (int64_t d = 0; d < idx.size(1); ++d)
        out.push_back(idx.select(1, d).contiguous());
    return out;
}

/// torch.nonzero with as_tuple spelled out: only the tuple form has a vector result, so
/// as_tuple = false is refused here (call nonzero(x)).
template <class T>
std::vector<Tensor<int64_t>> nonzero(const Tensor<T>& x, bool as_tuple) {
    if (!as_tuple)
        detail::fail<value_error>("nonzero: as_tuple=false gives one tensor; call nonzero(x) for it");
    return nonzero_tuple(x);
}

/// torch.argwhere: nonzero's [n, ndim] form.
template <class T>
Tensor<int64_t> argwhere(const Tensor<T>& x) {
    return nonzero(x);
}

/// torch.where(condition): nonzero(condition, as_tuple=True).
template <class T>
std::vector<Tensor<int64_t>> where(const Tensor<T>& condition) {
    return nonzero_tuple(condition);
}

/// torch.count_nonzero: the number of nonzero elements, in all or along dims (int64).
template <class T>
Tensor<int64_t> count_nonzero(const Tensor<T>& x, std::optional<IntArray> dims = std::nullopt) {
    if (!dims)
        return Tensor<int64_t>(tenet::sum(x != T(0)));
    std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(x.dim(), 1)), false);
    for (int64_t d : *dims) {
        const int64_t w = detail::wrap_dim(d, x.dim(), "count_nonzero");
        if (seen[static_cast<size_t>(w)])
            detail::fail<value_error>("count_nonzero: dim ", w, " appears multiple times in the list of dims");
        seen[static_cast<size_t>(w)] = true;
    }
    return Tensor<int64_t>(tenet::sum(x != T(0), *dims));
}
template <class T>
Tensor<int64_t> count_nonzero(const Tensor<T>& x, int64_t dim) {
    return count_nonzero(x, IntArray{dim});
}

} // namespace tenet::inline TENET_ABI
