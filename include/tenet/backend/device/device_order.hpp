#pragma once
// The device side of sorting, selection and scans (ops/sort.hpp, ops/scan.hpp) and of the
// class-index losses (nn/functional.hpp): declared here, defined in kernels/tenet/cuda/order.cuh
// (Thrust), which tenet.hpp includes only where the device evaluator exists
// (core/host_device.hpp). They are templates, instantiated only by a program that sorts or scans
// a device tensor. The row functors below are shared by the host loops and the device launches:
// one definition of each rule.

#include "tenet/config.hpp"
#include <cstdint>

#include "tenet/backend/device/device_dispatch.hpp"
#include "tenet/core/device.hpp"
#include "tenet/core/host_device.hpp"

namespace tenet::inline TENET_ABI {
template <class T>
class Tensor;

namespace detail {

struct DimSplit;
enum class ScanKind;

/// Row r of a tensor split as (outer, n, inner) at a dim -> f(first element's offset, n, stride):
/// the call a per-row kernel makes, one thread per row on a device.
template <class F>
struct EachRow {
    F f;
    int64_t n, inner;
    TENET_HD void operator()(int64_t r) const { f((r / inner) * n * inner + r % inner, n, inner); }
};

#if TENET_DEVICE_EVALUATOR
/// f(i) for i in [0, n) on the current device, in one launch (`what` names the op in errors).
template <class F>
void device_for_each_index(int64_t n, const F& f, const char* what);
/// Sorts every row of the contiguous device tensor x split as s, stably (ties keep their order),
/// in PyTorch's order (NaN largest; descending: the order reversed, ties still in index order):
/// the sorted values and their indices along the dim, into contiguous tensors of x's shape.
template <class T>
void device_sort_rows(const Tensor<T>& x, const Tensor<T>& values, const Tensor<int64_t>& indices,
                      const DimSplit& s, bool descending);
/// y = the running sum (product) of x along the middle dim of s, from the end when `reverse`,
/// accumulated in double for floating R and in wrapping int64 otherwise (as the host's).
template <class R, class T>
void device_scan_rows(const Tensor<T>& x, const Tensor<R>& y, const DimSplit& s, ScanKind kind, bool reverse);
#endif

/// f(i) for i in [0, n) on `device`: a host loop, or one device launch (`what` names the op).
template <class F>
void for_each_index_on(Device device, int64_t n, const F& f, const char* what) {
    if (device.is_cpu()) {
        for (int64_t i = 0; i < n; ++i) f(i);
        return;
    }
#if TENET_DEVICE_EVALUATOR
    device_for_each_index(n, f, what);
#else
    no_device_evaluator(what, device);
#endif
}

}  // namespace detail
}  // namespace tenet
