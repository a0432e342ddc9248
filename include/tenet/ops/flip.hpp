#pragma once
// flip, fliplr, flipud: the elements in reverse order along some dims, with PyTorch's rules
// and messages. As in PyTorch the result is a new tensor (it keeps the input's dense memory
// order, as clone does), not a view: writing to it leaves the input alone, and
// `x.assign(x.flip(0))` reads every element before any is written.
//
// One strided pass: the input is read through a geometry whose flipped dims start at their
// last element and step backwards (negative strides, which tenet's views themselves never
// have), on the host or by the device's strided copy.
//
// Autograd (autograd/flip.hpp): FlipBackward0, whose backward is the same flip of the
// gradient (recorded too, so create_graph goes through it).

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <vector>

#include "tenet/backend/device/device_copy.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// The dims of `dims` wrapped into [0, ndim), each at most once (PyTorch's message otherwise).
inline std::vector<bool> flip_mask(const IntArray& dims, int64_t ndim, const char* op) {
    std::vector<bool> flipped(static_cast<size_t>(ndim == 0 ? 1 : ndim), false);
    for (int64_t d : dims) {
        const auto w = static_cast<size_t>(wrap_dim(d, ndim, op));
        if (flipped[w]) fail<value_error>(op, ": dim ", w, " appears multiple times in the list of dims");
        flipped[w] = true;
    }
    return flipped;
}


}  // namespace detail

/// torch.flip: the elements of `input` in reverse order along each of `dims` (negative dims
/// count from the end), in a new tensor.
template <class T>
Tensor<T> flip(const Tensor<T>& input, const IntArray& dims) {
    detail::refuse_named(input, "aten::flip");
    const std::vector<bool> flipped = detail::flip_mask(dims, input.dim(), "flip");
    const IntArray& sizes = input.sizes();
    Tensor<T> out(detail::make_dense_impl(sizes, detail::dense_strides_like(sizes, input.strides()), dtype_of<T>,
                                          input.device()));
    // The input read backwards along the flipped dims.
    IntArray from = input.strides();
    int64_t start = input.storage_offset();
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (!flipped[d] || sizes[d] == 0) continue;
        start += (sizes[d] - 1) * from[d];
        from[d] = -from[d];
    }
    if (input.is_meta()) {
        // a meta result: its geometry is all there is
    } else if (!input.is_cpu()) {
        detail::copy_strided_on_device(out, static_cast<const T*>(input.impl().storage->data()) + start, from, "flip");
    } else if (out.numel() > 0) {
        const T* src = static_cast<const T*>(input.impl().storage->data());
        T* dst = static_cast<T*>(out.impl().storage->data());
        detail::for_each_offset<2>(sizes, {out.strides(), from}, {out.storage_offset(), start},
                                   [&](const std::array<int64_t, 2>& o) { dst[o[0]] = src[o[1]]; });
    }
    detail::record_flip(input, out, dims);
    return out;
}

/// torch.fliplr: flip along dim 1 (the columns of a matrix); needs at least 2 dims.
template <class T>
Tensor<T> fliplr(const Tensor<T>& input) {
    if (input.dim() < 2) detail::fail<shape_error>("fliplr: Input must be >= 2-d. Got shape ", input.sizes());
    return flip(input, {1});
}

/// torch.flipud: flip along dim 0 (the rows of a matrix); needs at least 1 dim.
template <class T>
Tensor<T> flipud(const Tensor<T>& input) {
    if (input.dim() < 1) detail::fail<shape_error>("flipud: Input must be >= 1-d. Got shape ", input.sizes());
    return flip(input, {0});
}

// ---- Tensor's methods -----------------------------------------------------------------------

template <class T>
Tensor<T> Tensor<T>::flip(const IntArray& dims) const {
    return tenet::flip(*this, dims);
}
template <class T>
Tensor<T> Tensor<T>::flip(int64_t dim) const {
    return tenet::flip(*this, IntArray{dim});
}
template <class T>
Tensor<T> Tensor<T>::fliplr() const {
    return tenet::fliplr(*this);
}
template <class T>
Tensor<T> Tensor<T>::flipud() const {
    return tenet::flipud(*this);
}

}  // namespace tenet
