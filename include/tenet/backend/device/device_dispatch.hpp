#pragma once
// The typed device operations the layers above call when their operands live on a device:
// evaluating an expression, reducing one, filling with random numbers. They are defined in
// kernels/tenet/cuda/ (Thrust), which tenet.hpp includes only where the device evaluator
// exists (core/host_device.hpp); elsewhere the callers throw `no_device_evaluator`.

#include "tenet/config.hpp"
#include <cstdint>
#include <memory>

#include "tenet/core/device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/host_device.hpp"

namespace tenet::inline TENET_ABI {
template <class T>
class Tensor;
struct PhiloxState;

namespace detail {

struct ReducePlan;

/// The error of a host-compiled translation unit asked to compute on a device.
[[noreturn]] inline void no_device_evaluator(const char* op, Device device) {
    if (device.is_meta()) fail_not_on_meta(op);  // no evaluator would help: the op needs data
    fail<device_error>(op, ": computing on ", device,
                       " needs the device evaluator, and this translation unit was compiled without it: compile it "
                       "with nvcc (or define TENET_DEVICE_EMULATION for Thrust's OpenMP emulation). Moving data "
                       "(to, cuda, cpu, copy_, fill_, printing) works everywhere.");
}

#if TENET_DEVICE_EVALUATOR
/// dst = e over dst's shape (e's leaves broadcast), in one kernel on dst's device.
template <class T, class E>
void device_evaluate(const Tensor<T>& dst, const E& e);
/// The accumulators of reducing e (on a device) with r as p says, one per result element,
/// brought back to the host (ops/reduce.hpp projects them).
template <class R, class E>
std::unique_ptr<typename R::acc_t[]> device_reduce_accumulate(const E& e, const R& r, const ReducePlan& p);
/// out[i] = kernel(state, i) for every element of the contiguous device tensor out.
template <class T, class Kernel>
void device_random_fill(const Tensor<T>& out, const PhiloxState& state, const Kernel& kernel);
#endif

}  // namespace detail
}  // namespace tenet
