#pragma once
// Comparisons of transform results with PyTorch's (tests/fft/test_fft.cpp, test_stft.cpp).
#include <tenet/tenet.hpp>

#include "../golden_data.hpp"

namespace tenet_fft_test {

/// The real numbers of a tensor (both parts of each complex value), in order.
template <class R>
std::vector<double> numbers(const tenet::Tensor<R>& t) {
    std::vector<double> out;
    for (const R& v : t.cpu().contiguous().to_vector()) {
        if constexpr (tenet::is_complex_v<R>) {
            out.push_back(v.real());
            out.push_back(v.imag());
        } else {
            out.push_back(static_cast<double>(v));
        }
    }
    return out;
}

/// Every number within tol * max(1, the largest |expected|): an FFT's rounding error scales
/// with the size of the whole transform, not of each output.
inline void check_numbers(const std::vector<double>& got, const std::vector<double>& expected, double tol) {
    REQUIRE(got.size() == expected.size());
    double scale = 1;
    for (double e : expected) scale = std::max(scale, std::abs(e));
    for (size_t i = 0; i < got.size(); ++i) {
        INFO("number " << i << ": tenet " << got[i] << ", expected " << expected[i]);
        CHECK(std::abs(got[i] - expected[i]) <= tol * scale);
    }
}
template <class R>
double tolerance() {
    return std::is_same_v<tenet::real_t<R>, double> ? 1e-12 : 1e-5;
}

/// dtype, sizes and contiguity exactly; the numbers within tolerance<R>().
template <class R>
void check_result(const golden::Golden& expected, const tenet::Tensor<R>& actual) {
    CHECK(std::string(actual.dtype().name()) == expected.dtype);
    REQUIRE(actual.sizes() == expected.sizes);
    CHECK(actual.is_contiguous());
    check_numbers(numbers(actual), expected.values, tolerance<R>());
}

}  // namespace tenet_fft_test
