// Built with -ffp-contract=off (what TENET_FP_CONTRACT=OFF adds to tenet::tenet), and with FMA
// instructions available where the CPU has them: a fused a*b + c rounds the product and the sum
// apart, as PyTorch's eager ops do, never as one fused multiply-add.
#include <tenet/expr.hpp>

#include <cmath>
#include <iostream>

using namespace tenet;

int main() {
    // a*b = 1 + 2^-11 + 2^-24 exactly; rounded to float it is 1 + 2^-11 (a tie, to even), so the
    // two roundings give a*b + c = 0, where one fused multiply-add gives 2^-24.
    const float a = 1.0f + std::ldexp(1.0f, -12);
    const float c = -(1.0f + std::ldexp(1.0f, -11));
    Tensor<float> x = full({4}, a), z = full({4}, c);
    Tensor<float> y = x * x + z;
    const float fused = std::fma(a, a, c);
    std::cout << "a*a + c: " << y << " (one fused multiply-add: " << fused << ")\n";
    for (int64_t i = 0; i < 4; ++i)
        if (y[i].item() != 0.0f) return 1;
    return fused == std::ldexp(1.0f, -24) ? 0 : 2;  // the case does tell the two apart
}
