// Tensor methods called on an expression (expr/evaluating_methods.hpp) and joins of lists that
// hold expressions (ops/join.hpp). The golden cases (values, gradients, items) are written by
// tests/golden/gen_expr_methods.py from real PyTorch; the checks written here cover what PyTorch
// cannot show: that a query does not evaluate, that a method evaluates once, the C++ types, and
// static shapes. Expected values here follow from the inputs by arithmetic.
#include "../core/golden_check.hpp"

#include <optional>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet::indexing;

namespace {
int64_t storage_allocations() { return tenet::host_allocator().stats().allocations; }
}  // namespace

TEST_CASE("expr methods: golden cases from PyTorch (values, gradients through the evaluation, items)",
          "[expr_methods]") {
#include "expr_methods_cases.inc"
}

TEST_CASE("expr methods: queries read the expression's shape and type without evaluating it", "[expr_methods]") {
    auto a = tenet::arange(6.0f).view({2, 3});
    auto i = tenet::arange(3);
    const int64_t before = storage_allocations();
    auto e = a * i + 1;  // float32 [2, 3]
    CHECK(&e.sizes() == &e.shape());
    CHECK(e.sizes() == tenet::IntArray{2, 3});
    CHECK(e.size(0) == 2);
    CHECK(e.size(-1) == 3);
    CHECK(e.dim() == 2);
    CHECK(e.ndim() == 2);
    CHECK(e.numel() == 6);
    CHECK(e.dtype() == tenet::kFloat32);
    CHECK(e.scalar_type() == tenet::kFloat32);
    CHECK(e.element_size() == 4);
    CHECK(e.itemsize() == 4);
    CHECK(e.nbytes() == 24);
    CHECK(e.is_floating_point());
    CHECK_FALSE((i * 2).is_floating_point());
    CHECK((i > 1).dtype() == tenet::kBool);
    CHECK(storage_allocations() == before);
    CHECK_THROWS_AS(e.size(2), tenet::index_error);
}

TEST_CASE("expr methods: a method evaluates the expression once, then calls the Tensor method", "[expr_methods]") {
    auto a = tenet::arange(6.0f).view({2, 3});
    auto e = a * 2 + 1;
    int64_t before = storage_allocations();
    auto r = e.reshape({3, 2});  // one evaluation; reshape of a contiguous result is a view
    CHECK(storage_allocations() == before + 1);
    auto t = e.t();
    CHECK(storage_allocations() == before + 2);
    CHECK(r.to_vector() == std::vector<float>{1, 3, 5, 7, 9, 11});
    CHECK(t.sizes() == tenet::IntArray{3, 2});
    CHECK(t.strides() == tenet::IntArray{1, 3});
    // Views of the evaluated tensor keep its storage alive: nothing dangles.
    auto row = (a - 1)[1];
    CHECK(row.to_vector() == std::vector<float>{2, 3, 4});
    // The element, by value (not a reference into a temporary).
    STATIC_REQUIRE(std::is_same_v<decltype(e(1, 2)), float>);
    CHECK(e(1, 2) == 11.0f);
    CHECK(e(-1, 0) == 7.0f);
    CHECK(e.to_vector() == std::vector<float>{1, 3, 5, 7, 9, 11});
}

TEST_CASE("expr methods: result types", "[expr_methods]") {
    auto a = tenet::arange(6.0f).view({2, 3});
    auto i = tenet::arange(6).view({2, 3});
    auto e = a * 2;
    STATIC_REQUIRE(std::is_same_v<decltype(e.t()), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.mm(a.t())), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.item()), float>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.item<int64_t>()), int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.to<double>()), tenet::Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.to(tenet::kInt32)), tenet::Tensor<int32_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i + 1).type_as(a)), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(e.split(1)), std::vector<tenet::Tensor<float>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat(std::tuple{e, i})), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat({i * 2, i * 3})), tenet::Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::stack(std::tuple{i > 2, i})), tenet::Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat<double>({e, i + 1})), tenet::Tensor<double>>);
}

// The braces around one number are what this test is about (Clang warns about them).
#ifdef __clang__
#pragma clang diagnostic ignored "-Wbraced-scalar-init"
#endif
TEST_CASE("expr methods: a one-element braced list resolves as on a Tensor", "[expr_methods]") {
    auto v = tenet::arange(8.0f);
    auto e = v + 0;
    // LibTorch: t.split({4}) is split(4) (pieces of 4); IntArray{4} is one piece of size 4.
    CHECK(e.split({4}).size() == v.split({4}).size());
    CHECK(e.split({4}).size() == 2);
    CHECK_THROWS_WITH(e.split(tenet::IntArray{4}), Catch::Contains("expects split_sizes to sum exactly to 8"));
    CHECK(e.split({3, 5}).size() == 2);
    CHECK(e.tensor_split({2}).size() == 2);      // sections
    CHECK(e.tensor_split({2, 5}).size() == 3);   // indices
    CHECK(e.flip({0}).to_vector() == v.flip(0).to_vector());
    CHECK(e.reshape({8}).sizes() == tenet::IntArray{8});
    CHECK(e.view({2, -1}).sizes() == tenet::IntArray{2, 4});
    CHECK(e.expand({2, 8}).sizes() == tenet::IntArray{2, 8});
    CHECK(e.reshape({2, 4}).permute({1, 0}).sizes() == tenet::IntArray{4, 2});
    CHECK(e.slice(0, std::nullopt, 4).sizes() == tenet::IntArray{4});
    CHECK(e.index({Slice(None, None, 2)}).sizes() == tenet::IntArray{4});
}

TEST_CASE("expr methods: expressions of static shape", "[expr_methods]") {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> s = tenet::arange(6.0f).view({2, 3});
    auto w = tenet::ones({3, 2});
    auto e = s * 2;  // static shape [2, 3]
    CHECK(e.sizes() == tenet::IntArray{2, 3});
    // [[0, 2, 4], [6, 8, 10]] times ones: row sums 6 and 24 in both columns
    CHECK(e.mm(w).to_vector() == std::vector<float>{6, 6, 24, 24});
    CHECK(e.t().sizes() == tenet::IntArray{3, 2});
    CHECK(e.reshape({6}).to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
    CHECK(tenet::cat(std::tuple{e, s}).sizes() == tenet::IntArray{4, 3});
}

#if TENET_AUTOGRAD
TEST_CASE("expr methods: gradients flow through the evaluation to the leaves", "[expr_methods]") {
    // y = (2x).t().reshape(-1); loss = sum(y * [1..6]) => dloss/dx[i][j] = 2 * (position of x[i][j]
    // in x.t() flattened + 1): x.t() is [[x00, x10], [x01, x11], [x02, x12]].
    auto x = tenet::arange(6.0).view({2, 3});
    x.requires_grad_();
    auto y = (x * 2).t().reshape({-1});
    (y * tenet::arange(1.0, 7.0)).sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{2, 6, 10, 4, 8, 12});
    CHECK(y.requires_grad());
}
#endif

TEST_CASE("expr methods: an expression prints as its value", "[expr_methods]") {
    auto a = tenet::ones({2});
    std::ostringstream os;
    os << (a + a) << " " << (tenet::arange(3) * 2);
    CHECK(os.str() == "tensor([2., 2.]) tensor([0, 2, 4])");  // PyTorch's repr of these values
}

}}  // namespace TENET_TEST_FILE
