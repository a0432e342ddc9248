#pragma once
// Gradients of the joins and splits of ops/join.hpp (the hooks declared there).
//
// cat and stack (and hstack, vstack, dstack) record one JoinNode: input i's gradient is its
// slot of the output's gradient (a narrow, or for stack a select), copied into a fresh
// tensor of the input's element type. The pieces of one split, chunk or unbind are the
// outputs of ONE SplitNode: its backward receives the gradients of all pieces that got one
// and joins them back into the input's shape, zeros standing in for the others, so
// unbinding n rows costs one pass over the input, not n (PyTorch's split_backward).

#include "tenet/config.hpp"
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/join.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// Input i's slot of the gradient as a fresh contiguous tensor of the input's element type
/// U (the engine moves dense buffers that nothing else holds).
template <class R, class U>
TensorBase slot_gradient(const Tensor<R>& slot) {
    Tensor<U> g(detail::make_contiguous_impl(slot.sizes(), dtype_of<U>, slot.device()));
    g.copy_data_(slot);
    return g;
}

/// cat/stack: the output's gradient handed back to the inputs, slot by slot.
template <class R>
struct JoinNode final : Node {
    using SlotGradient = TensorBase (*)(const Tensor<R>& slot);
    JoinNode(std::string n, detail::JoinPlan p) : name_(std::move(n)), plan(std::move(p)) {}
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override {
        const Tensor<R> g(grad.impl_ptr());
        GradientList out(next_edges.size());
        for (size_t i = 0; i < out.size(); ++i)
            if (next_edges[i].valid()) out[i] = to_input[i](Tensor<R>(detail::join_slot(g.impl(), plan, i)));
        return out;
    }
    std::string name_;
    detail::JoinPlan plan;
    std::vector<SlotGradient> to_input;  ///< per input; null for inputs without a gradient (integers)
};

/// split/split_with_sizes/chunk/unbind: one node for all the pieces (output i is piece i).
template <class T>
struct SplitNode final : Node {
    SplitNode(std::string n, const TensorBase& base, int64_t d, IntArray l, bool u)
        : name_(std::move(n)), base_sizes(base.sizes()), dim(d), lengths(std::move(l)), unbind(u) {
        next_edges = {gradient_edge(base)};
    }
    std::string name() const override { return name_; }
    size_t num_outputs() const override { return lengths.size(); }
    GradientList apply(const TensorBase& grad) override {
        GradientList grads(num_outputs());
        grads[0] = grad;
        return apply_outputs(grads);
    }
    GradientList apply_outputs(const GradientList& grads) override {
        std::vector<Tensor<T>> pieces;
        pieces.reserve(grads.size());
        for (size_t i = 0; i < grads.size(); ++i) {
            if (grads[i].defined()) {
                pieces.emplace_back(grads[i].impl_ptr());
                continue;
            }
            IntArray shape = base_sizes;
            if (unbind) shape.erase(static_cast<size_t>(dim));
            else shape[static_cast<size_t>(dim)] = lengths[i];
            pieces.push_back(zeros<T>(shape));
        }
        return {detail::join_values(pieces, dim, unbind, name_.c_str()).first};
    }
    std::string name_;
    IntArray base_sizes;
    int64_t dim;
    IntArray lengths;
    bool unbind;
};

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

template <class R, class L>
void record_join(const Tensor<R>& result, const L& inputs, const JoinPlan& plan, const char* name) {
    if constexpr (FloatingElement<R>) {
        if (!autograd::GradMode::is_enabled()) return;
        bool any = false;
        for_each_tensor(inputs, [&](const TensorBase& t, size_t) { any = any || autograd::requires_grad(t); });
        if (!any) return;
        auto node = detail::make_pooled<autograd::JoinNode<R>>(name, plan);
        for_each_tensor(inputs, [&](const auto& t, size_t) {
            using U = typename std::remove_cvref_t<decltype(t)>::value_type;
            if constexpr (FloatingElement<U>) {
                node->next_edges.push_back(autograd::gradient_edge(t));
                node->to_input.push_back(&autograd::slot_gradient<R, U>);
            } else {
                node->next_edges.emplace_back();
                node->to_input.push_back(nullptr);
            }
        });
        autograd::set_history(result, std::move(node));
    }
}

template <class T>
void record_split(const Tensor<T>& base, const std::vector<Tensor<T>>& pieces, int64_t dim, const IntArray& lengths,
                  bool unbind, const char* name) {
    if constexpr (FloatingElement<T>) {
        if (pieces.empty() || !autograd::GradMode::is_enabled() || !autograd::requires_grad(base)) return;
        auto node = detail::make_pooled<autograd::SplitNode<T>>(name, base, dim, lengths, unbind);
        for (size_t i = 0; i < pieces.size(); ++i) autograd::set_history(pieces[i], node, static_cast<uint32_t>(i));
    }
}

}  // namespace tenet::detail
