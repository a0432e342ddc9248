#pragma once
// The host allocator behind every tensor's storage. Fresh pages cost more than the
// arithmetic on them (>= 1.3 us per 4 KiB page on our machines), so blocks of at
// least kMinCachedBytes are kept in a bounded cache when freed and handed out again
// to the next request of the same size class. Every block is 64-byte aligned.
// Small blocks (up to kMaxSmallBytes) are recycled through a per-thread free list, so a
// tiny result tensor costs no trip through the aligned system allocator either.
// Thread-safe. `empty_cache()` returns the cached large blocks to the system.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace tenet {

/// Counters of the host allocator, for tests and tuning.
struct AllocatorStats {
    int64_t allocations = 0;   ///< every allocate() call, cached or not
    int64_t cache_hits = 0;    ///< allocations served from the cache
    int64_t cached_bytes = 0;  ///< bytes held in the cache right now
    int64_t in_use_bytes = 0;  ///< bytes handed out and not yet freed (size-class rounded)
};

class CachingHostAllocator {
public:
    static constexpr size_t kAlignment = 64;
    static constexpr size_t kMinCachedBytes = size_t{64} << 10;
    static constexpr size_t kDefaultCacheLimit = size_t{2} << 30;

    /// Returns `nbytes` (rounded up to the block's size class) of 64-byte aligned memory.
    /// Zero bytes gives a valid, unique, aligned pointer.
    void* allocate(size_t nbytes) {
        const size_t size = size_class(nbytes);
        allocations_.fetch_add(1, std::memory_order_relaxed);
        if (size >= kMinCachedBytes) {
            std::lock_guard lock(mutex_);
            in_use_bytes_ += static_cast<int64_t>(size);
            auto it = free_blocks_.find(size);
            if (it != free_blocks_.end() && !it->second.empty()) {
                void* p = it->second.back();
                it->second.pop_back();
                cached_bytes_ -= size;
                ++cache_hits_;
                return p;
            }
        } else {
            in_use_small_.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed);
            if (size <= kMaxSmallBytes) {
                auto& list = small_cache().lists[size / kAlignment - 1];
                if (!list.empty()) {
                    void* p = list.back();
                    list.pop_back();
                    return p;
                }
            }
        }
        return ::operator new(size, std::align_val_t{kAlignment});
    }

    /// Returns a block obtained from allocate(nbytes) with the same nbytes.
    void deallocate(void* p, size_t nbytes) noexcept {
        const size_t size = size_class(nbytes);
        if (size >= kMinCachedBytes) {
            std::lock_guard lock(mutex_);
            in_use_bytes_ -= static_cast<int64_t>(size);
            if (cached_bytes_ + size <= cache_limit_) {
                try {
                    free_blocks_[size].push_back(p);
                    cached_bytes_ += size;
                    return;
                } catch (...) {  // no memory for the bookkeeping: just free the block
                }
            }
        } else {
            in_use_small_.fetch_sub(static_cast<int64_t>(size), std::memory_order_relaxed);
            if (size <= kMaxSmallBytes) {
                auto& list = small_cache().lists[size / kAlignment - 1];
                if (list.size() < kSmallBlocksPerClass) {
                    try {
                        list.push_back(p);
                        return;
                    } catch (...) {
                    }
                }
            }
        }
        ::operator delete(p, std::align_val_t{kAlignment});
    }

    /// Frees every cached block.
    void empty_cache() {
        std::lock_guard lock(mutex_);
        for (auto& [size, blocks] : free_blocks_)
            for (void* p : blocks) ::operator delete(p, std::align_val_t{kAlignment});
        free_blocks_.clear();
        cached_bytes_ = 0;
    }

    /// Bounds the bytes the cache may hold; shrinks the cache now if needed.
    void set_cache_limit(size_t bytes) {
        std::lock_guard lock(mutex_);
        cache_limit_ = bytes;
        for (auto& [size, blocks] : free_blocks_) {
            while (!blocks.empty() && cached_bytes_ > cache_limit_) {
                ::operator delete(blocks.back(), std::align_val_t{kAlignment});
                blocks.pop_back();
                cached_bytes_ -= size;
            }
        }
    }
    size_t cache_limit() const {
        std::lock_guard lock(mutex_);
        return cache_limit_;
    }

    AllocatorStats stats() const {
        std::lock_guard lock(mutex_);
        AllocatorStats s;
        s.allocations = allocations_.load(std::memory_order_relaxed);
        s.cache_hits = cache_hits_;
        s.cached_bytes = static_cast<int64_t>(cached_bytes_);
        s.in_use_bytes = in_use_bytes_ + in_use_small_.load(std::memory_order_relaxed);
        return s;
    }

    /// The size class of a request: small requests round to the alignment, large ones
    /// to an eighth of their power of two, so close sizes share cached blocks while
    /// wasting at most 12.5%.
    static size_t size_class(size_t nbytes) {
        const size_t n = nbytes == 0 ? kAlignment : (nbytes + kAlignment - 1) / kAlignment * kAlignment;
        if (n < kMinCachedBytes) return n;
        size_t pow2 = kMinCachedBytes;
        while (pow2 * 2 <= n) pow2 *= 2;
        const size_t step = pow2 / 8;
        return (n + step - 1) / step * step;
    }

private:
    static constexpr size_t kMaxSmallBytes = 4096;
    static constexpr size_t kSmallBlocksPerClass = 64;

    /// Per-thread free lists of small blocks, one per 64-byte size class; freed at thread exit.
    struct SmallCache {
        std::vector<void*> lists[kMaxSmallBytes / kAlignment];
        ~SmallCache() {
            for (auto& list : lists)
                for (void* p : list) ::operator delete(p, std::align_val_t{kAlignment});
        }
    };
    static SmallCache& small_cache() {
        thread_local SmallCache cache;
        return cache;
    }

    mutable std::mutex mutex_;
    std::unordered_map<size_t, std::vector<void*>> free_blocks_;
    size_t cached_bytes_ = 0;
    size_t cache_limit_ = kDefaultCacheLimit;
    int64_t cache_hits_ = 0;
    int64_t in_use_bytes_ = 0;
    std::atomic<int64_t> allocations_{0};
    std::atomic<int64_t> in_use_small_{0};
};

/// The process-wide host allocator. Never destroyed, so storage released during
/// static destruction still has an allocator to return to.
inline CachingHostAllocator& host_allocator() {
    static auto* allocator = new CachingHostAllocator();
    return *allocator;
}

/// Frees the host allocator's cached blocks (PyTorch's `empty_cache` for the host).
inline void empty_cache() { host_allocator().empty_cache(); }

}  // namespace tenet
