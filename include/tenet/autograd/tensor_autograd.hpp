#pragma once
// The autograd side of Tensor: requires_grad, grad, grad_fn, backward, and the
// hooks through which the core's views and copies are recorded.

#include "tenet/config.hpp"
#include <mutex>
#include <memory>
#include <string>

#include "tenet/autograd/engine.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/autograd/record.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI {

namespace autograd {

/// A view (view, transpose, select, slice, ...): the gradient of the base is zero except
/// where the view's elements lie, which receive the view's gradient. Expand (whose
/// elements repeat) sums instead.
template <class T>
struct ViewNode final : Node {
    /// Where a tensor's elements lie in its storage.
    struct Geometry {
        IntArray sizes, strides;
        int64_t offset = 0;
    };

    ViewNode(const TensorBase& base, const TensorBase& view, std::string n)
        : ViewNode(std::move(n), {base.sizes(), base.strides(), base.storage_offset()},
                   {view.sizes(), view.strides(), view.storage_offset()}, gradient_edge(base)) {}
    /// The node of a view of geometry `view` taken from one of geometry `base` (over one
    /// storage); its gradient goes to `input`.
    ViewNode(std::string n, Geometry base, Geometry view, Edge input)
        : name_(std::move(n)), base_(std::move(base)), view_(std::move(view)) {
        next_edges = {std::move(input)};
    }
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override { return {base_gradient(Tensor<T>(grad.impl_ptr()))}; }
    GradientList apply_with_graph(const GradientList& grads) override {
        return {base_gradient(Tensor<T>(grads[0].impl_ptr()))};
    }
    std::string name_;
    Geometry base_, view_;

private:
    /// The base's gradient, recorded under create_graph. The scatter is linear: its own
    /// backward is the view again, read from the gradient laid out like the base (a ViewNode
    /// with the two geometries swapped).
    TensorBase base_gradient(const Tensor<T>& g) const {
        if (name_ == "ExpandBackward0") return graph_sum_to(g, base_.sizes);
        TensorBase base_grad = scatter(g);
        if (GradMode::is_enabled() && requires_grad(g)) {
            // The reverse node's "base" is laid out like the view (g), its "view" like the base.
            set_history(base_grad, detail::make_pooled<ViewNode>(name_ == "AsStridedScatterBackward0"
                                                                     ? "AsStridedBackward0"
                                                                     : "AsStridedScatterBackward0",
                                                                 view_, base_, gradient_edge(g)));
        }
        return base_grad;
    }
    /// The base's gradient: zero except where the view's elements lie, which receive g.
    TensorBase scatter(const Tensor<T>& g) const {
        // The scatter below relies on every base element having its own storage element.
        for (size_t d = 0; d < base_.sizes.size(); ++d)
            if (base_.strides[d] == 0 && base_.sizes[d] > 1)
                detail::fail<error>(name_, ": backward through a view of an expanded tensor (sizes ", base_.sizes,
                                    ", strides ", base_.strides,
                                    ") is not supported by tenet's autograd yet; call .contiguous() before the view");
        // Scatter g into zeros laid out as the storage both geometries index into.
        const int64_t extent = std::max(detail::storage_extent(base_.sizes, base_.strides, base_.offset),
                                        detail::storage_extent(view_.sizes, view_.strides, view_.offset));
        Tensor<T> scratch = zeros<T>({std::max<int64_t>(extent, 1)}, g.device());
        Tensor<T>(detail::make_view(scratch.impl(), view_.sizes, view_.strides, view_.offset)).copy_data_(g);
        Tensor<T> base_grad(detail::make_view(scratch.impl(), base_.sizes, base_.strides, base_.offset));
        // The engine sums and accumulates gradients as dense row-major blocks, so a base laid out
        // otherwise (a transposed tensor's view) gets a row-major copy, not clone()'s same layout.
        if (!base_grad.is_contiguous()) return base_grad.contiguous();
        return base_.offset == 0 ? base_grad : base_grad.clone();
    }
};

/// The seed of a backward pass from `output` (element `index` of the outputs of `op`):
/// `gradient`, dense (the engine moves dense gradients), or ones for a single-element output
/// when it is undefined; PyTorch's errors otherwise.
template <class T>
Tensor<T> backward_seed(const Tensor<T>& output, const Tensor<T>& gradient, size_t index, const char* op) {
    if (!requires_grad(output))
        detail::fail<error>("element ", index, " of tensors does not require grad and does not have a grad_fn");
    if (!gradient.defined()) {
        if (output.numel() != 1)
            detail::fail<error>("grad can be implicitly created only for scalar outputs (got shape ", output.sizes(),
                                ")");
        return ones<T>(output.sizes(), output.device());
    }
    if (!(gradient.sizes() == output.sizes()))
        detail::fail<shape_error>(op, ": the gradient's shape ", gradient.sizes(), " does not match the shape ",
                                  output.sizes(), " of output ", index);
    return gradient.contiguous();
}

/// clone/contiguous/to: the gradient passes through, converted back to the source's type
/// and moved back to its device.
template <class T, class U>
struct CopyNode final : Node {
    CopyNode(const TensorBase& source, std::string n)
        : name_(std::move(n)), source_sizes(source.sizes()), source_device(source.device()) {
        next_edges = {gradient_edge(source)};
    }
    std::string name() const override { return name_; }
    GradientList apply(const TensorBase& grad) override { return {source_gradient(Tensor<T>(grad.impl_ptr()))}; }
    GradientList apply_with_graph(const GradientList& grads) override {
        return {source_gradient(Tensor<T>(grads[0].impl_ptr()))};
    }
    std::string name_;
    IntArray source_sizes;
    Device source_device;

private:
    /// g in the source's type, on its device, summed back to its shape (recorded under create_graph).
    Tensor<U> source_gradient(const Tensor<T>& g) const {
        if constexpr (std::is_same_v<T, U>) {
            if (g.device() == source_device) return graph_sum_to(g, source_sizes);
        }
        return graph_sum_to(g.template to<U>(source_device), source_sizes);
    }
};

}  // namespace autograd

namespace detail {

template <class T>
void record_view(const Tensor<T>& base, const Tensor<T>& view, const char* backward_name) {
    if constexpr (FloatingElement<T>) {
        if (!autograd::GradMode::is_enabled() || !autograd::requires_grad(base)) return;
        autograd::set_history(view, detail::make_pooled<autograd::ViewNode<T>>(base, view, backward_name));
    }
}

template <class T, class U>
void record_copy(const Tensor<U>& source, const Tensor<T>& copy) {
    if constexpr (FloatingElement<T> && FloatingElement<U>) {
        if (!autograd::GradMode::is_enabled() || !autograd::requires_grad(source)) return;
        const bool moved = !(source.device() == copy.device());
        const char* name = std::is_same_v<T, U> && !moved ? "CloneBackward0" : "ToCopyBackward0";
        autograd::set_history(copy, detail::make_pooled<autograd::CopyNode<T, U>>(source, name));
    }
}

template <class T, class U>
void record_copy_into(const Tensor<T>& dst, const Tensor<U>& src) {
    if (!autograd::GradMode::is_enabled()) return;
    const bool source_grad = autograd::requires_grad(src);
    if (!source_grad && !autograd::requires_grad(dst)) return;
    autograd::check_in_place(dst, source_grad);
    if constexpr (FloatingElement<T> && FloatingElement<U>) {
        if (source_grad) {
            autograd::set_history(dst, detail::make_pooled<autograd::CopyNode<T, U>>(src, "CopyBackwards"));
            return;
        }
    }
    autograd::set_history(dst, detail::make_pooled<autograd::OverwriteNode>("CopyBackwards"));
}

template <class T>
void record_overwrite(const Tensor<T>& dst, const char* backward_name) {
    if (!autograd::GradMode::is_enabled() || !autograd::requires_grad(dst)) return;
    autograd::check_in_place(dst, false);
    autograd::set_history(dst, detail::make_pooled<autograd::OverwriteNode>(backward_name));
}

template <class T>
std::string autograd_repr(const Tensor<T>& t) {
    const autograd::AutogradMeta* m = autograd::meta_if(t);
    if (!m) return {};
    if (m->grad_fn) return "grad_fn=<" + m->grad_fn->name() + ">";
    if (m->requires_grad) return "requires_grad=True";
    return {};
}

}  // namespace detail

// ---- Tensor's autograd methods ----------------------------------------------------------

template <class T>
bool Tensor<T>::requires_grad() const {
    return autograd::requires_grad(*this);
}

template <class T>
Tensor<T>& Tensor<T>::requires_grad_(bool requires_grad) {
    if (requires_grad) detail::check_can_require_grad<T>(dtype());
    const autograd::AutogradMeta* m = autograd::meta_if(*this);
    if (!requires_grad && m && m->grad_fn)
        detail::fail<error>("you can only change requires_grad flags of leaf variables. If you want to use a computed "
                            "variable in a subgraph that doesn't require differentiation use var_no_grad = "
                            "var.detach().");
    if (requires_grad || m) autograd::meta_of(*this).requires_grad = requires_grad;
    return *this;
}

template <class T>
Tensor<T> Tensor<T>::grad() const {
    const autograd::AutogradMeta* m = autograd::meta_if(*this);
    if (!m) return Tensor<T>();
    std::lock_guard lock(m->mutex);  // a backward on another thread may be storing it
    if (!m->grad.defined()) return Tensor<T>();
    return Tensor<T>(m->grad.impl_ptr());
}

template <class T>
void Tensor<T>::reset_grad() const {
    const autograd::AutogradMeta* m = autograd::meta_if(*this);
    if (!m) return;
    TensorBase old;  // freed after the lock is let go
    std::lock_guard lock(m->mutex);
    old = std::move(autograd::meta_of(*this).grad);
}

template <class T>
bool Tensor<T>::is_leaf() const {
    const autograd::AutogradMeta* m = autograd::meta_if(*this);
    return !m || !m->grad_fn;
}

template <class T>
std::shared_ptr<autograd::Node> Tensor<T>::grad_fn() const {
    const autograd::AutogradMeta* m = autograd::meta_if(*this);
    return m ? m->grad_fn : nullptr;
}

template <class T>
void Tensor<T>::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) const {
    const Tensor<T> seed = autograd::backward_seed(*this, gradient, 0, "backward");
    autograd::run_backward(*this, seed, retain_graph.value_or(create_graph), create_graph);
}


}  // namespace tenet
