#pragma once
// The recorded graph: what a tensor's autograd metadata holds, the nodes of the tape and
// the saved tensors they check for in-place modification.
//
// Every recorded operation is a Node with a sequence number taken from a per-thread
// counter: the tape is the nodes in sequence order, and backward walks it in reverse
// from the output (autograd/engine.hpp). Edges point from a node to the nodes that made
// its inputs (earlier on the tape), so ownership only points backwards in time: no cycles,
// and a graph is freed with the last tensor that refers to it.

#include "tenet/config.hpp"
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/core/small_mutex.hpp"
#include "tenet/core/tensor_impl.hpp"

namespace tenet::inline TENET_ABI::autograd {

struct Node;
using NodePtr = std::shared_ptr<Node>;

/// Where a gradient flows: input `input_nr` of `fn`. A null fn means "no gradient needed".
struct Edge {
    NodePtr fn;
    uint32_t input_nr = 0;
    bool valid() const { return fn != nullptr; }
};

/// A node's edges, and the gradients a backward step returns: every node has both, so they
/// come from the object pool.
using EdgeList = detail::PooledVector<Edge>;
using GradientList = detail::PooledVector<TensorBase>;

/// Whether any gradient would flow along `edges` (a node without one is not recorded).
inline bool any_valid_edge(const EdgeList& edges) {
    for (const Edge& e : edges)
        if (e.valid()) return true;
    return false;
}

/// Autograd state of a tensor (held by its TensorImpl; views share nothing of it).
struct AutogradMeta {
    bool requires_grad = false;    ///< a leaf that requires grad (non-leaves: grad_fn != null)
    uint32_t output_nr = 0;        ///< which output of grad_fn
    /// Guards grad and grad_accumulator: threads that record on one leaf, or run backward into
    /// it, share them (PyTorch locks the same two).
    mutable detail::SmallMutex mutex;
    TensorBase grad;               ///< accumulated gradient (leaves)
    NodePtr grad_fn;               ///< the node that made this tensor; null for leaves
    std::weak_ptr<Node> grad_accumulator;  ///< a leaf's AccumulateGrad, while the graph holds it
    /// A leaf's post-accumulate-grad hooks (register_post_accumulate_grad_hook), by id, in
    /// registration order; guarded by mutex, called without it.
    std::vector<std::pair<uint64_t, std::function<void(const TensorBase&)>>> post_accumulate_grad_hooks;
    uint64_t next_hook_id = 0;
};

/// The sequence counter of this thread's tape.
inline uint64_t next_sequence_nr() {
    thread_local uint64_t next = 0;
    return next++;
}

/// A recorded operation: given the gradient of its output, the gradients of its inputs.
struct Node {
    Node() : sequence_nr(next_sequence_nr()) {}
    virtual ~Node() = default;
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    /// PyTorch's name of the backward function (`MulBackward0`).
    virtual std::string name() const = 0;
    /// grad: the gradient of output 0 (same shape and dtype). Returns one gradient per
    /// next_edges entry; an undefined TensorBase means zero.
    virtual GradientList apply(const TensorBase& grad) = 0;
    /// Drops saved tensors after a backward without retain_graph.
    virtual void release_variables() {}
    /// How many outputs the recorded operation returned. Most have one; split and unbind
    /// return several views and record ONE node whose backward sees all their gradients.
    virtual size_t num_outputs() const { return 1; }
    /// grads[i]: the gradient of output i, undefined where none arrived (zero); at least one
    /// is defined. Nodes with several outputs override this; the others implement apply().
    virtual GradientList apply_outputs(const GradientList& grads) { return apply(grads[0]); }
    /// The same gradients as apply_outputs, computed with operations that are themselves
    /// recorded (grad mode is on): backward(create_graph=true) and autograd::grad(...,
    /// create_graph=true) call this, so the gradients can be differentiated again. Nodes
    /// whose backward is not written that way refuse, naming themselves.
    virtual GradientList apply_with_graph(const GradientList&) {
        detail::fail<error>(name(), ": create_graph (a backward that is itself recorded, for second derivatives) is "
                                    "not supported for this operation by tenet's autograd yet");
    }

    const uint64_t sequence_nr;
    EdgeList next_edges;
    /// Set by the engine before apply(): true when release_variables() follows (no
    /// retain_graph), so apply may hand its saved tensors over instead of copying them.
    bool releasing = false;
    /// Held by the engine from apply() through release_variables(): backward passes of several
    /// threads whose graphs share this node take turns in it, so a node's saved state is never
    /// read while another thread frees it (that thread then gets throw_released's error).
    detail::SmallMutex mutex;
    /// True for a node that guards its own state (AccumulateGrad, under its leaf's lock), saves
    /// nothing and ignores `releasing`: the engine neither locks it nor sets the flag.
    bool self_locking = false;
};

/// PyTorch's message for a second backward through freed saved tensors.
[[noreturn]] TENET_FIXED void throw_released(std::string_view node);

[[noreturn]] TENET_FIXED void throw_modified(const TensorBase& tensor, uint64_t version, std::string_view node,
                                        size_t input_nr);

/// A storage's version and write stamp at one moment (StorageImpl::bump_version).
struct VersionMark {
    uint64_t version = 0;
    uint64_t stamp = 0;

    static VersionMark of(const TensorBase& t) {
        const StorageImpl& s = *t.impl().storage;
        return {s.version(), s.write_stamp()};
    }
};

/// Throws PyTorch's message when `tensor`, saved at `mark` as input `input_nr` of `node`,
/// has been written in place since: the saved value is wrong.
inline void check_version(const TensorBase& tensor, VersionMark mark, std::string_view node, size_t input_nr) {
    if (tensor.impl().storage->write_stamp() != mark.stamp) throw_modified(tensor, mark.version, node, input_nr);
}

/// A tensor saved for backward and its storage's version then.
struct SavedVersion {
    TensorBase tensor;
    VersionMark mark;

    static SavedVersion save(const TensorBase& t) { return {t, VersionMark::of(t)}; }
    void check(std::string_view node, size_t input_nr) const { check_version(tensor, mark, node, input_nr); }
};

/// The metadata of t, created on first use.
inline AutogradMeta& meta_of(const TensorBase& t) {
    auto& impl = const_cast<TensorImpl&>(t.impl());
    if (!impl.autograd) impl.autograd = detail::make_pooled<AutogradMeta>();
    return *impl.autograd;
}
inline const AutogradMeta* meta_if(const TensorBase& t) {
    return t.defined() ? t.impl().autograd.get() : nullptr;
}

/// Whether t takes part in autograd: a leaf that requires grad, or a recorded result.
inline bool requires_grad(const TensorBase& t) {
    const AutogradMeta* m = meta_if(t);
    return m && (m->requires_grad || m->grad_fn);
}

#if TENET_HEADER_DEFINITIONS
[[noreturn]] TENET_FIXED void throw_released(std::string_view node) {
    detail::fail<error>("Trying to backward through the graph a second time (or directly access saved tensors after "
                        "they have already been freed). Saved intermediate values of the graph are freed when you call "
                        ".backward() or autograd::grad(). Specify retain_graph=true if you need to backward through "
                        "the graph a second time or if you need to access saved tensors after calling backward. "
                        "(node: ",
                        node, ")");
}

[[noreturn]] TENET_FIXED void throw_modified(const TensorBase& tensor, uint64_t version, std::string_view node,
                                        size_t input_nr) {
    const uint64_t now = tensor.impl().storage->version();
    std::ostringstream what;
    what << "one of the variables needed for gradient computation has been modified by an inplace operation: "
         << "[tenet." << tensor.dtype().name() << " " << tensor.sizes() << "], which is input " << input_nr << " of "
         << node << ", is at version " << now << "; expected version " << version
         << " instead. Hint: the in-place write happened after the forward pass saved the tensor; "
            "clone() it before modifying it.";
    detail::fail<error>(what.str());
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::autograd
