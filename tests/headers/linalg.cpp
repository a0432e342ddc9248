// <tenet/linalg.hpp> compiles, links and runs on its own: a decomposition.
#include <tenet/linalg.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    Tensor<double> A = tensor({{4.0, 1.0}, {1.0, 3.0}}, kFloat64);
    Tensor<double> I = matmul(A, linalg::inv(A));
    std::cout << I << "\n";
    return std::abs(I[0][0].item() - 1.0) < 1e-12 ? 0 : 1;
}
