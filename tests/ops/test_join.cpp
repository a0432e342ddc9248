// cat, stack, the *stack functions and the splits against real PyTorch 1.13. The .inc files are
// written by tests/golden/gen_join.py: values, dtypes, shapes, strides and storage offsets
// (split pieces are views), and the errors with PyTorch's messages. The checks written here
// cover what a CPU-only PyTorch cannot produce: storage sharing and mixed devices.
#include "../core/golden_check.hpp"

#include <tuple>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("join: golden cases from PyTorch (cat, concat, stack, hstack, vstack, dstack, atleast_Nd)", "[join]") {
    using namespace tenet::indexing;
#include "join_cases.inc"
}

TEST_CASE("join: golden cases from PyTorch (split, chunk, unbind, tensor_split, writes through pieces)", "[join]") {
#include "split_cases.inc"
}

// The tenet exception, with a message that starts with the operation's name and contains
// PyTorch's (without case: tenet writes "dimension out of range" where PyTorch writes "Dimension").
#define CHECK_JOIN_ERROR(expr, type, op, pytorch_message)                                                  \
    do {                                                                                                   \
        CHECK_THROWS_AS(expr, type);                                                                       \
        CHECK_THROWS_WITH(expr, StartsWith(op ": ") && Contains(pytorch_message, Catch::CaseSensitive::No)); \
    } while (false)

TEST_CASE("join: errors name the operation and carry PyTorch's message", "[join]") {
// (a.flip({-3}) is PyTorch's a.flip([-3]): the braces are the point; Clang warns about them.)
#ifdef __clang__
#pragma clang diagnostic ignored "-Wbraced-scalar-init"
#endif
#include "join_errors.inc"
}

TEST_CASE("join: shape errors also name both shapes", "[join]") {
    auto a = tenet::zeros({2, 3}), b = tenet::zeros({3, 3}), t3 = tenet::zeros({2, 3, 1});
    CHECK_THROWS_WITH(tenet::cat({a, b}, 1), Contains("Tensor 0 has shape [2, 3], tensor 1 has shape [3, 3]"));
    CHECK_THROWS_WITH(tenet::cat({tenet::zeros({0}), a, t3}),
                      Contains("Tensor 1 has shape [2, 3], tensor 2 has shape [2, 3, 1]"));
}

TEST_CASE("join: split pieces share the input's storage; a join's result has its own", "[join]") {
    auto v = tenet::arange(10.0);
    for (const auto& pieces : {v.split(3), v.chunk(4), v.unbind(), v.tensor_split(3), v.split({4, 6})})
        for (const auto& p : pieces) CHECK(p.is_alias_of(v));
    auto c = tenet::cat({v, v});
    CHECK_FALSE(c.is_alias_of(v));
    CHECK(c.is_contiguous());
    auto single = tenet::cat({v});  // a copy even for one input, as torch.cat
    CHECK_FALSE(single.is_alias_of(v));
}

TEST_CASE("join: the result type is PyTorch's promotion of the inputs' types", "[join]") {
    auto i64 = tenet::arange(2);
    auto f32 = tenet::zeros({2});
    auto f16 = tenet::zeros({2}, tenet::kFloat16);
    auto bf16 = tenet::zeros({2}, tenet::kBFloat16);
    auto u8 = tenet::zeros({2}, tenet::kUInt8);
    auto i8 = tenet::zeros({2}, tenet::kInt8);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat(std::tuple{i64, f32})), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat(std::tuple{f16, bf16})), tenet::Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::stack(std::tuple{u8, i8})), tenet::Tensor<int16_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::vstack(std::tuple{f32, tenet::zeros({2}, tenet::kFloat64)})),
                                  tenet::Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(tenet::cat({i64, i64})), tenet::Tensor<int64_t>>);
}

}}  // namespace TENET_TEST_FILE
