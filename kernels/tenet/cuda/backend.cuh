#pragma once
// The CUDA device backend (backend/device/device_backend.hpp): caching allocation per device, copies
// between host and devices, strided copies and fills. It registers itself in every program
// that compiles this header (tenet.hpp includes it under nvcc and TENET_DEVICE_EMULATION).
//
// Under TENET_DEVICE_EMULATION the same code runs on Thrust's OpenMP system: one "device",
// whose memory is host memory reached only through the backend and the kernels (raw host
// access is refused as for a real device), so CI exercises every device path without a GPU.

#include "tenet/config.hpp"
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "tenet/core/allocator.hpp"
#include "tenet/core/convert.hpp"
#include "tenet/backend/device/device_backend.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/cuda/config.cuh"

namespace tenet::inline TENET_ABI::kernels {

/// Copies elements of type W (any type of the element's size) over a strided loop.
template <class W>
struct StridedCopy {
    W* dst;
    const W* src;
    detail::DeviceLoop<2> loop;
    TENET_HD void operator()(int64_t i) const {
        int64_t off[2];
        loop.offsets(i, off);
        dst[off[0]] = src[off[1]];
    }
};

/// Sets every element (type W) of a strided destination to one value.
template <class W>
struct StridedFill {
    W* dst;
    W value;
    detail::DeviceLoop<1> loop;
    TENET_HD void operator()(int64_t i) const {
        int64_t off[1];
        loop.offsets(i, off);
        dst[off[0]] = value;
    }
};

/// dst[i] += src[i] in T's opmath (float for the 16-bit floats).
template <class T>
struct Accumulate {
    T* dst;
    const T* src;
    TENET_HD void operator()(int64_t i) const {
        using M = fn::opmath_t<T>;
        dst[i] = convert<T>(static_cast<M>(dst[i]) + static_cast<M>(src[i]));
    }
};

/// A 16-byte element (complex128) moved as one unit.
struct alignas(16) Word16 {
    uint64_t lo, hi;
};

/// Calls f with a value of the trivially copyable type of `itemsize` bytes.
template <class F>
void with_word(int64_t itemsize, F&& f) {
    switch (itemsize) {
        case 1: return f(uint8_t{});
        case 2: return f(uint16_t{});
        case 4: return f(uint32_t{});
        case 8: return f(uint64_t{});
        case 16: return f(Word16{});
        default: detail::fail<dtype_error>("device copy: unsupported element size ", itemsize);
    }
}

class ThrustBackend final : public detail::DeviceBackend {
public:
    /// Cached bytes per device before freed blocks go back to the driver.
    static constexpr size_t kCacheLimit = size_t{8} << 30;

    ThrustBackend() {
#if defined(__CUDACC__)
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess) {
            n = 0;
            cudaGetLastError();  // a machine without a driver or GPU: no devices, not an error
        }
        count_ = n;
#else
        count_ = 1;
#endif
        for (int d = 0; d < count_; ++d) caches_.emplace_back(kCacheLimit);
    }

    std::string name() const override {
#if defined(__CUDACC__)
        cudaDeviceProp prop{};
        const int d = count_ > 0 ? current_device() : 0;
        if (count_ > 0 && cudaGetDeviceProperties(&prop, d) == cudaSuccess)
            return std::string("CUDA (") + prop.name + ", sm_" + std::to_string(prop.major) +
                   std::to_string(prop.minor) + ")";
        return "CUDA (no device)";
#else
        return "Thrust OpenMP emulation of CUDA (host memory)";
#endif
    }
    bool emulated() const override { return !kCuda; }
    int device_count() const override { return count_; }
    int current_device() const override {
#if defined(__CUDACC__)
        int d = 0;
        check_cuda(cudaGetDevice(&d), "current_device");
        return d;
#else
        return 0;
#endif
    }
    void set_device(int index) override {
#if defined(__CUDACC__)
        check_cuda(cudaSetDevice(index), "set_device");
#else
        (void)index;
#endif
    }

    void* allocate(size_t nbytes, int index) override {
        const size_t size = BlockCache::size_class(nbytes);
        {
            std::lock_guard lock(mutex_);
            if (void* p = caches_[static_cast<size_t>(index)].take(size)) return p;
        }
        void* p = raw_allocate(size, index);
        if (!p) {  // out of memory: give the cached blocks back and try once more
            empty_cache();
            p = raw_allocate(size, index);
        }
        if (!p)
            detail::fail<device_error>("empty: out of memory on cuda:", index, " allocating ", nbytes, " bytes");
        return p;
    }
    void deallocate(void* p, size_t nbytes, int index) noexcept override {
        const size_t size = BlockCache::size_class(nbytes);
        {
            std::lock_guard lock(mutex_);
            if (caches_[static_cast<size_t>(index)].put(p, size)) return;
        }
        raw_free(p, index);
    }
    void empty_cache() override {
        std::lock_guard lock(mutex_);
        for (size_t d = 0; d < caches_.size(); ++d)
            caches_[d].trim(0, [&](void* p, size_t) { raw_free(p, static_cast<int>(d)); });
    }

    void copy_bytes(void* dst, Device, const void* src, Device, size_t nbytes) override {
        if (nbytes == 0) return;
#if defined(__CUDACC__)
        // Unified addressing: one call covers host<->device and device<->device (peer) copies.
        check_cuda(cudaMemcpy(dst, src, nbytes, cudaMemcpyDefault), "copy");
#else
        std::memcpy(dst, src, nbytes);
#endif
    }
    void copy_strided(int index, void* dst, const void* src, const detail::DeviceLoop<2>& loop,
                      int64_t itemsize) override {
        detail::DeviceGuard guard(Device(DeviceType::CUDA, index));
        with_word(itemsize, [&](auto word) {
            using W = decltype(word);
            for_each_index(loop.numel, StridedCopy<W>{static_cast<W*>(dst), static_cast<const W*>(src), loop},
                           "copy_");
        });
    }
    void fill_strided(int index, void* dst, const detail::DeviceLoop<1>& loop, const void* value,
                      int64_t itemsize) override {
        detail::DeviceGuard guard(Device(DeviceType::CUDA, index));
        with_word(itemsize, [&](auto word) {
            using W = decltype(word);
            W v;
            std::memcpy(&v, value, sizeof(W));
            for_each_index(loop.numel, StridedFill<W>{static_cast<W*>(dst), v, loop}, "fill_");
        });
    }
    void accumulate(int index, void* dst, const void* src, int64_t numel, DType dtype) override {
        detail::DeviceGuard guard(Device(DeviceType::CUDA, index));
        auto run = [&](auto tag) {
            using T = typename decltype(tag)::type;
            for_each_index(numel, Accumulate<T>{static_cast<T*>(dst), static_cast<const T*>(src)}, "accumulate");
        };
        switch (dtype.scalar_type()) {
            case ScalarType::Float32: return run(kFloat32);
            case ScalarType::Float64: return run(kFloat64);
            case ScalarType::Float16: return run(kFloat16);
            case ScalarType::BFloat16: return run(kBFloat16);
            default: detail::fail<dtype_error>("accumulate: expected a floating point dtype, got ", dtype);
        }
    }
    void synchronize(int index) override {
#if defined(__CUDACC__)
        detail::DeviceGuard guard(Device(DeviceType::CUDA, index));
        check_cuda(cudaDeviceSynchronize(), "synchronize");
#else
        (void)index;
#endif
    }

private:
    static void* raw_allocate(size_t size, int index) {
#if defined(__CUDACC__)
        detail::DeviceGuard guard(Device(DeviceType::CUDA, index));
        void* p = nullptr;
        if (cudaMalloc(&p, size) != cudaSuccess) {
            cudaGetLastError();  // clear the out-of-memory error; the caller retries or throws
            return nullptr;
        }
        return p;
#else
        (void)index;
        return ::operator new(size, std::align_val_t{256}, std::nothrow);
#endif
    }
    static void raw_free(void* p, int index) noexcept {
#if defined(__CUDACC__)
        int previous = 0;
        if (cudaGetDevice(&previous) != cudaSuccess) return;  // the runtime is shutting down
        cudaSetDevice(index);
        cudaFree(p);
        cudaSetDevice(previous);
        cudaGetLastError();
#else
        (void)index;
        ::operator delete(p, std::align_val_t{256});
#endif
    }

    int count_ = 0;
    std::mutex mutex_;
    std::vector<BlockCache> caches_;  // one per device
};

/// The process's backend: never destroyed, so tensors freed during static destruction
/// still have somewhere to return their memory.
inline ThrustBackend& thrust_backend() {
    static auto* backend = new ThrustBackend();
    return *backend;
}

/// Registers the backend before main() in every program that includes this header.
inline const bool backend_registered = (detail::device_backend_slot() = &thrust_backend(), true);

}  // namespace tenet::kernels
