#pragma once
// SmallMutex: a mutex of four bytes for the objects that autograd shares between threads (every
// recorded node and every tensor's autograd metadata): std::mutex is 40 bytes, as large as a
// node's own fields. Uncontended, lock and unlock are one atomic instruction each; a contended
// lock sleeps in the kernel (std::atomic::wait) instead of spinning, since a node's lock is held
// for the whole of its backward step. Not recursive. Meets the Lockable requirements, so
// std::lock_guard and std::unique_lock take it.

#include "tenet/config.hpp"
#include <atomic>
#include <cstdint>

namespace tenet::inline TENET_ABI::detail {

class SmallMutex {
public:
    SmallMutex() = default;
    SmallMutex(const SmallMutex&) = delete;
    SmallMutex& operator=(const SmallMutex&) = delete;

    void lock() noexcept {
        if (!try_lock()) lock_contended();
    }
    bool try_lock() noexcept {
        uint32_t expected = kFree;
        return state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire, std::memory_order_relaxed);
    }
    void unlock() noexcept {
        // Only a lock that another thread waits for (or has waited for) pays for the wake-up.
        if (state_.exchange(kFree, std::memory_order_release) == kContended) state_.notify_one();
    }

private:
    // Drepper's three states ("Futexes Are Tricky"): a waiter marks the lock contended, so the
    // owner's unlock knows to wake one.
    static constexpr uint32_t kFree = 0, kLocked = 1, kContended = 2;

    [[gnu::noinline]] void lock_contended() noexcept {
        while (state_.exchange(kContended, std::memory_order_acquire) != kFree)
            state_.wait(kContended, std::memory_order_relaxed);
    }

    std::atomic<uint32_t> state_{kFree};
};

}  // namespace tenet::detail
