#pragma once
// Gradients of matmul and the products (the record_product and record_triangle hooks of
// core/hooks.hpp). Each recorded result is one FunctionNode (autograd/function_node.hpp, through
// attach below) holding a backward formula from PyTorch's derivatives.yaml / FunctionsManual.cpp,
// evaluated with tenet's own ops (grad mode is off during backward).

#include "tenet/config.hpp"
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/function_node.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/linalg/recording.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/linalg/products.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// A linear-algebra backward formula (PyTorch's derivatives.yaml / FunctionsManual.cpp): the
/// output's gradient and the saved tensors to one gradient per input (undefined where the input
/// needs none: `needed`).
template <class T>
using LinalgFormula = std::function<std::vector<Tensor<T>>(const Tensor<T>& grad, const std::vector<Tensor<T>>& saved,
                                                           const std::vector<bool>& needed)>;

/// Makes `result` the output of a FunctionNode (autograd/function_node.hpp) running `f` over the
/// saved tensors (detached, checked against in-place writes); the engine adds its gradients as
/// dense buffers.
template <class T>
void attach(const Tensor<T>& result, std::string name, const std::vector<TensorBase>& inputs,
            const std::vector<Tensor<T>>& to_save, LinalgFormula<T> f) {
    std::vector<Tensor<T>> saved;
    std::vector<TensorBase> checked;
    for (const Tensor<T>& t : to_save) {
        saved.push_back(t.detach());
        checked.push_back(saved.back());
    }
    std::vector<bool> needed;
    for (const TensorBase& t : inputs) needed.push_back(t.defined() && requires_grad(t));
    attach_function(result, std::move(name), inputs, checked,
                    [saved = std::move(saved), needed, f = std::move(f)](const TensorBase& grad) {
                        std::vector<Tensor<T>> grads = f(Tensor<T>(grad.impl_ptr()).contiguous(), saved, needed);
                        grads.resize(needed.size());
                        for (size_t i = 0; i < grads.size(); ++i)
                            if (grads[i].defined()) grads[i] = grads[i].contiguous();
                        return grads;
                    });
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
