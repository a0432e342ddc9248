#pragma once
// The node of an operation whose backward is written beside the operation, as a function of the
// result's gradient (core/hooks.hpp, record_function): softmax and its kin, the scans, the losses.
// One node type per backward; the operation's module holds its rule, so adding such an op touches
// one place.

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

template <class Backward>
struct FunctionNode final : Node {
    FunctionNode(const char* n, Backward b, std::vector<SavedVersion> s)
        : name_(n), backward(std::move(b)), saved(std::move(s)) {}
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override {
        if (!backward) throw_released(name_);
        for (size_t i = 0; i < saved.size(); ++i) saved[i].check(name_, i);
        const auto grads = (*backward)(grad);
        GradientList out(next_edges.size());
        for (size_t i = 0; i < out.size(); ++i)
            if (next_edges[i].valid()) out[i] = grads[i];
        return out;
    }
    void release_variables() override {
        backward.reset();
        saved.clear();
    }

    const char* name_;
    std::optional<Backward> backward;
    std::vector<SavedVersion> saved;
};

}  // namespace tenet::inline TENET_ABI::autograd

namespace tenet::inline TENET_ABI::detail {

template <class T, class Backward, class... In>
void record_function(const char* name, const Tensor<T>& result, std::initializer_list<TensorBase> saved,
                     Backward backward, const In&... inputs) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled()) return;
        if (!((inputs.defined() && autograd::requires_grad(inputs)) || ...)) return;
        std::vector<autograd::SavedVersion> versions;
        for (const TensorBase& t : saved) versions.push_back(autograd::SavedVersion::save(t));
        auto node = detail::make_pooled<autograd::FunctionNode<Backward>>(name, std::move(backward), std::move(versions));
        node->next_edges = {(inputs.defined() ? autograd::gradient_edge(inputs) : autograd::Edge{})...};
        autograd::set_history(result, std::move(node));
    }
}

}  // namespace tenet::detail
