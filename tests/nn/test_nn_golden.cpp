// PyTorch's smooth_l1_loss, huber_loss, kl_div, one_hot, normalize, linear, layer_norm,
// batch_norm and dropout (its cases without randomness), read as data at run time from
// nn_cases.txt (tests/golden/gen_nn.py writes it; the format is described there), compared as
// tests/golden_data.hpp compares; then dropout's random mask checked by its properties, and the
// errors these functions raise for bad arguments.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace F = tenet::nn::functional;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "nn_cases.txt"); }

using golden::Case;

/// The argument in `role` (input, target, weight, ...): x where the case differentiates that
/// argument (`wrt=ROLE`; the input when absent), else the input the case names for the role,
/// else undefined (an argument left out).
template <class T>
Tensor<T> role(const Case& c, const Tensor<T>& x, const std::string& name) {
    const std::string wrt = c.has("wrt") ? c.arg("wrt") : "input";
    if (wrt == name)
        return x;
    if (c.has(name))
        return golden::input<T>(cases(), c, name);
    return {};
}

/// A comma list of integers (`empty`: none).
IntArray int_list(const std::string& text) {
    IntArray out;
    if (text == "empty")
        return out;
    std::istringstream in(text);
    for (std::string w; std::getline(in, w, ',');)
        out.push_back(std::stoll(w));
    return out;
}

/// Runs the case's op on x (in its role) and hands its result(s) to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::string& op = c.op;
    if constexpr (std::is_same_v<T, int64_t>) {
        if (op == "one_hot")
            return k(F::one_hot(x, c.integer("num_classes", -1)));
    } else if constexpr (FloatingElement<T>) {
        const auto arg = [&](const char* name) { return role(c, x, name); };
        const std::string reduction = c.has("reduction") ? c.arg("reduction") : "mean";
        if (op == "smooth_l1_loss")
            return k(F::smooth_l1_loss(arg("input"), arg("target"), reduction, c.number("beta", 1.0)));
        if (op == "huber_loss")
            return k(F::huber_loss(arg("input"), arg("target"), reduction, c.number("delta", 1.0)));
        if (op == "kl_div")
            return k(F::kl_div(arg("input"), arg("target"), reduction, c.flag("log_target")));
        if (op == "normalize")
            return k(F::normalize(arg("input"), c.number("p", 2.0), c.integer("dim", 1), c.number("eps", 1e-12)));
        if (op == "linear")
            return k(F::linear(arg("input"), arg("weight"), arg("bias")));
        if (op == "layer_norm")
            return k(F::layer_norm(arg("input"), int_list(c.arg("shape")), arg("weight"), arg("bias"),
                                   c.number("eps", 1e-5)));
        if (op == "batch_norm") {
            const Tensor<T> running_mean = arg("running_mean"), running_var = arg("running_var");
            const Tensor<T> out = F::batch_norm(arg("input"), running_mean, running_var, arg("weight"), arg("bias"),
                                                c.flag("training"), c.number("momentum", 0.1), c.number("eps", 1e-5));
            if (running_mean.defined())
                return k(out, running_mean, running_var); // as updated in place
            return k(out);
        }
        if (op == "dropout")
            return k(F::dropout(arg("input"), c.number("p", 0.5), c.flag("training")));
    }
    FAIL("no tenet call for " << c.line);
}

const std::set<std::string> kNamedNodes = {"normalize", "kl_div"};

void run_ops(const std::set<std::string>& ops) {
    golden::run_ops(cases(), ops, kNamedNodes, {}, [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

} // namespace

TEST_CASE("golden losses: smooth_l1_loss, huber_loss, kl_div", "[nn][golden]") {
    run_ops({"smooth_l1_loss", "huber_loss", "kl_div"});
}

TEST_CASE("golden one_hot", "[nn][golden]") {
    run_ops({"one_hot"});
}

TEST_CASE("golden normalize, linear", "[nn][golden]") {
    run_ops({"normalize", "linear"});
}

TEST_CASE("golden layer_norm, batch_norm (running statistics in place)", "[nn][golden]") {
    run_ops({"layer_norm", "batch_norm"});
}

TEST_CASE("golden dropout without randomness: p 0, p 1, not training, p out of range", "[nn][golden]") {
    run_ops({"dropout"});
}

TEST_CASE("dropout: kept elements scaled by 1 / (1 - p), the rest zero; the mask from the generator", "[nn][dropout]") {
    const int64_t n = 200000;
    const Tensor<float> x = arange(1, n + 1, kFloat32) * 0.001f; // no zeros: a zero means dropped
    const std::vector<float> xs = x.to_vector();
    for (const double p : {0.1, 0.3, 0.5, 0.9}) {
        INFO("p = " << p);
        Generator gen(2024);
        const Tensor<float> y = F::dropout(x, p, true, gen);
        CHECK(y.sizes() == x.sizes());
        const float scale = 1.0f / static_cast<float>(1 - p); // PyTorch's mask value in float
        const std::vector<float> ys = y.to_vector();
        int64_t kept = 0, wrong = 0;
        for (size_t i = 0; i < ys.size(); ++i) {
            if (ys[i] == 0)
                continue;
            ++kept;
            if (ys[i] != xs[i] * scale)
                ++wrong;
        }
        CHECK(wrong == 0);
        // The kept fraction's standard deviation is sqrt(p (1 - p) / n) <= 0.0012 here.
        CHECK(std::abs(static_cast<double>(kept) / static_cast<double>(n) - (1 - p)) < 0.01);
        // The same seed gives the same mask; the generator moves on, so the next call differs.
        Generator again(2024);
        CHECK(equal(F::dropout(x, p, true, again), y));
        CHECK(!equal(F::dropout(x, p, true, again), y));
    }
    // The default generator, seeded.
    manual_seed(7);
    const Tensor<float> first = F::dropout(x);
    manual_seed(7);
    CHECK(equal(F::dropout(x, 0.5, true), first));
}

TEST_CASE("dropout: p 0, p 1 and not training need no randomness", "[nn][dropout]") {
    const Tensor<double> x = randn({50, 40}, kFloat64);
    Generator gen(1);
    CHECK(equal(F::dropout(x, 0.0, true, gen), x));
    CHECK(equal(F::dropout(x, 0.7, false, gen), x));
    CHECK(gen.offset() == 0); // nothing drawn
    CHECK(equal(F::dropout(x, 1.0, true, gen), zeros<double>({50, 40})));
    const Tensor<double> empty = zeros<double>({0, 3});
    CHECK(F::dropout(empty, 0.5).sizes() == IntArray{0, 3});
}

#if TENET_AUTOGRAD
TEST_CASE("dropout: the gradient is the mask", "[nn][dropout]") {
    const Tensor<double> x = (randn({30, 20}, kFloat64) + 5.0).eval().requires_grad_();
    Generator gen(99);
    const Tensor<double> y = F::dropout(x, 0.25, true, gen);
    y.sum().backward();
    REQUIRE(x.grad().defined());
    const std::vector<double> ys = y.detach().to_vector(), gs = x.grad().to_vector();
    for (size_t i = 0; i < ys.size(); ++i)
        CHECK(gs[i] == (ys[i] == 0 ? 0.0 : 1.0 / 0.75));
}
#endif

TEST_CASE("nn::functional refuses bad arguments by name", "[nn][errors]") {
    const Tensor<double> a = randn({3, 4}, kFloat64), b = randn({3, 4}, kFloat64);
    CHECK_THROWS_WITH(F::smooth_l1_loss(a, b, "mean", -1.0),
                      Catch::Contains("smooth_l1_loss") && Catch::Contains("beta"));
    CHECK_THROWS_WITH(F::huber_loss(a, b, "mean", 0.0), Catch::Contains("huber_loss") && Catch::Contains("delta"));
    CHECK_THROWS_WITH(F::huber_loss(a, b, "average"), Catch::Contains("huber_loss") && Catch::Contains("average"));
    // PyTorch broadcasts a target of another size with a warning; tenet's losses refuse it, as mse_loss does.
    CHECK_THROWS_AS(F::smooth_l1_loss(a, randn({4}, kFloat64)), value_error);
    CHECK_THROWS_AS(F::huber_loss(a, randn({1, 4}, kFloat64)), value_error);
    CHECK_THROWS_WITH(F::kl_div(a, b, "average"), Catch::Contains("batchmean"));
    CHECK_THROWS_WITH(F::one_hot(tensor({1L, -1L})), Catch::Contains("non-negative"));
    CHECK_THROWS_AS(F::one_hot(tensor({1L, 5L}), 5), index_error);
    CHECK_THROWS_WITH(F::one_hot(zeros<int64_t>({0})), Catch::Contains("empty"));
    CHECK_THROWS_AS(F::normalize(a, 2.0, 2), index_error);
    CHECK_THROWS_AS(F::linear(a, randn({5, 3}, kFloat64)), tenet::error);
    CHECK_THROWS_WITH(F::layer_norm(a, {3}), Catch::Contains("normalized_shape") && Catch::Contains("[3, 4]"));
    CHECK_THROWS_WITH(F::layer_norm(a, {4}, randn({3}, kFloat64)), Catch::Contains("weight"));
    CHECK_THROWS_AS(F::layer_norm(a, {}), value_error);
    const Tensor<double> rm = zeros<double>({4}), rv = ones<double>({4});
    CHECK_THROWS_WITH(F::batch_norm(randn({1, 4}, kFloat64), rm, rv, {}, {}, true),
                      Catch::Contains("more than 1 value per channel"));
    CHECK_THROWS_WITH(F::batch_norm(randn({5}, kFloat64), rm, rv), Catch::Contains("[N, C]"));
    CHECK_THROWS_WITH(F::batch_norm(randn({2, 3}, kFloat64), rm, rv), Catch::Contains("running_mean should contain 3"));
    CHECK_THROWS_WITH(F::batch_norm(a, Tensor<double>(), Tensor<double>()), Catch::Contains("evaluation mode"));
    CHECK_THROWS_WITH(F::dropout(a, 1.5), Catch::Contains("between 0 and 1"));
    CHECK_THROWS_AS(F::dropout(a, -0.5, false), value_error);
    // The running statistics are left as they were when the call raises.
    CHECK(equal(rm, zeros<double>({4})));
}

TEST_CASE("batch_norm in training without running statistics; F.batch_norm's momentum", "[nn]") {
    // Training with no running statistics normalises by the batch's and updates nothing.
    const Tensor<double> x = randn({6, 2}, kFloat64);
    const Tensor<double> y = F::batch_norm(x, {}, {}, {}, {}, true, 0.1, 0.0);
    const Tensor<double> column_means = mean(y, 0), column_vars = var(y, 0, 0);
    for (double m : column_means.to_vector())
        CHECK(std::abs(m) < 1e-12);
    for (double v : column_vars.to_vector())
        CHECK(std::abs(v - 1) < 1e-12);
    // momentum 1: the running statistics become the batch's mean and unbiased variance.
    Tensor<double> rm = zeros<double>({2}), rv = ones<double>({2});
    F::batch_norm(x, rm, rv, {}, {}, true, 1.0);
    CHECK(allclose(rm, mean(x, 0), 1e-12, 1e-12));
    CHECK(allclose(rv, var(x, 0), 1e-12, 1e-12));
}

}}  // namespace TENET_TEST_FILE
