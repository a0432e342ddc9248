// <tenet/fft.hpp> compiles, links and runs on its own: an rfft through the engine, a window,
// fftfreq and fftshift.
#include <tenet/fft.hpp>

#include <complex>
#include <iostream>
#include <vector>

using namespace tenet;

int main() {
    const Tensor<float> w = hann_window(4);  // [0, 0.5, 1, 0.5]
    std::vector<std::complex<float>> spectrum(3);
    fft::r2c(w.data_ptr(), spectrum.data(), fft::Layout{4}, fft::parse_norm("backward"));
    const Tensor<float> f = fft::fftshift(fft::fftfreq(4));  // [-0.5, -0.25, 0, 0.25]
    const bool ok = spectrum[0] == std::complex<float>(2, 0) && spectrum[1] == std::complex<float>(-1, 0) &&
                    spectrum[2] == std::complex<float>(0, 0) &&
                    f.to_vector() == std::vector<float>{-0.5f, -0.25f, 0.0f, 0.25f};
    std::cout << w << "\n" << f << "\n" << (ok ? "ok" : "failed") << "\n";
    return ok ? 0 : 1;
}
