#pragma once
// Gradients of matmul and the products (the record_product and record_triangle hooks of
// core/hooks.hpp). Each recorded result is one LinalgNode holding a backward formula from
// PyTorch's derivatives.yaml / FunctionsManual.cpp, evaluated with tenet's own ops (grad mode
// is off during backward).

#include "tenet/config.hpp"
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/linalg/recording.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/linalg/products.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// A recorded linear-algebra result: the tensors its formula needs (checked against in-place
/// writes when it runs) and the formula, which maps the output's gradient to one gradient
/// per input (an undefined tensor for an input without an edge). Saved tensors are detached
/// handles: a saved output that kept its grad_fn (this node) would be a reference cycle.
template <class T>
struct LinalgNode final : Node {
    using Formula = std::function<std::vector<Tensor<T>>(const Tensor<T>& grad, const std::vector<Tensor<T>>& saved,
                                                         const std::vector<bool>& needed)>;
    LinalgNode(std::string n, const std::vector<TensorBase>& inputs, const std::vector<Tensor<T>>& to_save, Formula f)
        : name_(std::move(n)), formula(std::move(f)) {
        for (const TensorBase& t : inputs) next_edges.push_back(gradient_edge(t));
        for (const Tensor<T>& t : to_save) saved.push_back(SavedVersion::save(t.detach()));
    }
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override {
        if (!formula) throw_released(name_);
        std::vector<Tensor<T>> values;
        for (size_t i = 0; i < saved.size(); ++i) {
            saved[i].check(name_, i);
            values.push_back(Tensor<T>(saved[i].tensor.impl_ptr()));
        }
        std::vector<bool> needed;
        for (const Edge& e : next_edges) needed.push_back(e.valid());
        const std::vector<Tensor<T>> grads = formula(Tensor<T>(grad.impl_ptr()).contiguous(), values, needed);
        // The engine adds gradients as dense buffers.
        GradientList out(next_edges.size());
        for (size_t i = 0; i < grads.size() && i < out.size(); ++i)
            if (needed[i] && grads[i].defined()) out[i] = grads[i].contiguous();
        return out;
    }
    void release_variables() override {
        saved.clear();
        formula = nullptr;
    }

    std::string name_;
    Formula formula;
    std::vector<SavedVersion> saved;
};

/// Makes `result` the output of a LinalgNode.
template <class T>
void attach(const Tensor<T>& result, std::string name, const std::vector<TensorBase>& inputs,
            const std::vector<Tensor<T>>& to_save, typename LinalgNode<T>::Formula f) {
    auto node = detail::make_pooled<LinalgNode<T>>(std::move(name), inputs, to_save, std::move(f));
    bool any = false;
    for (const Edge& e : node->next_edges) any = any || e.valid();
    if (any) set_history(result, std::move(node));
}

/// The last two dims swapped (a view).
template <class T>
Tensor<T> mT(const Tensor<T>& t) {
    return t.transpose(-2, -1);
}

/// x * s as a new tensor (s = 1: x itself).
template <class T>
Tensor<T> scaled(const Tensor<T>& x, double s) {
    if (s == 1.0) return x;
    return Tensor<T>(x * static_cast<T>(s));
}

/// torch.matmul's backward: a 1-D operand is a row (a) or column (b) matrix, the gradient gets
/// back the dims the product dropped, and broadcast batch dims are summed away.
template <class T>
std::pair<Tensor<T>, Tensor<T>> matmul_backward(Tensor<T> g, const Tensor<T>& a, const Tensor<T>& b, bool need_a,
                                                bool need_b) {
    const Tensor<T> A = a.dim() == 1 ? a.unsqueeze(0) : a;
    const Tensor<T> B = b.dim() == 1 ? b.unsqueeze(-1) : b;
    if (b.dim() == 1) g = g.unsqueeze(-1);
    if (a.dim() == 1) g = g.unsqueeze(-2);
    Tensor<T> ga, gb;
    if (need_a) ga = sum_to(tenet::matmul(g, mT(B)).contiguous(), A.sizes()).view(a.sizes());
    if (need_b) gb = sum_to(tenet::matmul(mT(A), g).contiguous(), B.sizes()).view(b.sizes());
    return {ga, gb};
}

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

template <class T>
void record_product(const char* name, ProductKind kind, const Tensor<T>& result, const Tensor<T>& a,
                    const Tensor<T>& b, const Tensor<T>& input, double beta, double alpha) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const bool with_input = input.defined();
        if (!(with_input ? linalg_records(a, b, input) : linalg_records(a, b))) return;
        const IntArray input_sizes = with_input ? input.sizes() : IntArray{};
        std::vector<TensorBase> inputs{a, b};
        if (with_input) inputs.push_back(input);
        autograd::attach<T>(result, name, inputs, {a, b},
                            [=](const Tensor<T>& g, const std::vector<Tensor<T>>& s, const std::vector<bool>& needed) {
                                const Tensor<T>& u = s[0];
                                const Tensor<T>& v = s[1];
                                std::vector<Tensor<T>> out(3);
                                const Tensor<T> gp = autograd::scaled(g, alpha);
                                if (kind == ProductKind::Outer) {  // result[i][j] = u[i] * v[j]
                                    if (needed[0]) out[0] = tenet::matmul(gp, v);
                                    if (needed[1]) out[1] = tenet::matmul(autograd::mT(gp), u);
                                } else {
                                    // addbmm summed the batch: every a[i] @ b[i] receives the same gradient.
                                    const Tensor<T> gm = kind == ProductKind::BatchSum
                                                             ? gp.unsqueeze(0).expand({u.sizes()[0], gp.sizes()[0],
                                                                                       gp.sizes()[1]})
                                                             : gp;
                                    std::tie(out[0], out[1]) = autograd::matmul_backward(gm, u, v, needed[0], needed[1]);
                                }
                                if (with_input && needed[2])
                                    out[2] = autograd::sum_to(autograd::scaled(g, beta).contiguous(), input_sizes);
                                return out;
                            });
    }
}

/// tril/triu: the gradient keeps the same triangle.
template <bool Lower, class T>
void record_triangle(const Tensor<T>& A, const Tensor<T>& result, int64_t k) {
    if (!linalg_records(A)) return;
    autograd::attach<T>(result, Lower ? "TrilBackward0" : "TriuBackward0", {A}, {},
                        [k](const Tensor<T>& g, const std::vector<Tensor<T>>&, const std::vector<bool>&) {
                            return std::vector<Tensor<T>>{triangle_impl<Lower>(g, k, Lower ? "tril" : "triu")};
                        });
}

}  // namespace tenet::detail
