// The vectorisable float exp (expr/simd_exp.hpp) against mathematics: e^x computed in
// double by the C library and rounded to float is the reference (double's 53 bits make
// that rounding the correctly rounded float except in rare ties, hence 1 ulp of slack).
// The sweep walks every 97th float bit pattern, so it crosses every binade, the
// overflow and underflow edges and the subnormal results.

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <tenet/expr/simd_exp.hpp>
#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

namespace {

/// Position of a float on the number line in ulps (-0 and +0 coincide).
int64_t ulp_key(float f) {
    const int32_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) : bits;
}

}  // namespace

TEST_CASE("simd_exp is within 1 ulp of the correctly rounded exp over all floats") {
    int64_t worst = 0;
    float worst_x = 0;
    int64_t checked = 0;
    for (uint64_t b = 0; b <= 0xffffffffull; b += 97) {
        const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
        if (std::isnan(x)) continue;
        const float got = tenet::detail::simd_exp(x);
        const float want = static_cast<float>(std::exp(static_cast<double>(x)));
        if (std::isinf(want) || want == 0.0f) {
            if (got != want) FAIL("exp(" << x << ") = " << got << ", expected " << want);
            continue;
        }
        const int64_t d = std::abs(ulp_key(got) - ulp_key(want));
        if (d > worst) {
            worst = d;
            worst_x = x;
        }
        ++checked;
    }
    INFO("worst input " << worst_x << " after " << checked << " finite results");
    CHECK(worst <= 1);
}

TEST_CASE("simd_exp special values") {
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(tenet::detail::simd_exp(0.0f) == 1.0f);
    CHECK(tenet::detail::simd_exp(-0.0f) == 1.0f);
    CHECK(tenet::detail::simd_exp(inf) == inf);
    CHECK(tenet::detail::simd_exp(-inf) == 0.0f);
    CHECK(std::isnan(tenet::detail::simd_exp(std::numeric_limits<float>::quiet_NaN())));
    CHECK(tenet::detail::simd_exp(89.0f) == inf);          // e^89 > FLT_MAX
    CHECK(std::isfinite(tenet::detail::simd_exp(88.0f)));  // e^88 < FLT_MAX
    const float tiny = tenet::detail::simd_exp(-100.0f);  // e^-100 = 3.7e-44: a subnormal
    CHECK(tiny > 0.0f);
    CHECK(tiny < std::numeric_limits<float>::min());
}

TEST_CASE("exp and sigmoid of float tensors use simd_exp and match it elementwise") {
    // The tensor ops are the same function, vectorised or not: the evaluator must not change bits.
    auto x = tenet::linspace(-110.0, 95.0, 4099);
    tenet::Tensor<float> e = tenet::exp(x), s = tenet::sigmoid(x);
    const float* xs = x.data_ptr();
    for (int64_t i = 0; i < x.numel(); ++i) {
        const float want_e = tenet::detail::simd_exp(xs[i]);
        const float want_s = 1.0f / (1.0f + tenet::detail::simd_exp(-xs[i]));
        if (e.data_ptr()[i] != want_e || s.data_ptr()[i] != want_s)
            FAIL("at x = " << xs[i] << ": exp " << e.data_ptr()[i] << " vs " << want_e << ", sigmoid "
                           << s.data_ptr()[i] << " vs " << want_s);
    }
}

}}  // namespace TENET_TEST_FILE
