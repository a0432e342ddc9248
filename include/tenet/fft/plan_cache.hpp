#pragma once
// The FFT plan cache: every plan the engines make (kissfft's and Bluestein's tables, FFTW's
// plans, cuFFT's) is kept here under its key (backend, precision, kind, length and, for FFTW and
// cuFFT, the layout)
// and reused by later calls, as PyTorch keeps cuFFT's plans. Thread-safe: one mutex guards the
// map; a plan is made outside the lock (a plan's making may ask the cache for the plans it is
// built on), and if two threads make the same plan at once the first one stored is kept.
// Bounded: past max_size() plans, the least recently used is dropped (a plan still in use lives
// on in its shared_ptr until its last user finishes).
//
//   tenet::fft::plan_cache::size(), max_size(), set_max_size(n), clear()

#include "tenet/config.hpp"
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace tenet::inline TENET_ABI::fft {

/// The FFT libraries: the host engine's (engine.hpp: KissFFT, FFTW) and the device engine's
/// (CuFFT: kernels/tenet/cuda/fft.cuh under nvcc; its plans share this cache).
enum class Backend : int8_t { KissFFT, FFTW, CuFFT };

namespace detail {

/// What a plan computes.
enum class PlanKind : int8_t { C2CForward, C2CInverse, R2C, C2R };

struct PlanKey {
    Backend backend;
    int8_t precision;  // sizeof the real type
    PlanKind kind;
    int64_t n;
    std::array<int64_t, 7> layout{};  // FFTW and cuFFT: the strides, batch and alignment (cuFFT: device) it was planned for
    auto operator<=>(const PlanKey&) const = default;
};

/// A cached plan; the engines' plans derive from it.
struct PlanBase {
    virtual ~PlanBase() = default;
};

class PlanCache {
public:
    static PlanCache& instance() {
        static PlanCache cache;
        return cache;
    }

    /// The plan under `key`, made by `make()` (a shared_ptr to a PlanBase-derived P) if absent.
    template <class P, class Make>
    std::shared_ptr<const P> get(const PlanKey& key, Make&& make) {
        {
            std::lock_guard lock(mutex_);
            if (auto it = index_.find(key); it != index_.end()) {
                lru_.splice(lru_.begin(), lru_, it->second);  // most recently used first
                return std::static_pointer_cast<const P>(it->second->second);
            }
        }
        std::shared_ptr<const PlanBase> made = std::shared_ptr<const P>(make());
        std::lock_guard lock(mutex_);
        if (auto it = index_.find(key); it != index_.end())  // another thread was first
            return std::static_pointer_cast<const P>(it->second->second);
        lru_.emplace_front(key, std::move(made));
        index_.emplace(key, lru_.begin());
        trim();
        return std::static_pointer_cast<const P>(lru_.front().second);
    }

    size_t size() {
        std::lock_guard lock(mutex_);
        return index_.size();
    }
    size_t max_size() {
        std::lock_guard lock(mutex_);
        return max_size_;
    }
    void set_max_size(size_t n) {
        std::lock_guard lock(mutex_);
        max_size_ = n;
        trim();
    }
    void clear() {
        std::list<Entry> dropped;  // destroyed after the lock is released
        std::lock_guard lock(mutex_);
        dropped.swap(lru_);
        index_.clear();
    }

private:
    using Entry = std::pair<PlanKey, std::shared_ptr<const PlanBase>>;
    void trim() {
        while (index_.size() > max_size_) {
            index_.erase(lru_.back().first);
            lru_.pop_back();
        }
    }
    std::mutex mutex_;
    std::list<Entry> lru_;
    std::map<PlanKey, std::list<Entry>::iterator> index_;
    size_t max_size_ = 4096;
};

}  // namespace detail

/// The plan cache's controls (as torch.backends.cuda.cufft_plan_cache: size, max_size, clear).
namespace plan_cache {
/// The number of plans kept.
inline size_t size() { return detail::PlanCache::instance().size(); }
/// The most plans kept (4096 unless set): past it, the least recently used is dropped.
inline size_t max_size() { return detail::PlanCache::instance().max_size(); }
/// At most n plans are kept (0: none is kept between calls).
inline void set_max_size(size_t n) { detail::PlanCache::instance().set_max_size(n); }
/// Drops every plan (those in use live until their calls finish).
inline void clear() { detail::PlanCache::instance().clear(); }
}  // namespace plan_cache

}  // namespace tenet::inline TENET_ABI::fft
