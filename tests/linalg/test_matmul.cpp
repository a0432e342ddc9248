// Matrix products beyond the golden values: static shapes, operands read in place (views and
// expressions), agreement with a long-double reference, integer exactness.
#include "linalg_check.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace linalg_case;
using Catch::Matchers::Contains;

TEST_CASE("matmul: static shapes give a static result") {
    StaticTensor<float, Shape<2, 3>> a = ones({2, 3});
    StaticTensor<float, Shape<3, 4>> b = ones({3, 4});
    auto c = matmul(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), StaticTensor<float, Shape<2, 4>>>);
    CHECK(c.sizes() == IntArray{2, 4});
    CHECK(c(1, 3) == 3.0f);

    StaticTensor<float, Shape<3>> v = ones({3});
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(a, v)), StaticTensor<float, Shape<2>>>);
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(v, v)), StaticTensor<float, Shape<>>>);
    StaticTensor<float, Shape<5, 1, 2, 3>> batched = ones({5, 1, 2, 3});
    StaticTensor<float, Shape<4, 3, 2>> rhs = ones({4, 3, 2});
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(batched, rhs)), StaticTensor<float, Shape<5, 4, 2, 2>>>);
    // Dyn extents pass the compile-time check and are checked at run time.
    StaticTensor<float, Shape<Dyn, 3>> d = ones({7, 3});
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(d, b)), StaticTensor<float, Shape<Dyn, 4>>>);
    // An expression of static operands keeps its static shape.
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(a * 2.0f, b)), StaticTensor<float, Shape<2, 4>>>);
    // A plain tensor makes the result dynamic.
    STATIC_REQUIRE(std::is_same_v<decltype(matmul(a, Tensor<float>(b))), Tensor<float>>);
}

TEST_CASE("matmul: views are read in place and expressions evaluated once") {
    manual_seed(3);
    auto a = randn({64, 32}, kFloat64), b = randn({48, 32}, kFloat64);
    const Tensor<double> bt = b.t();
    // A transposed view is a column-major matrix: the GEMM reads it without a copy.
    const auto layout = detail::blas_layout(detail::mat_ref(bt, bt.storage_offset(), 0, 1));
    CHECK(layout.ok);
    CHECK(layout.col_major);
    CHECK(layout.ld == 32);
    // A view with two non-unit strides cannot be passed as is.
    const Tensor<double> stepped = a.index({Slice(None, None, 2), Slice(None, None, 2)});
    CHECK_FALSE(detail::blas_layout(detail::mat_ref(stepped, stepped.storage_offset(), 0, 1)).ok);

    int64_t before = allocations();
    auto c = matmul(a, bt);
    CHECK(allocations() - before == 1);  // the result only
    CHECK(max_abs_diff(c, naive_matmul(a, bt.contiguous())) < 1e-12);

    before = allocations();
    auto e = matmul(a * 2.0, bt);
    CHECK(allocations() - before == 2);  // the evaluated expression and the result
    CHECK(max_abs_diff(e, naive_matmul((a * 2.0).eval(), bt.contiguous())) < 1e-12);

    auto s = matmul(stepped, randn({16, 5}, kFloat64));
    CHECK(s.sizes() == IntArray{32, 5});

    // A broadcast batch operand is not copied: (4, 64, 32) @ (32, 48) is one folded GEMM.
    auto batch = randn({4, 64, 32}, kFloat64);
    before = allocations();
    auto f = matmul(batch, bt);
    CHECK(allocations() - before == 1);
    CHECK(f.sizes() == IntArray{4, 64, 48});
    CHECK(max_abs_diff(f[2], naive_matmul(batch[2], bt.contiguous())) < 1e-12);
    // Batch dims broadcast both ways: (3, 1, 8, 5) @ (2, 5, 4) -> (3, 2, 8, 4).
    auto x = randn({3, 1, 8, 5}, kFloat64), y = randn({2, 5, 4}, kFloat64);
    auto g = matmul(x, y);
    CHECK(g.sizes() == IntArray{3, 2, 8, 4});
    CHECK(max_abs_diff(g[2][1], naive_matmul(x[2][0], y[1])) < 1e-12);
}

TEST_CASE("matmul: GEMM-sized products agree with a long-double reference") {
    manual_seed(5);
    for (int64_t n : {1, 7, 33, 70}) {
        auto a = randn({n, n + 3}, kFloat64), b = randn({n + 3, n + 1}, kFloat64);
        CHECK(max_abs_diff(matmul(a, b), naive_matmul(a, b)) < 1e-12 * static_cast<double>(n + 3));
        CHECK(max_abs_diff(matmul(b.t(), a.t()), naive_matmul(a, b).t().contiguous()) <
              1e-12 * static_cast<double>(n + 3));
    }
    auto f = randn({40, 50}), g = randn({50, 30});
    const auto ref = naive_matmul(f.to<double>(), g.to<double>());
    CHECK(max_abs_diff(matmul(f, g).to<double>(), ref) < 1e-4);
}

TEST_CASE("matmul: integer products are exact and wrap as int64") {
    auto big = full({1, 2}, int64_t{1} << 40, kInt64);
    auto col = full({2, 1}, int64_t{1} << 20, kInt64);
    CHECK(matmul(big, col).item() == (int64_t{1} << 61));
    // 2^62 * 4 wraps to 0 in two's complement, as PyTorch's int64 matmul.
    auto wrap = full({1, 1}, int64_t{1} << 62, kInt64);
    CHECK(matmul(wrap, full({1, 1}, int64_t{4}, kInt64)).item() == 0);
    const Tensor<int32_t> i32 = arange(6).to<int32_t>().reshape({2, 3});
    auto r = matmul(i32, i32.t());
    STATIC_REQUIRE(std::is_same_v<decltype(r), Tensor<int32_t>>);
    CHECK(r.to_vector() == std::vector<int32_t>{5, 14, 14, 50});
}

}}  // namespace TENET_TEST_FILE
