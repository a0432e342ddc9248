#pragma once
// Where the golden tests put their inputs. The placed files (tests/CMakeLists.txt) are compiled
// into the emulated device binary where it is built, whose TUs evaluate on the host and on the
// device both: one compile serves both placements, chosen at run time by TENET_TEST_PLACEMENT
// ("cpu" or "cuda"; ctest registers each of those files once for each). Without the variable, the
// binary's own placement: TENET_TEST_DEVICE, "cuda" in the device binaries, else "cpu".

#include <catch2/catch.hpp>

#include <tenet/tenet.hpp>

#include <cstdlib>

#ifndef TENET_TEST_DEVICE
#define TENET_TEST_DEVICE "cpu"
#endif

namespace placement {

/// The device the cases run on.
inline tenet::Device device() {
    static const tenet::Device chosen = [] {
        const char* placement = std::getenv("TENET_TEST_PLACEMENT");
        return tenet::Device(placement != nullptr && *placement != '\0' ? placement : TENET_TEST_DEVICE);
    }();
    return chosen;
}

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
