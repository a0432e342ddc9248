// Element-wise unary math (expr/math.hpp): type rules, in-place forms, fusion, errors and special
// values. The PyTorch-generated cases are in test_math_golden.cpp.
#include "math_check.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <algorithm>
#include <iomanip>
#include <sstream>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {
int64_t storage_allocations() { return host_allocator().stats().allocations; }
}  // namespace

TEST_CASE("math: result types follow PyTorch") {
    auto f = ones({2});
    auto d = ones({2}, kFloat64);
    auto i = ones({2}, kInt64);
    auto u = ones({2}, kUInt8);
    auto b = ones({2}, kBool);
    auto h = ones({2}, kHalf);
    STATIC_REQUIRE(std::is_same_v<decltype(sin(i).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(sqrt(b).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(exp(d).eval()), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(erfinv(u).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tanh(h).eval()), Tensor<Half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(abs(i).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(abs(u).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(sign(b).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(floor(i).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(round(u).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(square(b).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(square(u).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(relu(i).eval()), Tensor<int64_t>>);
    // clamp's bounds take part in promotion (torch.clamp): integer bounds keep integers
    // (bool becomes int64), a floating bound gives float32 (values: math_cases.inc).
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(b, 0, 1).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(i, 0, 1).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(u, 0, 1).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(b, 0.0, 1.0).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(i, 0.0, 1.0).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(i, 0, 1.0).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(i, std::nullopt, 1.0f).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp_min(u, 0.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(i.clamp_max(2.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i * 2).clamp_min(1).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(d, 0, 1).eval()), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(clamp(h, 0.5, 1.5).eval()), Tensor<Half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(isnan(f).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(isfinite(i).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(logical_not(d).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(bitwise_not(u).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nan_to_num(h).eval()), Tensor<Half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(gelu(h).eval()), Tensor<Half>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i * 2).sqrt().eval()), Tensor<float>>);
    // In-place forms exist only where the result type can be cast back (PyTorch's canCast).
    STATIC_REQUIRE(detail::can_cast_v<float, double>);
    STATIC_REQUIRE(detail::can_cast_v<bool, float>);
    STATIC_REQUIRE(!detail::can_cast_v<float, int64_t>);
    STATIC_REQUIRE(!detail::can_cast_v<int64_t, bool>);
}

TEST_CASE("math: plain numbers still use the C library") {
    // tenet's functions are constrained to tensors and expressions: no hijacking.
    CHECK(sin(0.5) == std::sin(0.5));
    CHECK(abs(-3) == 3);
    CHECK(floor(2.5) == 2.0);
    CHECK(round(2.5) == 3.0);  // std::round: half away from zero (not torch.round)
    CHECK(std::isnan(sqrt(-1.0)));
}

TEST_CASE("math: a chain of ops evaluates in one pass") {
    auto a = arange(12.0).view({3, 4});
    auto b = full({4}, 0.5);
    auto c = full({3, 1}, -1.0);
    const int64_t before = storage_allocations();
    auto e = sigmoid(a * b + c);
    CHECK(storage_allocations() == before);
    Tensor<float> y = e;
    CHECK(storage_allocations() == before + 1);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) {
            const float v = static_cast<float>(4 * i + j) * 0.5f - 1.0f;
            CHECK(y(i, j) == 1.0f / (1.0f + std::exp(-v)));
        }
    // A deeper chain mixing functions and methods, still one allocation.
    const int64_t before_chain = storage_allocations();
    Tensor<float> z = (exp(a) + 1).log().sqrt().clamp(0.5, 2.5) * tanh(b).square();
    CHECK(storage_allocations() == before_chain + 1);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) {
            const float av = static_cast<float>(4 * i + j);
            const float t = std::tanh(0.5f);
            CHECK(z(i, j) == std::clamp(std::sqrt(std::log(std::exp(av) + 1.0f)), 0.5f, 2.5f) * (t * t));
        }
}

TEST_CASE("math: in-place forms write into the tensor without allocating") {
    auto a = arange(6.0).view({2, 3});
    const auto* data = a.data_ptr();
    const int64_t before = storage_allocations();
    a.sqrt_().square_();  // chained: each returns the tensor itself
    exp_(a);
    CHECK(storage_allocations() == before);
    CHECK(a.data_ptr() == data);
    for (int64_t k = 0; k < 6; ++k) {
        const float s = std::sqrt(static_cast<float>(k));
        CHECK(a.view({6})(k) == Approx(std::exp(s * s)).epsilon(1e-6));  // float exp is within 1 ulp
    }
    // Through a view: writes reach the base tensor; a transposed view works too.
    auto m = arange(6.0).view({2, 3});
    m[1].clamp_(std::nullopt, 4.0);
    CHECK(m.view({6}).to_vector() == std::vector<float>{0, 1, 2, 3, 4, 4});
    m.t().relu_();
    auto mt = m.t();
    mt.floor_();
    CHECK(m.view({6}).to_vector() == std::vector<float>{0, 1, 2, 3, 4, 4});
    // Writing to an expanded tensor (elements sharing memory) is refused, as in PyTorch.
    auto e = ones({1}).expand({3});
    CHECK_THROWS_AS(e.sin_(), error);
    // Integers keep their type in place where the result is an integer.
    auto i = tensor({-3, 4, -5});
    i.abs_().clamp_max_(4);
    CHECK(i.to_vector() == std::vector<int64_t>{3, 4, 4});
    bitwise_not_(i);
    CHECK(i.to_vector() == std::vector<int64_t>{-4, -5, -5});
    // logical_not_ keeps the tensor's own type (0/1), as PyTorch.
    auto f = tensor({0.0, 2.5, -1.0});
    f.logical_not_();
    CHECK(f.to_vector() == std::vector<float>{1, 0, 0});
}

TEST_CASE("math: argument errors match PyTorch") {
    auto a = arange(3.0);
    CHECK_THROWS_AS(clamp(a, std::nullopt, std::nullopt), value_error);
    CHECK_THROWS_WITH(a.clamp(std::nullopt), Catch::Contains("At least one of 'min' or 'max' must not be None"));
    CHECK_THROWS_AS(a.gelu("fast"), value_error);
    CHECK_THROWS_WITH(gelu(a, "erf"), Catch::Contains("approximate argument must be either none or tanh"));
    CHECK_NOTHROW(gelu(a, "tanh").eval());
}

TEST_CASE("math: special values follow IEEE and PyTorch") {
    auto x = tensor({-1.0, 1.0, 0.0, -0.0});
    CHECK(std::isinf(log1p(x).eval()(0)));
    CHECK(log1p(x).eval()(0) < 0);
    CHECK(std::isnan(sqrt(x).eval()(0)));
    CHECK(erfinv(x).eval()(0) == -std::numeric_limits<float>::infinity());
    CHECK(erfinv(x).eval()(1) == std::numeric_limits<float>::infinity());
    CHECK(std::signbit(erfinv(x).eval()(3)));
    CHECK(std::signbit(sqrt(x).eval()(3)));
    // round is half to even, as torch.round.
    CHECK(round(tensor({0.5, 1.5, 2.5, -0.5, -2.5})).eval().to_vector() == std::vector<float>{0, 2, 2, -0.0f, -2});
    // Integer rounding returns the same integers; int abs wraps at the minimum.
    auto i = tensor(std::vector<int64_t>{std::numeric_limits<int64_t>::min(), -7, 7});
    CHECK(ceil(i).eval().to_vector() == i.to_vector());
    CHECK(abs(i).eval()(0) == std::numeric_limits<int64_t>::min());
    CHECK(abs(tensor({-128, 5}).to<int8_t>()).eval().to_vector() == std::vector<int8_t>{-128, 5});
}

TEST_CASE("math: 16-bit floats compute in float32 and round once") {
    auto h = tensor({0.5, -1.25, 3.0, 65504.0}).to<Half>();
    auto hf = h.to<float>();
    const auto got = tanh(h).eval().to<float>().to_vector();
    const auto want = tanh(hf).eval().to<Half>().to<float>().to_vector();
    CHECK(got == want);
    auto special = tensor({std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()})
                       .to<Half>();
    CHECK(nan_to_num(special).eval().to<float>().to_vector() == std::vector<float>{65504, -65504, 0});
    auto bf = tensor({1.0, -2.0}).to<BFloat16>();
    STATIC_REQUIRE(std::is_same_v<decltype(bf.exp().eval()), Tensor<BFloat16>>);
    CHECK(bf.abs().eval().to<float>().to_vector() == std::vector<float>{1, 2});
}

}}  // namespace TENET_TEST_FILE
