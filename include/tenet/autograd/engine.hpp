#pragma once
// The backward pass. backward(output, grad) walks the tape in reverse from output's node:
// nodes are taken in decreasing sequence number (reverse execution order), each once all
// of its gradient contributions have arrived, and leaves accumulate into .grad().

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tenet/core/grad_mode.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/backend/device/device_copy.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/named_refusals.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"

namespace tenet::inline TENET_ABI::autograd {

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
TENET_FIXED void add_into(const TensorBase& out, const TensorBase& g);

/// A contiguous copy of t on its device (no autograd).
TENET_FIXED TensorBase dense_copy(const TensorBase& t);

/// The edge a gradient for t flows along: its grad_fn, or its leaf accumulator.
TENET_FIXED Edge gradient_edge(const TensorBase& t);

/// Makes `result` output `output_nr` of `node` (it then requires grad and is not a leaf).
TENET_FIXED void set_history(const TensorBase& result, NodePtr node, uint32_t output_nr = 0);

/// a + b for two gradients of one node's output (same dtype, shape and device, contiguous:
/// every gradient the engine moves is). Plain loops and backend calls, not expressions: the
/// engine is instantiated in every translation unit, so it stays cheap to compile.
/// `record`: under create_graph, the sum is recorded when a or b requires grad.
TENET_FIXED TensorBase add_gradients(const TensorBase& a, const TensorBase& b, bool record = false);

/// A copy of a gradient that keeps its history under create_graph (PyTorch's CopyBackwards).
TENET_FIXED TensorBase recorded_copy(const TensorBase& g);

/// The node of a result that equals its input's values: its backward passes the gradient
/// through unchanged, which is itself differentiable (so it serves create_graph as is).
struct IdentityNode final : Node {
    IdentityNode(const char* n, Edge input) : name_(n) { next_edges = {std::move(input)}; }
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override { return {grad}; }
    GradientList apply_with_graph(const GradientList& grads) override { return {grads[0]}; }
    const char* name_;
};

/// a + b of two gradients, recorded (AddBackward0) when one of them requires grad: how the
/// engine sums gradients under create_graph.
struct GradientSumNode final : Node {
    GradientSumNode(Edge a, Edge b) { next_edges = {std::move(a), std::move(b)}; }
    std::string name() const override { return "AddBackward0"; }
    GradientList apply(const TensorBase& grad) override { return {grad, grad}; }
    GradientList apply_with_graph(const GradientList& grads) override { return {grads[0], grads[0]}; }
};

/// Accumulates into a leaf's .grad(): the first gradient is kept (copied when someone else
/// holds it), later ones are added in place, as PyTorch's AccumulateGrad. Under
/// create_graph the gradient keeps its history: .grad() becomes a recorded copy of the first
/// gradient (CopyBackwards) and then a recorded sum (AddBackward0), out of place.
/// Threads whose graphs share the leaf accumulate under its metadata's lock: the sum is exact.
struct AccumulateGrad final : Node {
    explicit AccumulateGrad(TensorBase v) : variable(std::move(v)) { self_locking = true; }
    std::string name() const override { return "AccumulateGrad"; }
    GradientList apply(const TensorBase& grad) override;
    GradientList apply_with_graph(const GradientList& grads) override;
    TensorBase variable;

private:
    AutogradMeta& check(const TensorBase& grad);
    /// Calls the leaf's post-accumulate-grad hooks (autograd/accumulate_hooks.hpp) with it.
    void run_post_accumulate_grad_hooks(AutogradMeta& m);
};


/// Node -> its position in the engine's task list. Open addressing over a power-of-two table:
/// a backward pass allocates a few pooled arrays, not a hash-map node per graph node.
class NodeIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    /// n's position, or kNone.
    uint32_t find(const Node* n) const { return slots_[probe(n)].index; }
    /// Records position i for n, which must not be there yet.
    void insert(const Node* n, uint32_t i) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        slots_[probe(n)] = {n, i};
        ++size_;
    }

private:
    struct Slot {
        const Node* node = nullptr;
        uint32_t index = kNone;
    };
    size_t probe(const Node* n) const {
        const size_t mask = slots_.size() - 1;
        // Fibonacci hashing: the product's high bits mix all of the address's bits.
        size_t i = static_cast<size_t>((reinterpret_cast<uintptr_t>(n) * 0x9E3779B97F4A7C15ull) >> 32) & mask;
        while (slots_[i].node && slots_[i].node != n) i = (i + 1) & mask;
        return i;
    }
    using Slots = detail::PooledVector<Slot>;
    void grow() {
        Slots old(2 * slots_.size());
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.node) slots_[probe(s.node)] = s;
    }

    Slots slots_ = Slots(16);
    size_t size_ = 0;
};

/// How a backward pass runs (PyTorch's arguments of backward() and autograd::grad()).
struct BackwardOptions {
    bool retain_graph = false;
    /// Record the backward itself, so its gradients can be differentiated again.
    bool create_graph = false;
    /// autograd::grad: the gradients flowing into these edges are returned in `captured`
    /// instead of being accumulated into any .grad(); only the part of the graph that leads
    /// to them runs.
    const std::vector<Edge>* inputs = nullptr;
    std::vector<TensorBase>* captured = nullptr;
    /// With `inputs`: the walk stops at the inputs' nodes, never looking at what lies beyond
    /// them (create_graph's replay of one expression, whose inputs lead into the rest of the graph).
    bool stop_at_inputs = false;
};

/// Runs backward from `roots` seeded with `grads` (each of its root's shape).
TENET_FIXED void run_backward(std::span<const TensorBase> roots, std::span<const TensorBase> grads,
                              const BackwardOptions& options);

/// Runs backward from one root.
TENET_FIXED void run_backward(const TensorBase& root, const TensorBase& grad, bool retain_graph,
                              bool create_graph = false);

#if TENET_HEADER_DEFINITIONS
TENET_FIXED AutogradMeta& AccumulateGrad::check(const TensorBase& grad) {
    if (!(grad.sizes() == variable.sizes()))
        detail::fail<shape_error>("backward: gradient of shape ", grad.sizes(), " does not match the leaf's shape ",
                                  variable.sizes());
    if (!(grad.device() == variable.device()))
        detail::fail<device_error>("backward: gradient on ", grad.device(), " for a leaf on ", variable.device());
    return meta_of(variable);
}

TENET_FIXED GradientList AccumulateGrad::apply(const TensorBase& grad) {
    AutogradMeta& m = check(grad);
    {
        std::lock_guard lock(m.mutex);
        if (!m.grad.defined()) {
            // Kept as is when the engine holds the only reference, else copied.
            m.grad = grad.impl_ptr().use_count() == 1 ? grad : dense_copy(grad);
            m.grad.impl().names = nullptr;  // a leaf's .grad is unnamed, as in PyTorch (a fresh tensor here)
        } else {
            add_into(m.grad, grad);
            m.grad.impl().storage->bump_version();
        }
    }
    run_post_accumulate_grad_hooks(m);
    return {};
}

TENET_FIXED void AccumulateGrad::run_post_accumulate_grad_hooks(AutogradMeta& m) {
    decltype(m.post_accumulate_grad_hooks) hooks;
    {
        std::lock_guard lock(m.mutex);
        if (m.post_accumulate_grad_hooks.empty()) return;
        hooks = m.post_accumulate_grad_hooks;  // a hook may remove itself or register others
    }
    for (auto& [id, hook] : hooks) hook(variable);
}

TENET_FIXED GradientList AccumulateGrad::apply_with_graph(const GradientList& grads) {
    AutogradMeta& m = check(grads[0]);
    // The recorded sum is made outside the lock (recording takes the locks of the tensors it
    // reads, which may be this leaf's), then stored unless another thread stored one first.
    for (;;) {
        TensorBase old;
        {
            std::lock_guard lock(m.mutex);
            old = m.grad;
        }
        TensorBase next = old.defined() ? add_gradients(old, grads[0], true) : recorded_copy(grads[0]);
        {
            std::lock_guard lock(m.mutex);
            if (m.grad.impl_ptr() != old.impl_ptr()) continue;
            next.impl().names = nullptr;  // unnamed, as above (a fresh tensor)
            m.grad = std::move(next);
        }
        run_post_accumulate_grad_hooks(m);
        return {};
    }
}

TENET_FIXED void add_into(const TensorBase& out, const TensorBase& g) {
    if (!out.is_cpu()) {
        if (out.is_meta()) return;  // a meta gradient accumulates its shape only: nothing to add
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
        const int64_t n = out.numel();
        // Element i reads and writes only element i (even if g is out): vectorised at -O2.
        detail::run_vectorised([&] {
            TENET_SIMD_LOOP
            for (int64_t i = 0; i < n; ++i) o[i] = convert<T>(static_cast<M>(o[i]) + static_cast<M>(from[i]));
        });
    });
}

TENET_FIXED TensorBase dense_copy(const TensorBase& t) {
    TensorBase out(detail::make_contiguous_impl(t.sizes(), t.dtype(), t.device()));
    if (t.is_cpu()) std::memcpy(out.impl().storage->data(), detail::first_byte(t), static_cast<size_t>(t.nbytes()));
    else if (!t.is_meta()) detail::copy_strided_on_device(out, t);  // a meta copy has nothing to copy
    return out;
}

TENET_FIXED Edge gradient_edge(const TensorBase& t) {
    const AutogradMeta* cm = meta_if(t);
    if (!cm) return {};
    if (cm->grad_fn) return {cm->grad_fn, cm->output_nr};
    if (!cm->requires_grad) return {};
    AutogradMeta& m = meta_of(t);
    std::lock_guard lock(m.mutex);  // threads recording on one leaf share one accumulator
    NodePtr acc = m.grad_accumulator.lock();
    if (!acc) {
        acc = detail::make_pooled<AccumulateGrad>(t);
        m.grad_accumulator = acc;
    }
    return {acc, 0};
}

TENET_FIXED void set_history(const TensorBase& result, NodePtr node, uint32_t output_nr) {
    AutogradMeta& m = meta_of(result);
    m.requires_grad = false;
    m.grad_fn = std::move(node);
    m.output_nr = output_nr;
}

TENET_FIXED TensorBase add_gradients(const TensorBase& a, const TensorBase& b, bool record) {
    if (!a.defined()) return b;
    if (!b.defined()) return a;
    if (!(a.sizes() == b.sizes()) || !(a.dtype() == b.dtype()) || !a.is_contiguous() || !b.is_contiguous() ||
        !(a.device() == b.device()))
        detail::fail<error>("backward: internal error: gradients of shapes ", a.sizes(), " and ", b.sizes(),
                            " (devices ", a.device(), ", ", b.device(), ") cannot be summed");
    TensorBase sum = dense_copy(a);
    add_into(sum, b);
    if (record && (requires_grad(a) || requires_grad(b)))
        set_history(sum, detail::make_pooled<GradientSumNode>(gradient_edge(a), gradient_edge(b)));
    return sum;
}

TENET_FIXED TensorBase recorded_copy(const TensorBase& g) {
    TensorBase copy = dense_copy(g);
    if (requires_grad(g)) set_history(copy, detail::make_pooled<IdentityNode>("CopyBackwards", gradient_edge(g)));
    return copy;
}

TENET_FIXED void run_backward(std::span<const TensorBase> roots, std::span<const TensorBase> grads,
                              const BackwardOptions& options) {
    // The backward computations are recorded only under create_graph.
    AutoGradMode grad_mode(options.create_graph);
    // The derivative formulas' where()s read the saved inputs, maybe named: not the user's where.
    detail::NamedRefusalsOff refusals_off;
    const bool retain_graph = options.retain_graph;

    // Every node reachable from the roots, in discovery order, with how many edges from the
    // others point at it and where its outputs' gradients start in `buffers` (each summed over
    // the edges that reach it).
    struct Task {
        Node* fn;
        int dependencies;
        size_t buffer;
        bool needed;
        bool stop;  // an input's node under stop_at_inputs: its edges are not followed
    };
    // The arrays come from the object pool, sized for small graphs: on small tensors the
    // bookkeeping costs more than the arithmetic.
    detail::PooledVector<Task> tasks;
    detail::PooledVector<TensorBase> buffers;
    tasks.reserve(8);
    buffers.reserve(8);
    NodeIndex index;
    auto discover = [&](Node* n) {
        uint32_t i = index.find(n);
        if (i != NodeIndex::kNone) return i;
        i = static_cast<uint32_t>(tasks.size());
        index.insert(n, i);
        bool stop = false;
        if (options.stop_at_inputs)
            for (const Edge& in : *options.inputs) stop = stop || in.fn.get() == n;
        tasks.push_back({n, 0, buffers.size(), true, stop});
        buffers.resize(buffers.size() + n->num_outputs());
        return i;
    };
    // The roots' nodes, alive for the whole walk (a leaf's accumulator is held by nothing else).
    NodePtr keep_first;
    detail::PooledVector<NodePtr> keep_rest;
    for (size_t r = 0; r < roots.size(); ++r) {
        const Edge start = gradient_edge(roots[r]);
        if (!start.valid())
            detail::fail<error>("element ", r, " of tensors does not require grad and does not have a grad_fn");
        const uint32_t t = discover(start.fn.get());
        TensorBase& b = buffers[tasks[t].buffer + start.input_nr];
        b = b.defined() ? add_gradients(b, grads[r], options.create_graph) : grads[r];
        if (r == 0) keep_first = start.fn;
        else keep_rest.push_back(start.fn);
    }
    for (size_t t = 0; t < tasks.size(); ++t) {
        if (tasks[t].stop) continue;
        for (const Edge& e : tasks[t].fn->next_edges) {
            if (!e.valid()) continue;
            const uint32_t next = discover(e.fn.get());
            ++tasks[next].dependencies;
        }
    }
    // autograd::grad: only the nodes through which a gradient reaches an input run (an
    // input's own node only if another input lies beyond it).
    if (options.inputs) {
        detail::PooledVector<char> target(tasks.size(), 0);
        for (const Edge& in : *options.inputs) {
            const uint32_t i = in.valid() ? index.find(in.fn.get()) : NodeIndex::kNone;
            if (i != NodeIndex::kNone) target[i] = 1;
        }
        // Edges point to earlier nodes on the tape (a leaf's accumulator, which has no edges,
        // may be younger): sinks first, then by sequence number, so every node's successors
        // are settled before it.
        detail::PooledVector<uint32_t> order(tasks.size());
        for (uint32_t i = 0; i < tasks.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const bool sink_a = tasks[a].fn->next_edges.empty(), sink_b = tasks[b].fn->next_edges.empty();
            if (sink_a != sink_b) return sink_a;
            return tasks[a].fn->sequence_nr < tasks[b].fn->sequence_nr;
        });
        for (uint32_t i : order) {
            tasks[i].needed = false;
            if (tasks[i].stop) continue;
            for (const Edge& e : tasks[i].fn->next_edges) {
                if (!e.valid()) continue;
                const uint32_t next = index.find(e.fn.get());
                if (target[next] || tasks[next].needed) tasks[i].needed = true;
            }
        }
    }
    // Ready tasks, latest on the tape first.
    auto earlier = [&](uint32_t a, uint32_t b) { return tasks[a].fn->sequence_nr < tasks[b].fn->sequence_nr; };
    detail::PooledVector<uint32_t> ready;
    ready.reserve(8);
    for (uint32_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].dependencies == 0) ready.push_back(i);
    std::make_heap(ready.begin(), ready.end(), earlier);
    while (!ready.empty()) {
        std::pop_heap(ready.begin(), ready.end(), earlier);
        const Task task = tasks[ready.back()];
        ready.pop_back();
        Node* n = task.fn;
        const size_t outputs = n->num_outputs();
        const auto first = buffers.begin() + static_cast<std::ptrdiff_t>(task.buffer);
        if (options.inputs) {
            for (size_t k = 0; k < options.inputs->size(); ++k) {
                const Edge& in = (*options.inputs)[k];
                if (in.fn.get() == n) (*options.captured)[k] = first[in.input_nr];
            }
        }
        // autograd::grad accumulates into no .grad() (accumulators are sinks: never needed).
        const bool run = task.needed;
        GradientList grads;
        // Held from apply() through release_variables(): another thread's walk may share n.
        std::unique_lock node_lock(n->mutex, std::defer_lock);
        if (run && !n->self_locking) {
            node_lock.lock();
            n->releasing = !retain_graph;
        }
        if (run) {
            // The gradients are moved out of the buffers: one that nothing else holds is kept by
            // AccumulateGrad without a copy. When none arrived (every path gave zero) there is
            // nothing to compute, but the node's successors still count it as done.
            if (outputs == 1 && !options.create_graph) {
                const TensorBase g = std::move(*first);
                if (g.defined()) grads = n->apply(g);
            } else {
                const GradientList g(std::make_move_iterator(first),
                                     std::make_move_iterator(first + static_cast<std::ptrdiff_t>(outputs)));
                if (std::any_of(g.begin(), g.end(), [](const TensorBase& t) { return t.defined(); }))
                    grads = options.create_graph ? n->apply_with_graph(g) : n->apply_outputs(g);
            }
        }
        for (size_t i = 0; i < (task.stop ? 0 : n->next_edges.size()); ++i) {
            const Edge& e = n->next_edges[i];
            if (!e.valid()) continue;
            const uint32_t next = index.find(e.fn.get());
            if (i < grads.size() && grads[i].defined()) {
                TensorBase& b = buffers[tasks[next].buffer + e.input_nr];
                b = b.defined() ? add_gradients(b, grads[i], options.create_graph) : std::move(grads[i]);
            }
            if (--tasks[next].dependencies == 0) {
                ready.push_back(next);
                std::push_heap(ready.begin(), ready.end(), earlier);
            }
        }
        if (run && !retain_graph) n->release_variables();
    }
}

TENET_FIXED void run_backward(const TensorBase& root, const TensorBase& grad, bool retain_graph,
                              bool create_graph) {
    run_backward(std::span<const TensorBase>(&root, 1), std::span<const TensorBase>(&grad, 1),
                 {retain_graph, create_graph, nullptr, nullptr});
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::autograd
