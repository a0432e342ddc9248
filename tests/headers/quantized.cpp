// <tenet/quantized.hpp> compiles, links and runs on its own: a quantize/dequantize round trip,
// a quantized add and a print.
#include <tenet/quantized.hpp>

#include <iostream>

using namespace tenet;

int main() {
    const auto q = quantize_per_tensor(tensor<float>({0.5f, -1.0f, 2.25f}), 0.25, 10, kQUInt8);
    const auto r = quantized::add(q, q, 0.5, 0);
    const bool ok = q.dequantize().to_vector() == std::vector<float>{0.5f, -1.0f, 2.25f} &&
                    r.dequantize().to_vector() == std::vector<float>{1.0f, 0.0f, 4.5f};
    std::cout << r << "\n" << (ok ? "ok" : "failed") << "\n";
    return ok ? 0 : 1;
}
