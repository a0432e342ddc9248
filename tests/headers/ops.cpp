// <tenet/ops.hpp> compiles, links and runs on its own: reductions, joins, flips, random numbers and matmul.
#include <tenet/ops.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    manual_seed(0);
    Tensor<float> a = randn({3, 3}), b = ones({3, 3});
    Tensor<float> m = matmul(a, b);
    Tensor<float> s = cat({a, b}, 0).flip(0).sum(0);
    std::cout << m.sum() << s << "\n";
    return (s.sizes() == IntArray{3} && m.sizes() == IntArray{3, 3}) ? 0 : 1;
}
