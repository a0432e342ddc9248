// Gradients of the joins and splits: PyTorch-generated cases (join_grad_cases.inc, from
// tests/golden/gen_join.py: values, grad_fn names, gradients, which pieces share one node),
// gradcheck over every op, and what the engine must do with a node of several outputs.
#include "autograd_check.hpp"

#include <string>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace autograd_case;
using In = std::vector<Tensor<double>>;

namespace {
std::vector<std::string> grad_fn_names(const std::vector<Tensor<double>>& pieces) {
    std::vector<std::string> names;
    for (const auto& p : pieces) names.push_back(p.grad_fn() ? p.grad_fn()->name() : "None");
    return names;
}
/// Whether every piece is an output of the same node.
bool one_node(const std::vector<Tensor<double>>& pieces) {
    for (const auto& p : pieces)
        if (p.grad_fn() != pieces.front().grad_fn()) return false;
    return true;
}
}  // namespace

#include "join_grad_cases.inc"

TEST_CASE("join autograd: gradcheck over the joins", "[join]") {
    manual_seed(11);
    auto x = randn({3, 4}, kFloat64), y = randn({3, 2}, kFloat64), z = randn({4}, kFloat64);
    CHECK(autograd::gradcheck([](const In& in) { return cat<double>({in[0], in[1] * in[1]}, 1); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return cat({in[0].t(), in[1].t(), in[0].t()}); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return stack<double>({in[0].slice(1, 1, 3), sin(in[1])}, 2); },
                              {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return hstack({in[0], in[1]}); }, {x, y}));
    CHECK(autograd::gradcheck([](const In& in) { return vstack<double>({in[0] * 2.0, in[1]}); }, {z, x}));
    CHECK(autograd::gradcheck([](const In& in) { return dstack<double>({in[1], in[0].slice(1, 0, 2) * in[1]}); },
                              {x, y}));
}

TEST_CASE("join autograd: gradcheck over the splits", "[join]") {
    manual_seed(12);
    auto x = randn({3, 4}, kFloat64), w = randn({7}, kFloat64);
    CHECK(autograd::gradcheck([](const In& in) {
        auto p = in[0].split(3, 1);
        return Tensor<double>(p[0] * p[1]);
    }, {x}));
    CHECK(autograd::gradcheck([](const In& in) {
        auto p = in[0].split({1, 2});
        return cat<double>({p[1], p[0] * 3.0});
    }, {x}));
    CHECK(autograd::gradcheck([](const In& in) {
        auto p = in[0].chunk(3);  // pieces of 3, 3 and 1
        return stack<double>({p[0] * p[1], p[1] + p[2]});
    }, {w}));
    CHECK(autograd::gradcheck([](const In& in) {
        auto r = in[0].unbind(0);
        return Tensor<double>(r[0] * r[2] - r[1]);
    }, {x}));
    CHECK(autograd::gradcheck([](const In& in) { return cat(in[0].unbind(1)); }, {x}));
    CHECK(autograd::gradcheck([](const In& in) {
        auto p = in[0].tensor_split({1, 3}, 1);
        return cat<double>({p[2], p[0] * p[1].sum()}, 1);
    }, {x}));
}

TEST_CASE("join autograd: the pieces of one split are outputs of one node", "[join]") {
    auto x = randn({4, 3}, kFloat64).requires_grad_();
    auto p = x.split(1);
    Tensor<double> y = p[0] * p[1] + p[3];
    const std::string dot = autograd::to_dot(y);
    size_t count = 0;
    for (size_t at = dot.find("SplitBackward0"); at != std::string::npos; at = dot.find("SplitBackward0", at + 1))
        ++count;
    CHECK(count == 1);
}

TEST_CASE("join autograd: gradients are fresh buffers (no aliasing of each other or of the seed)", "[join]") {
    auto a = randn({2, 3}, kFloat64).requires_grad_(), b = randn({2, 3}, kFloat64).requires_grad_();
    auto seed = randn({4, 3}, kFloat64);
    const std::vector<double> seed_values = seed.to_vector();
    cat({a, b}).backward(seed);
    CHECK_FALSE(a.grad().is_alias_of(seed));
    CHECK_FALSE(a.grad().is_alias_of(b.grad()));
    cat({a, b}).backward(seed);  // accumulates in place into a.grad and b.grad
    CHECK(seed.to_vector() == seed_values);
    auto parts = a.unbind(0);
    parts[1].backward(seed[0]);
    CHECK_FALSE(a.grad().is_alias_of(seed));
    CHECK(seed.to_vector() == seed_values);
}

TEST_CASE("join autograd: nothing is recorded without grad mode, a requiring input or a floating type", "[join]") {
    auto x = randn({4, 3}, kFloat64).requires_grad_();
    {
        NoGradGuard no_grad;
        CHECK(x.split(2)[0].grad_fn() == nullptr);
        CHECK_FALSE(cat({x, x}).requires_grad());
    }
    auto c = randn({4, 3}, kFloat64);
    CHECK(c.chunk(2)[1].grad_fn() == nullptr);
    CHECK(stack({c, c}).is_leaf());
    CHECK(cat(std::tuple{arange(3), x.select(1, 0)}).grad_fn()->name() == "CatBackward0");
    CHECK(arange(6).view({2, 3}).unbind(1)[0].grad_fn() == nullptr);
}

TEST_CASE("flip autograd: create_graph goes through FlipBackward0 (second derivatives by finite differences)",
          "[join]") {
    CHECK(autograd::gradgradcheck([](const In& in) { return Tensor<double>(sin(in[0].flip({0, 1})) * in[0]); },
                                  {randn({2, 3}, kFloat64).requires_grad_()}));
    CHECK(autograd::gradgradcheck([](const In& in) { return Tensor<double>(square(in[0].t().fliplr()) * in[1]); },
                                  {randn({3, 2}, kFloat64).requires_grad_(), randn({2, 3}, kFloat64).requires_grad_()}));
    auto x = randn({4}, kFloat64).requires_grad_();
    auto g = autograd::grad<double>({(x.flip(0) * x).sum()}, {x}, {}, std::nullopt, true)[0];
    CHECK(g.grad_fn() != nullptr);  // recorded: 2 * flip(x) by the product rule, itself differentiable
    CHECK(g.to_vector() == (2.0 * x.flip(0)).eval().detach().to_vector());
}

TEST_CASE("join autograd: pieces narrowed from a transposed tensor sum their gradients (dense, any layout)",
          "[join]") {
    // d/dx sum(cat(pieces of x.t())^2) is 2x where a piece reads x and 0 in the column no piece reads.
    auto x = randn({4, 6}, kFloat64).requires_grad_();
    const auto t = x.t();
    (square(cat({t.narrow(0, 0, 2), t.narrow(0, 3, 3)}))).sum().backward();
    auto expected = (2.0 * x.detach()).eval();
    expected.select(1, 2).fill_(0.0);
    CHECK(x.grad().to_vector() == expected.to_vector());
    CHECK(x.grad().is_contiguous());
    // A transposed leaf accumulates twice through a view.
    auto leaf = randn({6, 4}, kFloat64).t().detach().requires_grad_();
    for (int k = 0; k < 2; ++k) (leaf.narrow(1, 1, 3) * 3.0).sum().backward();
    auto twice = zeros<double>({4, 6});
    twice.narrow(1, 1, 3).fill_(6.0);
    CHECK(leaf.grad().to_vector() == twice.to_vector());
}

}}  // namespace TENET_TEST_FILE
