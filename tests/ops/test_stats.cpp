// Statistics, softmax and losses beyond the PyTorch-generated cases (test_stats_golden.cpp):
// float32 accuracy over 2^24 values, argument errors, and softmax's saved result.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdint>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace F = tenet::nn::functional;

TEST_CASE("a float32 variance of 2^24 values keeps float64's accuracy", "[stats]") {
    // Values 1e4 + (i mod 7) / 7: a large mean and a small spread, where a naive float sum of
    // squares loses every digit. Expected: the two-pass variance of the same floats in float64.
    const int64_t n = int64_t{1} << 24;
    Tensor<float> x = empty<float>({n});
    for (int64_t i = 0; i < n; ++i) x.data_ptr()[i] = 1e4f + static_cast<float>(i % 7) / 7.0f;
    double mean = 0, m2 = 0;
    for (int64_t i = 0; i < n; ++i) mean += static_cast<double>(x.data_ptr()[i]);
    mean /= static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) m2 += (static_cast<double>(x.data_ptr()[i]) - mean) * (static_cast<double>(x.data_ptr()[i]) - mean);
    const double expected = m2 / static_cast<double>(n - 1);
    const double got = var(x).item();
    CHECK(std::abs(got - expected) <= 1e-6 * expected);
}

TEST_CASE("statistics and losses refuse bad arguments by name", "[stats][errors]") {
    auto x = tensor({{1.0, 2.0}, {3.0, 4.0}});
    CHECK_THROWS_AS(x.var(2), index_error);
    CHECK_THROWS_AS(logsumexp(x, {0, 0}), value_error);
    CHECK_THROWS_AS(softmax(x, -3), index_error);
    CHECK_THROWS_AS(F::mse_loss(x, tensor({1.0f}), "mean"), value_error);
    CHECK_THROWS_AS(F::mse_loss(x, x, "average"), value_error);
    CHECK_THROWS_WITH(F::nll_loss(x, tensor({0L, 2L})), Catch::Contains("Target 2 is out of bounds"));
    CHECK_THROWS_AS(F::nll_loss(x, tensor({0L})), value_error);
    CHECK_THROWS_AS(F::cross_entropy(x, tensor({0L, 1L}), {}, -100, "mean", 1.5), value_error);
    CHECK_THROWS_AS(nanmean(tensor({1L, 2L})), dtype_error);
    CHECK_THROWS_AS(isclose(x, tensor({{1L, 2L}, {3L, 4L}})), dtype_error);
    CHECK_THROWS_AS(isclose(x, x, -1.0), value_error);
    CHECK(allclose(x, x + 1e-7f));
    CHECK_FALSE(equal(x, x.t()));
    CHECK_FALSE(equal(x, x.index({0})));
}

#if TENET_AUTOGRAD
TEST_CASE("softmax's saved result refuses an in-place change before backward", "[stats][autograd]") {
    auto x = tensor({1.0, 2.0, 3.0}).requires_grad_();
    Tensor<float> y = softmax(x, 0);
    Tensor<float> loss = (y * y).sum();
    y.detach().mul_(2.0f);  // the saved result, changed under the node
    CHECK_THROWS_WITH(loss.backward(), Catch::Contains("modified by an inplace operation"));
}
#endif  // TENET_AUTOGRAD

}}  // namespace TENET_TEST_FILE
