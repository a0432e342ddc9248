// The main of tenet_cuda_tests (the device tests compiled by nvcc): without a CUDA device it
// says so and exits 77, which ctest reports as "skipped", so a GPU-less machine stays green
// while the CUDA code is still compiled.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <cuda_runtime_api.h>

int main(int argc, char** argv) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        std::printf("tenet_cuda_tests: SKIPPED, no CUDA device (%s). The device code paths are tested on the "
                    "host by tenet_device_tests (Thrust's OpenMP emulation).\n",
                    status != cudaSuccess ? cudaGetErrorString(status) : "device count 0");
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
