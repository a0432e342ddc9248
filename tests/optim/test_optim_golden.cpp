// tenet::optim against PyTorch 1.13's optimizers, bit for bit: ten steps of each configuration
// of optim_cases.txt (tests/golden/gen_optim.py), the parameters compared exactly after every step.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "optim_cases.txt"); }

std::pair<double, double> betas(const golden::Case& c) {
    if (!c.has("betas")) return {0.9, 0.999};
    std::istringstream in(c.arg("betas"));
    std::string b1, b2;
    std::getline(in, b1, ',');
    std::getline(in, b2);
    return {std::stod(b1), std::stod(b2)};
}

template <class T>
void run_case(const golden::Case& c) {
    Tensor<T> p = golden::make<T>(cases().inputs.at(c.arg("p"))).requires_grad_();
    const Tensor<T> t = golden::make<T>(cases().inputs.at(c.arg("t")));
    std::function<void()> step;  // the optimizer's step(), whichever it is
    if (c.op == "SGD") {
        auto sgd = std::make_shared<optim::SGD>(std::vector<TensorBase>{p},
                                                optim::SGDOptions(c.number("lr", 0))
                                                    .momentum(c.number("momentum", 0))
                                                    .dampening(c.number("dampening", 0))
                                                    .weight_decay(c.number("weight_decay", 0))
                                                    .nesterov(c.flag("nesterov"))
                                                    .maximize(c.flag("maximize")));
        step = [sgd] { sgd->step(); };
    } else {
        optim::AdamOptions options = c.op == "AdamW" ? optim::AdamWOptions(c.number("lr", 1e-3))
                                                     : optim::AdamOptions(c.number("lr", 1e-3));
        options.betas(betas(c)).eps(c.number("eps", 1e-8)).amsgrad(c.flag("amsgrad")).maximize(c.flag("maximize"));
        if (c.has("weight_decay")) options.weight_decay(c.number("weight_decay", 0));
        if (c.op == "AdamW") {
            auto adamw = std::make_shared<optim::AdamW>(std::vector<TensorBase>{p}, options);
            step = [adamw] { adamw->step(); };
        } else {
            auto adam = std::make_shared<optim::Adam>(std::vector<TensorBase>{p}, options);
            step = [adam] { adam->step(); };
        }
    }
    REQUIRE(c.parts.size() == 10);
    for (size_t s = 0; s < c.parts.size(); ++s) {
        INFO("after step " << s + 1);
        p.reset_grad();
        Tensor<T> loss = (square(p - t)).sum() * T(0.5);
        loss.backward();
        step();
        golden::compare(golden::parse_part(c.parts[s]), p.detach(), 0.0);
    }
}

}  // namespace

TEST_CASE("optimizers follow PyTorch 1.13 bit for bit over ten steps", "[optim][golden]") {
    for (const golden::Case& c : cases().cases) {
        INFO(c.line.substr(0, 120));
        if (c.arg("p") == "p32") run_case<float>(c);
        else run_case<double>(c);
    }
}

TEST_CASE("optimizers refuse bad options and parameters by name", "[optim][errors]") {
    auto p = tensor({1.0, 2.0}).requires_grad_();
    CHECK_THROWS_AS(optim::SGD({p}, optim::SGDOptions(-0.1)), value_error);
    CHECK_THROWS_AS(optim::SGD({p}, optim::SGDOptions(0.1).nesterov(true)), value_error);
    CHECK_THROWS_AS(optim::Adam({p}, optim::AdamOptions(0.1).betas({1.0, 0.9})), value_error);
    CHECK_THROWS_AS(optim::Adam({tensor({1L, 2L})}), dtype_error);
    auto m = tensor({{1.0, 2.0}, {3.0, 4.0}}).requires_grad_();
    CHECK_THROWS_WITH(optim::AdamW({m.t()}), Catch::Contains("not contiguous"));
}

TEST_CASE("zero_grad zeroes the gradients, or forgets them", "[optim]") {
    auto p = tensor({1.0, 2.0}).requires_grad_();
    optim::SGD opt({p}, optim::SGDOptions(0.1));
    Tensor<float> loss = (p * p).sum();
    loss.backward();
    opt.zero_grad();
    REQUIRE(p.grad().defined());
    CHECK(p.grad().to_vector() == std::vector<float>{0, 0});
    opt.zero_grad(/*set_to_none=*/true);
    CHECK_FALSE(p.grad().defined());
    opt.step();  // no gradient: nothing moves
    CHECK(p.detach().to_vector() == std::vector<float>{1, 2});
}

}}  // namespace TENET_TEST_FILE
