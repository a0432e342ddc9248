#pragma once
// The host allocator behind every tensor's storage. Fresh pages cost more than the
// arithmetic on them (>= 1.3 us per 4 KiB page on our machines), so blocks of at
// least kMinCachedBytes are kept in a bounded cache when freed and handed out again
// to the next request of the same size class. Every block is 64-byte aligned.
// Small blocks (up to kMaxSmallBytes) are recycled through a per-thread free list, so a
// tiny result tensor costs no trip through the aligned system allocator either.
// Thread-safe. `empty_cache()` returns the cached large blocks to the system.
//
// Lifetimes: a tensor may be freed at any time, by any thread: a static or thread_local
// tensor destroyed at exit, or one freed after the thread that allocated it has ended. The
// per-thread lists (here and in detail::ObjectPool) are plain constant-initialised data that
// no destructor invalidates; a thread's lists open on its first pooled allocation, which
// registers a thread_local "reaper". The reaper runs with the thread's thread_locals (on the
// main thread, before the statics are destroyed), frees the cached blocks and marks the lists
// dead; from then on, and on threads whose lists never opened, blocks go straight back to the
// system.

#include "tenet/config.hpp"
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define TENET_ALLOCATOR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TENET_ALLOCATOR_ASAN 1
#endif
#endif
#ifndef TENET_ALLOCATOR_ASAN
#define TENET_ALLOCATOR_ASAN 0
#endif
#if TENET_ALLOCATOR_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace tenet::inline TENET_ABI {

/// The life of a thread's pooled free lists: Unopened until the thread's first pooled
/// allocation, Live while they cache blocks, Dead once its thread_locals are being destroyed.
enum class ThreadCacheState : uint8_t { Unopened, Live, Dead };

/// Frees a thread's cached blocks when the thread's thread_locals are destroyed (before the
/// statics, on the main thread), and marks its lists Dead, so that later frees go straight back
/// to the system. GetLists() returns the thread's lists (head[], count[] and state: trivially
/// destructible, so they outlive this); FreeBlock(block, size_class) returns one block.
template <auto GetLists, auto FreeBlock>
struct ThreadCacheReaper {
    ThreadCacheReaper() = default;
    ThreadCacheReaper(const ThreadCacheReaper&) = delete;
    ThreadCacheReaper& operator=(const ThreadCacheReaper&) = delete;
    ~ThreadCacheReaper() {
        auto& l = GetLists();
        l.state = ThreadCacheState::Dead;
        for (size_t c = 0; c < std::size(l.head); ++c) {
            while (auto* b = l.head[c]) {
                l.head[c] = b->next;
                FreeBlock(b, c);
            }
            l.count[c] = 0;
        }
    }
};

/// Counters of the host allocator, for tests and tuning.
struct AllocatorStats {
    int64_t allocations = 0;   ///< every allocate() call, cached or not
    int64_t cache_hits = 0;    ///< allocations served from the cache
    int64_t cached_bytes = 0;  ///< bytes held in the cache right now
    int64_t in_use_bytes = 0;  ///< bytes handed out and not yet freed (size-class rounded)
};

/// Freed blocks kept for reuse, by size class, under a byte limit. Not thread-safe: its
/// owner locks. Shared by the host allocator (large blocks) and the device backends (every
/// block: a device allocation costs far more than a host one).
class BlockCache {
public:
    /// The size class of a request: small requests round to 64 bytes, large ones to an
    /// eighth of their power of two, so close sizes share cached blocks while wasting at
    /// most 12.5%.
    static size_t size_class(size_t nbytes) {
        constexpr size_t kRound = 64, kLarge = size_t{64} << 10;
        const size_t n = nbytes == 0 ? kRound : (nbytes + kRound - 1) / kRound * kRound;
        if (n < kLarge) return n;
        size_t pow2 = kLarge;
        while (pow2 * 2 <= n) pow2 *= 2;
        const size_t step = pow2 / 8;
        return (n + step - 1) / step * step;
    }

    explicit BlockCache(size_t limit) : limit_(limit) {}

    /// A cached block of size class `size`, or null.
    void* take(size_t size) {
        auto it = blocks_.find(size);
        if (it == blocks_.end() || it->second.empty()) return nullptr;
        void* p = it->second.back();
        it->second.pop_back();
        cached_bytes_ -= size;
        ++hits_;
        return p;
    }
    /// Keeps `p` (of size class `size`) if the limit allows; false: the caller frees it.
    bool put(void* p, size_t size) noexcept {
        if (cached_bytes_ + size > limit_) return false;
        try {
            blocks_[size].push_back(p);
        } catch (...) {  // no memory for the bookkeeping
            return false;
        }
        cached_bytes_ += size;
        return true;
    }
    /// Frees blocks with `release(p, size)` until at most `keep` bytes stay cached.
    template <class Release>
    void trim(size_t keep, Release&& release) {
        for (auto& [size, list] : blocks_) {
            while (!list.empty() && cached_bytes_ > keep) {
                release(list.back(), size);
                list.pop_back();
                cached_bytes_ -= size;
            }
        }
    }
    template <class Release>
    void set_limit(size_t bytes, Release&& release) {
        limit_ = bytes;
        trim(bytes, release);
    }
    size_t limit() const { return limit_; }
    size_t cached_bytes() const { return cached_bytes_; }
    int64_t hits() const { return hits_; }

private:
    std::unordered_map<size_t, std::vector<void*>> blocks_;
    size_t cached_bytes_ = 0;
    size_t limit_;
    int64_t hits_ = 0;
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
            if (void* p = cache_.take(size)) return p;
        } else {
            in_use_small_.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed);
            if (size <= kMaxSmallBytes) {
                SmallLists& l = small_lists();
                const size_t c = size / kAlignment - 1;
                if (SmallBlock* b = l.head[c]) {  // only a live thread's lists hold blocks
                    l.head[c] = b->next;
                    --l.count[c];
                    unpoison(b, size);
                    return b;
                }
                if (l.state == ThreadCacheState::Unopened) open_small_lists(l);
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
            if (cache_.put(p, size)) return;
        } else {
            in_use_small_.fetch_sub(static_cast<int64_t>(size), std::memory_order_relaxed);
            if (size <= kMaxSmallBytes) {
                SmallLists& l = small_lists();
                const size_t c = size / kAlignment - 1;
                if (l.state == ThreadCacheState::Live && l.count[c] < kSmallBlocksPerClass) {
                    l.head[c] = new (p) SmallBlock{l.head[c]};
                    ++l.count[c];
                    poison(p, size);
                    return;
                }
            }
        }
        ::operator delete(p, std::align_val_t{kAlignment});
    }

    /// Frees every cached block.
    void empty_cache() {
        std::lock_guard lock(mutex_);
        cache_.trim(0, release);
    }

    /// Bounds the bytes the cache may hold; shrinks the cache now if needed.
    void set_cache_limit(size_t bytes) {
        std::lock_guard lock(mutex_);
        cache_.set_limit(bytes, release);
    }
    size_t cache_limit() const {
        std::lock_guard lock(mutex_);
        return cache_.limit();
    }

    AllocatorStats stats() const {
        std::lock_guard lock(mutex_);
        AllocatorStats s;
        s.allocations = allocations_.load(std::memory_order_relaxed);
        s.cache_hits = cache_.hits();
        s.cached_bytes = static_cast<int64_t>(cache_.cached_bytes());
        s.in_use_bytes = in_use_bytes_ + in_use_small_.load(std::memory_order_relaxed);
        return s;
    }

    static size_t size_class(size_t nbytes) { return BlockCache::size_class(nbytes); }

private:
    static constexpr size_t kMaxSmallBytes = 4096;
    static constexpr size_t kSmallBlocksPerClass = 64;

    static constexpr size_t kSmallClasses = kMaxSmallBytes / kAlignment;

    /// Per-thread free lists of small blocks, one per 64-byte size class, linked through the
    /// blocks themselves. Trivially destructible and constant-initialised, so they can be read
    /// at any point of the thread's life, during static initialisation and destruction and
    /// after the thread's other thread_locals are gone (see ThreadCacheState).
    struct SmallBlock {
        SmallBlock* next;
    };
    struct SmallLists {
        SmallBlock* head[kSmallClasses];
        uint32_t count[kSmallClasses];
        ThreadCacheState state;
    };
    static SmallLists& small_lists() {
        thread_local constinit SmallLists lists{};
        return lists;
    }
    static void free_small_block(SmallBlock* b, size_t size_class) {
        unpoison(b, (size_class + 1) * kAlignment);
        ::operator delete(b, std::align_val_t{kAlignment});
    }
    /// Registers the thread's reaper (on its first small allocation) and makes its lists Live.
    [[gnu::noinline]] static void open_small_lists(SmallLists& l) {
        thread_local ThreadCacheReaper<&small_lists, &free_small_block> reaper;
        (void)reaper;
        l.state = ThreadCacheState::Live;
    }
    // AddressSanitizer: a cached block is poisoned (but its link) until it is handed out again,
    // so a use of freed tensor storage is still reported though the block is recycled.
    static void poison([[maybe_unused]] void* p, [[maybe_unused]] size_t size) {
#if TENET_ALLOCATOR_ASAN
        ASAN_POISON_MEMORY_REGION(static_cast<char*>(p) + sizeof(SmallBlock), size - sizeof(SmallBlock));
#endif
    }
    static void unpoison([[maybe_unused]] void* p, [[maybe_unused]] size_t size) {
#if TENET_ALLOCATOR_ASAN
        ASAN_UNPOISON_MEMORY_REGION(p, size);
#endif
    }

    static void release(void* p, size_t) { ::operator delete(p, std::align_val_t{kAlignment}); }

    mutable std::mutex mutex_;
    BlockCache cache_{kDefaultCacheLimit};
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

namespace detail {

/// Per-thread free lists for the small objects that every tensor and autograd node allocates
/// (TensorImpl, StorageImpl, AutogradMeta, nodes): on small tensors, malloc and free cost more
/// than the arithmetic. Blocks are recycled by size class of 16 bytes, at most kMaxPerClass per
/// class and thread; a block freed on another thread joins that thread's lists. Kept apart
/// from host_allocator(), whose statistics count tensor storage.
class ObjectPool {
public:
    static constexpr size_t kGranule = 16, kMaxBytes = 512, kMaxPerClass = 256;

    static void* allocate(size_t bytes) {
        if (kPooling && bytes <= kMaxBytes) {
            Lists& l = lists();
            const size_t c = size_class(bytes);
            if (Block* b = l.head[c]) {  // only a live thread's lists hold blocks
                l.head[c] = b->next;
                --l.count[c];
                return b;
            }
            if (l.state == ThreadCacheState::Unopened) open(l);
            return ::operator new((c + 1) * kGranule);
        }
        return ::operator new(bytes);
    }
    static void deallocate(void* p, size_t bytes) noexcept {
        if (kPooling && bytes <= kMaxBytes) {
            Lists& l = lists();
            const size_t c = size_class(bytes);
            if (l.state == ThreadCacheState::Live && l.count[c] < kMaxPerClass) {
                l.head[c] = new (p) Block{l.head[c]};
                ++l.count[c];
                return;
            }
        }
        ::operator delete(p);
    }

private:
#if defined(__SANITIZE_ADDRESS__)
    static constexpr bool kPooling = false;  // AddressSanitizer then sees every object's use after free
#else
    static constexpr bool kPooling = true;
#endif
    static constexpr size_t kClasses = kMaxBytes / kGranule;
    struct Block {
        Block* next;
    };
    /// Trivially destructible, so it stays usable while the thread's other thread_locals (and,
    /// on the main thread, the statics) are destroyed: once Dead, blocks go straight back.
    struct Lists {
        Block* head[kClasses];
        uint32_t count[kClasses];
        ThreadCacheState state;
    };
    static void free_block(Block* b, size_t) { ::operator delete(b); }
    static size_t size_class(size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kGranule; }
    static Lists& lists() {
        thread_local constinit Lists l{};
        return l;
    }
    /// Registers the thread's reaper (on its first pooled allocation) and makes its lists Live.
    [[gnu::noinline]] static void open(Lists& l) {
        thread_local ThreadCacheReaper<&lists, &free_block> reaper;
        (void)reaper;
        l.state = ThreadCacheState::Live;
    }
};

/// An allocator over ObjectPool, for std::allocate_shared.
template <class T>
struct PoolAllocator {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "tenet: PoolAllocator needs the default alignment");
    using value_type = T;
    PoolAllocator() = default;
    template <class U>
    PoolAllocator(const PoolAllocator<U>&) {}
    T* allocate(size_t n) { return static_cast<T*>(ObjectPool::allocate(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { ObjectPool::deallocate(p, n * sizeof(T)); }
    friend bool operator==(const PoolAllocator&, const PoolAllocator&) { return true; }
};

template <class T>
using PooledVector = std::vector<T, PoolAllocator<T>>;

/// std::make_shared from the object pool.
template <class T, class... Args>
std::shared_ptr<T> make_pooled(Args&&... args) {
    return std::allocate_shared<T>(PoolAllocator<T>{}, std::forward<Args>(args)...);
}

}  // namespace detail

}  // namespace tenet
