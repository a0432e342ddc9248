#pragma once
// Pows by small integers without std::pow, in loops.
//
// pow(x, p) with p a number computes x^2 as x * x and x^1 as x (exact, as PyTorch's kernel
// does) and otherwise calls std::pow: a branch on the loop-invariant p and a call per element.
// GCC removes the branch by unswitching small loops only, and only at -O3; in a larger body (a
// reduction of sigmoid(...) - y squared, a backward pass, a polynomial a + b x + c x^2 + d x^3)
// the loop runs one element at a time, 5-10x slower. PyTorch's kernel specialises the
// exponents 2, 3, -1, -2 (and 0, 1). with_fast_pows(e, f), called by the evaluator, the
// reductions and the fused backward, tests the exponents once and calls f with every pow by a
// small integer rewritten as SmallPow (branch-free, vectorisable) when all of e's are small
// integers, as square(x) when all of them are squares, else with e unchanged.

#include "tenet/config.hpp"
#include <bit>
#include <cstdint>
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

/// x^k for a small integer k, without a call: x^2 = x*x, x^3 = x*x*x, x^-1 = 1/x,
/// x^-2 = 1/(x*x) (PyTorch's pow kernel computes these the same way; x^0 is 1, x^1 is x).
/// k is a run-time value: every candidate is computed and one is picked with bit masks made
/// from the loop-invariant k (not a branch, which GCC keeps in the loop at -O2 and which
/// stops vectorisation), so a loop holding it vectorises.
/// `Negative`: k may be negative (then 1/x^|k|, a division per element); |k| <= 4.
template <bool Negative>
struct SmallPow : fn::ArithmeticRule {
    static constexpr const char* name = "pow";
    int k = 0;
    template <class T>
    TENET_HD auto operator()(T a) const {
        using M = fn::opmath_t<T>;
        using U = std::conditional_t<sizeof(M) == 8, uint64_t, uint32_t>;
        const M x = static_cast<M>(a), x2 = x * x, x4 = x2 * x2;
        const int m = Negative && k < 0 ? -k : k;
        auto pick = [](M v, bool on) { return std::bit_cast<U>(v) & (U(0) - U(on)); };
        // x^m = (1, x^2 or x^4) * (1 or x): x^3 is x^2 * x, as x*x*x rounds, and a product by
        // 1 is exact (the picks of 1 are loop-invariant, so each factor is one and, one or).
        const M even = std::bit_cast<M>(pick(M(1), m < 2) | pick(x2, m == 2 || m == 3) | pick(x4, m == 4));
        const M odd = std::bit_cast<M>(pick(x, (m & 1) != 0) | pick(M(1), (m & 1) == 0));
        const U r = std::bit_cast<U>(even * odd);
        if constexpr (Negative) {
            const M inverse = M(1) / std::bit_cast<M>(r);
            return std::bit_cast<M>(pick(inverse, k < 0) | (r & (U(0) - U(k >= 0))));
        } else {
            return std::bit_cast<M>(r);
        }
    }
};

/// Whether pow node N (by a number) can be rewritten as SmallPow: floating, same result type.
/// (SmallPow's node is formed only for floating N: building a node instantiates its functor.)
template <class N, class A2>
inline constexpr bool small_pow_rewritable = [] {
    if constexpr (FloatingElement<typename N::value_type>)
        return std::is_same_v<typename Unary<SmallPow<true>, A2>::value_type, typename N::value_type>;
    else return false;
}();

/// The exponents PyTorch's kernel specialises, in the classes the loops serve: -1 if every pow
/// by a number in n is a square (then square(x), as cheap as the hand loop's x * x), 0 if every
/// exponent is in {0, 1, 2, 3, 4}, 1 if every one is in {-2, -1, 0, ..., 4}, 2 otherwise (then
/// the pows stay std::pow calls). Start from c = -1.
struct PowClass {
    template <class N>
    static void of(const N&, int&) {}
    template <class Op, class A>
    static void of(const Unary<Op, A>& n, int& c) {
        of(n.a, c);
    }
    template <class Op, class A, class B>
    static void of(const Binary<Op, A, B>& n, int& c) {
        of(n.a, c);
        of(n.b, c);
        if constexpr (std::is_same_v<Op, fn::Pow> && B::is_scalar) {
            if constexpr (!small_pow_rewritable<Binary<Op, A, B>, A>) {
                c = 2;
            } else {
                const double p = static_cast<double>(n.b.value);
                int k = 2;
                for (int v : {0, 1, 2, 3, 4}) k = p == v ? 0 : k;
                if (k != 0 && (p == -1 || p == -2)) k = 1;
                if (p == 2) k = -1;
                c = c > k ? c : k;
            }
        }
    }
    template <class Op, class A, class B, class C>
    static void of(const Ternary<Op, A, B, C>& n, int& c) {
        of(n.a, c);
        of(n.b, c);
        of(n.c, c);
    }
};

/// n with every pow by a number rewritten as P: SmallPow<Negative> (PowClass said they all
/// fit), or fn::Square (PowClass said they are all squares).
template <class P, class N>
N small_pows(const N& n) {
    return n;
}
template <class P, class Op, class A>
auto small_pows(const Unary<Op, A>& n) {
    auto a = small_pows<P>(n.a);
    return Unary<Op, decltype(a)>(std::move(a), n.op);
}
template <class P, class Op, class A, class B>
auto small_pows(const Binary<Op, A, B>& n) {
    auto a = small_pows<P>(n.a);
    constexpr bool rewritable = [] {  // Unary<P, ...> is formed only where the pow is floating
        if constexpr (std::is_same_v<Op, fn::Pow> && B::is_scalar && small_pow_rewritable<Binary<Op, A, B>, A>)
            return std::is_same_v<typename Unary<P, decltype(a)>::value_type, typename Binary<Op, A, B>::value_type>;
        else return false;
    }();
    if constexpr (rewritable) {
        P op;
        if constexpr (!std::is_same_v<P, fn::Square>) op.k = static_cast<int>(n.b.value);
        return Unary<P, decltype(a)>(std::move(a), op);
    } else {
        auto b = small_pows<P>(n.b);
        return Binary<Op, decltype(a), decltype(b)>(std::move(a), std::move(b), n.op);
    }
}
template <class P, class Op, class A, class B, class C>
auto small_pows(const Ternary<Op, A, B, C>& n) {
    auto a = small_pows<P>(n.a);
    auto b = small_pows<P>(n.b);
    auto c = small_pows<P>(n.c);
    return Ternary<Op, decltype(a), decltype(b), decltype(c)>(std::move(a), std::move(b), std::move(c), n.op);
}

/// Calls f with n's pows by small integers rewritten as square(x) when all of them are squares
/// (the common squared error: SmallPow's selects there made W8's fused backward 1.6x slower),
/// as SmallPow when all of them are small integers (one test before the loop picks the loop),
/// else with n as it is. An expression with such pows instantiates its loop four times; one
/// without passes through.
template <class N, class F>
void with_fast_pows(const N& n, F&& f) {
    if constexpr (NumberPows<N>::count == 0) {
        f(n);
    } else {
        int c = -1;
        PowClass::of(n, c);
        if (c == -1) f(small_pows<fn::Square>(n));
        else if (c == 0) f(small_pows<SmallPow<false>>(n));
        else if (c == 1) f(small_pows<SmallPow<true>>(n));
        else f(n);
    }
}

}  // namespace tenet::expr
