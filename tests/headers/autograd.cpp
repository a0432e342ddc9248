// <tenet/autograd.hpp> compiles, links and runs on its own: a backward pass and autograd::grad.
#include <tenet/autograd.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    Tensor<double> x = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
    Tensor<double> loss = (x * x).sum();
    loss.backward();
    std::cout << x.grad() << autograd::to_dot(loss).size() << "\n";
    return x.grad()[2].item() == 6.0 ? 0 : 1;
}
