#pragma once
// The device FFT engine (nvcc only; link CUDA::cufft): the host engine's batched strided 1-D
// transforms (fft/engine.hpp's Layout, c2c / r2c / c2r) on device buffers, through cuFFT's
// advanced layout (cufftMakePlanMany64: n points, element stride, batch of rows at a batch
// stride; any lengths, primes included). Unlike the host engine it does not scale: the
// transforms (fft/transforms.hpp) apply the norm to the whole result afterwards, as PyTorch's
// cuFFT path does. c2r overwrites its input (cuFFT's C2R does), so the caller passes a scratch
// copy. Plans live in the host engine's plan cache (fft/plan_cache.hpp; Backend::CuFFT, keyed by
// precision, kind, n, the layout and the device), so plan_cache::size/clear/set_max_size cover
// them too. Work is queued on the default stream, in order with tenet's kernels; one plan runs
// one transform at a time (its work area is its own).

#include "tenet/config.hpp"
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

#include <cufft.h>

#include "tenet/backend/device/device_backend.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/cuda/config.cuh"
#include "tenet/fft/engine.hpp"
#include "tenet/fft/plan_cache.hpp"

namespace tenet::inline TENET_ABI::kernels {

inline void check_cufft(cufftResult status, const char* what) {
    if (status != CUFFT_SUCCESS)
        detail::fail<device_error>(what, ": cuFFT error ", static_cast<int>(status));
}

/// A cuFFT plan in the plan cache.
struct CufftPlan : fft::detail::PlanBase {
    cufftHandle handle = 0;
    mutable std::mutex mutex;  // one execution at a time: the plan's work area is shared
    CufftPlan() = default;
    CufftPlan(const CufftPlan&) = delete;
    CufftPlan& operator=(const CufftPlan&) = delete;
    ~CufftPlan() override {
        if (handle) cufftDestroy(handle);  // no throw: may run at exit
    }
};

/// The cached plan of `kind` for T (float or double) over `layout` on the current device.
template <class T>
std::shared_ptr<const CufftPlan> cufft_plan(fft::detail::PlanKind kind, const fft::Layout& l, const char* op) {
    using fft::detail::PlanKind;
    int device = 0;
    check_cuda(cudaGetDevice(&device), op);
    const fft::detail::PlanKey key{fft::Backend::CuFFT, static_cast<int8_t>(sizeof(T)), kind, l.n,
                                   {l.in_stride, l.out_stride, l.batch, l.in_batch_stride, l.out_batch_stride, device, 0}};
    return fft::detail::PlanCache::instance().get<CufftPlan>(key, [&] {
        constexpr bool dbl = std::is_same_v<T, double>;
        const cufftType type = kind == PlanKind::R2C   ? (dbl ? CUFFT_D2Z : CUFFT_R2C)
                               : kind == PlanKind::C2R ? (dbl ? CUFFT_Z2D : CUFFT_C2R)
                                                       : (dbl ? CUFFT_Z2Z : CUFFT_C2C);
        const long long half = l.n / 2 + 1;
        long long n = l.n;
        // The embeddings only switch the advanced layout on (for one dimension cuFFT reads no
        // more of them than the row lengths).
        long long inembed = kind == PlanKind::C2R ? half : n, onembed = kind == PlanKind::R2C ? half : n;
        // A single row has batch stride 0 in the Layout; cuFFT refuses a zero distance
        // (CUFFT_INVALID_VALUE), so one row's span stands in for it.
        const long long idist = l.batch > 1 ? l.in_batch_stride : (inembed - 1) * l.in_stride + 1;
        const long long odist = l.batch > 1 ? l.out_batch_stride : (onembed - 1) * l.out_stride + 1;
        auto plan = std::make_shared<CufftPlan>();
        check_cufft(cufftCreate(&plan->handle), op);
        size_t work = 0;
        const cufftResult made = cufftMakePlanMany64(plan->handle, 1, &n, &inembed, l.in_stride, idist, &onembed,
                                                     l.out_stride, odist, type, l.batch, &work);
        if (made != CUFFT_SUCCESS)
            detail::fail<device_error>(op, ": cuFFT could not plan ", l.batch, " rows of ", l.n, " points (strides ",
                                       l.in_stride, " in, ", l.out_stride, " out; row distances ", idist, ", ", odist,
                                       "): cuFFT error ", static_cast<int>(made));
        return plan;
    });
}

/// fft/engine.hpp's c2c on device buffers (interleaved (re, im) T's), unscaled.
template <class T>
void cufft_c2c(const T* in, T* out, const fft::Layout& l, fft::Direction direction, Device device) {
    const char* op = direction == fft::Direction::Forward ? "fft (cuFFT c2c forward)" : "ifft (cuFFT c2c inverse)";
    if (l.batch == 0) return;
    detail::DeviceGuard guard(device);
    const auto plan = cufft_plan<T>(direction == fft::Direction::Forward ? fft::detail::PlanKind::C2CForward
                                                                         : fft::detail::PlanKind::C2CInverse,
                                    l, op);
    const int dir = direction == fft::Direction::Forward ? CUFFT_FORWARD : CUFFT_INVERSE;
    std::lock_guard lock(plan->mutex);
    if constexpr (std::is_same_v<T, double>)
        check_cufft(cufftExecZ2Z(plan->handle, reinterpret_cast<cufftDoubleComplex*>(const_cast<T*>(in)),
                                 reinterpret_cast<cufftDoubleComplex*>(out), dir),
                    op);
    else
        check_cufft(cufftExecC2C(plan->handle, reinterpret_cast<cufftComplex*>(const_cast<T*>(in)),
                                 reinterpret_cast<cufftComplex*>(out), dir),
                    op);
}

/// fft/engine.hpp's r2c on device buffers, unscaled.
template <class T>
void cufft_r2c(const T* in, T* out, const fft::Layout& l, Device device) {
    const char* op = "rfft (cuFFT r2c)";
    if (l.batch == 0) return;
    detail::DeviceGuard guard(device);
    const auto plan = cufft_plan<T>(fft::detail::PlanKind::R2C, l, op);
    std::lock_guard lock(plan->mutex);
    if constexpr (std::is_same_v<T, double>)
        check_cufft(cufftExecD2Z(plan->handle, const_cast<T*>(in), reinterpret_cast<cufftDoubleComplex*>(out)), op);
    else
        check_cufft(cufftExecR2C(plan->handle, const_cast<T*>(in), reinterpret_cast<cufftComplex*>(out)), op);
}

/// fft/engine.hpp's c2r on device buffers, unscaled; overwrites `in`.
template <class T>
void cufft_c2r(T* in, T* out, const fft::Layout& l, Device device) {
    const char* op = "irfft (cuFFT c2r)";
    if (l.batch == 0) return;
    detail::DeviceGuard guard(device);
    const auto plan = cufft_plan<T>(fft::detail::PlanKind::C2R, l, op);
    std::lock_guard lock(plan->mutex);
    if constexpr (std::is_same_v<T, double>)
        check_cufft(cufftExecZ2D(plan->handle, reinterpret_cast<cufftDoubleComplex*>(in), out), op);
    else
        check_cufft(cufftExecC2R(plan->handle, reinterpret_cast<cufftComplex*>(in), out), op);
}

}  // namespace tenet::kernels
