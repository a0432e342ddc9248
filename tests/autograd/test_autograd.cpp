// Autograd semantics: the seed examples (../shared/seeds autograd tutorial), leaves and
// grad_fn, accumulation, no_grad, detach, views, reductions, and the errors PyTorch raises.
// Expected values are the tutorial's or follow from calculus by hand (stated per case).

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;

namespace {
std::string str(const Tensor<float>& t) {
    std::ostringstream os;
    os << t;
    return os.str();
}
}  // namespace

TEST_CASE("autograd seed: y = x squared at x = 3 gives x.grad = 6") {
    auto x = tensor({3.0f}).requires_grad_();
    Tensor<float> y = x * x;
    y.backward();
    CHECK(x.grad().item() == 6.0f);
}

TEST_CASE("autograd seed: a = 2 and b = 5 through c = ab and d = c + a and e = d squared") {
    auto a = tensor(2.0f).requires_grad_();
    auto b = tensor(5.0f).requires_grad_();
    Tensor<float> c = a * b;
    Tensor<float> d = c + a;
    Tensor<float> e = d.pow(2);
    e.backward();
    CHECK(a.grad().item() == 144.0f);  // de/da = 2d (b + 1) = 2 * 12 * 6
    CHECK(b.grad().item() == 48.0f);   // de/db = 2d a = 2 * 12 * 2
    CHECK(c.grad_fn()->name() == "MulBackward0");
    CHECK(d.grad_fn()->name() == "AddBackward0");
    CHECK(e.grad_fn()->name() == "PowBackward0");
}

TEST_CASE("autograd seed: detach stops the history and shares storage") {
    auto x = ones({2}).requires_grad_();
    Tensor<float> y = x * 3;
    auto z = y.detach();
    CHECK_FALSE(z.requires_grad());
    CHECK(z.data_ptr() == y.data_ptr());
    y.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{3, 3});
}

TEST_CASE("autograd seed: results under NoGradGuard do not require grad") {
    auto x = ones({2}).requires_grad_();
    {
        NoGradGuard guard;
        Tensor<float> y = x * 2;
        CHECK_FALSE(y.requires_grad());
        CHECK(y.grad_fn() == nullptr);
        CHECK_FALSE(x.sum().requires_grad());
    }
    Tensor<float> y = x * 2;
    CHECK(y.requires_grad());
}

TEST_CASE("autograd printing shows requires_grad and grad_fn as PyTorch does") {
    auto x = tensor({1.0f, 2.0f}).requires_grad_();
    CHECK(str(x) == "tensor([1., 2.], requires_grad=True)");
    Tensor<float> y = x + x;
    CHECK(str(y) == "tensor([2., 4.], grad_fn=<AddBackward0>)");
    CHECK(str(y.sum()) == "tensor(6., grad_fn=<SumBackward0>)");
    auto d = tensor({1.0, 2.0}).to<double>().requires_grad_();  // float literals are float32, as in PyTorch
    std::ostringstream os;
    os << d;
    CHECK(os.str() == "tensor([1., 2.], dtype=tenet.float64, requires_grad=True)");
}

TEST_CASE("autograd leaves and grad_fn") {
    auto x = randn({3});
    CHECK(x.is_leaf());
    CHECK_FALSE(x.requires_grad());
    x.requires_grad_();
    CHECK(x.is_leaf());
    CHECK(x.grad_fn() == nullptr);
    CHECK_FALSE(x.grad().defined());  // undefined until a backward reaches it
    Tensor<float> y = sigmoid(x * 2 + 1);
    CHECK_FALSE(y.is_leaf());
    CHECK(y.grad_fn()->name() == "SigmoidBackward0");
    auto w = randn({3});
    Tensor<float> z = w * 2;  // no input requires grad
    CHECK_FALSE(z.requires_grad());
    CHECK(z.is_leaf());
}

TEST_CASE("autograd gradients accumulate across backward calls until reset") {
    auto x = tensor({1.0f, 2.0f}).requires_grad_();
    for (int i = 0; i < 3; ++i) {
        Tensor<float> y = x * x;
        y.sum().backward();
    }
    CHECK(x.grad().to_vector() == std::vector<float>{6, 12});  // 3 * 2x
    x.grad().zero_();
    CHECK(x.grad().to_vector() == std::vector<float>{0, 0});
    x.reset_grad();
    CHECK_FALSE(x.grad().defined());
}

TEST_CASE("autograd a value used twice gets both contributions") {
    // y = x * x + x: dy/dx = 2x + 1; and a diamond a -> (b, c) -> d.
    auto x = tensor({3.0f}).requires_grad_();
    Tensor<float> y = x * x + x;
    y.backward();
    CHECK(x.grad().item() == 7.0f);
    auto a = tensor({2.0f}).requires_grad_();
    Tensor<float> b = a * 3;
    Tensor<float> c = a * a;
    Tensor<float> d = b * c;  // 3a^3: dd/da = 9a^2 = 36
    d.backward();
    CHECK(a.grad().item() == 36.0f);
}

TEST_CASE("autograd broadcasting sums gradients back to each input's shape") {
    auto m = ones({2, 3}).requires_grad_();
    auto row = tensor({1.0f, 2.0f, 3.0f}).requires_grad_();
    auto col = tensor({{10.0f}, {20.0f}}).requires_grad_();
    Tensor<float> y = m * row + col;
    y.sum().backward();
    CHECK(m.grad().sizes() == IntArray{2, 3});
    CHECK(m.grad().to_vector() == std::vector<float>{1, 2, 3, 1, 2, 3});
    CHECK(row.grad().to_vector() == std::vector<float>{2, 2, 2});  // sum over the 2 rows of m (ones)
    CHECK(col.grad().to_vector() == std::vector<float>{3, 3});     // 3 columns each
}

TEST_CASE("autograd sum and mean along dims") {
    auto x = arange(6.0f).view({2, 3}).clone().requires_grad_();
    auto s = x.sum(1);  // [3, 12]
    CHECK(s.grad_fn()->name() == "SumBackward1");
    Tensor<float> loss = s * tensor({1.0f, 2.0f});
    loss.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{1, 1, 1, 2, 2, 2});
    x.reset_grad();
    auto m = x.mean(0, true);  // [1, 3]
    CHECK(m.grad_fn()->name() == "MeanBackward1");
    m.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
    x.reset_grad();
    x.mean().backward();
    for (float g : x.grad().to_vector()) CHECK(g == Approx(1.0 / 6));
    x.reset_grad();
    (x * x).sum().backward();  // a reduction of an expression: one node
    CHECK(x.grad().to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
}

TEST_CASE("autograd through views") {
    auto x = arange(6.0f).view({2, 3}).clone().requires_grad_();
    auto v = x.view({3, 2});
    CHECK(v.grad_fn()->name() == "ViewBackward0");
    auto t = x.t();
    CHECK(t.grad_fn()->name() == "TBackward0");
    Tensor<float> vt = v * t;  // both [3, 2]: v[i][j] = x.flat[2i + j], t[i][j] = x[j][i]
    vt.sum().backward();       // d/dx_k = t-partner + v-partner values
    // x = [[0, 1, 2], [3, 4, 5]]: v = [[0, 1], [2, 3], [4, 5]], t = [[0, 3], [1, 4], [2, 5]];
    // d(sum v*t)/dx gathers t's values at v's positions and v's values at t's positions.
    CHECK(x.grad().to_vector() == std::vector<float>{0 + 0, 3 + 2, 1 + 4, 4 + 1, 2 + 3, 5 + 5});
    x.reset_grad();
    auto row = x[1];
    CHECK(row.grad_fn()->name() == "SelectBackward0");
    Tensor<float> r = row * tensor({1.0f, 2.0f, 3.0f});
    r.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0, 0, 0, 1, 2, 3});
    x.reset_grad();
    auto sl = x.index({Slice(), Slice(1, None)});
    CHECK(sl.grad_fn()->name() == "SliceBackward0");
    sl.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0, 1, 1, 0, 1, 1});
    x.reset_grad();
    auto e = tensor({1.0f, 2.0f}).requires_grad_();
    auto ex = e.view({2, 1}).expand({2, 3});
    CHECK(ex.grad_fn()->name() == "ExpandBackward0");
    ex.sum().backward();
    CHECK(e.grad().to_vector() == std::vector<float>{3, 3});
    x.reset_grad();
    auto p = x.permute({1, 0});
    CHECK(p.grad_fn()->name() == "PermuteBackward0");
    (p * p).sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
}

TEST_CASE("autograd clone keeps history and to converts it") {
    auto x = tensor({1.0f, 2.0f}).requires_grad_();
    auto c = x.clone();
    CHECK(c.grad_fn()->name() == "CloneBackward0");
    auto d = x.to<double>();
    CHECK(d.grad_fn()->name() == "ToCopyBackward0");
    Tensor<double> y = d * 3.0 + c.to<double>();
    y.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{4, 4});
}

TEST_CASE("autograd in-place ops on non-leaves are recorded") {
    auto x = tensor({1.0f, 2.0f}).requires_grad_();
    Tensor<float> y = x * 2;
    y.add_(1);  // y = 2x + 1
    y.mul_(y);  // y = (2x + 1)^2: dy/dx = 4 (2x + 1)
    CHECK(y.grad_fn()->name() == "MulBackward0");
    y.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{12, 20});
}

TEST_CASE("autograd errors") {
    auto x = tensor({1.0f, 2.0f}).requires_grad_();
    Tensor<float> y = x * x;
    // backward on a non-scalar without a gradient
    CHECK_THROWS_WITH(y.backward(), Catch::Contains("grad can be implicitly created only for scalar outputs"));
    // a tensor without history
    CHECK_THROWS_WITH(ones({1}).backward(), Catch::Contains("does not require grad"));
    // integer tensors cannot require grad
    CHECK_THROWS_WITH(arange(3).requires_grad_(), Catch::Contains("floating point"));
    // in-place on a leaf that requires grad
    CHECK_THROWS_WITH(x.add_(1), Catch::Contains("a leaf Variable that requires grad is being used in an in-place"));
    CHECK_THROWS_WITH(x.zero_(), Catch::Contains("a leaf Variable that requires grad"));
    // a second backward through a freed graph
    Tensor<float> s = (x * x).sum();
    s.backward();
    CHECK_THROWS_WITH(s.backward(), Catch::Contains("Trying to backward through the graph a second time"));
    // retain_graph keeps it
    Tensor<float> r = (x * x).sum();
    r.backward(Tensor<float>(), true);
    CHECK_NOTHROW(r.backward());
    // modifying a saved tensor before backward
    auto a = tensor({1.0f, 2.0f}).requires_grad_();
    Tensor<float> b = a * 2;
    Tensor<float> c = b * b;  // saves b
    b.add_(1);
    CHECK_THROWS_WITH(c.sum().backward(), Catch::Contains("modified by an inplace operation") &&
                                              Catch::Contains("is at version 1; expected version 0"));
    // requires_grad_(false) on a non-leaf
    CHECK_THROWS_WITH(c.requires_grad_(false), Catch::Contains("only change requires_grad flags of leaf"));
}

TEST_CASE("autograd backward with an explicit gradient") {
    auto x = tensor({1.0f, 2.0f, 3.0f}).requires_grad_();
    Tensor<float> y = x * x;
    y.backward(tensor({1.0f, 0.1f, 0.01f}));
    const auto g = x.grad().to_vector();
    CHECK(g[0] == 2.0f);
    CHECK(g[1] == Approx(0.4f));
    CHECK(g[2] == Approx(0.06f));
    CHECK_THROWS_WITH(y.backward(ones({2})), Catch::Contains("does not match"));
}

TEST_CASE("to_dot draws the recorded graph from the leaves to the output") {
    auto x = tensor({1.0f, 2.0f, 3.0f}).requires_grad_();
    auto w = tensor({0.5f, -1.0f, 2.0f}).requires_grad_();
    Tensor<float> h = x * w;             // one fused node: MulBackward0
    Tensor<float> loss = (h + 1).sum();  // sum of an expression: one node, SumBackward0
    const std::string dot = autograd::to_dot(loss);
    CHECK(dot.rfind("digraph autograd {", 0) == 0);
    CHECK(dot.find("n0 [label=\"SumBackward0\"]") != std::string::npos);
    CHECK(dot.find("n1 [label=\"MulBackward0\"]") != std::string::npos);
    CHECK(dot.find("label=\"AccumulateGrad\\n[3]\"") != std::string::npos);
    CHECK(dot.find("n1 -> n0;") != std::string::npos);
    CHECK(dot.find("n2 -> n1;") != std::string::npos);
    CHECK(dot.find("n3 -> n1;") != std::string::npos);
    size_t edges = 0;
    for (size_t at = dot.find("->"); at != std::string::npos; at = dot.find("->", at + 2)) ++edges;
    CHECK(edges == 3);
    CHECK_THROWS_WITH(autograd::to_dot(tensor({1.0f, 2.0f})),
                      Catch::Contains("to_dot") && Catch::Contains("does not require grad"));
}

// sum/mean over all elements of an expression whose inputs are contiguous and unbroadcast
// compute their gradients in the forward pass; backward hands them over or scales them.
TEST_CASE("sum and mean of an expression: gradients from the forward pass") {
    const std::vector<double> xv{1.0, -2.0, 0.5, 4.0}, wv{3.0, 0.25, -1.0, 2.0};
    auto x = tensor(xv).requires_grad_();
    auto w = tensor(wv);  // no gradient wanted
    SECTION("sum, seed 1") {
        auto loss = (x * w).sum();
        CHECK(loss.grad_fn()->name() == "SumBackward0");
        CHECK(loss.item() == 1.0 * 3.0 - 2.0 * 0.25 - 0.5 + 8.0);
        loss.backward();
        CHECK(x.grad().to_vector() == wv);
    }
    SECTION("mean scales by 1/n") {
        auto loss = mean(x * w);
        CHECK(loss.grad_fn()->name() == "MeanBackward0");
        loss.backward();
        CHECK(x.grad().to_vector() == std::vector<double>{0.75, 0.0625, -0.25, 0.5});
    }
    SECTION("an upstream factor scales, and retain_graph keeps the gradients for a second backward") {
        auto loss = (x * w).sum();
        Tensor<double> tripled = loss * 3.0;
        tripled.backward(Tensor<double>(), true);
        tripled.backward();
        CHECK(x.grad().to_vector() == std::vector<double>{18.0, 1.5, -6.0, 12.0});  // 2 * 3 * w
        CHECK_THROWS_WITH(tripled.backward(), Catch::Contains("backward through the graph a second time"));
    }
    SECTION("a second backward without retain_graph fails, after handing the gradient over") {
        auto loss = (x * x).sum();
        loss.backward();
        CHECK(x.grad().to_vector() == std::vector<double>{2.0, -4.0, 1.0, 8.0});
        CHECK_THROWS_WITH(loss.backward(), Catch::Contains("backward through the graph a second time"));
    }
    SECTION("an input modified in place after the forward is an error, as in PyTorch") {
        auto h = Tensor<double>(x * 1.0);  // a non-leaf that can be modified in place
        auto loss = (h * h).sum();
        h.add_(1.0);
        CHECK_THROWS_WITH(loss.backward(), Catch::Contains("modified by an inplace operation"));
    }
    SECTION("broadcast inputs take the lazy path, with the same result") {
        auto b = tensor(std::vector<double>{2.0}).requires_grad_();
        auto loss = (x * b).sum();
        loss.backward();
        CHECK(b.grad().to_vector() == std::vector<double>{1.0 - 2.0 + 0.5 + 4.0});
        CHECK(x.grad().to_vector() == std::vector<double>{2.0, 2.0, 2.0, 2.0});
    }
    SECTION("under NoGradGuard nothing is recorded") {
        NoGradGuard no_grad;
        auto loss = (x * w).sum();
        CHECK_FALSE(loss.requires_grad());
    }
}

TEST_CASE("backward through a view of an expanded tensor is refused, not silently wrong") {
    auto x = tensor({1.0, 2.0, 3.0}).requires_grad_();
    auto v = x.expand({2, 3}).t();  // TBackward0 over a base whose rows share storage
    CHECK_THROWS_WITH(v.sum().backward(), Catch::Contains("view of an expanded tensor") &&
                                              Catch::Contains("[2, 3]") && Catch::Contains("contiguous"));
    auto w = x.expand({2, 3}).contiguous().t();  // the way around it
    w.sum().backward();
    CHECK(x.grad().to_vector() == std::vector<float>{2.0f, 2.0f, 2.0f});
}

// In-place writes record a write stamp that no other write shares (core/storage.hpp), so the
// saved-tensor check stays exact without a lock-prefixed version increment.
TEST_CASE("autograd: write stamps never repeat across threads, and concurrent writes are caught") {
    constexpr int kPerThread = 10000;  // more than two of a thread's blocks of 4096
    std::vector<uint64_t> first(kPerThread), second(kPerThread);
    std::thread other([&] {
        for (auto& s : second) s = tenet::detail::next_write_stamp();
    });
    for (auto& s : first) s = tenet::detail::next_write_stamp();
    other.join();
    std::vector<uint64_t> all = first;
    all.insert(all.end(), second.begin(), second.end());
    std::sort(all.begin(), all.end());
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
    CHECK(all.front() > 0);  // 0 means "never written"

    // Two threads writing disjoint rows of one storage; a product saved one of its rows.
    Tensor<float> base = tenet::zeros({2, 64});
    auto w = tensor({1.0f}).requires_grad_();
    Tensor<float> saved_row = base.index({1});
    Tensor<float> out = (w * saved_row).sum();  // saves saved_row for w's gradient
    const uint64_t before = base._version();
    std::thread writer([&] {
        Tensor<float> row = base.index({0});
        for (int i = 0; i < 1000; ++i) row.add_(1.0f);
    });
    Tensor<float> row = base.index({1});
    for (int i = 0; i < 1000; ++i) row.add_(1.0f);
    writer.join();
    CHECK(base._version() > before);
    CHECK(base.index({0, 0}).item() == 1000.0f);
    CHECK(base.index({1, 63}).item() == 1000.0f);
    CHECK_THROWS_WITH(out.backward(), Catch::Contains("modified by an inplace operation"));
}

}}  // namespace TENET_TEST_FILE
