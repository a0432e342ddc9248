#pragma once
// Storage: the shared, untyped, device-aware buffer behind one or more tensors.
// Tensors are views (offset, sizes, strides) into a Storage. The storage carries
// the version counter that autograd checks: every in-place write through any view
// bumps it.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "tenet/core/allocator.hpp"
#include "tenet/core/device.hpp"
#include "tenet/core/device_backend.hpp"

namespace tenet {

class StorageImpl {
public:
    using Deleter = std::function<void(void*)>;

    /// Allocates `nbytes` on `device` from its caching allocator ("cuda" means the
    /// current device: the storage records the resolved index).
    StorageImpl(size_t nbytes, Device device)
        : nbytes_(nbytes), device_(detail::resolve_device(device, "empty")) {
        if (device_.is_cpu()) data_ = host_allocator().allocate(nbytes);
        else data_ = detail::device_backend(device_, "empty").allocate(nbytes, device_.index());
    }
    /// Wraps external memory without copying; `deleter` (may be empty) runs on release.
    StorageImpl(void* data, size_t nbytes, Device device, Deleter deleter)
        : data_(data),
          nbytes_(nbytes),
          device_(detail::resolve_device(device, "from_blob")),
          deleter_(std::move(deleter)),
          external_(true) {}

    StorageImpl(const StorageImpl&) = delete;
    StorageImpl& operator=(const StorageImpl&) = delete;
    ~StorageImpl() {
        if (external_) {
            if (deleter_) deleter_(data_);
        } else if (device_.is_cpu()) {
            host_allocator().deallocate(data_, nbytes_);
        } else if (auto* backend = detail::device_backend_slot()) {
            backend->deallocate(data_, nbytes_, device_.index());
        }
    }

    void* data() const { return data_; }
    size_t nbytes() const { return nbytes_; }
    Device device() const { return device_; }
    bool is_external() const { return external_; }

    /// The version counter: bumped by every in-place modification.
    uint64_t version() const { return version_.load(std::memory_order_relaxed); }
    void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }

private:
    void* data_ = nullptr;
    size_t nbytes_ = 0;
    Device device_;
    Deleter deleter_;
    bool external_ = false;
    std::atomic<uint64_t> version_{0};
};

using StoragePtr = std::shared_ptr<StorageImpl>;

}  // namespace tenet
