// addmm's beta = 0 / alpha rules, the multi_dot order, and the error messages of the product
// family (op name and shapes, as PyTorch's).
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

TEST_CASE("addmm: beta = 0 ignores the input and an empty product leaves beta times the input") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto input = full({2, 2}, nan, kFloat64);
    auto r = addmm(input, ones({2, 3}, kFloat64), ones({3, 2}, kFloat64), 0, 2);
    CHECK(r.to_vector() == std::vector<double>{6, 6, 6, 6});
    auto m = full({2, 2}, 5.0, kFloat64);
    CHECK(addmm(m, ones({2, 0}, kFloat64), ones({0, 2}, kFloat64), 3, 1).to_vector() ==
          std::vector<double>{15, 15, 15, 15});
    CHECK_THROWS_WITH(addmm(ones({2, 2}, kInt64), ones({2, 2}, kInt64), ones({2, 2}, kInt64), 0.5),
                      Contains("addmm") && Contains("beta must not be a floating point number"));
}

TEST_CASE("multi_dot: picks the cheapest order") {
    // (10x100)(100x5)(5x50): (AB)C costs 5000 + 2500, A(BC) 25000 + 50000.
    auto split = detail::chain_order({10, 100, 5, 50});
    CHECK(split[0][2] == 1);
    // (10x5)(5x100)(100x50): A(BC) costs 25000 + 2500, (AB)C 5000 + 50000.
    split = detail::chain_order({10, 5, 100, 50});
    CHECK(split[0][2] == 0);
    // (50x100)(100x5)(5x10): (AB)C costs 25000 + 2500, A(BC) 5000 + 50000.
    split = detail::chain_order({50, 100, 5, 10});
    CHECK(split[0][2] == 1);
    manual_seed(9);
    auto a = randn({10, 100}, kFloat64), b = randn({100, 5}, kFloat64), c = randn({5, 50}, kFloat64);
    CHECK(max_abs_diff(linalg::multi_dot({a, b, c}), naive_matmul(naive_matmul(a, b), c)) < 1e-10);
}

TEST_CASE("matmul: errors name the op and the shapes") {
    auto a = ones({2, 3}), b = ones({4, 5});
    CHECK_THROWS_AS(mm(a, b), shape_error);
    CHECK_THROWS_WITH(mm(a, b), "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    CHECK_THROWS_WITH(matmul(a, b), "matmul: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    CHECK_THROWS_WITH(matmul(ones({7, 2, 3}), b), Contains("matmul") && Contains("[7, 2, 3]") && Contains("[4, 5]"));
    CHECK_THROWS_WITH(matmul(ones({2, 2, 3}), ones({3, 3, 4})), Contains("matmul") && Contains("[2]") &&
                                                                    Contains("[3]"));
    CHECK_THROWS_WITH(matmul(ones({}), a), Contains("both arguments to matmul need to be at least 1D"));
    CHECK_THROWS_WITH(dot(ones({3}), ones({4})), Contains("dot: inconsistent tensor size"));
    CHECK_THROWS_WITH(mv(a, ones({2})), "mv: size mismatch, got mat (2x3), vec (2)");
    CHECK_THROWS_WITH(bmm(ones({2, 2, 3}), ones({3, 3, 2})),
                      Contains("bmm: Expected size for first two dimensions of batch2 tensor to be: [2, 3]"));
    CHECK_THROWS_AS(matmul(ones({2, 3}), ones({3, 2}, kFloat64)), dtype_error);
    CHECK_THROWS_WITH(matmul(ones({2, 3}), ones({3, 2}, kFloat64)), Contains("float32") && Contains("float64"));
    CHECK_THROWS_AS(matmul(ones({2, 3}, kBool), ones({3, 2}, kBool)), dtype_error);
    CHECK_THROWS_WITH(linalg::multi_dot({a}), Contains("multi_dot: expected at least 2 tensors but got 1"));
    CHECK_THROWS_WITH(linalg::multi_dot({a, b}),
                      Contains("tensors 0 and 1 with shapes [2, 3] and [4, 5] cannot be multiplied"));
    CHECK_THROWS_WITH(linalg::cross(ones({4}), ones({4})), Contains("linalg.cross: inputs dimension 0 must have length 3"));
    CHECK_THROWS_WITH(addmm(ones({3}), a, ones({3, 2})), Contains("addmm") && Contains("[3]") && Contains("[2, 2]"));
    CHECK_THROWS_WITH(trace(ones({3})), Contains("trace: expected a matrix"));
    CHECK_THROWS_WITH(tril(ones({3})), Contains("tril: input tensor must have at least 2 dimensions"));
}

}}  // namespace TENET_TEST_FILE
