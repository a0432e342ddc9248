// <tenet/core.hpp> compiles, links and runs on its own: Tensor, views, creation, copies and printing.
#include <tenet/core.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    Tensor<float> t = ones({2, 3});
    Tensor<float> c = t.t().clone();  // a view, then a copy
    t[0][1] = 5.0f;
    std::cout << c.sizes() << " " << t << "\n";
    return (c.sizes() == IntArray{3, 2} && t[0][1].item() == 5.0f && c[1][0].item() == 1.0f) ? 0 : 1;
}
