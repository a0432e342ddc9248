// Post-accumulate-grad hooks (PyTorch's register_post_accumulate_grad_hook): called once per
// backward pass, after the leaf's .grad() holds the new sum; removable; refused on non-leaves.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tenet/tenet.hpp>

#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

TEST_CASE("post-accumulate-grad hooks see the accumulated gradient", "[autograd][hooks]") {
    Tensor<float> w = tensor<float>({1.f, 2.f}).requires_grad_();
    std::vector<std::vector<float>> seen;
    autograd::RemovableHandle handle = autograd::register_post_accumulate_grad_hook(
        w, [&](const TensorBase& leaf) { seen.push_back(leaf.as<float>().grad().to_vector()); });
    // w is used twice: the engine sums both contributions before the one accumulation.
    (w * w + w * 3.f).sum().backward();  // d/dw = 2w + 3
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == std::vector<float>{5.f, 7.f});
    (w * 2.f).sum().backward();  // accumulates: + 2
    REQUIRE(seen.size() == 2);
    CHECK(seen[1] == std::vector<float>{7.f, 9.f});
    handle.remove();
    handle.remove();  // twice: nothing
    (w * 2.f).sum().backward();
    CHECK(seen.size() == 2);
}

TEST_CASE("post-accumulate-grad hooks run in registration order, also under create_graph", "[autograd][hooks]") {
    Tensor<double> x = tensor<double>({3.0}).requires_grad_();
    std::string order;
    auto first = autograd::register_post_accumulate_grad_hook(x, [&](const TensorBase&) { order += "a"; });
    auto second = autograd::register_post_accumulate_grad_hook(x, [&](const TensorBase&) { order += "b"; });
    x.pow(3).sum().backward({}, std::nullopt, /*create_graph=*/true);
    CHECK(order == "ab");
    CHECK(x.grad().item() == 27.0);
    x.reset_grad();
}

TEST_CASE("post-accumulate-grad hooks: leaves that require grad only", "[autograd][hooks]") {
    Tensor<float> leaf = ones<float>({2}).requires_grad_();
    Tensor<float> made = (leaf * 2.f).eval();
    TENET_REQUIRE_THROWS(autograd::register_post_accumulate_grad_hook(made, [](const TensorBase&) {}), error,
                         Catch::Matchers::Contains("post accumulate grad hooks cannot be registered on non-leaf "
                                                   "tensors (this tensor has grad_fn MulBackward0)"));
    TENET_REQUIRE_THROWS(autograd::register_post_accumulate_grad_hook(ones<float>({2}), [](const TensorBase&) {}),
                         error, Catch::Matchers::Contains("cannot register a hook on a tensor that doesn't require gradient"));
}

}}  // namespace TENET_TEST_FILE
