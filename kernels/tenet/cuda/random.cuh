#pragma once
// Random numbers on a device: element i of the output comes from Philox block
// (offset + i), as on the host (ops/random.hpp), so a seed gives the same values on the
// host and on the device whatever the launch configuration.

#include "tenet/config.hpp"
#include <cstdint>

#include "tenet/cuda/config.cuh"
#include "tenet/ops/random.hpp"

namespace tenet::inline TENET_ABI::kernels {

template <class T, class Element>
struct RandomFill {
    T* out;
    PhiloxState state;
    Element element;
    TENET_HD void operator()(int64_t i) const { out[i] = element(state, i); }
};

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class T, class Element>
void device_random_fill(const Tensor<T>& out, const PhiloxState& state, const Element& element) {
    DeviceGuard guard(out.device());
    kernels::for_each_index(out.numel(), kernels::RandomFill<T, Element>{out.data_ptr(), state, element}, "random");
}

}  // namespace tenet::detail
