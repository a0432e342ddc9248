#pragma once
// Expression nodes. `a * b + c` builds a small tree of these by value and allocates
// nothing; assigning it to a tensor evaluates the whole tree in one pass
// (backend/host/evaluate.hpp). Leaves hold their tensors by handle (shared ownership), so
// `auto e = a + b;` stays valid after `a` and `b` go out of scope.
//
// A node is also its own evaluator: `at<K>(ptrs, i)` returns element i of the current
// row, where ptrs[K...] are the row pointers of the node's leaves (numbered left to
// right; K is the first leaf's number). The driver moves the pointers; the nodes
// only combine values, so the compiler sees one flat, vectorisable loop body.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "tenet/core/hooks.hpp"
#include "tenet/core/static_tensor.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/evaluating_methods.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/promotion.hpp"
#include "tenet/expr/tree.hpp"

namespace tenet::inline TENET_ABI {

/// Base of every expression node (CRTP). Being in namespace tenet, it makes tenet's
/// operators and functions visible to argument-dependent lookup on any node. The Tensor
/// methods that are not lazy (mm, reshape, t, item, ...) evaluate the node once: see
/// expr/evaluating_methods.hpp.
template <class Derived>
struct ExpressionBase : ValueMethods<Derived>, EvaluatingMethods<Derived> {
    static constexpr bool is_tenet_expression = true;
    const Derived& derived() const { return static_cast<const Derived&>(*this); }

    /// Evaluates the expression into a new tensor of its own element type; a StaticTensor
    /// when the expression has a static shape.
    auto eval() const {
        using V = typename Derived::value_type;
        using S = typename Derived::static_shape;
        if constexpr (StaticShape<S>) return StaticTensor<V, S>(derived());
        else return Tensor<V>(derived());
    }
};

namespace expr {

/// The shape of a number, and of a node that holds values only.
inline const IntArray& scalar_shape() {
    static const IntArray shape;
    return shape;
}

/// A tensor in an expression; S is its static shape, or DynamicShape.
template <Element T, class S = DynamicShape>
struct Leaf : ExpressionBase<Leaf<T, S>> {
    using value_type = T;
    using static_shape = S;
    static constexpr int arity = 0;  // the tree protocol (expr/tree.hpp)
    static constexpr size_t num_leaves = 1;
    static constexpr bool is_scalar = false;
    /// Not lasting (see NodeShape): an in-place shape op (unsqueeze_) changes the tensor's sizes.
    static constexpr bool lasting_shape = false;
    static constexpr bool holds_values = false;

    Tensor<T> tensor;

    explicit Leaf(Tensor<T> t) : tensor(std::move(t)) {}
    const IntArray& shape() const { return tensor.sizes(); }
    std::optional<Device> device() const { return tensor.device(); }
    template <class F>
    void for_each_leaf(F&& f) const {
        f(tensor);  // typed, so a generic visitor sees the element type
    }
    // Element i, read through the loop's pointer table. Every node's at() is always inlined:
    // GCC's flatten on the loops (evaluate_span, run_gradients) does not reach a call whose
    // callee it has not yet processed ("SSA form does not match"), and in a large translation
    // unit its inliner then leaves at() out of line (W8: 70 ms for 1.3 ms, the loop scalar).
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE T at(const Ptrs& ptrs, int64_t i) const {
        return static_cast<const T*>(ptrs[K])[i];
    }
};

/// A C++ number in an expression: 0-d, and "weak" in promotion as a Python number is.
template <class S>
struct ScalarNode : ExpressionBase<ScalarNode<S>> {
    using value_type = S;
    using static_shape = Shape<>;
    static constexpr int arity = -1;
    static constexpr size_t num_leaves = 0;
    static constexpr bool is_scalar = true;
    static constexpr bool lasting_shape = true;
    static constexpr bool holds_values = true;

    S value;

    explicit ScalarNode(S v) : value(v) {}
    const IntArray& shape() const { return scalar_shape(); }
    std::optional<Device> device() const { return std::nullopt; }
    template <class F>
    void for_each_leaf(F&&) const {}
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE S at(const Ptrs&, int64_t) const {
        return value;
    }
};

/// Whether node N is a 0-d tensor by its static shape (a StaticTensor<T, Shape<>> or an
/// expression over one). C++ numbers are is_scalar instead, and an expression over numbers only
/// (autograd's upstream gradient of a whole-tensor sum, cast<R>(number): a tensor of R in
/// PyTorch) promotes as a dimensioned tensor.
template <class N>
inline constexpr bool static_zero_dim =
    !N::is_scalar && N::num_leaves > 0 && std::is_same_v<typename N::static_shape, Shape<>>;

/// The type both operands of a binary node are promoted to (before the op's own rule). A C++
/// number is weak (promote_scalar_t); a 0-d tensor with a static shape meeting a tensor that is not
/// statically 0-d promotes as PyTorch's 0-d tensors do (promote_zero_dim_t). A dynamic-shape
/// tensor's rank is not known at compile time, so a dynamic 0-d tensor promotes as a dimensioned one.
template <class A, class B>
using common_t = std::conditional_t<
    A::is_scalar, promote_scalar_t<typename B::value_type, typename A::value_type>,
    std::conditional_t<
        B::is_scalar, promote_scalar_t<typename A::value_type, typename B::value_type>,
        std::conditional_t<
            static_zero_dim<A> && !static_zero_dim<B>, promote_zero_dim_t<typename B::value_type, typename A::value_type>,
            std::conditional_t<static_zero_dim<B> && !static_zero_dim<A>,
                               promote_zero_dim_t<typename A::value_type, typename B::value_type>,
                               promote_t<typename A::value_type, typename B::value_type>>>>>;

/// The shape a node that broadcasts its operands (Binary, Ternary) keeps. A node over values only
/// (numbers, and the one-element values of a per-element backward, autograd/element_gradients.hpp)
/// keeps none and checks nothing: it is a computation on numbers. When every shape in its tree
/// lives outside the tree ("lasting": the one shape of a backward pass), the node points at the
/// operand shape that is its own, so it is trivially copyable. Otherwise the node holds its shape
/// (a tensor's sizes can change under a pending expression: unsqueeze_).
struct NoShape {};
template <bool Values, bool Lasting>
using node_shape_t = std::conditional_t<Values, NoShape, std::conditional_t<Lasting, const IntArray*, IntArray>>;

template <bool Lasting>
node_shape_t<false, Lasting> broadcast_node_shape(const IntArray& a, const IntArray& b, const char* op) {
    if constexpr (!Lasting) {
        return detail::broadcast_shapes(a, b, op);
    } else {
        if (b.empty() || &a == &b || a == b) return &a;
        if (a.empty()) return &b;
        detail::fail<error>(op, ": internal error: shapes ", a, " and ", b,
                            " broadcast to a new shape in an expression whose shapes all live outside it");
    }
}
template <bool Values, bool Lasting>
const IntArray& get_shape(const node_shape_t<Values, Lasting>& s) {
    if constexpr (Values) return scalar_shape();
    else if constexpr (Lasting) return *s;
    else return s;
}
/// The broadcast shape of three operands, as a node keeps it.
template <bool Lasting>
node_shape_t<false, Lasting> broadcast_node_shape(const IntArray& a, const IntArray& b, const IntArray& c,
                                                  const char* op) {
    return broadcast_node_shape<Lasting>(get_shape<false, Lasting>(broadcast_node_shape<Lasting>(a, b, op)), c, op);
}

/// The device shared by two operands; throws device_error naming both when they differ.
inline std::optional<Device> common_device(std::optional<Device> a, std::optional<Device> b, const char* op) {
    if (a && b && !(*a == *b))
        detail::fail<device_error>(op, ": expected all tensors to be on the same device, but found at least two "
                                       "devices, ",
                                   *a, " and ", *b);
    return a ? a : b;
}

/// check_operand_devices once the operands' devices differ: a device_error naming two of them,
/// unless the only host operands are of shape () beside meta ones (PyTorch lets a 0-d CPU
/// tensor join a meta op, as a scalar).
template <class... N>
[[gnu::cold, gnu::noinline]] void check_mixed_devices(const char* op, const N&... n) {
    const bool meta = ((n.device() && n.device()->is_meta()) || ...);
    std::optional<Device> common;
    auto join = [&](const auto& x) {
        const std::optional<Device> d = x.device();
        if (!(meta && d && d->is_cpu() && x.shape().empty())) common = common_device(common, d, op);
    };
    (join(n), ...);
}

/// Throws unless the operand nodes share a device (as common_device; numbers have none), with
/// check_mixed_devices's exception for 0-d host operands of a meta op. The fast path is
/// common_device's comparison.
template <class A, class B>
void check_operand_devices(const char* op, const A& a, const B& b) {
    const std::optional<Device> da = a.device(), db = b.device();
    if (da && db && !(*da == *db)) [[unlikely]] check_mixed_devices(op, a, b);
}
template <class A, class B, class C>
void check_operand_devices(const char* op, const A& a, const B& b, const C& c) {
    const std::optional<Device> da = a.device(), db = b.device(), dc = c.device();
    const std::optional<Device> first = da ? da : db ? db : dc;
    if ((da && !(*da == *first)) || (db && !(*db == *first)) || (dc && !(*dc == *first))) [[unlikely]]
        check_mixed_devices(op, a, b, c);
}

/// The device of a node over operands on devices a and b (null: numbers only): the first, but
/// meta when either is (a 0-d host operand in a meta op, check_operand_devices).
inline std::optional<Device> node_device(std::optional<Device> a, std::optional<Device> b) {
    return !a || (b && b->is_meta()) ? b : a;
}

/// Refuses a functor that does not compute on complex (fn::accepts_complex) when the operands
/// or the computation are complex. The instantiation context names the functor (fn::Floor, ...).
template <class Op, bool Complex>
constexpr bool check_complex_operands() {
    static_assert(!Complex || fn::accepts_complex<Op>,
                  "tenet: this operation is not supported for complex tensors (as in PyTorch); the functor is "
                  "named in the instantiation context below");
    return true;
}

/// op(a): Op::result_t<V> is the element type, Op::compute_t<V> the type a is converted to.
template <class Op, class A>
struct Unary : ExpressionBase<Unary<Op, A>> {
    using compute_type = typename Op::template compute_t<typename A::value_type>;
    static_assert(check_complex_operands<Op, is_complex_v<typename A::value_type> || is_complex_v<compute_type>>());
    using value_type = typename Op::template result_t<typename A::value_type>;
    /// The functor's own result type. Deducing it instantiates the functor, so a type it
    /// refuses (its static_assert) fails here, at the operator, not at the assignment.
    using op_result = decltype(std::declval<const Op&>()(std::declval<compute_type>()));
    using static_shape = typename A::static_shape;
    static constexpr int arity = 1;
    using op_type = Op;
    static constexpr size_t num_leaves = A::num_leaves;
    static constexpr bool is_scalar = false;
    static constexpr bool lasting_shape = A::lasting_shape;
    static constexpr bool holds_values = A::holds_values;

    A a;
    Op op;

    Unary(A a_, Op op_ = {}) : a(std::move(a_)), op(op_) {}
    const IntArray& shape() const { return a.shape(); }
    std::optional<Device> device() const { return a.device(); }
    template <class F>
    void for_each_leaf(F&& f) const {
        a.for_each_leaf(f);
    }
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op(convert<compute_type>(a.template at<K>(ptrs, i))));
    }
};

/// op(a, b) with broadcasting; the shape is checked (and fixed) when the node is built.
template <class Op, class A, class B>
struct Binary : ExpressionBase<Binary<Op, A, B>> {
    using common_type = common_t<A, B>;
    using compute_type = typename Op::template compute_t<common_type>;
    static_assert(check_complex_operands<Op, is_complex_v<common_type> || is_complex_v<compute_type>>());
    using value_type = typename Op::template result_t<common_type>;
    /// Instantiates the functor, so that a refused type fails at the operator (see Unary).
    using op_result = decltype(std::declval<const Op&>()(std::declval<compute_type>(), std::declval<compute_type>()));
    /// Deduced at compile time when both shapes are static; mismatches do not compile.
    using static_shape = static_broadcast_t<typename A::static_shape, typename B::static_shape>;
    static constexpr int arity = 2;
    using op_type = Op;
    static constexpr size_t num_leaves = A::num_leaves + B::num_leaves;
    static constexpr bool is_scalar = false;
    static constexpr bool lasting_shape = A::lasting_shape && B::lasting_shape;
    static constexpr bool holds_values = A::holds_values && B::holds_values;

    A a;
    B b;
    Op op;
    [[no_unique_address]] node_shape_t<holds_values, lasting_shape> shape_;

    Binary(A a_, B b_, Op op_ = {})
        : a(std::move(a_)), b(std::move(b_)), op(op_), shape_(operand_shape(a, b)) {
        if constexpr (!holds_values) check_operand_devices(Op::name, a, b);
    }
    /// The broadcast shape, initialised in place (a node over values, a computation on numbers, has none).
    static node_shape_t<holds_values, lasting_shape> operand_shape(const A& a, const B& b) {
        if constexpr (holds_values) return {};
        else return broadcast_node_shape<lasting_shape>(a.shape(), b.shape(), Op::name);
    }
    const IntArray& shape() const { return get_shape<holds_values, lasting_shape>(shape_); }
    std::optional<Device> device() const { return node_device(a.device(), b.device()); }
    template <class F>
    void for_each_leaf(F&& f) const {
        a.for_each_leaf(f);
        b.for_each_leaf(f);
    }
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op(convert<compute_type>(a.template at<K>(ptrs, i)),
                                      convert<compute_type>(b.template at<K + A::num_leaves>(ptrs, i))));
    }
};

/// op(a, b, c) with broadcasting over all three (lerp, where). Unlike Unary and Binary the
/// operands may meet in different types (where's condition stays bool), so the functor
/// converts them itself: Op::common_t<A, B, C> (node types, so scalars stay weak) is the
/// type it computes in, Op::result_t<common> the element type, and
/// `op.template apply<common>(va, vb, vc)` combines the three raw operand values.
template <class Op, class A, class B, class C>
struct Ternary : ExpressionBase<Ternary<Op, A, B, C>> {
    using common_type = typename Op::template common_t<A, B, C>;
    using value_type = typename Op::template result_t<common_type>;
    using static_shape = static_broadcast_t<static_broadcast_t<typename A::static_shape, typename B::static_shape>,
                                            typename C::static_shape>;
    static constexpr int arity = 3;
    using op_type = Op;
    static constexpr size_t num_leaves = A::num_leaves + B::num_leaves + C::num_leaves;
    static constexpr bool is_scalar = false;
    static constexpr bool lasting_shape = A::lasting_shape && B::lasting_shape && C::lasting_shape;
    static constexpr bool holds_values = A::holds_values && B::holds_values && C::holds_values;

    A a;
    B b;
    C c;
    Op op;
    [[no_unique_address]] node_shape_t<holds_values, lasting_shape> shape_;

    Ternary(A a_, B b_, C c_, Op op_ = {})
        : a(std::move(a_)), b(std::move(b_)), c(std::move(c_)), op(op_), shape_(operand_shape(a, b, c)) {
        if constexpr (!holds_values) check_operand_devices(Op::name, a, b, c);
    }
    /// As Binary::operand_shape.
    static node_shape_t<holds_values, lasting_shape> operand_shape(const A& a, const B& b, const C& c) {
        if constexpr (holds_values) return {};
        else return broadcast_node_shape<lasting_shape>(a.shape(), b.shape(), c.shape(), Op::name);
    }
    const IntArray& shape() const { return get_shape<holds_values, lasting_shape>(shape_); }
    std::optional<Device> device() const { return node_device(node_device(a.device(), b.device()), c.device()); }
    template <class F>
    void for_each_leaf(F&& f) const {
        a.for_each_leaf(f);
        b.for_each_leaf(f);
        c.for_each_leaf(f);
    }
    template <size_t K, class Ptrs>
    TENET_ALWAYS_INLINE value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op.template apply<common_type>(
            a.template at<K>(ptrs, i), b.template at<K + A::num_leaves>(ptrs, i),
            c.template at<K + A::num_leaves + B::num_leaves>(ptrs, i)));
    }
};

/// Whether a complex value occurs anywhere in expression N (a leaf, a number or a node's result):
/// autograd records nothing on complex yet (autograd/record.hpp refuses it by this).
template <class N>
constexpr bool has_complex() {
    using R = std::remove_cvref_t<N>;
    if constexpr (is_complex_v<typename R::value_type>) return true;
    else if constexpr (!requires { R::arity; }) return false;  // a tensor
    else if constexpr (R::arity <= 0) return false;
    else
        return []<size_t... I>(std::index_sequence<I...>) {
            return (has_complex<operand_t<I, R>>() || ...);
        }(std::make_index_sequence<R::arity>{});
}
template <class N>
inline constexpr bool has_complex_v = has_complex<N>();

// ---- Turning operands into nodes ----------------------------------------------------

template <class X>
struct node_of;
template <Element T>
struct node_of<Tensor<T>> {
    using type = Leaf<T>;
};
template <Element T, StaticShape S>
struct node_of<StaticTensor<T, S>> {
    using type = Leaf<T, S>;
};
template <TensorExpression E>
struct node_of<E> {
    using type = E;
};
template <Scalar S>
struct node_of<S> {
    using type = ScalarNode<S>;
};

/// Collects pointers to an expression's leaf tensors (leaf_tensors).
struct CollectLeaves {
    const TensorBase** next;
    void operator()(const TensorBase& t) { *next++ = &t; }
};
/// The leaves of e, in order (leaf K at [K]). One walk per node type, shared by every caller
/// (a visitor lambda per call site would instantiate the walk again for each).
template <class E>
std::array<const TensorBase*, E::num_leaves> leaf_tensors(const E& e) {
    std::array<const TensorBase*, E::num_leaves> out{};
    if constexpr (E::num_leaves > 0) {
        CollectLeaves collect{out.data()};
        e.for_each_leaf(collect);
    }
    return out;
}

/// The node an operand becomes: a tensor -> Leaf, a number -> ScalarNode, a node -> itself.
template <class X>
using node_t = typename node_of<std::remove_cvref_t<X>>::type;

template <class X>
node_t<X> as_node(X&& x) {
    using R = std::remove_cvref_t<X>;
    if constexpr (TensorExpression<R>) return std::forward<X>(x);
    else return node_t<X>(std::forward<X>(x));
}

/// Anything that may appear as an operand: a tensor, an expression or a number.
template <class X>
concept Operand = requires { typename node_of<std::remove_cvref_t<X>>::type; };
/// An operand that is a tensor or an expression (not a bare number).
template <class X>
concept TensorOperand = Operand<X> && !Scalar<std::remove_cvref_t<X>>;

template <class Op, class A>
auto make_unary(A&& a, Op op = {}) {
    return Unary<Op, node_t<A>>(as_node(std::forward<A>(a)), op);
}
template <class Op, class A, class B>
auto make_binary(A&& a, B&& b, Op op = {}) {
    return Binary<Op, node_t<A>, node_t<B>>(as_node(std::forward<A>(a)), as_node(std::forward<B>(b)), op);
}
template <class Op, class A, class B, class C>
auto make_ternary(A&& a, B&& b, C&& c, Op op = {}) {
    return Ternary<Op, node_t<A>, node_t<B>, node_t<C>>(as_node(std::forward<A>(a)), as_node(std::forward<B>(b)),
                                                        as_node(std::forward<C>(c)), op);
}

}  // namespace expr
}  // namespace tenet
