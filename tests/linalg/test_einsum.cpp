// einsum beyond the golden values: the compile-time form (equation as a template argument,
// static shapes checked and deduced), agreement of both forms with matmul, the constexpr
// parser, and the run-time errors.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <type_traits>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using Catch::Matchers::Contains;

namespace {
double max_abs_diff(const Tensor<float>& a, const Tensor<float>& b) {
    REQUIRE(a.sizes() == b.sizes());
    const auto x = a.to_vector(), y = b.to_vector();
    double m = 0;
    for (size_t i = 0; i < x.size(); ++i) m = std::max(m, static_cast<double>(std::abs(x[i] - y[i])));
    return m;
}
}  // namespace

TEST_CASE("einsum: the compile-time form deduces static shapes") {
    manual_seed(21);
    StaticTensor<float, Shape<2, 3>> a = randn({2, 3});
    StaticTensor<float, Shape<3, 4>> b = randn({3, 4});
    auto c = einsum<"ij,jk->ik">(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), StaticTensor<float, Shape<2, 4>>>);
    CHECK(max_abs_diff(c, matmul(a, b)) < 1e-6);
    STATIC_REQUIRE(std::is_same_v<decltype(einsum<"ij,jk">(a, b)), StaticTensor<float, Shape<2, 4>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(einsum<"ij->ji">(a)), StaticTensor<float, Shape<3, 2>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(einsum<"ij->">(a)), StaticTensor<float, Shape<>>>);
    StaticTensor<float, Shape<2, 3, 5, 5>> batch = randn({2, 3, 5, 5});
    StaticTensor<float, Shape<3>> w = randn({3});
    auto gray = einsum<"...chw,c->...hw">(batch, w);
    STATIC_REQUIRE(std::is_same_v<decltype(gray), StaticTensor<float, Shape<2, 5, 5>>>);
    CHECK(max_abs_diff(gray, einsum("...chw,c->...hw", {Tensor<float>(batch), Tensor<float>(w)})) == 0);
    // Broadcast (size 1) and Dyn extents.
    StaticTensor<float, Shape<1, 4>> one = randn({1, 4});
    StaticTensor<float, Shape<Dyn, 4>> dyn = randn({6, 4});
    STATIC_REQUIRE(std::is_same_v<decltype(einsum<"ij,ij->ij">(one, dyn)), StaticTensor<float, Shape<Dyn, 4>>>);
    CHECK(einsum<"ij,ij->ij">(one, dyn).sizes() == IntArray{6, 4});
    // Any dynamic operand makes the result dynamic; expressions are evaluated once.
    Tensor<float> d = randn({3, 4});
    STATIC_REQUIRE(std::is_same_v<decltype(einsum<"ij,jk->ik">(a, d)), Tensor<float>>);
    CHECK(max_abs_diff(einsum<"ij,jk->ik">(a * 2.0f, d), matmul(a * 2.0f, d)) < 1e-5);
}

TEST_CASE("einsum: the parser runs at compile time") {
    constexpr auto eq = detail::parse_einsum("ij,jk", 2);
    STATIC_REQUIRE(eq.error == detail::EinsumError::None);
    STATIC_REQUIRE(eq.num_inputs == 2);
    STATIC_REQUIRE(!eq.explicit_output);
    // The implicit output: the subscripts seen once, in ASCII order (upper case first).
    STATIC_REQUIRE(eq.lengths[2] == 2);
    STATIC_REQUIRE(eq.terms[2][0] == detail::einsum_label('i') && eq.terms[2][1] == detail::einsum_label('k'));
    STATIC_REQUIRE(detail::parse_einsum("bA,Ab", 2).lengths[2] == 0);
    STATIC_REQUIRE(detail::parse_einsum("b,A", 2).terms[2][0] == detail::einsum_label('A'));
    STATIC_REQUIRE(detail::parse_einsum("ij,jk->ik", 1).error == detail::EinsumError::TooManyOperands);
    STATIC_REQUIRE(detail::parse_einsum("i.j", 1).error == detail::EinsumError::LoneDot);
    STATIC_REQUIRE(detail::parse_einsum("i->ii", 1).error == detail::EinsumError::OutputRepeated);
    STATIC_REQUIRE(detail::parse_einsum("i->j", 1).error == detail::EinsumError::OutputUnknown);
    STATIC_REQUIRE(detail::parse_einsum("i$", 1).error == detail::EinsumError::BadCharacter);
}

TEST_CASE("einsum: contractions agree with matmul on views") {
    manual_seed(22);
    auto a = randn({5, 7}), b = randn({4, 7});
    CHECK(max_abs_diff(einsum("ik,jk->ij", {a, b}), matmul(a, b.t())) < 1e-5);
    auto x = randn({3, 5, 7}), y = randn({3, 7, 2});
    CHECK(max_abs_diff(einsum("bij,bjk->bik", {x, y}), bmm(x, y)) < 1e-5);
    CHECK(max_abs_diff(einsum("bij,bjk->bik", {x.transpose(1, 2).contiguous().transpose(1, 2), y}), bmm(x, y)) < 1e-5);
    auto l = arange(12).reshape({3, 4});
    CHECK(einsum("ij,kj->ik", {l, l}).to_vector() == matmul(l, l.t()).to_vector());
}

TEST_CASE("einsum: errors name the equation and the problem") {
    auto a = ones({2, 3});
    CHECK_THROWS_AS(einsum("ij,jk->ik", {a, a}), shape_error);
    CHECK_THROWS_WITH(einsum("ij,jk->ik", {a, a}),
                      Contains("subscript j has size 2 for operand 1") && Contains("previously seen size 3"));
    CHECK_THROWS_WITH(einsum("ij,jk->ik", {a}), Contains("fewer operands were provided than specified"));
    CHECK_THROWS_WITH(einsum("ij", {a, a}), Contains("more operands were provided than specified"));
    CHECK_THROWS_WITH(einsum("ij->ik", {a}), Contains("output subscript k does not appear"));
    CHECK_THROWS_WITH(einsum("ij->ii", {a}), Contains("output subscript i appears more than once"));
    CHECK_THROWS_WITH(einsum("ijk", {a}),
                      Contains("number of subscripts in the equation (3) does not match the number of dimensions (2)"));
    CHECK_THROWS_WITH(einsum("i1", {a}), Contains("invalid subscript given at index 1"));
    CHECK_THROWS_WITH(einsum("ii", {a}), Contains("subscript i is repeated for operand 0 but the sizes don't match"));
    CHECK_THROWS_WITH(einsum("...i...", {a}), Contains("more than one ellipsis"));
    CHECK_THROWS_AS(einsum("ij", {ones({2, 2}, kBool)}), dtype_error);
}

}}  // namespace TENET_TEST_FILE
