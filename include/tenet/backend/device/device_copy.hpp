#pragma once
// Copies that involve a device (Tensor::copy_data_, item, to_vector, printing) and fills
// on a device (Tensor::fill_). Moving bytes goes through the device backend and works in
// every translation unit; converting element types ON a device is an expression (a cast)
// and needs the device evaluator. A conversion between the host and a device therefore
// happens on the host side.

#include "tenet/config.hpp"
#include <cstdint>
#include <type_traits>

#include "tenet/backend/device/device_backend.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::detail {

/// The address of t's first element.
inline void* first_byte(const TensorBase& t) {
    return static_cast<unsigned char*>(t.impl().storage->data()) + t.storage_offset() * t.element_size();
}

/// dst = the elements of dst's element size read from `src_first` with `src_strides` (in
/// elements, over dst's shape; any sign), on dst's device. `op` names the caller in errors.
TENET_FIXED void copy_strided_on_device(const TensorBase& dst, const void* src_first, const IntArray& src_strides,
                                   const char* op);

/// dst = src elementwise, src broadcast to dst's shape; same element size, same device.
TENET_FIXED void copy_strided_on_device(const TensorBase& dst, const TensorBase& src);

/// Sets every element of dst (a device tensor) to the `itemsize` bytes at `value`.
TENET_FIXED void fill_on_device(const TensorBase& dst, const void* value, int64_t itemsize);

/// t itself when contiguous, else a contiguous copy on t's device (no autograd).
template <class U>
Tensor<U> packed(const Tensor<U>& t) {
    if (t.is_contiguous()) return t;
    Tensor<U> out(make_contiguous_impl(t.sizes(), dtype_of<U>, t.device()));
    if (t.is_cpu()) out.copy_data_(t);
    else copy_strided_on_device(out, t);
    return out;
}

template <class T, class U>
void copy_between_devices(const Tensor<T>& dst, const Tensor<U>& src) {
    if (dst.is_meta() || src.is_meta()) [[unlikely]] {  // nothing to move: only the shapes are checked
        if (!dst.is_meta()) fail_meta_data_access(src, "copy_");
        expand_geometry(src.sizes(), src.strides(), dst.sizes(), "copy_");
        return;
    }
    if (dst.numel() == 0) return;
    expand_geometry(src.sizes(), src.strides(), dst.sizes(), "copy_");  // src must broadcast to dst
    if (src.device() == dst.device()) {  // one device, not the host
        if constexpr (std::is_same_v<T, U>) {
            // Reading from memory we are about to write: read everything first.
            if (may_overlap(dst.impl(), src.impl())) {
                const TensorBase before(make_contiguous_impl(src.sizes(), src.dtype(), src.device()));
                copy_strided_on_device(before, src);
                copy_strided_on_device(dst, before);
            } else {
                copy_strided_on_device(dst, src);
            }
        } else {
            convert_on_device(dst, src);
        }
        return;
    }
    if constexpr (!std::is_same_v<T, U>) {
        if (src.is_cpu()) {  // convert on the host, then move
            Tensor<T> converted(make_contiguous_impl(src.sizes(), dtype_of<T>, src.device()));
            converted.copy_data_(src);
            return copy_between_devices(dst, converted);
        }
    }
    const Device away = dst.is_cpu() ? src.device() : dst.device();
    DeviceBackend& backend = device_backend(away, "copy_");
    const size_t nbytes = static_cast<size_t>(src.numel()) * sizeof(U);
    if (std::is_same_v<T, U> && dst.sizes() == src.sizes() && dst.is_contiguous() && src.is_contiguous()) {
        backend.copy_bytes(first_byte(dst), dst.device(), first_byte(src), src.device(), nbytes);
        return;
    }
    // Move src's elements as they are (packed), then lay them out on dst's side.
    const Tensor<U> from = packed(src);
    const Tensor<U> moved(make_contiguous_impl(src.sizes(), dtype_of<U>, dst.device()));
    backend.copy_bytes(first_byte(moved), dst.device(), first_byte(from), src.device(), nbytes);
    if (dst.is_cpu()) const_cast<Tensor<T>&>(dst).copy_data_(moved);
    else copy_between_devices(dst, moved);
}

/// A contiguous host tensor with t's values (no autograd): how device tensors are printed
/// and read. A meta tensor has none: device_error.
template <class T>
Tensor<T> host_copy(const Tensor<T>& t) {
    Tensor<T> out(make_contiguous_impl(t.sizes(), dtype_of<T>, Device(DeviceType::CPU)));
    copy_between_devices(out, t);
    return out;
}

#if TENET_HEADER_DEFINITIONS
TENET_FIXED void copy_strided_on_device(const TensorBase& dst, const void* src_first, const IntArray& src_strides,
                                   const char* op) {
    if (dst.numel() == 0) return;
    const DeviceLoop<2> loop = make_device_loop<2>(dst.sizes(), {dst.strides(), src_strides}, op);
    DeviceGuard guard(dst.device());
    device_backend(dst.device(), op).copy_strided(dst.device().index(), first_byte(dst), src_first, loop,
                                                  dst.element_size());
}

TENET_FIXED void copy_strided_on_device(const TensorBase& dst, const TensorBase& src) {
    if (dst.numel() == 0) return;
    const IntArray src_strides = expand_geometry(src.sizes(), src.strides(), dst.sizes(), "copy_").second;
    copy_strided_on_device(dst, first_byte(src), src_strides, "copy_");
}

TENET_FIXED void fill_on_device(const TensorBase& dst, const void* value, int64_t itemsize) {
    if (dst.numel() == 0 || dst.is_meta()) return;  // a meta tensor has no elements to set
    const DeviceLoop<1> loop = make_device_loop<1>(dst.sizes(), {dst.strides()}, "fill_");
    DeviceGuard guard(dst.device());
    device_backend(dst.device(), "fill_").fill_strided(dst.device().index(), first_byte(dst), loop, value, itemsize);
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::detail
