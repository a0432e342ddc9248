#pragma once
// Storage: the shared, untyped, device-aware buffer behind one or more tensors.
// Tensors are views (offset, sizes, strides) into a Storage. The storage carries
// the version counter that autograd checks: every in-place write through any view
// bumps it.

#include "tenet/config.hpp"
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "tenet/core/allocator.hpp"
#include "tenet/core/device.hpp"
#include "tenet/backend/device/device_backend.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// Write stamps: numbers no two writes anywhere in the process share (0 = never written).
/// Each thread takes them from its own block of 4096, so a write costs a thread-local
/// increment, not a lock-prefixed one; 2^64 stamps do not run out.
struct WriteStampBlock {
    uint64_t next = 0, end = 0;
};
inline std::atomic<uint64_t> write_stamps_handed_out{0};
inline thread_local WriteStampBlock write_stamp_block;  // trivial: no guard on access

inline uint64_t next_write_stamp() {
    constexpr uint64_t kBlock = 4096;
    WriteStampBlock& b = write_stamp_block;
    if (b.next == b.end) {
        b.next = write_stamps_handed_out.fetch_add(kBlock, std::memory_order_relaxed) + 1;
        b.end = b.next + kBlock;
    }
    return b.next++;
}

}  // namespace detail

class TensorBase;

namespace detail {
/// Where a write into an advanced index's result goes (`t.index({mask}) = v`): the result is a
/// copy, so the write is sent back to the indexed tensor (core/advanced_index.hpp). `result` is
/// the copy's TensorImpl: only a write to that tensor itself, not to a view of it, goes back.
struct WriteBack {
    const void* result = nullptr;
    virtual ~WriteBack() = default;
    virtual void put(const TensorBase& value) const = 0;
};
}  // namespace detail

class StorageImpl {
public:
    using Deleter = std::function<void(void*)>;

    /// Allocates `nbytes` on `device` from its caching allocator ("cuda" means the
    /// current device: the storage records the resolved index). On the meta device nothing
    /// is allocated: the storage reports `nbytes` (as PyTorch's) and has no buffer.
    StorageImpl(size_t nbytes, Device device)
        : nbytes_(nbytes), device_(detail::resolve_device(device, "empty")) {
        if (device_.is_cpu()) data_ = host_allocator().allocate(nbytes);
        else if (!device_.is_meta()) data_ = detail::device_backend(device_, "empty").allocate(nbytes, device_.index());
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
        } else if (device_.is_meta()) {  // nothing was allocated
        } else if (auto* backend = detail::device_backend_slot()) {
            backend->deallocate(data_, nbytes_, device_.index());
        }
    }

    /// The buffer. A meta storage has none: asking for it throws device_error (the one
    /// check is on a null buffer, so the host pays a never-taken branch).
    void* data() const {
        if (!data_) [[unlikely]]
            if (device_.is_meta()) no_meta_data();
        return data_;
    }
    /// The buffer, or null on the meta device: for code that has checked the device itself.
    void* data_or_null() const { return data_; }
    size_t nbytes() const { return nbytes_; }
    Device device() const { return device_; }
    bool is_external() const { return external_; }

    /// The version counter (PyTorch's `_version`): one more after each in-place modification.
    uint64_t version() const { return version_.load(std::memory_order_relaxed); }
    /// The last modification's write stamp: a saved stamp that differs means a write since.
    uint64_t write_stamp() const { return stamp_.load(std::memory_order_relaxed); }
    /// Records an in-place modification. No lock-prefixed instruction: a tiny op pays ~4 ns
    /// for one on these machines (bench/ W7). The price: two threads writing disjoint views of
    /// one storage at the same moment can lose one count of version(); the stamp each stores
    /// is new either way, so autograd's check (which compares stamps) stays exact.
    void bump_version() {
        version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        stamp_.store(detail::next_write_stamp(), std::memory_order_relaxed);
    }

    /// Set on an advanced index's result (a fresh storage): where writes to it go.
    std::shared_ptr<const detail::WriteBack> write_back;

private:
    [[noreturn]] static void no_meta_data() {
        detail::fail<device_error>("data access: the tensor is a meta tensor, which has no data (device='meta'); "
                                   "this operation is not supported on meta tensors");
    }
    void* data_ = nullptr;
    size_t nbytes_ = 0;
    Device device_;
    Deleter deleter_;
    bool external_ = false;
    std::atomic<uint64_t> version_{0};
    std::atomic<uint64_t> stamp_{0};
};

using StoragePtr = std::shared_ptr<StorageImpl>;

}  // namespace tenet
