#pragma once
// Gradient of flip (ops/flip.hpp): FlipBackward0 flips the incoming gradient along the same
// dims. That backward is flip itself, recorded like any call, so create_graph goes through it.

#include "tenet/config.hpp"
#include <string>
#include <utility>

#include "tenet/autograd/engine.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/ops/flip.hpp"

namespace tenet::inline TENET_ABI::autograd {

template <class T>
struct FlipNode final : Node {
    FlipNode(const TensorBase& input, IntArray d) : dims(std::move(d)) { next_edges = {gradient_edge(input)}; }
    std::string name() const override { return "FlipBackward0"; }
    GradientList apply(const TensorBase& grad) override { return {flipped(grad)}; }
    GradientList apply_with_graph(const GradientList& grads) override { return {flipped(grads[0])}; }
    IntArray dims;

private:
    /// Recorded when grad mode is on (create_graph), plain otherwise: one rule for both modes.
    TensorBase flipped(const TensorBase& g) const { return flip(Tensor<T>(g.impl_ptr()), dims); }
};

}  // namespace tenet::autograd

namespace tenet::inline TENET_ABI::detail {

template <class T>
void record_flip(const Tensor<T>& input, const Tensor<T>& result, const IntArray& dims) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled() || !autograd::requires_grad(input)) return;
        autograd::set_history(result, detail::make_pooled<autograd::FlipNode<T>>(input, dims));
    }
}

}  // namespace tenet::detail
