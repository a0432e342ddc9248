// torch.fft's transforms (tenet/fft/transforms.hpp, hfftn and ihfftn included) against PyTorch 1.13 (tests/golden/gen_fft.py
// writes the cases): each function and norm, n and s cutting and padding, odd, even and prime
// lengths, negative and several dims, every input dtype, strided views, and PyTorch's refusals;
// then round trips and tenet's own checks. Data-driven: one instantiation per input dtype.
// A placed file (tests/CMakeLists.txt): the PyTorch cases' inputs go where tests/placement.hpp
// puts them, so the emulated device runs them too (a device tensor's path through the
// transforms; under the emulation its 1-D transforms run on the host engine).
#include <tenet/fft.hpp>

#include "../golden_data.hpp"
#include "../placement.hpp"
#include "../require_throws.hpp"
#include "fft_golden.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using golden::Case;
using golden::Golden;
using golden::GoldenFile;
using c64 = complex<float>;
using c128 = complex<double>;
using Catch::Matchers::Contains;
using tenet_fft_test::check_numbers;
using tenet_fft_test::check_result;
using tenet_fft_test::numbers;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "fft_cases.txt"); }

std::optional<IntArray> list_arg(const Case& c, const std::string& key) {
    if (!c.has(key) || c.arg(key) == "none") return std::nullopt;
    IntArray d;
    if (c.arg(key) == "empty") return d;
    std::istringstream in(c.arg(key));
    for (std::string w; std::getline(in, w, ',');) d.push_back(std::stoll(w));
    return d;
}

/// The case's input, viewed as it says (t: transposed, step: every other element of the last dim).
template <class T>
Tensor<T> input_of(const Case& c) {
    const Tensor<T> x = placement::place(golden::host_tensor<T>(cases().inputs.at(c.arg("x"))));
    const std::string& view = c.arg("view");
    if (view == "t") return x.transpose(0, -1);
    if (view == "step") return x.slice(-1, std::nullopt, std::nullopt, 2);
    REQUIRE(view == "none");
    return x;
}

/// Runs the case's op on x and hands the result to k (one instantiation per input type).
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::string& op = c.op;
    const fft::NormArg norm = !c.has("norm") || c.arg("norm") == "none" ? fft::NormArg() : fft::NormArg(c.arg("norm"));
    if (c.has("n")) {  // the 1-D transforms
        const std::optional<int64_t> n = c.arg("n") == "none" ? std::nullopt : std::optional<int64_t>(c.integer("n", 0));
        const int64_t dim = c.dim();
        if (op == "fft") return k(fft::fft(x, n, dim, norm));
        if (op == "ifft") return k(fft::ifft(x, n, dim, norm));
        if (op == "irfft") return k(fft::irfft(x, n, dim, norm));
        if (op == "hfft") return k(fft::hfft(x, n, dim, norm));
        if constexpr (!is_complex_v<T>) {
            if (op == "rfft") return k(fft::rfft(x, n, dim, norm));
            if (op == "ihfft") return k(fft::ihfft(x, n, dim, norm));
        }
        FAIL("no 1-D op " << op << " for " << x.dtype());
    }
    const std::optional<IntArray> dim = list_arg(c, "dim");
    if (op == "fftshift") return k(fft::fftshift(x, dim));
    if (op == "ifftshift") return k(fft::ifftshift(x, dim));
    const std::optional<IntArray> s = list_arg(c, "s");
    const IntArray dim2 = dim.value_or(IntArray{-2, -1});
    if (op == "fft2") return k(fft::fft2(x, s, dim2, norm));
    if (op == "ifft2") return k(fft::ifft2(x, s, dim2, norm));
    if (op == "irfft2") return k(fft::irfft2(x, s, dim2, norm));
    if (op == "fftn") return k(fft::fftn(x, s, dim, norm));
    if (op == "ifftn") return k(fft::ifftn(x, s, dim, norm));
    if (op == "irfftn") return k(fft::irfftn(x, s, dim, norm));
    if (op == "hfft2") return k(fft::hfft2(x, s, dim2, norm));
    if (op == "hfftn") return k(fft::hfftn(x, s, dim, norm));
    if constexpr (!is_complex_v<T>) {
        if (op == "rfft2") return k(fft::rfft2(x, s, dim2, norm));
        if (op == "rfftn") return k(fft::rfftn(x, s, dim, norm));
        if (op == "ihfft2") return k(fft::ihfft2(x, s, dim2, norm));
        if (op == "ihfftn") return k(fft::ihfftn(x, s, dim, norm));
    }
    FAIL("no op " << op << " for " << x.dtype());
}

/// A 0-d float tensor.
Tensor<float> zero_d() { return Tensor<float>(ones({3}).sum()); }

}  // namespace

TEST_CASE("torch.fft's transforms and shifts match PyTorch", "[fft]") {
    std::map<std::string, int> checked;
    for (const Case& c : cases().cases) {
        if (c.kind != "case") continue;
        INFO(c.line.substr(0, 160));
        golden::with_dtype_or_complex(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
            const Tensor<T> x = input_of<T>(c);
            call_op(c, x, [&](const auto& result) {
                placement::check_device(result);
                check_result(golden::parse_part(c.parts.at(0)), result);
            });
        });
        ++checked[c.op];
    }
    for (const char* op : {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn",
                           "ifftn", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift"}) {
        INFO(op);
        CHECK(checked[op] >= 5);
    }
}

TEST_CASE("torch.fft's transforms refuse what PyTorch refuses, in its words", "[fft]") {
    int checked = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        std::istringstream in(c.parts.at(0));
        std::string type, message;
        in >> type;
        std::getline(in >> std::ws, message);
        golden::with_dtype_or_complex(cases().inputs.at(c.arg("x")).dtype, [&]<class T>() {
            const Tensor<T> x = input_of<T>(c);
            auto call = [&] { call_op(c, x, [](const auto&) {}); };
            if (type == "IndexError") {
                // tenet's words after "op: d" are PyTorch's after "D".
                REQUIRE(message.rfind("Dimension out of range", 0) == 0);
                TENET_REQUIRE_THROWS(call(), index_error, Contains(c.op + ": d") && Contains(message.substr(1)));
            } else {
                REQUIRE(type == "RuntimeError");
                TENET_REQUIRE_THROWS(call(), value_error, Contains(c.op) && Contains(message));
            }
        });
        ++checked;
    }
    CHECK(checked == 116);
}

TEST_CASE("torch.fft round trips: ifft(fft(x)), irfft(rfft(x), n), hfft(ihfft(x), n), irfftn(rfftn(x), s)", "[fft]") {
    manual_seed(31);
    for (const char* norm : {"backward", "ortho", "forward"}) {
        for (int64_t n : {1, 2, 3, 7, 8, 13, 16, 30, 97}) {
            INFO("norm " << norm << ", n " << n);
            const Tensor<double> x = randn({3, n}, kFloat64);
            const Tensor<c128> z = make_complex(randn({n, 2}, kFloat64), randn({n, 2}, kFloat64));
            check_numbers(numbers(fft::ifft(fft::fft(z, std::nullopt, 0, norm), std::nullopt, 0, norm)), numbers(z), 1e-13);
            check_numbers(numbers(fft::irfft(fft::rfft(x, std::nullopt, -1, norm), n, -1, norm)), numbers(x), 1e-13);
            check_numbers(numbers(fft::hfft(fft::ihfft(x, std::nullopt, -1, norm), n, -1, norm)), numbers(x), 1e-13);
            const Tensor<float> xf = randn({n, 2, 5});
            const Tensor<float> back = fft::irfftn(fft::rfftn(xf, std::nullopt, IntArray{2, 0}, norm), IntArray{5, n},
                                                   IntArray{2, 0}, norm);
            check_numbers(numbers(back), numbers(xf), 1e-5);
            const Tensor<c64> zf = fft::ifftn(fft::fftn(xf, std::nullopt, std::nullopt, norm), std::nullopt, std::nullopt,
                                              norm);
            check_numbers(numbers(real(zf)), numbers(xf), 1e-5);
        }
    }
}

TEST_CASE("torch.fft: strided inputs, inputs left alone, results new and contiguous", "[fft]") {
    manual_seed(7);
    // An expanded input (stride 0) transforms as its contiguous copy.
    const Tensor<float> row = randn({6});
    const Tensor<float> rows = row.unsqueeze(0).expand({4, 6});
    CHECK(equal(fft::rfft(rows), fft::rfft(rows.contiguous())));
    CHECK(equal(fft::fft2(rows), fft::fft2(rows.contiguous())));
    // A complex view of every other pair of a real buffer.
    const Tensor<double> buffer = randn({5, 4, 2}, kFloat64);
    const Tensor<c128> every_other = view_as_complex(buffer).slice(0, 0, std::nullopt, 2);
    CHECK(!every_other.is_contiguous());
    CHECK(equal(fft::ifft(every_other, std::nullopt, 0), fft::ifft(every_other.contiguous(), std::nullopt, 0)));
    // irfft and hfft read their input without writing to it (FFTW's c2r may destroy its input).
    const Tensor<c64> spectrum = placement::place(fft::rfft(randn({3, 9})));  // cuFFT's c2r overwrites its input
    const Tensor<c64> before = spectrum.clone();
    const Tensor<float> signal = fft::irfft(spectrum, 16);
    CHECK(equal(spectrum, before));
    (void)fft::hfft(spectrum);
    (void)fft::irfftn(spectrum);
    CHECK(equal(spectrum, before));
    // A new tensor even when nothing is transformed.
    const Tensor<c64> none = fft::fftn(spectrum, std::nullopt, IntArray{});
    CHECK(equal(none, spectrum));
    CHECK(none.data_ptr() != spectrum.data_ptr());
    // Zero rows: an empty result of the right shape.
    CHECK(fft::rfft(zeros({0, 8})).sizes() == IntArray{0, 5});
    CHECK(fft::irfft(zeros({2, 0, 3}, kComplex64)).sizes() == IntArray{2, 0, 4});
    CHECK(signal.sizes() == IntArray{3, 16});
}

TEST_CASE("torch.fft: dtypes, 0-d inputs and the autograd refusal", "[fft]") {
    CHECK(fft::fft(arange(4)).dtype() == kComplex64);
    CHECK(fft::rfft(ones({4}, kBool)).dtype() == kComplex64);
    CHECK(fft::irfft(ones({4}, kFloat64)).dtype() == kFloat64);
    CHECK(fft::hfft(ones({4}, kComplex128)).dtype() == kFloat64);
    CHECK(fft::ihfft(ones({4}, kFloat64)).dtype() == kComplex128);
    TENET_REQUIRE_THROWS(fft::fft(zero_d()), index_error, Contains("fft") && Contains("no dimensions"));
    TENET_REQUIRE_THROWS(fft::irfft(zero_d()), index_error, Contains("irfft") && Contains("no dimensions"));
    TENET_REQUIRE_THROWS(fft::fft2(zero_d()), index_error, Contains("fft2") && Contains("no dimensions"));
    TENET_REQUIRE_THROWS(fft::rfftn(zero_d()), value_error, Contains("must transform at least one axis"));
#if TENET_AUTOGRAD
    Tensor<float> x = randn({8}).requires_grad_();
    TENET_REQUIRE_THROWS(fft::rfft(x), dtype_error, Contains("rfft") && Contains("autograd"));
    TENET_REQUIRE_THROWS(fft::fft2(x.view({2, 4})), dtype_error, Contains("fft2") && Contains("requires grad"));
    CHECK(equal(fft::rfft(x.detach()), fft::rfft(Tensor<float>(x.detach().clone()))));
    NoGradGuard no_grad;
    CHECK(fft::rfft(x).sizes() == IntArray{5});
#endif
}

}}  // namespace TENET_TEST_FILE
