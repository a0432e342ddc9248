// Reductions (ops/reduce.hpp): result dtypes, expression inputs consumed without temporaries,
// accuracy and errors. The PyTorch-generated cases are in test_reduce_golden.cpp.
#include "reduce_check.hpp"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace reduce_case {
int64_t allocations() { return host_allocator().stats().allocations; }
}  // namespace reduce_case

TEST_CASE("reduce: result dtypes follow PyTorch") {
    auto f = ones({2, 3});
    auto d = ones({2, 3}, kFloat64);
    auto l = ones({2, 3}, kInt64);
    auto i = ones({2, 3}, kInt32);
    auto b = ones({2, 3}, kBool);
    auto u = ones({2, 3}, kUInt8);
    STATIC_REQUIRE(std::is_same_v<decltype(f.sum()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(d.sum(0)), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(i.sum()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(b.sum({0, 1}, true)), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(u.prod()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(f.mean()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(i.amax(1)), Tensor<int32_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(u.max()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(i.max(1)), return_types::max<int32_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(i.min(1).indices), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(f.argmax()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(f.any()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(l.all(0)), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(u.any()), Tensor<uint8_t>>);  // PyTorch keeps uint8 here
    STATIC_REQUIRE(std::is_same_v<decltype(d.norm(1)), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype((l * 2).sum()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((l * 0.5).mean(0)), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(sum(l > 0)), Tensor<int64_t>>);
    CHECK(f.sum().dim() == 0);
    CHECK(l.sum().item() == 6);
    CHECK(b.sum({0, 1}, true).sizes() == IntArray{1, 1});
}

TEST_CASE("reduce: expressions are consumed in one pass without temporaries") {
    auto a = arange(24.0).view({2, 3, 4});
    auto b = arange(4.0) - 1.5;
    auto c = full({3, 1}, 0.25);
    const Tensor<float> materialised = a * b + c;
    const int64_t before = reduce_case::allocations();
    const auto s = sum(a * b + c);
    CHECK(reduce_case::allocations() == before + 1);  // only the 0-d result
    CHECK(s.item() == Approx(materialised.sum().item()).epsilon(1e-6));
    CHECK(s.item() == Approx(sum(materialised).item()).epsilon(1e-6));

    // Along dims, inner (last dim) and outer: compared with the evaluated tensor.
    for (int64_t d : {0, 1, 2, -1}) {
        const int64_t before_dim = reduce_case::allocations();
        const auto r = (a * b + c).sum(d, true);
        CHECK(reduce_case::allocations() == before_dim + 1);
        CHECK(r.sizes() == materialised.sum(d, true).sizes());
        const auto got = r.to_vector(), want = materialised.sum(d, true).to_vector();
        for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-5));
    }
    // Strided and broadcast leaves (chunk mode): transposed operand times a broadcast row.
    auto m = arange(12.0).view({3, 4});
    const Tensor<float> mt = m.t() * arange(3.0);
    CHECK((m.t() * arange(3.0)).sum(0).to_vector() == mt.sum(0).to_vector());
    CHECK((m.t() * arange(3.0)).amax(1).to_vector() == mt.amax(1).to_vector());
    CHECK(argmax(m.t() * arange(3.0), 1).to_vector() == mt.argmax(1).to_vector());
    CHECK(max(m * -1, 0).indices.to_vector() == std::vector<int64_t>{0, 0, 0, 0});
    CHECK((m > 5).any(1).to_vector() == std::vector<bool>{false, true, true});
    CHECK((m > 1).all(0).to_vector() == std::vector<bool>{false, false, true, true});
    CHECK(norm(m - m, 2).item() == 0.0f);
}

TEST_CASE("reduce: a reduction feeding a broadcast is evaluated once") {
    auto x = arange(12.0).view({3, 4});
    STATIC_REQUIRE(std::is_same_v<decltype(x.mean(1, true)), Tensor<float>>);  // materialised
    const int64_t before = reduce_case::allocations();
    auto centred = x - x.mean(1, true);
    CHECK(reduce_case::allocations() == before + 1);  // the mean, computed here, once
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(centred.b)>, expr::node_t<Tensor<float>>>);
    const Tensor<float> y = centred;
    CHECK(reduce_case::allocations() == before + 2);  // plus the result: no re-evaluation per element
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) CHECK(y(i, j) == static_cast<float>(j) - 1.5f);
}

TEST_CASE("reduce: float32 sums keep PyTorch-level accuracy on 2^24 elements") {
    const int64_t n = int64_t{1} << 24;
    auto x = full({n}, 0.1f);
    const double exact = static_cast<double>(0.1f) * static_cast<double>(n);  // exact in double
    const double got = x.sum().item();
    // Bound: 1e-6 relative (~13 float ulps). A naive float loop is off by ~5%; PyTorch 1.13's
    // cascade sum is off by 9.1e-7 on this input (torch.full((2**24,), 0.1).sum()).
    CHECK(std::abs(got - exact) / exact < 1e-6);
    CHECK(std::abs(static_cast<double>(x.mean().item()) - 0.1f) / 0.1 < 1e-6);
    // The same through an expression and along an outer dim.
    CHECK(std::abs(static_cast<double>((x * 2).sum().item()) - 2 * exact) / exact < 1e-6);
    auto cols = x.view({n / 4, 4});
    for (float v : cols.sum(0).to_vector()) CHECK(std::abs(v - exact / 4) / (exact / 4) < 1e-6);
    for (float v : cols.t().sum(1).to_vector()) CHECK(std::abs(v - exact / 4) / (exact / 4) < 1e-6);
    // float64 with cancellation: 1e16 + 1 - 1e16 ... in blocks.
    auto d = full({1 << 20}, 0.1, kFloat64);
    CHECK(std::abs(d.sum().item() - 0.1 * (1 << 20)) / (0.1 * (1 << 20)) < 1e-14);
}

TEST_CASE("reduce: argmax and argmin pick the first index on ties across blocks") {
    auto t = zeros({10000});
    t.index({indexing::Slice(3000, 3001)}) = 5.0f;
    t.index({indexing::Slice(9000, 9001)}) = 5.0f;
    t.index({indexing::Slice(5000, 5001)}) = -5.0f;
    t.index({indexing::Slice(7000, 7001)}) = -5.0f;
    CHECK(t.argmax().item() == 3000);
    CHECK(t.argmin().item() == 5000);
    CHECK(t.max(0).indices.item() == 3000);
    CHECK(t.view({100, 100}).t().argmax().item() == 30);  // flattened index of the transposed view
    auto ties = full({3, 5}, 2);
    CHECK(ties.argmax(1).to_vector() == std::vector<int64_t>{0, 0, 0});
    CHECK(ties.argmin(0).to_vector() == std::vector<int64_t>{0, 0, 0, 0, 0});
    auto nan = tensor({1.0f, std::numeric_limits<float>::quiet_NaN(), 7.0f, std::numeric_limits<float>::quiet_NaN()});
    CHECK(nan.argmax().item() == 1);
    CHECK(nan.argmin().item() == 1);
    CHECK(std::isnan(nan.max().item()));
    CHECK(std::isnan(nan.amin(0).item()));
}

// A reduction over short trailing dims runs its rows along the kept dims (reduce_loops.hpp,
// move_short_inner_reduction_out). Each result must still be its elements folded in order: the
// expected values are those folds written as loops (sum in double, the first index of the
// extremum, NaN first).
TEST_CASE("reduce: short trailing dims (k-means' sum(-1) of a broadcast difference) fold in order") {
    manual_seed(3);
    Tensor<float> x = randn({37, 1, 3}), c = randn({1, 50, 3});
    c.index({0, 7, 1}) = std::numeric_limits<float>::quiet_NaN();
    Tensor<float> d = (x - c).pow(2);  // [37, 50, 3], materialised to read back
    const auto dv = d.to_vector();
    auto at = [&](int64_t i, int64_t k, int64_t r) { return dv[static_cast<size_t>((i * 50 + k) * 3 + r)]; };
    Tensor<float> sums = ((x - c).pow(2)).sum(-1);           // the lazy expression, as k-means writes it
    Tensor<float> amaxes = ((x - c).pow(2)).amax(-1, true);  // keepdim: [37, 50, 1]
    Tensor<int64_t> argmins = d.argmin(-1);
    REQUIRE(sums.sizes() == IntArray{37, 50});
    REQUIRE(amaxes.sizes() == IntArray{37, 50, 1});
    for (int64_t i = 0; i < 37; ++i) {
        for (int64_t k = 0; k < 50; ++k) {
            double s = 0;
            float m = at(i, k, 0);
            int64_t arg = 0;
            for (int64_t r = 0; r < 3; ++r) {
                const float v = at(i, k, r);
                s += v;
                if (!std::isnan(m) && (std::isnan(v) || v > m)) m = v;
                if (!std::isnan(at(i, k, arg)) && (std::isnan(v) || v < at(i, k, arg))) arg = r;
            }
            const float got = sums.index({i, k}).item();
            if (std::isnan(s)) CHECK(std::isnan(got));
            else CHECK(got == static_cast<float>(s));
            const float got_max = amaxes.index({i, k, 0}).item();
            if (std::isnan(m)) CHECK(std::isnan(got_max));
            else CHECK(got_max == m);
            CHECK(argmins.index({i, k}).item() == arg);
        }
    }
    // Two short trailing dims ([5, 40, 2, 3] summed over the last two) and a transposed input.
    Tensor<double> y = randn({5, 40, 2, 3}, kFloat64);
    Tensor<double> y2 = y.sum(IntArray{2, 3});
    Tensor<double> yt = y.transpose(0, 1).sum(IntArray{2, 3});
    const auto yv = y.to_vector();
    for (int64_t a = 0; a < 5; ++a)
        for (int64_t b = 0; b < 40; ++b) {
            double s = 0;
            for (int64_t r = 0; r < 6; ++r) s += yv[static_cast<size_t>((a * 40 + b) * 6 + r)];
            CHECK(y2.index({a, b}).item() == s);
            CHECK(yt.index({b, a}).item() == s);
        }
}

TEST_CASE("reduce: empty inputs and errors as PyTorch") {
    auto e = empty({0, 3});
    CHECK(e.sum().item() == 0.0f);
    CHECK(e.prod().item() == 1.0f);
    CHECK(std::isnan(e.mean().item()));
    CHECK(e.sum(0).to_vector() == std::vector<float>{0, 0, 0});
    CHECK(e.max(1).values.sizes() == IntArray{0});
    CHECK(e.norm().item() == 0.0f);
    CHECK(norm(e, std::numeric_limits<double>::infinity()).item() == 0.0f);  // torch.norm gives 0
    CHECK_THROWS_AS(vector_norm(e, std::numeric_limits<double>::infinity()), value_error);
    CHECK_THROWS_WITH(e.max(), Catch::Contains("max(): Expected reduction dim to be specified for input.numel() == 0"));
    CHECK_THROWS_AS(e.max(), value_error);
    CHECK_THROWS_AS(e.argmax(), index_error);
    CHECK_THROWS_WITH(e.amin(0), Catch::Contains("amin(): Expected reduction dim 0 to have non-zero size"));
    CHECK_THROWS_AS(e.min(0), index_error);
    CHECK_THROWS_AS(arange(3).mean(), dtype_error);
    CHECK_THROWS_WITH(arange(3).mean(), Catch::Contains("mean(): could not infer output dtype") &&
                                            Catch::Contains("int64"));
    CHECK_THROWS_AS(arange(3).norm(), dtype_error);
    CHECK_THROWS_AS(vector_norm(arange(3)), dtype_error);
    CHECK_THROWS_AS(ones({2, 3}).sum(2), index_error);
    CHECK_THROWS_AS(ones({2, 3}).sum(-3), index_error);
    CHECK_THROWS_WITH(ones({2, 3}).sum({0, -2}), Catch::Contains("dim 0 appears multiple times"));
    CHECK_THROWS_AS(ones({2, 3}).max(5), index_error);
}

TEST_CASE("reduce: free functions and methods agree and max results print") {
    auto t = tensor({{1.0f, 5.0f, 2.0f}, {7.0f, 0.0f, 3.0f}});
    CHECK(sum(t, {0, 1}, true).sizes() == IntArray{1, 1});
    CHECK(sum(t, -1).to_vector() == t.sum(1).to_vector());
    CHECK(amax(t, 0).to_vector() == std::vector<float>{7, 5, 3});
    CHECK(argmin(t, 1, true).sizes() == IntArray{2, 1});
    CHECK(vector_norm(t, 1, IntArray{1}).to_vector() == std::vector<float>{8, 10});
    CHECK(t.norm(1, -1).to_vector() == std::vector<float>{8, 10});
    CHECK((t * 1).norm(2, {0, 1}).item() == Approx(std::sqrt(88.0)));
    auto [values, indices] = (t * 2).max(1);
    CHECK(values.to_vector() == std::vector<float>{10, 14});
    CHECK(indices.to_vector() == std::vector<int64_t>{1, 0});
    std::ostringstream os;
    os << t.min(1);
    CHECK(os.str() == "tenet.return_types.min(\nvalues=tensor([1., 0.]),\nindices=tensor([0, 1]))");
    // A 0-d input reduces along dim 0 or -1 to itself.
    auto s = full({}, 4.0f);
    CHECK(s.sum(0, true).dim() == 0);
    CHECK(s.max(-1).indices.item() == 0);
}

}}  // namespace TENET_TEST_FILE
