// Static shapes: compile-time broadcasting, deduced result shapes, run-time checks where
// extents are dynamic. Must-not-compile cases live in tests/compile_fail/.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <type_traits>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

TEST_CASE("static shape: broadcasting is computed at compile time") {
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<2, 3>, Shape<1, 3>>, Shape<2, 3>>);
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<4, 1, 5>, Shape<3, 1>>, Shape<4, 3, 5>>);
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<Dyn, 3>, Shape<1, 3>>, Shape<Dyn, 3>>);
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<Dyn, 3>, Shape<5, 3>>, Shape<5, 3>>);
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<2, 3>, Shape<>>, Shape<2, 3>>);
    STATIC_REQUIRE(std::is_same_v<static_broadcast_t<Shape<2, 3>, DynamicShape>, DynamicShape>);
}

TEST_CASE("static shape: expressions deduce their static result shape") {
    StaticTensor<float, Shape<2, 3>> a = arange(6.0).view({2, 3});
    StaticTensor<float, Shape<1, 3>> b = ones({1, 3});
    auto c = (a * b + 1).eval();
    STATIC_REQUIRE(std::is_same_v<decltype(c), StaticTensor<float, Shape<2, 3>>>);
    CHECK(c.to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6});
    Tensor<float> dynamic = ones({2, 3});
    auto d = (a + dynamic).eval();
    STATIC_REQUIRE(std::is_same_v<decltype(d), Tensor<float>>);
}

TEST_CASE("static shape: dynamic extents are checked at run time") {
    StaticTensor<float, Shape<Dyn, 3>> x = ones({4, 3});
    CHECK(x.sizes() == IntArray{4, 3});
    CHECK_THROWS_AS((StaticTensor<float, Shape<Dyn, 3>>(ones({4, 2}))), shape_error);
    CHECK_THROWS_WITH((StaticTensor<float, Shape<2, 2>>(ones({2, 3}))), Catch::Contains("Shape<2, 2>"));
    StaticTensor<float, Shape<Dyn, 3>> y = ones({2, 3});
    StaticTensor<float, Shape<4, 3>> z = ones({4, 3});
    CHECK_THROWS_AS(y + z, shape_error);  // Dyn was 2, cannot meet 4: found at run time
    auto ok = (x + z).eval();
    STATIC_REQUIRE(std::is_same_v<decltype(ok)::static_shape, Shape<4, 3>>);
}

TEST_CASE("static shape: a static 0-d tensor promotes as PyTorch's 0-d tensors do") {
    // torch.result_type(float32[3], float64 0-d) is float32; (int32[3], float64 0-d) is float64
    // (tests/expr/promotion_table.inc holds every pair, generated from PyTorch).
    StaticTensor<double, Shape<>> s = full({}, 2.5, kFloat64);
    Tensor<float> x = arange(3.0);
    auto y = (x * s).eval();
    STATIC_REQUIRE(std::is_same_v<decltype(y), Tensor<float>>);
    CHECK(y.to_vector() == std::vector<float>{0, 2.5, 5});
    Tensor<int32_t> i = arange(3, kInt32);
    auto z = (s + i).eval();
    STATIC_REQUIRE(std::is_same_v<decltype(z), Tensor<double>>);
    CHECK(z.to_vector() == std::vector<double>{2.5, 3.5, 4.5});
}

}}  // namespace TENET_TEST_FILE
