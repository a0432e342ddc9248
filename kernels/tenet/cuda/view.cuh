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
// A class template, not overloads: a child's specialization is found whatever the order.

template <class N>
struct ViewOf;
template <class T, class S>
struct ViewOf<expr::Leaf<T, S>> {
    static LeafView<T> make(const expr::Leaf<T, S>&) { return {}; }
};
template <class S>
struct ViewOf<expr::ScalarNode<S>> {
    static ScalarView<S> make(const expr::ScalarNode<S>& n) { return {n.value}; }
};
template <class Op, class A>
struct ViewOf<expr::Unary<Op, A>> {
    using N = expr::Unary<Op, A>;
    static auto make(const N& n) { return UnaryView<N, Op, decltype(ViewOf<A>::make(n.a))>{ViewOf<A>::make(n.a), n.op}; }
};
template <class Op, class A, class B>
struct ViewOf<expr::Binary<Op, A, B>> {
    using N = expr::Binary<Op, A, B>;
    static auto make(const N& n) {
        return BinaryView<N, Op, decltype(ViewOf<A>::make(n.a)), decltype(ViewOf<B>::make(n.b))>{
            ViewOf<A>::make(n.a), ViewOf<B>::make(n.b), n.op};
    }
};
template <class Op, class A, class B, class C>
struct ViewOf<expr::Ternary<Op, A, B, C>> {
    using N = expr::Ternary<Op, A, B, C>;
    static auto make(const N& n) {
        return TernaryView<N, Op, decltype(ViewOf<A>::make(n.a)), decltype(ViewOf<B>::make(n.b)),
                           decltype(ViewOf<C>::make(n.c))>{ViewOf<A>::make(n.a), ViewOf<B>::make(n.b),
                                                           ViewOf<C>::make(n.c), n.op};
    }
};

/// The device view of expression node e.
template <class E>
auto view_of(const E& e) {
    return ViewOf<E>::make(e);
}
/// The view type of node E.
template <class E>
using view_t = decltype(ViewOf<E>::make(std::declval<const E&>()));

}  // namespace tenet::kernels
