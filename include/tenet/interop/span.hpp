#pragma once
// Typed raw access to a contiguous host tensor as a std::span: the `numpy()`-like view for
// code that takes pointer + length (C APIs, std algorithms). Zero-copy: the span aliases the
// tensor's elements and does not keep them alive.

#include "tenet/config.hpp"
#include <cstddef>
#include <span>

#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

/// The elements of a contiguous host tensor, in row-major order, as a std::span<T> over its
/// memory (no copy; PyTorch's `t.numpy()` as a flat buffer, or `t.data_ptr()` with `numel()`).
/// Writes through the span are seen by the tensor but do not bump its version counter. The
/// tensor's memory must outlive the span. value_error naming the sizes and strides for a
/// non-contiguous tensor (call .contiguous() first), device_error for a device tensor.
template <class T>
std::span<T> span(const Tensor<T>& t) {
    if (!t.device().is_cpu())
        detail::fail<device_error>("span: the tensor of shape ", t.sizes(), " is on ", t.device(),
                                   "; a span views host memory: copy it with .cpu() first");
    if (!t.is_contiguous())
        detail::fail<value_error>("span: the tensor of sizes ", t.sizes(), " and strides ", t.strides(),
                                  " is not contiguous; call .contiguous() first");
    return std::span<T>(t.data_ptr(), static_cast<size_t>(t.numel()));
}

}  // namespace tenet
