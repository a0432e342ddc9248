// The window functions (tenet/ops/windows.hpp) and torch.fft's helpers fftfreq, rfftfreq,
// fftshift and ifftshift (tenet/fft/freq.hpp) against PyTorch 1.13 (tests/golden/gen_windows.py
// writes the cases), and their refusals.
#include <tenet/fft.hpp>

#include "../golden_data.hpp"
#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using golden::Case;
using golden::GoldenFile;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "windows_cases.txt"); }

/// The window or frequencies a case names, of element type T.
template <class T>
Tensor<T> created(const Case& c) {
    const int64_t n = c.integer("n", 0);
    const bool periodic = c.flag("periodic");
    if (c.op == "hann_window") return hann_window<T>(n, periodic);
    if (c.op == "hamming_window") return hamming_window<T>(n, periodic, c.number("alpha", 0), c.number("beta", 0));
    if (c.op == "blackman_window") return blackman_window<T>(n, periodic);
    if (c.op == "bartlett_window") return bartlett_window<T>(n, periodic);
    if (c.op == "kaiser_window") return kaiser_window<T>(n, periodic, c.number("beta", 0));
    if (c.op == "fftfreq") return fft::fftfreq<T>(n, c.number("d", 0));
    REQUIRE(c.op == "rfftfreq");
    return fft::rfftfreq<T>(n, c.number("d", 0));
}

/// fftshift or ifftshift of x along the case's dims (all without).
template <class T>
Tensor<T> shifted(const Case& c, const Tensor<T>& x) {
    const std::optional<IntArray> dims = c.dims();
    return c.op == "fftshift" ? fft::fftshift(x, dims) : fft::ifftshift(x, dims);
}

}  // namespace

TEST_CASE("windows, fftfreq, rfftfreq, fftshift and ifftshift match PyTorch", "[fft]") {
    int checked = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case") continue;
        INFO(c.line.substr(0, 200));
        const golden::Golden expected = golden::parse_part(c.parts.at(0));
        if (c.op == "fftshift" || c.op == "ifftshift") {
            golden::with_dtype(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
                if constexpr (std::is_floating_point_v<T>) golden::compare(expected, shifted(c, golden::input<T>(cases(), c, "x")), 0.0);
            });
        } else if (c.arg("dtype") == "float32") {
            // PyTorch's cos is SLEEF's (1 ulp), the C library's here: a few ulps of 1.
            golden::compare(expected, created<float>(c), 4e-7);
        } else {
            golden::compare(expected, created<double>(c), 1e-14);  // exp, pow: a few ulps
        }
        ++checked;
    }
    CHECK(checked > 500);
}

TEST_CASE("windows, fftfreq and fftshift refuse what PyTorch refuses, naming the op and the value", "[fft]") {
    using Catch::Matchers::Contains;
    using Catch::Matchers::Equals;
    int checked = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        const std::string& message = c.parts.at(0);
        if (c.op.find("_window") != std::string::npos) {
            // tenet's message is PyTorch's, word for word.
            const int64_t n = c.integer("n", 0);
            Case k = c;
            k.kind = "case";
            TENET_REQUIRE_THROWS(created<float>(k), value_error, Equals(message.substr(1)));
            TENET_REQUIRE_THROWS(created<double>(k), value_error, Contains("window_length=" + std::to_string(n)));
        } else if (c.op == "fftfreq") {
            TENET_REQUIRE_THROWS(fft::fftfreq(-1), value_error, Contains("fftfreq") && Contains("n=-1"));
        } else {
            golden::with_dtype(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
                if constexpr (std::is_floating_point_v<T>) {
                    const Tensor<T> x = golden::input<T>(cases(), c, "x");
                    if (message.find("Dimension out of range") != std::string::npos)
                        TENET_REQUIRE_THROWS(shifted(c, x), index_error,  // PyTorch's words after tenet's "op: d"
                                             Contains(c.op + ": d") && Contains(message.substr(2)));
                    else
                        TENET_REQUIRE_THROWS(shifted(c, x), value_error, Contains(c.op + ": `shifts` required"));
                }
            });
        }
        ++checked;
    }
    CHECK(checked == 15);
    // tenet's own: rfftfreq of a negative n (PyTorch returns n / 2 + 1 meaningless values).
    TENET_REQUIRE_THROWS(fft::rfftfreq(-4, 1.0, kFloat64), value_error, Contains("rfftfreq") && Contains("n=-4"));
}

TEST_CASE("windows and fftfreq take their dtype from a tag or a template argument", "[fft]") {
    CHECK(hann_window(4, kFloat64).dtype() == kFloat64);
    CHECK(hann_window(4).dtype() == kFloat32);
    CHECK(equal(hamming_window(4, false, 0.5, 0.5, kFloat64), hann_window<double>(4, false)));
    CHECK(kaiser_window(3, false, kFloat64).dtype() == kFloat64);
    CHECK(blackman_window(3, true, kFloat64).dtype() == kFloat64);
    CHECK(bartlett_window<double>(3).dtype() == kFloat64);
    CHECK(fft::fftfreq(4, 0.5, kFloat64).dtype() == kFloat64);
    CHECK(fft::rfftfreq(4, kFloat64).sizes() == IntArray{3});
    CHECK(equal(fft::fftshift(arange(5.0f), 0), fft::fftshift(arange(5.0f))));
    CHECK(equal(fft::ifftshift(fft::fftshift(arange(6.0).view({2, 3}))), arange(6.0).view({2, 3})));
}

}}  // namespace TENET_TEST_FILE
