#pragma once
// tenet::autograd::grad, as torch::autograd::grad: the gradients of outputs with respect to
// chosen inputs, returned instead of accumulated into .grad(). With create_graph the
// gradients are recorded, so they can be differentiated again (second derivatives):
//
//   auto x = tensor<double>({1.0, 2.0}).requires_grad_();
//   Tensor<double> y = (x * x * x).sum();
//   auto dx = autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];  // 3 x^2
//   auto ddx = autograd::grad({Tensor<double>(dx.sum())}, {x})[0];                  // 6 x

#include "tenet/config.hpp"
#include <optional>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/tensor_autograd.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// d(outputs)/d(inputs), weighted by grad_outputs (one per output; may be empty, or hold
/// undefined tensors, for single-element outputs: ones). retain_graph defaults to
/// create_graph. An input the outputs do not depend on is an error unless allow_unused, in
/// which case its gradient is an undefined tensor.
template <class T>
std::vector<Tensor<T>> grad(const std::vector<Tensor<T>>& outputs, const std::vector<Tensor<T>>& inputs,
                            const std::vector<Tensor<T>>& grad_outputs = {},
                            std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                            bool allow_unused = false) {
    if (outputs.empty()) detail::fail<error>("grad: requires at least one output");
    if (!grad_outputs.empty() && grad_outputs.size() != outputs.size())
        detail::fail<error>("grad: got ", grad_outputs.size(), " grad_outputs for ", outputs.size(), " outputs");
    std::vector<TensorBase> roots(outputs.begin(), outputs.end()), seeds(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i)
        seeds[i] = backward_seed(outputs[i], grad_outputs.empty() ? Tensor<T>() : grad_outputs[i], i, "grad");
    std::vector<Edge> edges;
    edges.reserve(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k].requires_grad())
            detail::fail<error>("grad: input ", k, " (One of the differentiated Tensors) does not require grad");
        edges.push_back(gradient_edge(inputs[k]));
    }
    std::vector<TensorBase> captured(inputs.size());
    run_backward(roots, seeds, {retain_graph.value_or(create_graph), create_graph, &edges, &captured});
    std::vector<Tensor<T>> result(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (captured[k].defined()) result[k] = Tensor<T>(captured[k].impl_ptr());
        else if (!allow_unused)
            detail::fail<error>("grad: input ", k,
                                " (One of the differentiated Tensors) appears to not have been used in the graph. Set "
                                "allow_unused=true if this is the desired behavior.");
    }
    return result;
}

}  // namespace tenet::autograd
