// Autograd on meta tensors against PyTorch 1.13 (the "grad:" cases of meta_cases.txt, written by
// tests/golden/gen_meta.py): backward() propagates shapes, so a model's parameters get meta
// gradients of their shapes and dtypes, accumulated without data; printing shows requires_grad and
// grad_fn as PyTorch does. Skipped when tenet is built without autograd (tests/CMakeLists.txt).
#include "meta_check.hpp"

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace F = tenet::nn::functional;
using meta_check::Builder;
using meta_check::meta;

Tensor<float> A() { return meta({2, 3}); }

/// The two-layer perceptron of gen_meta.py: its loss and parameters after backward().
struct Mlp {
    Tensor<float> loss, w1 = meta({16, 3}, true), b1 = meta({16}, true), w2 = meta({2, 16}, true),
                        b2 = meta({2}, true);
    Mlp() {
        const auto x = meta({8, 3}), y = meta({8, 2});
        const Tensor<float> h = relu(F::linear(x, w1, b1));
        loss = F::mse_loss(F::linear(h, w2, b2), y);
        loss.backward();
    }
};

/// The gradient of `leaf` after f(leaf).backward().
template <class T, class Fn>
TensorBase grad_after(Tensor<T> leaf, Fn f) {
    Tensor<T>(f(leaf)).backward();
    return leaf.grad();
}

std::map<std::string, Builder> grad_cases() {
    return {
        {"print:grad:requires_grad", [] { return TensorBase(meta({2, 3}, true)); }},
        {"print:grad:requires_grad_f64", [] { return TensorBase(meta<double>({2, 3}, true)); }},
        {"print:grad:mul", [] { return TensorBase(Tensor<float>(meta({2, 3}, true) * 2)); }},
        {"print:grad:sum", [] { return TensorBase(Tensor<float>(meta({2, 3}, true).sum())); }},
        {"print:grad:mm", [] { return TensorBase(matmul(meta({2, 3}, true), meta({3, 4}))); }},
        {"print:grad:mean", [] { return TensorBase(Tensor<float>((meta({2, 3}, true) * 2).mean())); }},
        {"grad:mlp.loss", [] { return TensorBase(Mlp().loss); }},
        {"grad:mlp.w1", [] { return Mlp().w1.grad(); }},
        {"grad:mlp.b1", [] { return Mlp().b1.grad(); }},
        {"grad:mlp.w2", [] { return Mlp().w2.grad(); }},
        {"grad:mlp.b2", [] { return Mlp().b2.grad(); }},
        {"print:grad:mlp.w1", [] { return Mlp().w1.grad(); }},
        {"grad:accumulated",
         [] {
             auto w = meta({3, 4}, true);
             const auto x = meta({5, 3});
             for (int i = 0; i < 2; ++i) Tensor<float>(matmul(x, w).sum()).backward();
             return w.grad();
         }},
        {"grad:broadcast_leaf", [] { return grad_after(meta({3}, true), [](const auto& b) { return (A() * b).sum(); }); }},
        {"grad:zero_d_leaf", [] { return grad_after(meta({}, true), [](const auto& s) { return (A() * s).mean(); }); }},
        {"grad:f64_leaf",
         [] { return grad_after(meta<double>({2, 3}, true), [](const auto& a) { return (sin(a) * a).sum(); }); }},
        {"grad:cat.a",
         [] {
             auto a = meta({2, 3}, true), b = meta({4, 3}, true);
             cat(std::vector{a, b}).sum().backward();
             return a.grad();
         }},
        {"grad:cat.b",
         [] {
             auto a = meta({2, 3}, true), b = meta({4, 3}, true);
             cat(std::vector{a, b}).sum().backward();
             return b.grad();
         }},
        {"grad:stack",
         [] {
             return grad_after(meta({2, 3}, true), [](const auto& a) {
                 return stack(std::vector{a, Tensor<float>(a * 2)}, 1).mean();
             });
         }},
        {"grad:view_chain",
         [] { return grad_after(meta({2, 3, 4}, true), [](const auto& a) { return a.transpose(0, 2)[1].sum(); }); }},
        {"grad:softmax",
         [] { return grad_after(meta({4, 5}, true), [](const auto& a) { return log_softmax(a, 1).sum(); }); }},
        {"grad:mean_dim",
         [] { return grad_after(meta({4, 5}, true), [](const auto& a) { return Tensor<float>(a.mean(1)).sum(); }); }},
        {"grad:max_dim",
         [] { return grad_after(meta({4, 5}, true), [](const auto& a) { return a.max(1).values.sum(); }); }},
        {"grad:flip",
         [] { return grad_after(meta({2, 3}, true), [](const auto& a) { return flip(a, {1}).sum(); }); }},
        {"grad:bmm",
         [] { return grad_after(meta({2, 3, 4}, true), [](const auto& a) { return bmm(a, meta({2, 4, 5})).sum(); }); }},
        {"grad:cross_entropy",
         [] {
             return grad_after(meta({4, 5}, true),
                               [](const auto& a) { return F::cross_entropy(a, meta<int64_t>({4})); });
         }},
    };
}

bool grad_case(const std::string& name) { return name.rfind("grad:") != std::string::npos; }

TEST_CASE("meta: autograd propagates shapes (golden cases from PyTorch)") {
    meta_check::run_cases(meta_check::cases_file(), grad_cases(), grad_case);
}

TEST_CASE("meta: accumulating a meta gradient keeps it on meta, with no buffer") {
    auto w = meta({4, 3}, true);
    const auto x = meta({7, 3});
    for (int i = 0; i < 3; ++i) Tensor<float>(relu(F::linear(x, w)).pow(2).mean()).backward();
    const TensorBase g = w.grad();
    CHECK(g.is_meta());
    CHECK(g.sizes() == IntArray{4, 3});
    CHECK(g.impl().storage->data_or_null() == nullptr);
    w.grad().zero_();  // an optimizer's zero_grad: nothing to write
    CHECK(w.grad().is_meta());
}

}}  // namespace TENET_TEST_FILE
