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

namespace tenet {

class StorageImpl {
public:
    using Deleter = std::function<void(void*)>;

    /// Allocates `nbytes` on `device` from the caching allocator.
    StorageImpl(size_t nbytes, Device device) : nbytes_(nbytes), device_(device) {
        detail::check_device_supported(device, "StorageImpl");
        data_ = host_allocator().allocate(nbytes);
    }
    /// Wraps external memory without copying; `deleter` (may be empty) runs on release.
    StorageImpl(void* data, size_t nbytes, Device device, Deleter deleter)
        : data_(data), nbytes_(nbytes), device_(device), deleter_(std::move(deleter)), external_(true) {}

    StorageImpl(const StorageImpl&) = delete;
    StorageImpl& operator=(const StorageImpl&) = delete;
    ~StorageImpl() {
        if (!external_) host_allocator().deallocate(data_, nbytes_);
        else if (deleter_) deleter_(data_);
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
