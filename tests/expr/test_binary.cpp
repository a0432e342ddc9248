// Element-wise binary and ternary ops (expr/binary_ops.hpp): result dtypes, in-place and
// compound forms, fusion, aliasing and errors. The PyTorch-generated cases are in
// test_binary_golden.cpp.
#include "binary_check.hpp"

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

int64_t allocations() { return host_allocator().stats().allocations; }

}  // namespace

TEST_CASE("binary: result dtypes follow PyTorch promotion") {
    auto i64 = arange(3);
    auto i32 = i64.to<int32_t>();
    auto i8 = i64.to<int8_t>();
    auto u8 = i64.to<uint8_t>();
    auto b = i64 > 0;
    auto f = i64.to<float>();
    STATIC_REQUIRE(std::is_same_v<decltype(floor_divide(i8, u8).eval()), Tensor<int16_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i64 % 2.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i32 % i64.to<double>()).eval()), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(pow(i32, 2).eval()), Tensor<int32_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(pow(2, i8).eval()), Tensor<int8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(pow(i64, 0.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(atan2(i64, i64).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(div(i64, i64, "floor").eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((b & i8).eval()), Tensor<int8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((b ^ b).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(logical_or(f, i64).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(maximum(u8, b).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(where(b, i8, 2.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(where(b, 1, 0).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(lerp(f, f, 0.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i64 * 2 + 1).pow(2).eval()), Tensor<int64_t>>);
}

TEST_CASE("binary: in-place methods and compound assignment") {
    auto a = arange(-4, 4);  // -4 .. 3
    a += 10;
    CHECK(a.to_vector() == std::vector<int64_t>{6, 7, 8, 9, 10, 11, 12, 13});
    a -= arange(8);
    CHECK(a.to_vector() == std::vector<int64_t>{6, 6, 6, 6, 6, 6, 6, 6});
    a *= arange(-4, 4);
    CHECK(a.to_vector() == std::vector<int64_t>{-24, -18, -12, -6, 0, 6, 12, 18});
    a.floor_divide_(-5);
    CHECK(a.to_vector() == std::vector<int64_t>{4, 3, 2, 1, 0, -2, -3, -4});
    a %= 3;
    CHECK(a.to_vector() == std::vector<int64_t>{1, 0, 2, 1, 0, 1, 0, 2});
    a.add_(arange(8), 2);
    CHECK(a.to_vector() == std::vector<int64_t>{1, 2, 6, 7, 8, 11, 12, 16});
    a.sub_(1, 3).pow_(2);
    CHECK(a.to_vector() == std::vector<int64_t>{4, 1, 9, 16, 25, 64, 81, 169});
    a &= 0xF;
    a |= 16;
    a ^= 1;
    CHECK(a.to_vector() == std::vector<int64_t>{21, 16, 24, 17, 24, 17, 16, 24});
    a <<= 2;
    a >>= 1;
    CHECK(a.to_vector() == std::vector<int64_t>{42, 32, 48, 34, 48, 34, 32, 48});
    a.remainder_(-7).div_(2, "trunc");
    CHECK(a.to_vector() == std::vector<int64_t>{0, -1, 0, 0, 0, 0, -1, 0});  // [0 -3 -1 -1 -1 -1 -3 -1] / 2

    auto f = arange(4.0);
    f /= 4;
    CHECK(f.to_vector() == std::vector<float>{0.0f, 0.25f, 0.5f, 0.75f});
    f.div_(arange(4), "floor");
    CHECK(std::isnan(f(0)));  // 0.0 // 0 is nan
    CHECK(f.index({indexing::Slice(1, indexing::None)}).to_vector() == std::vector<float>{0.0f, 0.0f, 0.0f});
    auto g = full({3}, 2.0);
    g.lerp_(full({3}, 4.0), 0.25).atan2_(1.0);
    CHECK(g(0) == Approx(std::atan2(2.5f, 1.0f)));
    g.arctan2_(2.0);  // torch's other name for atan2_
    CHECK(g(0) == Approx(std::atan2(std::atan2(2.5f, 1.0f), 2.0f)));
    g.true_divide_(2.0);
    CHECK(g(0) == Approx(std::atan2(std::atan2(2.5f, 1.0f), 2.0f) / 2.0f));

    // In-place through a view writes the base.
    auto m = zeros({2, 3}, dtype_t<int32_t>{});
    m[1] += arange(3).to<int32_t>();
    CHECK(m.tolist() == tensor({{0, 0, 0}, {0, 1, 2}}).to<int32_t>().tolist());

    // The narrower destination type: computed in the promoted type, then stored.
    auto u = full({2}, 200).to<uint8_t>();
    u += full({2}, 100);  // int64 sum 300 -> uint8 44
    CHECK(u.to_vector() == std::vector<uint8_t>{44, 44});
    auto flags = full({2}, 1).to<bool>();
    flags &= (arange(2) > 0);
    CHECK(flags.to_vector() == std::vector<bool>{false, true});
}

TEST_CASE("binary: a += b * c is one fused pass that allocates nothing") {
    auto a = ones({64, 64});
    auto b = full({64, 64}, 2.0);
    auto c = arange(64.0);
    const int64_t before = allocations();
    a += b * c;
    a.add_(b * c - 1, 0.5);
    a.mul_(2);
    CHECK(allocations() == before);
    CHECK(a(3, 5) == (1.0f + 2.0f * 5.0f + 0.5f * (2.0f * 5.0f - 1.0f)) * 2.0f);
}

TEST_CASE("binary: in-place aliasing gives PyTorch's result") {
    auto a = arange(9.0).view({3, 3});
    const auto ref = a.clone();
    a += a.t();
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(a(i, j) == ref(i, j) + ref(j, i));
    auto x = arange(6);
    x.index({indexing::Slice(1, indexing::None)}) += x.index({indexing::Slice(indexing::None, 5)});
    // PyTorch reads the whole operand before writing: x = [0, 0+1, 1+2, 2+3, 3+4, 4+5].
    CHECK(x.to_vector() == std::vector<int64_t>{0, 1, 3, 5, 7, 9});
}

TEST_CASE("binary: integer division by zero throws ZeroDivisionError") {
    auto a = arange(-3, 3);
    auto z = zeros({6}, dtype_t<int64_t>{});
    CHECK_THROWS_WITH(floor_divide(a, z), Catch::Contains("floor_divide") && Catch::Contains("ZeroDivisionError"));
    CHECK_THROWS_AS(a % 0, value_error);
    CHECK_THROWS_WITH(fmod(a, arange(6) - 2), Catch::Contains("fmod: ZeroDivisionError"));
    CHECK_THROWS_WITH(div(a.to<int8_t>(), 0, "trunc"), Catch::Contains("div: ZeroDivisionError"));
    CHECK_THROWS_AS(div(a, z.t(), "floor"), value_error);
    CHECK_THROWS_AS(a.to<uint8_t>().floor_divide(z.to<uint8_t>()), value_error);
    CHECK_THROWS_AS(a.floor_divide_(0), value_error);
    CHECK_THROWS_AS(a %= z, value_error);
    CHECK(a.to_vector() == std::vector<int64_t>{-3, -2, -1, 0, 1, 2});  // untouched
    // A strided divisor with a zero, and a floating division (IEEE, no error).
    CHECK_THROWS_AS(remainder(a, arange(12).view({6, 2}).select(1, 0) - 4), value_error);
    CHECK_NOTHROW(floor_divide(a.to<float>(), 0).eval());
    CHECK(std::isinf(floor_divide(a.to<float>(), 0).eval()(0)));
    // INT_MIN / -1 wraps (PyTorch 1.13 crashes with SIGFPE here).
    auto m = full({1}, INT64_MIN);
    CHECK(floor_divide(m, -1).eval().item() == INT64_MIN);
    CHECK((m % -1).eval().item() == 0);
}

TEST_CASE("binary: pow errors and exact integer powers") {
    auto i = arange(1, 4);
    CHECK_THROWS_WITH(pow(i, -1), Catch::Contains("Integers to negative integer powers are not allowed."));
    CHECK_THROWS_AS(i.pow_(-2), value_error);
    CHECK(pow(i, -1.0).eval().to_vector() == std::vector<float>{1.0f, 0.5f, 1.0f / 3.0f});
    CHECK(pow(full({1}, 3), 39).eval().item() == 4052555153018976267LL);
    CHECK_THROWS_AS(div(i, i, "round"), value_error);
}

TEST_CASE("binary: shape errors name the op and shapes") {
    auto a = ones({3});
    CHECK_THROWS_AS(a.add_(ones({2, 3})), shape_error);
    CHECK_THROWS_WITH(a += ones({2, 3}), Catch::Contains("add_") && Catch::Contains("[3]") && Catch::Contains("[2, 3]"));
    CHECK_THROWS_WITH(a.pow_(ones({4, 1})), Catch::Contains("pow_"));
    CHECK_THROWS_WITH(floor_divide(ones({2}), ones({3})), Catch::Contains("floor_divide") && Catch::Contains("[2]"));
    CHECK_THROWS_WITH(where(ones({2}) > 0, ones({3}), 0.0), Catch::Contains("where"));
    CHECK_THROWS_WITH(lerp(ones({2}), ones({2}), ones({4})), Catch::Contains("lerp") && Catch::Contains("[4]"));
    auto b = ones({2, 3});
    b.mul_(arange(3.0));  // broadcasting the other operand to this shape is fine
    CHECK(b.tolist() == tensor({{0.0, 1.0, 2.0}, {0.0, 1.0, 2.0}}).tolist());
}

}}  // namespace TENET_TEST_FILE
