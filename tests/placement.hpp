#pragma once
// Where the golden tests put their inputs. The host by default; tests/device/ compiles the
// same PyTorch-generated cases with TENET_TEST_DEVICE defined as "cuda", so every case also
// runs on the device (on a GPU, or on Thrust's OpenMP emulation of one in CI).

#include <catch2/catch.hpp>

#include <tenet/tenet.hpp>

#ifndef TENET_TEST_DEVICE
#define TENET_TEST_DEVICE "cpu"
#endif

namespace placement {

/// The device the cases run on.
inline tenet::Device device() { return tenet::Device(TENET_TEST_DEVICE); }

/// t moved to the test device (t itself on the host).
template <class T>
tenet::Tensor<T> place(const tenet::Tensor<T>& t) {
    return device().is_cpu() ? t : t.to(device());
}

/// Checks that a result lives where the inputs were put.
template <class T>
void check_device(const tenet::Tensor<T>& r) {
    INFO("result device " << r.device() << ", test device " << device());
    CHECK(r.device().type() == device().type());
}

}  // namespace placement
