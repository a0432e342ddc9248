#pragma once
// Post-accumulate-grad hooks (PyTorch's Tensor.register_post_accumulate_grad_hook): a function
// a leaf calls after each backward pass has accumulated into its .grad(). Distributed data
// parallel training starts a bucket's all-reduce from them, as soon as its gradients are ready.

#include "tenet/config.hpp"
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include "tenet/autograd/node.hpp"
#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// Removes the hook it was returned for (PyTorch's RemovableHandle). Removing twice, or after
/// the leaf is gone, does nothing.
class RemovableHandle {
public:
    RemovableHandle() = default;
    RemovableHandle(std::weak_ptr<AutogradMeta> meta, uint64_t id) : meta_(std::move(meta)), id_(id) {}

    void remove() {
        std::shared_ptr<AutogradMeta> m = meta_.lock();
        meta_.reset();
        if (!m) return;
        std::function<void(const TensorBase&)> removed;  // destroyed after the lock is let go
        std::lock_guard lock(m->mutex);
        auto& hooks = m->post_accumulate_grad_hooks;
        for (auto it = hooks.begin(); it != hooks.end(); ++it)
            if (it->first == id_) {
                removed = std::move(it->second);
                hooks.erase(it);
                break;
            }
    }

private:
    std::weak_ptr<AutogradMeta> meta_;
    uint64_t id_ = 0;
};

/// Registers `hook(leaf)` to run after every backward pass that accumulates into leaf.grad(),
/// on the thread running that backward, once the new .grad() is stored. Hooks run in
/// registration order. `leaf` must be a leaf that requires grad.
inline RemovableHandle register_post_accumulate_grad_hook(const TensorBase& leaf,
                                                          std::function<void(const TensorBase&)> hook) {
    const AutogradMeta* cm = meta_if(leaf);
    if (cm && cm->grad_fn)
        detail::fail<error>("register_post_accumulate_grad_hook: post accumulate grad hooks cannot be registered on "
                            "non-leaf tensors (this tensor has grad_fn ", cm->grad_fn->name(), ")");
    if (!cm || !cm->requires_grad)
        detail::fail<error>("register_post_accumulate_grad_hook: cannot register a hook on a tensor that doesn't "
                            "require gradient");
    AutogradMeta& m = meta_of(leaf);
    std::lock_guard lock(m.mutex);
    const uint64_t id = m.next_hook_id++;
    m.post_accumulate_grad_hooks.emplace_back(id, std::move(hook));
    return RemovableHandle(leaf.impl().autograd, id);
}

}  // namespace tenet::autograd
