#pragma once
// The backward pass. backward(output, grad) walks the tape in reverse from output's node:
// nodes are taken in decreasing sequence number (reverse execution order), each once all
// of its gradient contributions have arrived, and leaves accumulate into .grad().

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "tenet/autograd/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/core/device_copy.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/evaluate.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"

namespace tenet::autograd {

/// Calls f with a tag of t's floating element type (gradients exist only for those).
template <class F>
decltype(auto) visit_floating(DType d, const char* op, F&& f) {
    switch (d.scalar_type()) {
        case ScalarType::Float32: return f(kFloat32);
        case ScalarType::Float64: return f(kFloat64);
        case ScalarType::Float16: return f(kFloat16);
        case ScalarType::BFloat16: return f(kBFloat16);
        default: break;
    }
    detail::fail<dtype_error>(op, ": only tensors of floating point dtype can have gradients, got ", d);
}

/// out += g for two contiguous gradients of one shape and dtype, where they live: a plain
/// loop in the element type's opmath on the host, the backend's accumulate on a device.
inline void add_into(const TensorBase& out, const TensorBase& g) {
    if (!out.is_cpu()) {
        detail::DeviceGuard guard(out.device());
        detail::device_backend(out.device(), "backward")
            .accumulate(out.device().index(), detail::first_byte(out), detail::first_byte(g), out.numel(), out.dtype());
        return;
    }
    visit_floating(out.dtype(), "backward", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using M = fn::opmath_t<T>;
        T* o = static_cast<T*>(detail::first_byte(out));
        const T* from = static_cast<const T*>(detail::first_byte(g));
        for (int64_t i = 0, n = out.numel(); i < n; ++i) o[i] = convert<T>(static_cast<M>(o[i]) + static_cast<M>(from[i]));
    });
}

/// A contiguous copy of t on its device (no autograd).
inline TensorBase dense_copy(const TensorBase& t) {
    TensorBase out(detail::make_contiguous_impl(t.sizes(), t.dtype(), t.device()));
    if (t.is_cpu()) std::memcpy(out.impl().storage->data(), detail::first_byte(t), static_cast<size_t>(t.nbytes()));
    else detail::copy_strided_on_device(out, t);
    return out;
}

/// a + b for two gradients of one node's output (same dtype, shape and device, contiguous:
/// every gradient the engine moves is). Plain loops and backend calls, not expressions: the
/// engine is instantiated in every translation unit, so it stays cheap to compile.
inline TensorBase add_gradients(const TensorBase& a, const TensorBase& b) {
    if (!a.defined()) return b;
    if (!b.defined()) return a;
    if (!(a.sizes() == b.sizes()) || !(a.dtype() == b.dtype()) || !a.is_contiguous() || !b.is_contiguous() ||
        !(a.device() == b.device()))
        detail::fail<error>("backward: internal error: gradients of shapes ", a.sizes(), " and ", b.sizes(),
                            " (devices ", a.device(), ", ", b.device(), ") cannot be summed");
    TensorBase sum = dense_copy(a);
    add_into(sum, b);
    return sum;
}

/// Accumulates into a leaf's .grad(): the first gradient is kept (copied when someone else
/// holds it), later ones are added in place, as PyTorch's AccumulateGrad.
struct AccumulateGrad final : Node {
    explicit AccumulateGrad(TensorBase v) : variable(std::move(v)) {}
    std::string name() const override { return "AccumulateGrad"; }
    std::vector<TensorBase> apply(const TensorBase& grad) override {
        AutogradMeta& m = meta_of(variable);
        if (!(grad.sizes() == variable.sizes()))
            detail::fail<shape_error>("backward: gradient of shape ", grad.sizes(), " does not match the leaf's shape ",
                                      variable.sizes());
        if (!(grad.device() == variable.device()))
            detail::fail<device_error>("backward: gradient on ", grad.device(), " for a leaf on ", variable.device());
        if (!m.grad.defined()) {
            // Kept as is when the engine holds the only reference, else copied.
            m.grad = grad.impl_ptr().use_count() == 1 ? grad : dense_copy(grad);
            return {};
        }
        add_into(m.grad, grad);
        m.grad.impl().storage->bump_version();
        return {};
    }
    TensorBase variable;
};

/// The edge a gradient for t flows along: its grad_fn, or its leaf accumulator.
inline Edge gradient_edge(const TensorBase& t) {
    const AutogradMeta* cm = meta_if(t);
    if (!cm) return {};
    if (cm->grad_fn) return {cm->grad_fn, cm->output_nr};
    if (!cm->requires_grad) return {};
    AutogradMeta& m = meta_of(t);
    NodePtr acc = m.grad_accumulator.lock();
    if (!acc) {
        acc = std::make_shared<AccumulateGrad>(t);
        m.grad_accumulator = acc;
    }
    return {acc, 0};
}

/// Makes `result` output `output_nr` of `node` (it then requires grad and is not a leaf).
inline void set_history(const TensorBase& result, NodePtr node, uint32_t output_nr = 0) {
    AutogradMeta& m = meta_of(result);
    m.requires_grad = false;
    m.grad_fn = std::move(node);
    m.output_nr = output_nr;
}

/// Runs backward from `root` seeded with `grad` (both of root's shape).
inline void run_backward(const TensorBase& root, const TensorBase& grad, bool retain_graph) {
    const Edge start = gradient_edge(root);
    if (!start.valid())
        detail::fail<error>("element 0 of tensors does not require grad and does not have a grad_fn");
    NoGradGuard no_grad;  // the backward computations themselves are not recorded

    // Dependencies: how many edges from reachable nodes point at each node.
    std::unordered_map<Node*, int> dependencies;
    std::vector<Node*> stack{start.fn.get()};
    std::unordered_map<Node*, bool> seen{{start.fn.get(), true}};
    while (!stack.empty()) {
        Node* n = stack.back();
        stack.pop_back();
        for (const Edge& e : n->next_edges) {
            if (!e.valid()) continue;
            ++dependencies[e.fn.get()];
            if (!seen[e.fn.get()]) {
                seen[e.fn.get()] = true;
                stack.push_back(e.fn.get());
            }
        }
    }
    // Ready nodes, latest on the tape first.
    auto later = [](Node* a, Node* b) { return a->sequence_nr < b->sequence_nr; };
    std::priority_queue<Node*, std::vector<Node*>, decltype(later)> ready(later);
    // Per node, the gradient of each of its outputs, summed over the edges that reach it.
    std::unordered_map<Node*, std::vector<TensorBase>> buffers;
    auto buffer = [&](const Edge& e) -> TensorBase& {
        std::vector<TensorBase>& b = buffers[e.fn.get()];
        if (b.empty()) b.resize(e.fn->num_outputs());
        return b[e.input_nr];
    };
    buffer(start) = grad;
    ready.push(start.fn.get());
    NodePtr keep_start = start.fn;  // alive for the whole walk
    while (!ready.empty()) {
        Node* n = ready.top();
        ready.pop();
        std::vector<TensorBase> g = std::move(buffers[n]);
        buffers.erase(n);
        // No contribution arrived (every path gave zero): nothing to compute, but the
        // node's successors still count it as done.
        n->releasing = !retain_graph;
        const bool any = std::any_of(g.begin(), g.end(), [](const TensorBase& t) { return t.defined(); });
        std::vector<TensorBase> grads = any ? n->apply_outputs(g) : std::vector<TensorBase>{};
        g.clear();
        for (size_t i = 0; i < n->next_edges.size(); ++i) {
            const Edge& e = n->next_edges[i];
            if (!e.valid()) continue;
            Node* next = e.fn.get();
            if (i < grads.size() && grads[i].defined()) {
                TensorBase& b = buffer(e);
                b = add_gradients(b, grads[i]);
            }
            if (--dependencies[next] == 0) ready.push(next);
        }
        if (!retain_graph) n->release_variables();
    }
}

}  // namespace tenet::autograd
