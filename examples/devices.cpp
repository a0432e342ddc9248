// Devices: the same expressions, reductions, random numbers, products and gradients on a CUDA
// device, as the seed tutorial's section 5 does in PyTorch.
//
// Built three ways (examples/CMakeLists.txt): by the host compiler (no CUDA backend: requests
// for "cuda" throw device_error, as a CPU-only PyTorch does), with TENET_DEVICE_EMULATION (the
// device backend on Thrust's OpenMP system), and by nvcc (a real GPU when one is present).
#include <tenet/tenet.hpp>

#include <iostream>

using namespace tenet;

int main() {
    std::cout << "cuda_is_available() = " << std::boolalpha << cuda_is_available()
              << ", backend: " << cuda_backend_name() << "\n";
    if (!cuda_is_available()) {
        try {
            auto t = rand({3, 4}, "cuda");
        } catch (const device_error& e) {
            std::cout << "rand({3, 4}, \"cuda\") throws: " << e.what() << "\n";
        }
    }
    // PyTorch's idiom: pick the device once.
    const Device device = cuda_is_available() ? Device("cuda") : Device("cpu");
    std::cout << "device: " << device << "\n";

    manual_seed(0);
    auto a = rand({2, 4}, device);
    auto b = rand({2, 4}, "cpu");
    std::cout << "a = " << a << " on " << a.device() << "\n";
    std::cout << "b = " << b << " on " << b.device() << "\n";
    // Moving: cuda(), to("cuda"), to("cuda:0"), and back with cpu().
    if (cuda_is_available()) {
        std::cout << "b.cuda() = " << b.cuda() << "\n";
        std::cout << "b.to(\"cuda:0\", kFloat64) = " << b.to(Device("cuda:0"), kFloat64) << "\n";
        try {
            auto c = a + b;  // a on the device, b on the host
        } catch (const device_error& e) {
            std::cout << "a + b throws: " << e.what() << "\n";
        }
    }
    // One fused kernel for the whole expression, then a reduction on the device.
    Tensor<float> y = sigmoid(a * b.to(device) + 1) * 2 - a;
    std::cout << "y = " << y << "\nsum(y * y) = " << sum(y * y) << "\n";
    // The same seed gives the same numbers on the host and on the device.
    manual_seed(42);
    const auto on_host = randn({4});
    manual_seed(42);
    const auto on_device = randn({4}, device);
    std::cout << "randn with seed 42: " << on_host << " and " << on_device << "\n";
    // Products (cuBLAS on a GPU) and gradients, computed where the tensors live.
    auto w = randn({4, 3}, device).requires_grad_();
    auto loss = matmul(a, w).pow(2).mean();
    loss.backward();
    std::cout << "loss = " << loss << "\nw.grad() = " << w.grad() << "\n";
}
