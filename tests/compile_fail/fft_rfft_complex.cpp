// PyTorch refuses a complex input to rfft at run time ("rfft expects a real input tensor, but got
// ComplexFloat"); tenet refuses it at compile time.
#include <tenet/ops.hpp>
#include <tenet/fft.hpp>

int main() {
    auto z = tenet::zeros({8}, tenet::kComplex64);
    auto spectrum = tenet::fft::rfft(z);
    return static_cast<int>(spectrum.numel());
}
