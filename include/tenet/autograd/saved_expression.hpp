#pragma once
// What the autograd nodes over an expression know of it: the element types of its leaves,
// the edges to where their gradients go, PyTorch's name of its backward, and the saved
// expression with the storage versions of its leaves.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "tenet/autograd/derivatives.hpp"
#include "tenet/autograd/element_gradients.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI::autograd {

template <class N>
struct leaf_types;
template <class T, class S>
struct leaf_types<expr::Leaf<T, S>> {
    using type = std::tuple<T>;
};
template <class S>
struct leaf_types<expr::ScalarNode<S>> {
    using type = std::tuple<>;
};
template <class Op, class A>
struct leaf_types<expr::Unary<Op, A>> {
    using type = typename leaf_types<A>::type;
};
template <class Op, class A, class B>
struct leaf_types<expr::Binary<Op, A, B>> {
    using type = decltype(std::tuple_cat(std::declval<typename leaf_types<A>::type>(),
                                         std::declval<typename leaf_types<B>::type>()));
};
template <class Op, class A, class B, class C>
struct leaf_types<expr::Ternary<Op, A, B, C>> {
    using type = decltype(std::tuple_cat(std::declval<typename leaf_types<A>::type>(),
                                         std::declval<typename leaf_types<B>::type>(),
                                         std::declval<typename leaf_types<C>::type>()));
};
/// The element type of leaf K of E.
template <size_t K, class E>
using leaf_t = std::tuple_element_t<K, typename leaf_types<E>::type>;

/// A contiguous copy of host tensor t broadcast to `shape`, any dtype (element by element, as
/// bytes: one function for every dtype); not recorded.
TENET_FIXED TensorBase contiguous_expanded(const TensorBase& t, const IntArray& shape);

/// The leaves of e, in order, as handles.
template <class E>
std::vector<TensorBase> leaves_of(const E& e) {
    std::vector<TensorBase> out;
    out.reserve(E::num_leaves);
    for (const TensorBase* t : expr::leaf_tensors(e)) out.push_back(*t);
    return out;
}

template <class E>
bool any_leaf_requires_grad(const E& e) {
    for (const TensorBase* t : expr::leaf_tensors(e))
        if (requires_grad(*t)) return true;
    return false;
}

/// One edge per leaf: to where the leaf's gradient goes, if it needs one and can get one.
template <class E, size_t... K>
EdgeList leaf_edges(const E& e, std::index_sequence<K...>) {
    // Whether a gradient can reach leaf K at all (not through a comparison, a cast to integers, ...).
    constexpr std::array<bool, E::num_leaves> reachable{gradient_reaches<K, E, Val<float, DynamicShape, 1>>()...};
    EdgeList edges(E::num_leaves);
    const auto leaves = expr::leaf_tensors(e);
    for (size_t k = 0; k < E::num_leaves; ++k)
        if (reachable[k]) edges[k] = gradient_edge(*leaves[k]);
    return edges;
}

/// PyTorch's backward name of an operation of `arity` operands named `op` (whether its operands
/// a, b, c are C++ numbers says which overload): add -> AddBackward0, log1p -> Log1PBackward0, ...
TENET_FIXED std::string make_backward_name(std::string_view op, int arity, bool scalar_a, bool scalar_b, bool scalar_c);
/// The same, built once per operation and overload: shared by every expression with that root.
template <class Op, int Arity, bool ScalarA, bool ScalarB, bool ScalarC>
const char* op_backward_name() {
    static const std::string name = make_backward_name(Op::name, Arity, ScalarA, ScalarB, ScalarC);
    return name.c_str();
}
/// PyTorch's backward name of the root operation of E.
template <class E>
const char* backward_name() {
    constexpr int arity = arity_v<E>;
    if constexpr (arity <= 0) {
        return "CloneBackward0";
    } else {
        // Whether operand I exists and is a C++ number (make_backward_name asks only where it does).
        constexpr auto scalar = []<size_t I>(expr::index_c<I>) {
            if constexpr (I < arity) return operand_t<I, E>::is_scalar;
            else return false;
        };
        return op_backward_name<op_t<E>, arity, scalar(expr::index_c<0>{}), scalar(expr::index_c<1>{}),
                                scalar(expr::index_c<2>{})>();
    }
}

/// What a node over an expression keeps for its backward: the expression (its leaves are
/// the saved tensors) with their versions, and its shape. Released after a backward.
template <class E>
struct SavedExpression {
    /// `n`: the node's name, a string that outlives the node (a literal, or backward_name<E>()).
    SavedExpression(const E& expr, const char* n) : e(expr), shape(expr.shape()), name(n) {
        const auto leaves = expr::leaf_tensors(*e);
        for (size_t k = 0; k < E::num_leaves; ++k) versions[k] = VersionMark::of(*leaves[k]);
    }
    /// The expression, after checking that no saved tensor was freed or modified in place.
    const E& unpack() const {
        if (!e) throw_released(name);
        const auto leaves = expr::leaf_tensors(*e);
        for (size_t k = 0; k < E::num_leaves; ++k) check_version(*leaves[k], versions[k], name, k);
        return *e;
    }
    void release() { e.reset(); }

    std::optional<E> e;
    IntArray shape;
    const char* name;
    std::array<VersionMark, E::num_leaves> versions;  ///< of the leaves' storages when saved
};

#if TENET_HEADER_DEFINITIONS
TENET_FIXED TensorBase contiguous_expanded(const TensorBase& t, const IntArray& shape) {
    TensorBase out(detail::make_contiguous_impl(shape, t.dtype(), t.device()));
    const IntArray strides = detail::expand_geometry(t.sizes(), t.strides(), shape, "backward").second;
    const size_t size = static_cast<size_t>(t.element_size());
    auto* to = static_cast<std::byte*>(detail::first_byte(out));
    const auto* from = static_cast<const std::byte*>(detail::first_byte(t));
    detail::for_each_offset<1>(shape, {strides}, {0}, [&](const std::array<int64_t, 1>& o) {
        std::memcpy(to, from + o[0] * static_cast<int64_t>(size), size);
        to += size;
    });
    return out;
}

TENET_FIXED std::string make_backward_name(std::string_view op, int arity, bool scalar_a, bool scalar_b, bool scalar_c) {
    if (op == "to") return "ToCopyBackward0";
    if (op == "clamp") return arity == 3 ? "ClampBackward0" : "ClampBackward1";  // tensor bounds : numbers
    if (op == "square") return "PowBackward0";  // torch.square is pow(x, 2)
    if (arity == 2 && op == "pow" && !scalar_b) return "PowBackward1";
    if (arity == 2 && op == "sub" && scalar_a) return "RsubBackward1";  // 1.5 - x
    if (arity == 3 && op == "lerp") return scalar_c ? "LerpBackward0" : "LerpBackward1";
    std::string out;
    bool up = true;
    for (char c : op) {
        if (c == '_') {
            up = true;
            continue;
        }
        out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        up = c >= '0' && c <= '9';  // PyTorch capitalises after a digit: log1p -> Log1PBackward0
    }
    return out + "Backward0";
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::autograd
