#pragma once
// The device backend: what the core needs from a device to hold and move tensor data,
// behind one small run-time interface (PyTorch keeps a per-device allocator and guard
// registry the same way). Nothing here is typed by element: allocation, copies between
// host and device, strided copies and fills of N-byte elements. So `t.cuda()`, `t.cpu()`,
// `copy_`, `fill_`, `zeros(..., "cuda")` and printing work in every translation unit,
// while evaluating expressions on a device needs the device evaluator (core/host_device.hpp).
//
// A backend registers itself when its header is compiled into the program:
// kernels/tenet/cuda/backend.cuh (included by tenet.hpp under nvcc, or with
// TENET_DEVICE_EMULATION). Without one, every request for a CUDA device throws
// device_error, as PyTorch does on a CPU-only build.

#include "tenet/config.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tenet/core/device.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/backend/device/device_loop.hpp"
#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

class DeviceBackend {
public:
    virtual ~DeviceBackend() = default;

    /// "CUDA 13.0 (NVIDIA H100 ...)" or "Thrust OpenMP emulation of CUDA (host memory)".
    virtual std::string name() const = 0;
    /// True when "device" memory is host memory driven through Thrust's OpenMP system.
    virtual bool emulated() const = 0;
    virtual int device_count() const = 0;
    virtual int current_device() const = 0;
    virtual void set_device(int index) = 0;

    /// `nbytes` on device `index` (cached: freed blocks are reused).
    virtual void* allocate(size_t nbytes, int index) = 0;
    virtual void deallocate(void* p, size_t nbytes, int index) noexcept = 0;
    /// Frees the cached blocks of every device.
    virtual void empty_cache() = 0;

    /// Copies `nbytes` between any two of host and devices (synchronous).
    virtual void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) = 0;
    /// dst[off0] = src[off1] over `loop` (elements of `itemsize` bytes, both on device `index`).
    virtual void copy_strided(int index, void* dst, const void* src, const DeviceLoop<2>& loop,
                              int64_t itemsize) = 0;
    /// Sets every element of `dst` (laid out by `loop`) to the `itemsize` bytes at `value`.
    virtual void fill_strided(int index, void* dst, const DeviceLoop<1>& loop, const void* value,
                              int64_t itemsize) = 0;
    /// dst[i] += src[i] for `numel` contiguous elements of floating `dtype` (how autograd
    /// accumulates gradients without a typed kernel in every translation unit).
    virtual void accumulate(int index, void* dst, const void* src, int64_t numel, DType dtype) = 0;
    /// Waits for the device's queued work.
    virtual void synchronize(int index) = 0;
};

/// The registered backend; null when the program has none.
inline DeviceBackend*& device_backend_slot() {
    static DeviceBackend* backend = nullptr;
    return backend;
}

/// The backend for `device`, checking that the device exists; `op` names the caller.
inline DeviceBackend& device_backend(Device device, const char* op) {
    if (device.is_meta()) fail_not_on_meta(op);  // no memory, no kernels: never a CUDA path by accident
    DeviceBackend* backend = device_backend_slot();
    if (!backend)
        fail<device_error>(op, ": cannot use device ", device,
                           ": tenet was built without CUDA support (compile with nvcc, or link a translation unit "
                           "that includes <tenet/tenet.hpp> compiled by nvcc, to get the CUDA backend)");
    if (device.has_index() && device.index() >= backend->device_count())
        fail<device_error>(op, ": invalid device ", device, ": ", backend->device_count(),
                           " CUDA device(s) available");
    if (backend->device_count() == 0) fail<device_error>(op, ": cannot use device ", device, ": no CUDA device found");
    return *backend;
}

/// resolve_device off the host: a CUDA device's index checked or filled in; the meta device.
[[gnu::noinline]] inline Device resolve_other_device(Device device, const char* op) {
    // No backend: a meta tensor has no memory, and its device no index (PyTorch drops "meta:0"'s).
    if (device.is_meta()) return Device(DeviceType::Meta);
    if (device.has_index()) {
        device_backend(device, op);  // validates the index
        return device;
    }
    return Device(DeviceType::CUDA, device_backend(device, op).current_device());
}

/// A device with its index filled in ("cuda" means the current device, as in PyTorch).
inline Device resolve_device(Device device, const char* op) {
    if (device.is_cpu()) return Device(DeviceType::CPU);  // "cpu:0" too
    return resolve_other_device(device, op);
}

/// Throws unless `device` can hold tensors in this program. `op` names the caller.
inline void check_device_supported(Device device, const char* op) {
    if (device.is_cuda()) device_backend(device, op);
}

/// Makes `device` current for the scope (kernels launch on the current device).
class DeviceGuard {
public:
    explicit DeviceGuard(Device device) {
        if (!device.is_cuda() || !device.has_index()) return;
        backend_ = &device_backend(device, "DeviceGuard");
        previous_ = backend_->current_device();
        if (device.index() != previous_) backend_->set_device(device.index());
    }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;
    ~DeviceGuard() {
        if (backend_ && backend_->current_device() != previous_) backend_->set_device(previous_);
    }

private:
    DeviceBackend* backend_ = nullptr;
    int previous_ = 0;
};

}  // namespace detail

// CUDA queries, as torch.cuda's functions. They are spelled cuda_*() rather than
// cuda::*(): `cuda` is CUDA's own top-level namespace (libcu++), and a tenet::cuda would make
// every `using namespace tenet;` in a .cu file ambiguous.

/// Whether CUDA tensors can be created: a backend is linked in and sees a device
/// (torch.cuda.is_available()). True under TENET_DEVICE_EMULATION, whose one "device" is
/// host memory; cuda_is_emulated() tells the two apart.
inline bool cuda_is_available() {
    const detail::DeviceBackend* b = detail::device_backend_slot();
    return b && b->device_count() > 0;
}
/// Whether the CUDA backend is Thrust's OpenMP emulation on the host.
inline bool cuda_is_emulated() {
    const detail::DeviceBackend* b = detail::device_backend_slot();
    return b && b->emulated();
}
/// The number of CUDA devices (0 without a backend), as torch.cuda.device_count().
inline int cuda_device_count() {
    const detail::DeviceBackend* b = detail::device_backend_slot();
    return b ? b->device_count() : 0;
}
/// The index of the current device (torch.cuda.current_device()).
inline int cuda_current_device() {
    return detail::device_backend(Device(DeviceType::CUDA), "cuda_current_device").current_device();
}
/// Makes device `index` current (torch.cuda.set_device()).
inline void cuda_set_device(int index) {
    detail::device_backend(Device(DeviceType::CUDA, index), "cuda_set_device").set_device(index);
}
/// Waits for all queued work on device `index` (the current device by default).
inline void cuda_synchronize(int index = -1) {
    auto& b = detail::device_backend(Device(DeviceType::CUDA, index), "cuda_synchronize");
    b.synchronize(index < 0 ? b.current_device() : index);
}
/// Returns the cached device blocks to the driver (torch.cuda.empty_cache()).
inline void cuda_empty_cache() {
    if (auto* b = detail::device_backend_slot()) b->empty_cache();
}
/// What the CUDA backend is ("CUDA (NVIDIA H100 ..., sm_90)", or the emulation), or "none".
inline std::string cuda_backend_name() {
    const detail::DeviceBackend* b = detail::device_backend_slot();
    return b ? b->name() : "none";
}

namespace accelerator {
/// torch.accelerator: whether a device other than the CPU is available.
inline bool is_available() { return cuda_is_available(); }
/// The number of accelerator devices.
inline int device_count() { return cuda_device_count(); }
/// The kind of accelerator available (`cuda`), or none.
inline std::optional<Device> current_accelerator() {
    if (!cuda_is_available()) return std::nullopt;
    return Device(DeviceType::CUDA);
}
}  // namespace accelerator

}  // namespace tenet
