// gradcheck (finite differences in float64) over the differentiable ops, one or two
// expressions per family, with broadcasting, views and reductions; and a gradcheck that
// must fail on a wrong derivative.

#include <catch2/catch.hpp>

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;
using In = std::vector<Tensor<double>>;

namespace {
Tensor<double> uniform(const IntArray& shape, double lo, double hi) { return rand(shape, kFloat64) * (hi - lo) + lo; }
}  // namespace

TEST_CASE("gradcheck: unary math") {
    manual_seed(1);
    auto x = uniform({2, 3}, 0.2, 0.9);  // inside every domain used below
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(sin(in[0]) * cos(in[0]) + tan(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(exp(in[0]) + log(in[0]) + sqrt(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(asin(in[0]) + acos(in[0]) * atan(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(tanh(in[0]) + sigmoid(in[0]) + erf(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(rsqrt(in[0]) + reciprocal(in[0]) + log1p(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(gelu(in[0]) + silu(in[0]) + softplus(in[0])); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(erfinv(in[0]) + atanh(in[0]) + asinh(in[0])); }, {x}));
}

TEST_CASE("gradcheck: binary ops with broadcasting") {
    manual_seed(2);
    auto a = uniform({2, 3}, 0.5, 1.5), b = uniform({3}, 0.5, 1.5), c = uniform({2, 1}, 0.5, 1.5);
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(in[0] * in[1] + in[2] / in[1] - in[0]); }, {a, b, c}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(pow(in[0], in[1]) + atan2(in[0], in[2])); }, {a, b, c}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(hypot(in[0], in[1]) * lerp(in[0], in[2], in[1])); }, {a, b, c}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(pow(in[0], 3) - 2.5 * in[1]); }, {a, b}));
}

TEST_CASE("gradcheck: reductions and views") {
    manual_seed(3);
    auto x = uniform({3, 4}, -1.0, 1.0);
    CHECK(autograd::gradcheck([](const In& in) { return in[0].sum(1); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return in[0].mean(0, true); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>((in[0] * in[0]).sum()); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(in[0].t() * 2.0); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return in[0].index({Slice(1, None), 2}).clone(); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return in[0].view({2, 6}).permute({1, 0}).contiguous(); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return Tensor<double>(in[0].unsqueeze(0).expand({2, 3, 4}) * 1.0); }, {x}));
}

TEST_CASE("gradcheck fails on a wrong analytic gradient") {
    // x.detach() hides the dependence from autograd, so the analytic gradient of the first
    // term is missing: the check must notice.
    auto x = rand({3}, kFloat64);
    CHECK_THROWS_AS(autograd::gradcheck([](const In& in) { return Tensor<double>(in[0].detach() * in[0]); }, {x}),
                    autograd::gradcheck_error);
}

TEST_CASE("gradcheck: prod amax amin max min and norms") {
    manual_seed(4);
    auto x = uniform({3, 4}, 0.5, 1.5);  // distinct values almost surely: no ties for finite differences
    auto y = uniform({4}, -1.0, 1.0);
    CHECK(autograd::gradcheck([](const In& in) { return in[0].prod(); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return prod(in[0] * in[1], 1, true); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return amax(in[0] - in[1], 0); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return amin(in[0], IntArray{0, 1}); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return max(in[0] * in[1]); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return min(in[0], 1).values; }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return max(in[0], 0, true).values; }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return norm(in[0] - in[1]); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return norm(in[0], 1, 1); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return norm(in[0], 3.5, 0, true); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return norm(in[1], INFINITY); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return vector_norm(in[0], -INFINITY, IntArray{1}); }, {x}));
}

TEST_CASE("gradcheck: trace and the diagonal of a matrix") {
    manual_seed(5);
    auto a = uniform({3, 4}, -1.0, 1.0);
    CHECK(autograd::gradcheck([](const In& in) { return trace(in[0]); }, {a}));
    CHECK(autograd::gradcheck([](const In& in) { return trace(in[0] * in[0]); }, {a}));
    CHECK(autograd::gradcheck([](const In& in) { return diag(in[0], 1); }, {a}));
    CHECK(autograd::gradcheck([](const In& in) { return diag(in[0], -1); }, {a}));
}

}}  // namespace TENET_TEST_FILE
