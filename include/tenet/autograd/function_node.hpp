#pragma once
// The node of an operation whose backward is written beside the operation, as a function of the
// result's gradient: softmax and its kin, the scans, sorting, the losses (through the
// record_function hook of core/hooks.hpp) and the linear algebra (autograd/products.hpp's attach).
// One node type per backward function; the operation's module holds its rule, so adding such an
// op touches one place.

#include "tenet/config.hpp"
#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/core/grad_mode.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// A recorded result whose backward is `backward(grad)`: one gradient per input (indexable;
/// undefined: zero). The tensors in `saved` are what backward reads, checked against in-place
/// writes before it runs (backward holds detached handles of them: a saved output that kept its
/// grad_fn, this node, would be a reference cycle).
template <class Backward>
struct FunctionNode final : Node {
    FunctionNode(std::string n, Backward b, std::vector<SavedVersion> s)
        : name_(std::move(n)), backward(std::move(b)), saved(std::move(s)) {}
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override {
        if (!backward) throw_released(name_);
        for (size_t i = 0; i < saved.size(); ++i) saved[i].check(name_, i);
        const auto grads = (*backward)(grad);
        GradientList out(next_edges.size());
        for (size_t i = 0; i < out.size(); ++i)
            if (next_edges[i].valid() && grads[i].defined()) out[i] = grads[i];
        return out;
    }
    void release_variables() override {
        backward.reset();
        saved.clear();
    }

    std::string name_;
    std::optional<Backward> backward;
    std::vector<SavedVersion> saved;
};

/// Makes `result` the output of a FunctionNode over `inputs`, when one of them has a gradient
/// edge (an undefined input has none).
template <class Backward>
void attach_function(const TensorBase& result, std::string name, const std::vector<TensorBase>& inputs,
                     const std::vector<TensorBase>& saved, Backward backward) {
    EdgeList edges;
    bool any = false;
    for (const TensorBase& t : inputs) {
        edges.push_back(t.defined() ? gradient_edge(t) : Edge{});
        any = any || edges.back().valid();
    }
    if (!any) return;
    std::vector<SavedVersion> versions;
    for (const TensorBase& t : saved) versions.push_back(SavedVersion::save(t));
    auto node = detail::make_pooled<FunctionNode<Backward>>(std::move(name), std::move(backward), std::move(versions));
    node->next_edges = std::move(edges);
    set_history(result, std::move(node));
}

}  // namespace tenet::inline TENET_ABI::autograd

namespace tenet::inline TENET_ABI::detail {

template <class T, class Backward, class... In>
void record_function(const char* name, const Tensor<T>& result, std::initializer_list<TensorBase> saved,
                     Backward backward, const In&... inputs) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled()) return;
        autograd::attach_function(result, name, {inputs...}, saved, std::move(backward));
    }
}

}  // namespace tenet::detail
