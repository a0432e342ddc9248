// <tenet/expr.hpp> compiles, links and runs on its own: a fused expression assigned to a new tensor and into a view.
#include <tenet/expr.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    Tensor<float> a = arange(6, kFloat32).view({2, 3}), b = ones({3});
    Tensor<float> y = (a * b + 1.0f) * sin(a) - a / (b + 1.0f);
    y.index({0}).assign(a.index({1}) * 2.0f);
    std::cout << y << "\n";
    return y[0][0].item() == 6.0f ? 0 : 1;
}
