#pragma once
// x^2 as square(x) in loops where the branch on a number exponent costs vectorisation.
//
// pow(x, p) with p a number computes x^2 as x * x and x^1 as x (exact, as PyTorch's kernel
// does) and otherwise calls std::pow: a branch on the loop-invariant p. GCC removes it by
// unswitching small loops only; in a larger body (a reduction of sigmoid(...) - y squared,
// or a backward pass) the branch stays and the loop runs one element at a time, 5-10x
// slower. with_fast_pows(e, f) calls f with e's squares rewritten as square(x) when p is 2,
// else with e unchanged, so the hot loop of the squared error is branch-free. It costs a
// second instantiation of the loop, so it applies only to expressions with one or two pows
// by a number (two or four loops); expressions without such pows pass through untouched.

#include "tenet/config.hpp"
#include <type_traits>
#include <utility>

#include "tenet/expr/binary_ops.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI::expr {

/// How many pows by a number N contains.
template <class N>
struct NumberPows {
    static constexpr int count = 0;
};
template <class Op, class A>
struct NumberPows<Unary<Op, A>> {
    static constexpr int count = NumberPows<A>::count;
};
template <class Op, class A, class B>
struct NumberPows<Binary<Op, A, B>> {
    static constexpr int count =
        NumberPows<A>::count + NumberPows<B>::count + (std::is_same_v<Op, fn::Pow> && B::is_scalar);
};
template <class Op, class A, class B, class C>
struct NumberPows<Ternary<Op, A, B, C>> {
    static constexpr int count = NumberPows<A>::count + NumberPows<B>::count + NumberPows<C>::count;
};

/// The rewrite, one node type at a time; anything else (leaves, numbers) passes unchanged.
template <class N>
struct FastPows {
    template <class F>
    static void run(const N& n, F&& f) {
        f(n);
    }
};
// The rebuilt children's types are deduced as function template parameters (not named in
// the generic lambdas): nvcc's front end mis-substitutes type aliases declared inside
// nested generic lambdas.
template <class Op, class A>
struct FastPows<Unary<Op, A>> {
    template <class A2, class F>
    static void emit(const A2& a, const Op& op, F& f) {
        f(Unary<Op, A2>(a, op));
    }
    template <class F>
    static void run(const Unary<Op, A>& n, F&& f) {
        FastPows<A>::run(n.a, [&](const auto& a) { emit(a, n.op, f); });
    }
};
template <class Op, class A, class B>
struct FastPows<Binary<Op, A, B>> {
    template <class A2, class B2, class F>
    static void emit(const A2& a, const B2& b, const Op& op, F& f) {
        using Squared = Unary<fn::Square, A2>;
        if constexpr (std::is_same_v<Op, fn::Pow> && B2::is_scalar &&
                      std::is_same_v<typename Squared::value_type, typename Binary<Op, A, B>::value_type>) {
            if (b.value == 2) return f(Squared(a));
        }
        f(Binary<Op, A2, B2>(a, b, op));
    }
    template <class F>
    static void run(const Binary<Op, A, B>& n, F&& f) {
        FastPows<A>::run(n.a, [&](const auto& a) { FastPows<B>::run(n.b, [&](const auto& b) { emit(a, b, n.op, f); }); });
    }
};
template <class Op, class A, class B, class C>
struct FastPows<Ternary<Op, A, B, C>> {
    template <class A2, class B2, class C2, class F>
    static void emit(const A2& a, const B2& b, const C2& c, const Op& op, F& f) {
        f(Ternary<Op, A2, B2, C2>(a, b, c, op));
    }
    template <class F>
    static void run(const Ternary<Op, A, B, C>& n, F&& f) {
        FastPows<A>::run(n.a, [&](const auto& a) {
            FastPows<B>::run(n.b, [&](const auto& b) {
                FastPows<C>::run(n.c, [&](const auto& c) { emit(a, b, c, n.op, f); });
            });
        });
    }
};

template <class N, class F>
void with_fast_pows(const N& n, F&& f) {
    constexpr int pows = NumberPows<N>::count;
    if constexpr (pows == 0 || pows > 2) f(n);
    else FastPows<N>::run(n, f);
}

}  // namespace tenet::expr
