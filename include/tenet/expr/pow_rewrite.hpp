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

/// Whether node N is a pow by a C++ number.
template <class N>
inline constexpr bool is_number_pow = [] {
    if constexpr (arity_v<N> == 2) return std::is_same_v<op_t<N>, fn::Pow> && operand_t<1, N>::is_scalar;
    else return false;
}();

/// How many pows by a number N contains.
template <class N>
constexpr int number_pows() {
    if constexpr (arity_v<N> <= 0) {
        return 0;
    } else {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            return (number_pows<operand_t<I, N>>() + ... + int{is_number_pow<N>});
        }(std::make_index_sequence<arity_v<N>>{});
    }
}

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
    TENET_ALWAYS_INLINE TENET_HD auto operator()(T a) const {
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

/// Whether pow node N (by a number) of base A2 can be rewritten as SmallPow: a floating base and
/// result of one type. (SmallPow's node is formed only then: building a node instantiates its
/// functor, which has no integral or bool form; pow(bool or int tensor, 1.5) is float32, by std::pow.)
template <class N, class A2>
inline constexpr bool small_pow_rewritable = [] {
    if constexpr (FloatingElement<typename N::value_type> && FloatingElement<typename A2::value_type>)
        return std::is_same_v<typename Unary<SmallPow<true>, A2>::value_type, typename N::value_type>;
    else return false;
}();

/// The exponents PyTorch's kernel specialises, in the classes the loops serve: -1 if every pow
/// by a number in n is a square (then square(x), as cheap as the hand loop's x * x), 0 if every
/// exponent is in {0, 1, 2, 3, 4}, 1 if every one is in {-2, -1, 0, ..., 4}, 2 otherwise (then
/// the pows stay std::pow calls). Start from c = -1.
template <class N>
void pow_class(const N& n, int& c) {
    if constexpr (arity_v<N> > 0) {
        for_each_operand(n, [&](const auto& o, auto) { pow_class(o, c); });
        if constexpr (is_number_pow<N>) {
            if constexpr (!small_pow_rewritable<N, operand_t<0, N>>) {
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
}

/// n with every pow by a number rewritten as P: SmallPow<Negative> (pow_class said they all
/// fit), or fn::Square (pow_class said they are all squares).
template <class P, class N>
auto small_pows(const N& n) {
    if constexpr (arity_v<N> <= 0) {
        return n;
    } else {
        using A2 = decltype(small_pows<P>(operand<0>(n)));
        // Unary<P, ...> is formed only where the pow is floating, and small_pow_rewritable only
        // for pows (nested: a condition names, so instantiates, every operand of its &&).
        constexpr bool rewritable = [] {
            if constexpr (is_number_pow<N>) {
                if constexpr (small_pow_rewritable<N, operand_t<0, N>>)
                    return std::is_same_v<typename Unary<P, A2>::value_type, typename N::value_type>;
                else return false;
            } else {
                return false;
            }
        }();
        if constexpr (rewritable) {
            P op;
            if constexpr (!std::is_same_v<P, fn::Square>) op.k = static_cast<int>(n.b.value);
            return Unary<P, A2>(small_pows<P>(n.a), op);
        } else {
            return rebuild(n, [](const auto& o, auto) { return small_pows<P>(o); });
        }
    }
}

/// Calls f with n's pows by small integers rewritten as square(x) when all of them are squares
/// (the common squared error: SmallPow's selects there made W8's fused backward 1.6x slower),
/// as SmallPow when all of them are small integers (one test before the loop picks the loop),
/// else with n as it is. An expression with such pows instantiates its loop four times; one
/// without passes through.
template <class N, class F>
void with_fast_pows(const N& n, F&& f) {
    if constexpr (number_pows<N>() == 0) {
        f(n);
    } else {
        int c = -1;
        pow_class(n, c);
        if (c == -1) f(small_pows<fn::Square>(n));
        else if (c == 0) f(small_pows<SmallPow<false>>(n));
        else if (c == 1) f(small_pows<SmallPow<true>>(n));
        else f(n);
    }
}

}  // namespace tenet::expr
