// create_graph: second derivatives of every differentiable pointwise op, reductions, views
// and broadcasting, against PyTorch (double_backward_cases.inc, from
// tests/golden/gen_double_backward.py) and gradgradcheck (finite differences of the
// recorded backward); autograd::grad's arguments and errors; what create_graph refuses.

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using In = std::vector<Tensor<double>>;
using Values = std::vector<std::vector<double>>;

namespace {

void check_close(const Tensor<double>& got, const std::vector<double>& want, const std::string& what) {
    INFO(what);
    REQUIRE(got.defined());
    const std::vector<double> g = got.contiguous().to_vector();
    REQUIRE(g.size() == want.size());
    for (size_t i = 0; i < g.size(); ++i) {
        INFO("element " << i << ": tenet " << g[i] << ", PyTorch " << want[i]);
        CHECK(std::abs(g[i] - want[i]) <= 1e-12 + 1e-9 * std::abs(want[i]));
    }
}

/// grad with create_graph, then the gradient of sum_k (g_k * w_k).sum(): both against PyTorch.
void check_case(const std::string& name, const Values& inputs, const std::vector<double>& v, const Values& w,
                const Values& first, const Values& second, const std::function<Tensor<double>(const In&)>& f) {
    INFO("case " << name);
    In xs;
    for (const auto& x : inputs) xs.push_back(tensor<double>(x).requires_grad_());
    const Tensor<double> y = f(xs);
    const Tensor<double> vt = tensor<double>(v).reshape(y.sizes());
    const In g = autograd::grad<double>({y}, xs, {vt}, std::nullopt, /*create_graph=*/true, /*allow_unused=*/true);
    Tensor<double> s = zeros<double>({});
    for (size_t k = 0; k < xs.size(); ++k) {
        if (!g[k].defined()) continue;
        check_close(g[k], first[k], "first derivative of input " + std::to_string(k));
        s = Tensor<double>(s + (g[k] * tensor<double>(w[k]).reshape(g[k].sizes())).sum());
    }
    if (!s.requires_grad()) {  // the first derivatives are constant: PyTorch's second ones are zero
        for (const auto& h : second)
            for (double x : h) CHECK(x == 0.0);
        return;
    }
    const In h = autograd::grad<double>({s}, xs, {}, std::nullopt, false, /*allow_unused=*/true);
    for (size_t k = 0; k < xs.size(); ++k) {
        if (h[k].defined()) check_close(h[k], second[k], "second derivative of input " + std::to_string(k));
        else
            for (double x : second[k]) CHECK(x == 0.0);
    }
}

}  // namespace

TEST_CASE("create_graph: second derivatives against PyTorch") {
#define DOUBLE_BACKWARD_CASE(NAME, INPUTS, V, W, FIRST, SECOND, F) \
    check_case(NAME, Values INPUTS, std::vector<double> V, Values W, Values FIRST, Values SECOND, F);
#include "double_backward_cases.inc"
#undef DOUBLE_BACKWARD_CASE
}

TEST_CASE("create_graph: x^3 at 3 (mathematics) and .grad's history (PyTorch's names)") {
#define DOUBLE_BACKWARD_CASE(...)
#include "double_backward_cases.inc"
#undef DOUBLE_BACKWARD_CASE
    auto x = tensor<double>({3.0}).requires_grad_();
    Tensor<double>(pow(x, 3).sum()).backward({}, std::nullopt, /*create_graph=*/true);
    REQUIRE(x.grad().requires_grad());
    CHECK(x.grad().item() == kCreateGraphFirstGrad);  // 3 x^2 = 27
    CHECK(x.grad().grad_fn()->name() == kCreateGraphFirstName);
    Tensor<double>(pow(x, 3).sum()).backward({}, std::nullopt, true);
    CHECK(x.grad().item() == kCreateGraphSecondGrad);  // 27 + 27
    CHECK(x.grad().grad_fn()->name() == kCreateGraphSecondName);
    // d/dx of .grad (= 2 * 3 x^2) is 2 * 6 x = 36.
    const Tensor<double> g = x.grad();
    x.reset_grad();  // breaks the leaf <-> gradient cycle that create_graph makes (as in PyTorch)
    Tensor<double>(g.sum()).backward();
    CHECK(x.grad().item() == 36.0);
    x.reset_grad();
    // Without create_graph the gradient has no history.
    Tensor<double>(pow(x, 3).sum()).backward();
    CHECK_FALSE(x.grad().requires_grad());
}

TEST_CASE("create_graph: through an assignment that converts (float expression, double tensor; mathematics)") {
    // y = 3 x^2 + sin x, computed in float32 and stored as float64: dy/dx = 6 x + cos x, d2y/dx2 =
    // 6 - sin x. The replayed program ends with the conversion to double (its cast step).
    const std::vector<float> xs{1.5f, -2.0f, 0.25f};
    auto x = tensor<float>({xs[0], xs[1], xs[2]}).requires_grad_();
    Tensor<double> y = x * x * 3.0f + sin(x);
    Tensor<double>(y.sum()).backward({}, std::nullopt, /*create_graph=*/true);
    const Tensor<float> g = x.grad();
    REQUIRE(g.requires_grad());
    x.reset_grad();  // the leaf <-> gradient cycle create_graph makes
    Tensor<float>(g.sum()).backward();
    for (size_t i = 0; i < xs.size(); ++i) {
        const double v = xs[i];
        CHECK(g[static_cast<int64_t>(i)].item() == Approx(6 * v + std::cos(v)).epsilon(1e-6));
        CHECK(x.grad()[static_cast<int64_t>(i)].item() == Approx(6 - std::sin(v)).epsilon(1e-6));
    }
}

TEST_CASE("create_graph: gradgradcheck over pointwise ops, reductions and views") {
    manual_seed(7);
    auto pos = rand({2, 3}, kFloat64) * 0.7 + 0.2;
    auto any = randn({2, 3}, kFloat64);
    auto row = randn({3}, kFloat64);
    CHECK(autograd::gradgradcheck([](const In& in) { return Tensor<double>(sin(in[0]) * cos(in[1]) + tan(in[0])); },
                                  {pos, any}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(exp(in[0]) * log(in[0]) + sqrt(in[0]) * rsqrt(in[0] + 1)); }, {pos}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(sigmoid(in[0] * in[1]) - tanh(in[1]) * erf(in[0])); }, {any, pos}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(asin(in[0]) * acos(in[0]) + atanh(in[0]) + erfinv(in[0])); }, {pos * 0.9}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(gelu(in[0]) * silu(in[1]) + softplus(in[0], 1.5)); }, {any, pos}));
    // Broadcasting: gradients summed back to a row, recorded.
    CHECK(autograd::gradgradcheck([](const In& in) { return Tensor<double>(pow(in[0] * in[1], 3) / (in[1] + 2)); },
                                  {any, row}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(atan2(in[0], in[1]) * hypot(in[0], in[1]) + pow(in[1], in[0])); },
        {any, pos}));
    // Reductions and views.
    CHECK(autograd::gradgradcheck([](const In& in) { return Tensor<double>(pow(in[0], 3).sum(1) * in[1]); },
                                  {any, row.narrow(0, 0, 2)}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(pow(in[0].t(), 2).mean(0, true) * in[0].select(1, 1)); }, {any}));
    CHECK(autograd::gradgradcheck(
        [](const In& in) { return Tensor<double>(pow(in[0].unsqueeze(0).expand({4, 3}), 3) * in[0].clone()); },
        {row}));
}

TEST_CASE("autograd::grad: returns gradients without touching .grad()") {
    auto a = tensor<double>({1.0, 2.0}).requires_grad_();
    auto b = tensor<double>({3.0, 4.0}).requires_grad_();
    Tensor<double> y = (a * b).sum();
    const In g = autograd::grad<double>({y}, {b});
    check_close(g[0], {1.0, 2.0}, "d(a.b)/db = a");
    CHECK_FALSE(a.grad().defined());
    CHECK_FALSE(b.grad().defined());
    // The graph was freed (retain_graph defaults to create_graph = false).
    CHECK_THROWS_WITH(autograd::grad<double>({y}, {a}), Catch::Contains("backward through the graph a second time"));
    // A non-leaf input: the gradient that reaches it.
    Tensor<double> m = a * b;
    Tensor<double> z = (m * m).sum();
    check_close(autograd::grad<double>({z}, {m})[0], {6.0, 16.0}, "d(m^2)/dm = 2 m");
}

TEST_CASE("autograd::grad: errors and allow_unused") {
    auto a = tensor<double>({1.0, 2.0}).requires_grad_();
    auto unused = tensor<double>({5.0}).requires_grad_();
    auto constant = tensor<double>({1.0});
    Tensor<double> y = (a * a).sum();
    CHECK_THROWS_WITH(autograd::grad<double>({y}, {unused}, {}, true),
                      Catch::Contains("appears to not have been used in the graph"));
    const In g = autograd::grad<double>({y}, {a, unused}, {}, true, false, /*allow_unused=*/true);
    check_close(g[0], {2.0, 4.0}, "d(a.a)/da");
    CHECK_FALSE(g[1].defined());
    CHECK_THROWS_WITH(autograd::grad<double>({y}, {constant}, {}, true), Catch::Contains("does not require grad"));
    Tensor<double> vec = a * 2;
    CHECK_THROWS_WITH(autograd::grad<double>({vec}, {a}, {}, true), Catch::Contains("only for scalar outputs"));
    CHECK_THROWS_AS(autograd::grad<double>({vec}, {a}, {tensor<double>({1.0})}, true), shape_error);
    CHECK_THROWS_WITH(autograd::grad<double>({constant}, {a}), Catch::Contains("does not require grad"));
}

TEST_CASE("create_graph: operations without a recorded backward refuse, naming the node") {
    auto m = tensor<double>({1.0, 2.0, 3.0, 4.0}).view({2, 2}).requires_grad_();
    Tensor<double> y = matmul(m, m).sum();
    CHECK_THROWS_WITH(autograd::grad<double>({y}, {m}, {}, std::nullopt, true),
                      Catch::Contains("MmBackward0") && Catch::Contains("create_graph"));
    // Without create_graph the same graph differentiates.
    CHECK(autograd::grad<double>({y}, {m})[0].defined());
    // The tanh approximation of gelu is refused too; the exact one works.
    auto x = tensor<double>({0.5}).requires_grad_();
    Tensor<double> t = gelu(x, "tanh").sum();
    CHECK_THROWS_WITH(autograd::grad<double>({t}, {x}, {}, std::nullopt, true), Catch::Contains("tanh"));
}

}}  // namespace TENET_TEST_FILE
