// torch.stft and torch.istft (tenet/fft/stft.hpp) against PyTorch 1.13 (tests/golden/gen_stft.py
// writes the cases): default and given hops, windows shorter than n_fft, the four pad modes,
// center off, normalized, two-sided spectra, batches, complex signals, istft's length, and
// PyTorch's refusals in its words; then tenet's own refusals, round trips and randn_like of
// complex dtypes.
#include <tenet/fft.hpp>

#include "../golden_data.hpp"
#include "../require_throws.hpp"
#include "fft_golden.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using golden::Case;
using golden::GoldenFile;
using c64 = complex<float>;
using c128 = complex<double>;
using Catch::Matchers::Contains;
using tenet_fft_test::check_numbers;
using tenet_fft_test::check_result;
using tenet_fft_test::numbers;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "stft_cases.txt"); }

/// f.template operator()<T>() for the signal dtypes stft takes.
template <class F>
void with_signal_dtype(const std::string& dtype, F&& f) {
    if (dtype == "float32") f.template operator()<float>();
    else if (dtype == "float64") f.template operator()<double>();
    else if (dtype == "complex64") f.template operator()<c64>();
    else if (dtype == "complex128") f.template operator()<c128>();
    else FAIL("no signal dtype " << dtype);
}

std::optional<int64_t> opt_int(const Case& c, const std::string& k) {
    return c.arg(k) == "none" ? std::nullopt : std::optional<int64_t>(std::stoll(c.arg(k)));
}
std::optional<bool> opt_bool(const Case& c, const std::string& k) {
    return c.arg(k) == "none" ? std::nullopt : std::optional<bool>(c.arg(k) == "1");
}
template <class R>
std::optional<Tensor<R>> window_of(const Case& c) {
    if (c.arg("window") == "none") return std::nullopt;
    return golden::host_tensor<R>(cases().inputs.at(c.arg("window")));
}

/// Runs the case's stft or istft on x and hands the result to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    using R = fft::detail::fft_real_t<T>;
    const auto n_fft = c.integer("n_fft", 0);
    if (c.op == "stft")
        return k(stft(x, n_fft, opt_int(c, "hop"), opt_int(c, "win"), window_of<R>(c), c.flag("center"), c.arg("pad"),
                      c.flag("normalized"), opt_bool(c, "onesided"), true));
    REQUIRE(c.op == "istft");
    if constexpr (is_complex_v<T>)
        return k(istft(x, n_fft, opt_int(c, "hop"), opt_int(c, "win"), window_of<R>(c), c.flag("center"),
                       c.flag("normalized"), opt_bool(c, "onesided"), opt_int(c, "length")));
    FAIL("istft of a real " << x.dtype());
}

}  // namespace

TEST_CASE("stft and istft match PyTorch", "[fft][stft]") {
    std::map<std::string, int> checked;
    for (const Case& c : cases().cases) {
        if (c.kind != "case") continue;
        INFO(c.line.substr(0, 200));
        with_signal_dtype(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
            const Tensor<T> x = golden::host_tensor<T>(cases().inputs.at(c.arg("x")));
            call_op(c, x, [&](const auto& result) { check_result(golden::parse_part(c.parts.at(0)), result); });
        });
        ++checked[c.op];
    }
    CHECK(checked["stft"] == 26);
    CHECK(checked["istft"] == 17);
}

TEST_CASE("stft and istft refuse what PyTorch refuses, in its words", "[fft][stft]") {
    int checked = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        std::istringstream in(c.parts.at(0));
        std::string type, message;
        in >> type;
        std::getline(in >> std::ws, message);
        with_signal_dtype(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
            const Tensor<T> x = golden::host_tensor<T>(cases().inputs.at(c.arg("x")));
            REQUIRE((type == "RuntimeError" || type == "NotImplementedError"));
            TENET_REQUIRE_THROWS(call_op(c, x, [](const auto&) {}), value_error, Contains(message));
        });
        ++checked;
    }
    CHECK(checked == 27);
}

TEST_CASE("stft: return_complex is required (and true) for real signals; istft returns real signals", "[fft][stft]") {
    const Tensor<float> x = randn({20});
    TENET_REQUIRE_THROWS(stft(x, 8), value_error, Contains("return_complex parameter must be given"));
    TENET_REQUIRE_THROWS(stft(x, 8, std::nullopt, std::nullopt, std::nullopt, true, "reflect", false, std::nullopt, false),
                         value_error, Contains("return_complex=false") && Contains("view_as_real"));
    // Complex signals default to complex output, as in PyTorch.
    const Tensor<c64> z = randn({20}, kComplex64);
    CHECK(stft(z, 8).sizes() == IntArray{8, 11});
    const Tensor<c64> spectra = stft(x, 8, std::nullopt, std::nullopt, std::nullopt, true, "reflect", false,
                                     std::nullopt, true);
    TENET_REQUIRE_THROWS(istft(spectra, 8, std::nullopt, std::nullopt, std::nullopt, true, false, std::nullopt,
                               std::nullopt, true),
                         value_error, Contains("Cannot have onesided output"));
    TENET_REQUIRE_THROWS(istft(stft(z, 8), 8, std::nullopt, std::nullopt, std::nullopt, true, false, std::nullopt,
                               std::nullopt, true),
                         value_error, Contains("return_complex=true") && Contains("not supported"));
}

TEST_CASE("istft(stft(x)) is x, for windows that satisfy NOLA", "[fft][stft]") {
    manual_seed(5);
    for (int64_t n_fft : {4, 7, 16}) {
        for (int64_t hop : {1, 2, 3}) {
            INFO("n_fft " << n_fft << ", hop " << hop);
            const Tensor<double> x = randn({3, 41}, kFloat64);
            const std::optional<Tensor<double>> w = hann_window(n_fft, true, kFloat64) + 0.1;
            const Tensor<c128> s = stft(x, n_fft, hop, std::nullopt, w, true, "reflect", true, std::nullopt, true);
            check_numbers(numbers(istft(s, n_fft, hop, std::nullopt, w, true, true, std::nullopt, int64_t{41})), numbers(x),
                          1e-12);
        }
    }
}

TEST_CASE("randn_like of complex dtypes: each part N(0, 1/2)", "[fft][random]") {
    manual_seed(3);
    const Tensor<c128> like = zeros({400, 100}, kComplex128).transpose(0, 1);
    const Tensor<c128> z = randn_like(like);
    CHECK(z.sizes() == like.sizes());
    CHECK(z.dtype() == kComplex128);
    const Tensor<double> re = real(z), im = imag(z);
    CHECK(std::abs(mean(re).item()) < 0.02);
    CHECK(std::abs(mean(im).item()) < 0.02);
    CHECK(std::abs(mean(re * re).item() - 0.5) < 0.03);
    CHECK(std::abs(mean(im * im).item() - 0.5) < 0.03);
    CHECK(std::abs(mean(re * im).item()) < 0.02);
    CHECK(randn_like(zeros({3}, kComplex64)).dtype() == kComplex64);
}

}}  // namespace TENET_TEST_FILE
