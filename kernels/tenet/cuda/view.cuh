#pragma once
// Device views of expression nodes. A host node holds its tensors by handle (shared
// ownership, not usable in a kernel); its view holds nothing but the functor and the
// scalars, and its type keeps the node's type rules. Like the host nodes, a view
// evaluates `at<K>(ptrs, i)`: element i of its leaves, whose row pointers the kernel puts
// in ptrs[K...] (leaves numbered left to right). Views are trivially copyable, so a whole
// tree is one kernel argument.

#include "tenet/config.hpp"
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tenet/core/convert.hpp"
#include "tenet/core/host_device.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI::kernels {

template <class T>
struct LeafView {
    using value_type = T;
    template <size_t K, class Ptrs>
    TENET_HD T at(const Ptrs& ptrs, int64_t i) const {
        return static_cast<const T*>(ptrs[K])[i];
    }
};

template <class S>
struct ScalarView {
    using value_type = S;
    S value;
    template <size_t K, class Ptrs>
    TENET_HD S at(const Ptrs&, int64_t) const {
        return value;
    }
};

/// The view of host node N (whose type rules it keeps), over child views A.
template <class N, class Op, class A>
struct UnaryView {
    using value_type = typename N::value_type;
    using compute_type = typename N::compute_type;
    A a;
    Op op;
    template <size_t K, class Ptrs>
    TENET_HD value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op(convert<compute_type>(a.template at<K>(ptrs, i))));
    }
};

template <class N, class Op, class A, class B>
struct BinaryView {
    using value_type = typename N::value_type;
    using compute_type = typename N::compute_type;
    static constexpr size_t kB = decltype(N::a)::num_leaves;  // b's first leaf
    A a;
    B b;
    Op op;
    template <size_t K, class Ptrs>
    TENET_HD value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op(convert<compute_type>(a.template at<K>(ptrs, i)),
                                      convert<compute_type>(b.template at<K + kB>(ptrs, i))));
    }
};

template <class N, class Op, class A, class B, class C>
struct TernaryView {
    using value_type = typename N::value_type;
    using common_type = typename N::common_type;
    static constexpr size_t kB = decltype(N::a)::num_leaves;
    static constexpr size_t kC = kB + decltype(N::b)::num_leaves;
    A a;
    B b;
    C c;
    Op op;
    template <size_t K, class Ptrs>
    TENET_HD value_type at(const Ptrs& ptrs, int64_t i) const {
        return convert<value_type>(op.template apply<common_type>(a.template at<K>(ptrs, i), b.template at<K + kB>(ptrs, i),
                                                                   c.template at<K + kC>(ptrs, i)));
    }
};

// ---- From a host node to its view -----------------------------------------------------------

/// The view of operation node N over the child views V (one per operand).
template <class N, class... V>
struct op_view;
template <class N, class A>
struct op_view<N, A> {
    using type = UnaryView<N, expr::op_t<N>, A>;
};
template <class N, class A, class B>
struct op_view<N, A, B> {
    using type = BinaryView<N, expr::op_t<N>, A, B>;
};
template <class N, class A, class B, class C>
struct op_view<N, A, B, C> {
    using type = TernaryView<N, expr::op_t<N>, A, B, C>;
};

/// The device view of expression node e (the tree protocol, expr/tree.hpp).
template <class E>
auto view_of(const E& e) {
    if constexpr (expr::arity_v<E> < 0) {
        return ScalarView<typename E::value_type>{e.value};
    } else if constexpr (expr::arity_v<E> == 0) {
        return LeafView<typename E::value_type>{};
    } else {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            using View = typename op_view<E, decltype(view_of(expr::operand<I>(e)))...>::type;
            return View{view_of(expr::operand<I>(e))..., e.op};
        }(std::make_index_sequence<expr::arity_v<E>>{});
    }
}
/// The view type of node E.
template <class E>
using view_t = decltype(view_of(std::declval<const E&>()));

}  // namespace tenet::kernels
