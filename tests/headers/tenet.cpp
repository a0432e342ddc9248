// <tenet/tenet.hpp> compiles, links and runs on its own: an expression, a reduction with its
// gradient, a product and printing, as a hello-world uses them.
#include <tenet/tenet.hpp>

#include <iostream>

using namespace tenet;

int main() {
    Tensor<float> x = arange(6, kFloat32).view({2, 3});
    Tensor<float> w = ones({3, 2});
    Tensor<float> y = sigmoid(x * 0.5f) - x / 6.0f;
    std::cout << y.mm(w) << "\n";
    const bool expected_sum = sum(x).item() == 15.0f;
#if TENET_AUTOGRAD
    Tensor<float> p = ones({3});
    p.requires_grad_();
    (x * p).sum().backward();
    return expected_sum && p.grad()[2].item() == 7.0f ? 0 : 1;  // column sums of x: 3, 5, 7
#else
    return expected_sum ? 0 : 1;
#endif
}
