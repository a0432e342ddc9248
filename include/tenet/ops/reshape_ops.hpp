#pragma once
// Shape operations PyTorch 1.13 has beyond Tensor's own views: roll, repeat, tile,
// repeat_interleave, movedim/moveaxis, swapaxes/swapdims, ravel, expand_as/view_as/
// reshape_as, diagonal, diag_embed, tril_indices/triu_indices, meshgrid, rot90, block_diag,
// cartesian_prod, combinations, broadcast_to, broadcast_shapes.
//
// The views (movedim, swapaxes, diagonal, broadcast_to, meshgrid's grids) have PyTorch's
// sizes, strides and storage offset and get their gradients from tenet's view machinery.
// The copies are compositions of differentiable ops (narrow, cat, expand, reshape, flip,
// stack), so their gradients are right but their grad_fn names are those of the last op
// (CatBackward0 for roll, not RollBackward0, ...); diag_embed records DiagEmbedBackward0, and
// repeat_interleave with a tensor of repeats is index_select, as in PyTorch (IndexSelectBackward0).

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/flip.hpp"
#include "tenet/ops/gather.hpp"
#include "tenet/ops/join.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// A view of t with the given geometry, recorded for autograd under `name`.
template <class T>
Tensor<T> recorded_view(const Tensor<T>& t, IntArray sizes, IntArray strides, int64_t offset, const char* name) {
    Tensor<T> v(make_view(t.impl(), std::move(sizes), std::move(strides), offset));
    record_view(t, v, name);
    return v;
}

/// dims wrapped into [0, ndim), each at most once (all are wrapped before repeats are looked
/// for, so a dim out of range is reported first, as PyTorch does).
inline IntArray unique_dims(const IntArray& dims, int64_t ndim, const char* op, const char* what) {
    IntArray out;
    for (int64_t d : dims)
        out.push_back(wrap_dim(d, ndim, op));
    for (size_t i = 0; i < out.size(); ++i)
        if (std::find(out.begin(), out.begin() + i, out[i]) != out.begin() + i)
            fail<value_error>(op, ": repeated dim in `", what, "` (", dims, ")");
    return out;
}

/// A dim of x where PyTorch wraps without treating a 0-d tensor as 1-D (roll, repeat_interleave).
inline int64_t wrap_dim_no_scalar(int64_t dim, int64_t ndim, const char* op) {
    if (ndim == 0)
        fail<index_error>(op, ": Dimension specified as ", dim, " but tensor has no dimensions");
    return wrap_dim(dim, ndim, op);
}

/// A contiguous copy of a (possibly expanded) view, differentiable through copy_ (contiguous()
/// of an empty expanded view is the view itself, which autograd can't view again).
template <class T>
Tensor<T> dense_copy(const Tensor<T>& t) {
    Tensor<T> out = empty<T>(t.sizes(), TensorOptions().device(t.device()));
    out.copy_(t);
    return out;
}

} // namespace detail

// ---- Views ---------------------------------------------------------------------------------

/// torch.movedim: the dims `source` moved to the positions `destination` (the others keep
/// their order), a permuted view.
template <class T>
Tensor<T> movedim(const Tensor<T>& x, const IntArray& source, const IntArray& destination) {
    const char* op = "movedim";
    if (source.size() != destination.size())
        detail::fail<value_error>(op, ": Invalid source or destination dims: source (", source,
                                  " dims) should contain the same number of dims as destination (", destination,
                                  " dims)");
    const int64_t nd = x.dim();
    for (int64_t d : destination)
        detail::wrap_dim(d, nd, op); // every dim in range before repeats
    const IntArray src = detail::unique_dims(source, nd, op, "source");
    const IntArray dst = detail::unique_dims(destination, nd, op, "destination");
    IntArray order(static_cast<size_t>(nd), -1);
    std::vector<bool> used(static_cast<size_t>(nd), false);
    for (size_t i = 0; i < src.size(); ++i) {
        order[static_cast<size_t>(dst[i])] = src[i];
        used[static_cast<size_t>(src[i])] = true;
    }
    int64_t next = 0; // the remaining dims fill the free positions in order
    for (auto& o : order) {
        if (o != -1)
            continue;
        while (used[static_cast<size_t>(next)])
            ++next;
        o = next++;
    }
    return x.permute(order);
}
template <class T>
Tensor<T> movedim(const Tensor<T>& x, int64_t source, int64_t destination) {
    return movedim(x, IntArray{source}, IntArray{destination});
}
/// torch.moveaxis: movedim's NumPy name.
template <class T, class S, class D>
Tensor<T> moveaxis(const Tensor<T>& x, const S& source, const D& destination) {
    return movedim(x, source, destination);
}

/// torch.swapaxes / swapdims: transpose's NumPy names.
template <class T>
Tensor<T> swapaxes(const Tensor<T>& x, int64_t axis0, int64_t axis1) {
    return x.transpose(axis0, axis1);
}
template <class T>
Tensor<T> swapdims(const Tensor<T>& x, int64_t dim0, int64_t dim1) {
    return x.transpose(dim0, dim1);
}

/// torch.ravel: the elements as 1-D, a view when x is contiguous, else a copy.
template <class T>
Tensor<T> ravel(const Tensor<T>& x) {
    return x.reshape({-1});
}

/// torch.broadcast_to: expand's other name (a view with PyTorch's strides; -1 keeps a size).
template <class T>
Tensor<T> broadcast_to(const Tensor<T>& x, const IntArray& shape) {
    return x.expand(shape);
}

template <class T, class U>
Tensor<T> expand_as(const Tensor<T>& x, const Tensor<U>& other) {
    return x.expand_as(other);
}
template <class T, class U>
Tensor<T> view_as(const Tensor<T>& x, const Tensor<U>& other) {
    return x.view_as(other);
}
template <class T, class U>
Tensor<T> reshape_as(const Tensor<T>& x, const Tensor<U>& other) {
    return x.reshape_as(other);
}

/// torch.broadcast_shapes: the shape the given shapes broadcast to.
inline IntArray broadcast_shapes(const std::vector<IntArray>& shapes) {
    IntArray out;
    for (const IntArray& s : shapes) {
        for (int64_t v : s)
            if (v < 0)
                detail::fail<value_error>("broadcast_shapes: Trying to create tensor with negative dimension ", v, ": ",
                                          s);
        out = detail::broadcast_shapes(out, s, "broadcast_shapes");
    }
    return out;
}

/// torch.diagonal: the diagonal at `offset` of the dims dim1 and dim2, a view: those dims are
/// removed and the diagonal appended as the last dim.
template <class T>
Tensor<T> diagonal(const Tensor<T>& x, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) {
    const char* op = "diagonal";
    const int64_t nd = x.dim();
    const int64_t d1 = detail::wrap_dim(dim1, nd, op), d2 = detail::wrap_dim(dim2, nd, op);
    if (d1 == d2)
        detail::fail<value_error>(op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
    const int64_t n1 = x.size(d1), n2 = x.size(d2);
    const int64_t len = std::max<int64_t>(0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
    int64_t start = x.storage_offset();
    if (len > 0)
        start += offset >= 0 ? offset * x.stride(d2) : -offset * x.stride(d1); // PyTorch's: none if empty
    IntArray sizes, strides;
    for (int64_t d = 0; d < nd; ++d)
        if (d != d1 && d != d2) {
            sizes.push_back(x.size(d));
            strides.push_back(x.stride(d));
        }
    sizes.push_back(len);
    strides.push_back(x.stride(d1) + x.stride(d2));
    return detail::recorded_view(x, sizes, strides, start, "DiagonalBackward0");
}

/// torch.diag_embed: a tensor with one more dim whose (dim1, dim2) diagonals at `offset` hold
/// x's last dim, zero elsewhere.
template <class T>
Tensor<T> diag_embed(const Tensor<T>& x, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) {
    const char* op = "diag_embed";
    const int64_t nd = x.dim() + 1;
    const int64_t d1 = detail::wrap_dim(dim1, nd, op), d2 = detail::wrap_dim(dim2, nd, op);
    if (d1 == d2)
        detail::fail<value_error>(op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
    if (x.dim() == 0)
        detail::fail<index_error>(op, ": expected a tensor with at least one dim, got a 0-d tensor");
    const int64_t n = x.size(-1) + (offset >= 0 ? offset : -offset);
    IntArray sizes;
    for (int64_t d = 0, k = 0; d < nd; ++d)
        sizes.push_back(d == d1 || d == d2 ? n : x.size(k++));
    Tensor<T> out = zeros<T>(sizes, TensorOptions().device(x.device()));
    {
        NoGradGuard no_grad; // the node below is out's only history
        Tensor<T> diag = diagonal(out, offset, d1, d2);
        // diagonal() lists the kept dims in order, then the diagonal: x's batch dims then its last.
        diag.copy_(x.detach());
    }
    detail::record_function(
        "DiagEmbedBackward0", out, {},
        [offset, d1, d2](const TensorBase& grad) {
            return std::array<TensorBase, 1>{diagonal(Tensor<T>(grad.impl_ptr()), offset, d1, d2).contiguous()};
        },
        x);
    return out;
}

// ---- Copies ----------------------------------------------------------------------------------

/// torch.roll: the elements shifted along dims (wrapping around); with no dims, along the
/// flattened tensor, shape kept.
template <class T>
Tensor<T> roll(const Tensor<T>& x, const IntArray& shifts, const IntArray& dims = {}) {
    const char* op = "roll";
    detail::refuse_named(x, "aten::roll");
    if (dims.empty()) {
        if (shifts.size() != 1)
            detail::fail<value_error>(op, ": shifts and dimensions must align. shifts: ", shifts.size(), ", dims: 0");
        return roll(x.flatten(), shifts, IntArray{0}).view(x.sizes());
    }
    if (shifts.size() != dims.size())
        detail::fail<value_error>(op, ": shifts and dimensions must align. shifts: ", shifts.size(),
                                  ", dims: ", dims.size());
    if (x.numel() == 0)
        return x.clone(); // as PyTorch: before the dims are looked at
    // The pieces are views of one contiguous tensor: tenet's autograd can't sum the gradients
    // of two views of a transposed base (an internal error), so a strided x is copied first.
    Tensor<T> out = x.is_contiguous() ? x : x.contiguous();
    for (size_t i = 0; i < dims.size(); ++i) {
        const int64_t d = detail::wrap_dim_no_scalar(dims[i], x.dim(), op);
        const int64_t n = x.size(d);
        const int64_t s = n == 0 ? 0 : ((shifts[i] % n) + n) % n;
        if (s == 0)
            continue;
        out = cat(std::vector<Tensor<T>>{out.narrow(d, n - s, s), out.narrow(d, 0, n - s)}, d);
    }
    return out.is_same(x) ? x.clone() : out;
}
template <class T>
Tensor<T> roll(const Tensor<T>& x, int64_t shift, std::optional<int64_t> dim = std::nullopt) {
    return dim ? roll(x, IntArray{shift}, IntArray{*dim}) : roll(x, IntArray{shift});
}

/// Tensor.repeat: x tiled sizes[i] times along each dim (sizes may add leading dims).
template <class T>
Tensor<T> repeat(const Tensor<T>& x, const IntArray& sizes) {
    const char* op = "repeat";
    const int64_t nd = static_cast<int64_t>(sizes.size());
    if (nd < x.dim())
        detail::fail<value_error>(op, ": Number of dimensions of repeat dims (", sizes,
                                  ") can not be smaller than number of dimensions of tensor (", x.sizes(), ")");
    IntArray padded(static_cast<size_t>(nd - x.dim()), 1), spread, expanded, merged;
    for (int64_t s : x.sizes())
        padded.push_back(s);
    for (int64_t d = 0; d < nd; ++d) {
        // PyTorch checks the product only: a negative repeat of an empty dim gives size 0.
        const int64_t s = padded[static_cast<size_t>(d)];
        int64_t r = sizes[static_cast<size_t>(d)];
        if (r * s < 0)
            detail::fail<value_error>(op, ": Trying to create tensor with negative dimension ", r * s, ": ", sizes);
        r = std::max<int64_t>(r, 0);
        spread.push_back(1);
        spread.push_back(s);
        expanded.push_back(r);
        expanded.push_back(s);
        merged.push_back(r * s);
    }
    // [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], then merged pairwise (a copy).
    return detail::dense_copy(x.reshape(spread).expand(expanded)).view(merged);
}

/// torch.tile: repeat, with dims padded by leading 1s when fewer than x's.
template <class T>
Tensor<T> tile(const Tensor<T>& x, const IntArray& dims) {
    IntArray sizes;
    for (int64_t i = static_cast<int64_t>(dims.size()); i < x.dim(); ++i)
        sizes.push_back(1);
    for (int64_t d : dims)
        sizes.push_back(d);
    return repeat(x, sizes);
}

/// torch.repeat_interleave: each element (slice along dim) repeated `repeats` times; with no
/// dim, of the flattened tensor.
template <class T>
Tensor<T> repeat_interleave(const Tensor<T>& x, int64_t repeats, std::optional<int64_t> dim = std::nullopt) {
    const char* op = "repeat_interleave";
    const Tensor<T> t = dim ? x : x.flatten();
    const int64_t d = dim ? detail::wrap_dim_no_scalar(*dim, t.dim(), op) : 0; // PyTorch checks the dim first
    if (repeats < 0)
        detail::fail<value_error>(op, ": repeats can not be negative (got ", repeats, ")");
    if (t.dim() == 0)
        return repeat_interleave(t.reshape({1}), repeats, 0);
    IntArray expanded = t.sizes(), merged = t.sizes();
    expanded.insert(static_cast<size_t>(d + 1), repeats);
    merged[static_cast<size_t>(d)] *= repeats;
    return detail::dense_copy(t.unsqueeze(d + 1).expand(expanded)).view(merged);
}
/// torch.repeat_interleave(repeats): each index i repeated repeats[i] times, on repeats' device.
/// The result's length is the repeats' sum, so a device's repeats are read on the host first (a
/// synchronisation, as in PyTorch).
inline Tensor<int64_t> repeat_interleave(const Tensor<int64_t>& repeats) {
    const char* op = "repeat_interleave";
    if (repeats.dim() != 1)
        detail::fail<value_error>(op, ": repeats must be a 1-D tensor, got ", repeats.sizes());
    if (repeats.is_meta()) detail::fail_meta_data_access(repeats, op);  // the values decide the shape
    const std::vector<int64_t> r = repeats.cpu().to_vector();
    std::vector<int64_t> out;
    for (size_t i = 0; i < r.size(); ++i) {
        if (r[i] < 0)
            detail::fail<value_error>(op, ": repeats can not be negative");
        out.insert(out.end(), static_cast<size_t>(r[i]), static_cast<int64_t>(i));
    }
    Tensor<int64_t> t = empty<int64_t>({static_cast<int64_t>(out.size())});
    std::copy(out.begin(), out.end(), t.data_ptr());
    return t.to(repeats.device());  // itself on the host
}

/// repeats per element along dim: a 1-D int64 tensor of dim's size (or of one element), on any
/// device. As PyTorch: x's slices selected by repeat_interleave(repeats) (IndexSelectBackward0).
template <class T>
Tensor<T> repeat_interleave(const Tensor<T>& x, const Tensor<int64_t>& repeats,
                            std::optional<int64_t> dim = std::nullopt) {
    const char* op = "repeat_interleave";
    if (repeats.dim() > 1)
        detail::fail<value_error>(op, ": repeats must be 0-dim or 1-dim tensor");
    const Tensor<T> t = dim ? x : x.flatten();
    const int64_t d = dim ? detail::wrap_dim_no_scalar(*dim, t.dim(), op) : 0;
    if (repeats.numel() == 1) {
        if (repeats.is_meta()) detail::fail_meta_data_access(repeats, op);
        return repeat_interleave(x, repeats.cpu().reshape({-1})(0), dim);
    }
    if (t.dim() == 0 || repeats.numel() != t.size(d))
        detail::fail<value_error>(op, ": repeats must have the same size as input along dim (repeats ", repeats.sizes(),
                                  ", input ", x.sizes(), ", dim ", d, ")");
    const Tensor<int64_t> index = repeat_interleave(repeats);
    return index_select(t, d, index.to(t.device()));
}

/// torch.rot90: x rotated k quarter turns from dims[0] towards dims[1].
template <class T>
Tensor<T> rot90(const Tensor<T>& x, int64_t k = 1, const IntArray& dims = {0, 1}) {
    const char* op = "rot90";
    if (dims.size() != 2)
        detail::fail<value_error>(op, ": expected total rotation dims == 2, but got dims = ", dims.size());
    if (x.dim() < 2)
        detail::fail<value_error>(op, ": expected total dims >= 2, but got total dims = ", x.dim());
    const int64_t a = detail::wrap_dim(dims[0], x.dim(), op), b = detail::wrap_dim(dims[1], x.dim(), op);
    if (a == b)
        detail::fail<value_error>(op, ": expected rotation dims to be different, but got dim0 = ", a,
                                  " and dim1 = ", b);
    switch (((k % 4) + 4) % 4) {
    case 1:
        return flip(x, {b}).transpose(a, b); // PyTorch's order: a transposed result
    case 2:
        return flip(x, {a, b});
    case 3:
        return flip(x, {a}).transpose(a, b);
    default:
        return x.clone();
    }
}

/// torch.tril_indices / triu_indices: the [2, n] int64 (row, col) indices of the lower
/// (upper) triangle of a row x col matrix at `offset`, in row-major order.
inline Tensor<int64_t> triangle_indices(int64_t row, int64_t col, int64_t offset, bool lower, const char* op) {
    if (row < 0)
        detail::fail<value_error>(op, ": row must be non-negative, got ", row);
    if (col < 0)
        detail::fail<value_error>(op, ": col must be non-negative, got ", col);
    std::vector<int64_t> rows, cols;
    for (int64_t i = 0; i < row; ++i)
        for (int64_t j = 0; j < col; ++j)
            if (lower ? j - i <= offset : j - i >= offset) {
                rows.push_back(i);
                cols.push_back(j);
            }
    const auto n = static_cast<int64_t>(rows.size());
    Tensor<int64_t> out = empty<int64_t>({2, n});
    std::copy(rows.begin(), rows.end(), out.data_ptr());
    std::copy(cols.begin(), cols.end(), out.data_ptr() + n);
    return out;
}
inline Tensor<int64_t> tril_indices(int64_t row, int64_t col, int64_t offset = 0) {
    return triangle_indices(row, col, offset, true, "tril_indices");
}
inline Tensor<int64_t> triu_indices(int64_t row, int64_t col, int64_t offset = 0) {
    return triangle_indices(row, col, offset, false, "triu_indices");
}

/// torch.meshgrid: grids (expanded views) of 0-d or 1-D tensors; indexing "ij" (matrix) or
/// "xy" (Cartesian: the first two dims swapped).
template <class T>
std::vector<Tensor<T>> meshgrid(const std::vector<Tensor<T>>& tensors, std::string_view indexing = "ij") {
    const char* op = "meshgrid";
    if (tensors.empty())
        detail::fail<value_error>(op, ": expects a non-empty TensorList");
    if (indexing != "ij" && indexing != "xy")
        detail::fail<value_error>(op, ": indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
    for (const Tensor<T>& t : tensors)
        if (t.dim() > 1)
            detail::fail<value_error>(op, ": Expected 0D or 1D tensor in the tensor list but got: ", t.sizes());
    const bool swap = indexing == "xy" && tensors.size() >= 2;
    std::vector<Tensor<T>> in = tensors;
    if (swap)
        std::swap(in[0], in[1]);
    IntArray shape;
    for (const Tensor<T>& t : in)
        shape.push_back(t.numel());
    std::vector<Tensor<T>> out;
    for (size_t i = 0; i < in.size(); ++i) {
        IntArray view_shape(in.size(), 1);
        view_shape[i] = -1;
        out.push_back(in[i].view(view_shape).expand(shape));
    }
    if (swap)
        std::swap(out[0], out[1]); // PyTorch's "xy": the grids of the swapped inputs, swapped back
    return out;
}
/// meshgrid({a, b}, indexing): the braced list of tensors of one element type.
template <class T>
std::vector<Tensor<T>> meshgrid(std::initializer_list<Tensor<T>> tensors, std::string_view indexing = "ij") {
    return meshgrid(std::vector<Tensor<T>>(tensors), indexing);
}

/// torch.block_diag: the 0-d, 1-D or 2-D tensors as the blocks of a block-diagonal matrix.
template <class T>
Tensor<T> block_diag(const std::vector<Tensor<T>>& tensors) {
    const char* op = "block_diag";
    std::vector<Tensor<T>> blocks;
    int64_t cols = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const Tensor<T>& t = tensors[i];
        if (t.dim() > 2)
            detail::fail<value_error>(op, ": Input tensors must have 2 or fewer dimensions. Input ", i, " has ",
                                      t.dim(), " dimensions");
        blocks.push_back(t.dim() == 0 ? t.reshape({1, 1}) : (t.dim() == 1 ? t.unsqueeze(0) : t));
        cols += blocks.back().size(1);
    }
    if (blocks.empty())
        return empty<T>({1, 0});
    const TensorOptions on = TensorOptions().device(tensors[0].device());
    std::vector<Tensor<T>> rows;
    int64_t before = 0;
    for (const Tensor<T>& b : blocks) {
        const int64_t r = b.size(0), c = b.size(1);
        rows.push_back(
            cat(std::vector<Tensor<T>>{zeros<T>({r, before}, on), b, zeros<T>({r, cols - before - c}, on)}, 1));
        before += c;
    }
    return cat(rows, 0);
}

/// torch.cartesian_prod: the rows of every combination of the 1-D tensors' elements
/// (one tensor: itself).
template <class T>
Tensor<T> cartesian_prod(const std::vector<Tensor<T>>& tensors) {
    for (const Tensor<T>& t : tensors)
        if (t.dim() != 1)
            detail::fail<value_error>("cartesian_prod: Expect a 1D vector, but got shape ", t.sizes());
    if (tensors.size() == 1)
        return tensors[0];
    std::vector<Tensor<T>> grids = meshgrid(tensors, "ij");
    for (auto& g : grids)
        g = g.flatten();
    return stack(grids, 1);
}

/// torch.combinations: the length-r combinations of a 1-D tensor's elements, as rows, in
/// itertools' order (with_replacement: itertools.combinations_with_replacement).
template <class T>
Tensor<T> combinations(const Tensor<T>& x, int64_t r = 2, bool with_replacement = false) {
    const char* op = "combinations";
    if (x.dim() != 1)
        detail::fail<value_error>(op, ": Expect a 1D vector, but got shape ", x.sizes());
    if (r < 0)
        detail::fail<value_error>(op, ": Expect a non-negative number, but got ", r);
    if (r == 0)
        return empty<T>({0}, TensorOptions().device(x.device()));
    const int64_t n = x.size(0);
    std::vector<std::vector<int64_t>> columns(static_cast<size_t>(r));
    std::vector<int64_t> pick(static_cast<size_t>(r));
    auto walk = [&](auto&& self, int64_t pos, int64_t from) -> void {
        if (pos == r) {
            for (int64_t i = 0; i < r; ++i)
                columns[static_cast<size_t>(i)].push_back(pick[static_cast<size_t>(i)]);
            return;
        }
        for (int64_t v = from; v < n; ++v) {
            pick[static_cast<size_t>(pos)] = v;
            self(self, pos + 1, with_replacement ? v : v + 1);
        }
    };
    walk(walk, 0, 0);
    const auto count = static_cast<int64_t>(columns[0].size());
    if (count == 0) // still x's (empty) views, so that the result has a gradient edge
        return stack(std::vector<Tensor<T>>(static_cast<size_t>(r), x.narrow(0, 0, 0)), 1);
    // Each row is gathered from views of x, so gradients reach x (stack of selects).
    std::vector<Tensor<T>> rows;
    for (int64_t k = 0; k < count; ++k) {
        std::vector<Tensor<T>> row;
        for (int64_t i = 0; i < r; ++i)
            row.push_back(x.select(0, columns[static_cast<size_t>(i)][static_cast<size_t>(k)]));
        rows.push_back(stack(row, 0));
    }
    return stack(rows, 0);
}

} // namespace tenet::inline TENET_ABI
