#pragma once
// The optional FFTW 3 backend (GPL: opt in with TENET_HAVE_FFTW=1 and link fftw3 and fftw3f;
// CMake's TENET_USE_FFTW=ON does both). A batched strided transform is one plan of FFTW's guru64
// interface (FFTW_ESTIMATE, which leaves the arrays alone while planning), cached under its
// length, kind, strides, batch and the arrays' alignment (FFTW's new-array execute functions
// need the same layout and alignment as the plan), and run with fftw_execute_dft and friends,
// which are thread-safe. Planning and destroying plans are not: they take a global mutex.

#include "tenet/config.hpp"
#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>

#include <fftw3.h>

#include "tenet/fft/plan_cache.hpp"

namespace tenet::inline TENET_ABI::fft::detail {

template <class T>
struct Fftw;

#define TENET_FFTW_TRAITS(T, P)                                                                   \
    template <>                                                                                 \
    struct Fftw<T> {                                                                            \
        using plan = P##_plan;                                                                  \
        using cpx = P##_complex;                                                                \
        using iodim = P##_iodim64;                                                              \
        static plan c2c(const iodim* dim, const iodim* batch, T* in, T* out, int sign, unsigned flags) { \
            return P##_plan_guru64_dft(1, dim, 1, batch, reinterpret_cast<cpx*>(in),            \
                                       reinterpret_cast<cpx*>(out), sign, flags);               \
        }                                                                                       \
        static plan r2c(const iodim* dim, const iodim* batch, T* in, T* out, unsigned flags) {  \
            return P##_plan_guru64_dft_r2c(1, dim, 1, batch, in, reinterpret_cast<cpx*>(out), flags); \
        }                                                                                       \
        static plan c2r(const iodim* dim, const iodim* batch, T* in, T* out, unsigned flags) {  \
            return P##_plan_guru64_dft_c2r(1, dim, 1, batch, reinterpret_cast<cpx*>(in), out, flags); \
        }                                                                                       \
        static void execute_c2c(plan p, T* in, T* out) {                                        \
            P##_execute_dft(p, reinterpret_cast<cpx*>(in), reinterpret_cast<cpx*>(out));        \
        }                                                                                       \
        static void execute_r2c(plan p, T* in, T* out) {                                        \
            P##_execute_dft_r2c(p, in, reinterpret_cast<cpx*>(out));                            \
        }                                                                                       \
        static void execute_c2r(plan p, T* in, T* out) {                                        \
            P##_execute_dft_c2r(p, reinterpret_cast<cpx*>(in), out);                            \
        }                                                                                       \
        static void destroy(plan p) { P##_destroy_plan(p); }                                    \
        static int alignment_of(T* p) { return P##_alignment_of(p); }                           \
    };
TENET_FFTW_TRAITS(double, fftw)
TENET_FFTW_TRAITS(float, fftwf)
#undef TENET_FFTW_TRAITS

/// FFTW's planner is not thread-safe: every plan is made and destroyed under this mutex.
inline std::mutex& fftw_planner_mutex() {
    static std::mutex m;
    return m;
}

template <class T>
struct FftwPlan : PlanBase {
    typename Fftw<T>::plan plan = nullptr;  // null: FFTW has no plan for this layout
    FftwPlan() = default;
    FftwPlan(const FftwPlan&) = delete;
    FftwPlan& operator=(const FftwPlan&) = delete;
    ~FftwPlan() override {
        if (plan) {
            std::lock_guard lock(fftw_planner_mutex());
            Fftw<T>::destroy(plan);
        }
    }
};

/// The FFTW plan of `kind` for n points, the strides (in each buffer's own elements: complex
/// for complex buffers, real for real ones) and the batch, planned on `in` and `out`.
template <class T>
std::shared_ptr<const FftwPlan<T>> fftw_plan(PlanKind kind, int64_t n, int64_t is, int64_t os, int64_t batch,
                                             int64_t ibs, int64_t obs, T* in, T* out) {
    using F = Fftw<T>;
    const int64_t align = static_cast<int64_t>(F::alignment_of(in)) * 1024 + F::alignment_of(out) * 2 + (in == out);
    const PlanKey key{Backend::FFTW, static_cast<int8_t>(sizeof(T)), kind, n, {is, os, batch, ibs, obs, align, 0}};
    return PlanCache::instance().get<FftwPlan<T>>(key, [&] {
        auto p = std::make_shared<FftwPlan<T>>();
        const typename F::iodim dim{n, is, os}, many{batch, ibs, obs};
        std::lock_guard lock(fftw_planner_mutex());
        switch (kind) {
        case PlanKind::C2CForward: p->plan = F::c2c(&dim, &many, in, out, FFTW_FORWARD, FFTW_ESTIMATE); break;
        case PlanKind::C2CInverse: p->plan = F::c2c(&dim, &many, in, out, FFTW_BACKWARD, FFTW_ESTIMATE); break;
        case PlanKind::R2C: p->plan = F::r2c(&dim, &many, in, out, FFTW_ESTIMATE); break;
        // c2r overwrites its input unless told not to (1-D transforms can preserve it).
        case PlanKind::C2R: p->plan = F::c2r(&dim, &many, in, out, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT); break;
        }
        return p;
    });
}

}  // namespace tenet::inline TENET_ABI::fft::detail
