#pragma once
// Meta tensors (PyTorch's device='meta'): sizes, strides and a dtype on a storage with no
// buffer. An op on meta tensors computes its result's geometry and dtype exactly as on the host
// and runs nothing, so a whole model's shapes can be checked without memory or time.
//
// The meta device is handled at a few central points, each one branch that the host never
// takes: storage allocation (core/storage.hpp), evaluation (backend/host/evaluate.hpp), copies
// and fills (backend/device/device_copy.hpp; joins and views' copies go through them),
// reductions (ops/reduce.hpp), matmul (linalg/matmul.hpp), random fills and ranges, flip,
// nll_loss, and autograd's gradient pass and accumulation (softmax takes its device path, made
// of expressions and reductions). Reading a meta tensor's data
// (item, to_vector, printing values, a copy to the host, data_ptr) throws device_error; an op
// with no meta rule reaches the storage's data() and throws device_error too, never reads a
// null pointer. The helpers those points share are here (and detail::fail_not_on_meta, in
// core/device.hpp).

#include "tenet/config.hpp"
#include <optional>

#include "tenet/core/device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Whether a device (an expression's, which is nullopt for numbers only) is the meta device.
inline bool is_meta_device(const std::optional<Device>& device) { return device && device->is_meta(); }

/// A fresh contiguous meta tensor of `sizes`: no data, the geometry of a fresh host result.
inline TensorBase meta_result(const IntArray& sizes, DType dtype) {
    return TensorBase(make_contiguous_impl(sizes, dtype, Device(DeviceType::Meta)));
}
template <class T>
Tensor<T> meta_result(const IntArray& sizes) {
    return Tensor<T>(meta_result(sizes, dtype_of<T>).impl_ptr());
}

}  // namespace tenet::detail
