#pragma once
// Reverse-mode derivatives of expression trees, derived at compile time.
//
// leaf_grad<K>(e, g) is the expression for g * d(e)/d(leaf K), elementwise over e's
// shape: the upstream gradient g (a tensor or a number) is pushed from the root to leaf K
// through each node's rule, Derivative<Op>::d<I>(node, g). Every rule builds an ordinary
// fused expression, so the whole backward of `sigmoid(x * w + b) - y` for one leaf is a
// single expression evaluated in one pass, with the forward values it needs recomputed
// in registers instead of stored.
//
// An operation without a derivative for an input (comparisons, bitwise ops, casts to
// integers) gives NoGradient, which stops the flow along that path. Rounding and sign are
// differentiable with a zero derivative (PyTorch records FloorBackward0, ... and gives zeros).
//
// Masking rules SELECT (where(mask, g, 0)), as PyTorch's do: a nan or inf upstream gradient
// of a clamped-away element gives 0, not nan.

#include "tenet/config.hpp"
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <type_traits>

#include "tenet/core/host_device.hpp"
#include "tenet/expr/binary_ops.hpp"
#include "tenet/expr/pow_rewrite.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// "No gradient flows along this path."
struct NoGradient {};
template <class G>
inline constexpr bool is_no_gradient = std::is_same_v<G, NoGradient>;

/// Rules. Unspecialised: the operation is not differentiable (its inputs get nothing).
template <class Op>
struct Derivative {
    template <size_t I, class N, class G>
    static NoGradient d(const N&, const G&) {
        return {};
    }
};

namespace dfn {
/// f'(x) of an op of the table (expr/unary_ops.def), per element: the op's one rule,
/// fn::LocalDerivative<Op>, evaluated on numbers in opmath_t (float for float32 and 16-bit
/// floats, double for double). Always inlined, as the functors of expr/math.hpp.
template <class Op>
struct Local : fn::FloatingRule {
    static constexpr const char* name = Op::name;
    template <class T>
    TENET_ALWAYS_INLINE TENET_HD auto operator()(T a) const {
        using M = fn::opmath_t<T>;
        return fn::LocalDerivative<Op>::template of<M>(static_cast<M>(a));
    }
};

/// gelu'(x), exact (erf) or for the tanh approximation.
struct DGelu : fn::FloatingRule {
    static constexpr const char* name = "DGelu";
    bool tanh_approximation = false;
    template <class T>
    TENET_HD auto operator()(T a) const {
        using M = fn::opmath_t<T>;
        const M x = static_cast<M>(a);
        if (tanh_approximation) {
            const M k = std::sqrt(M(2) / std::numbers::pi_v<M>), c = M(0.044715);
            const M t = std::tanh(k * (x + c * x * x * x));
            return M(0.5) * (M(1) + t) + M(0.5) * x * (M(1) - t * t) * k * (M(1) + M(3) * c * x * x);
        }
        const M cdf = M(0.5) * (M(1) + std::erf(x / std::numbers::sqrt2_v<M>));
        const M pdf = std::exp(M(-0.5) * x * x) / std::sqrt(M(2) * std::numbers::pi_v<M>);
        return cdf + x * pdf;
    }
};
/// softplus'(x) = sigmoid(beta x), or 1 past the threshold (where softplus is x).
struct DSoftplus : fn::FloatingRule {
    static constexpr const char* name = "DSoftplus";
    double beta = 1, threshold = 20;
    template <class T>
    TENET_HD auto operator()(T a) const {
        using M = fn::opmath_t<T>;
        const M z = static_cast<M>(a) * static_cast<M>(beta);
        return z > static_cast<M>(threshold) ? M(1) : M(1) / (M(1) + detail::exp(-z));
    }
};
/// Where clamp passes the gradient: inside [lo, hi] (PyTorch's clamp_backward mask; nan: no).
struct ClampMask : fn::FloatingRule {
    static constexpr const char* name = "ClampMask";
    template <class C>
    using result_t = bool;
    double lo = 0, hi = 0;  // an absent bound is -inf or +inf (fn::Clamp's)
    template <class T>
    TENET_HD bool operator()(T a) const {
        using M = fn::opmath_t<T>;
        const M x = static_cast<M>(a);
        return (x >= static_cast<M>(lo)) & (x <= static_cast<M>(hi));  // no short circuit: the loop vectorises
    }
};
/// Where relu passes the gradient: not x <= 0 (PyTorch's threshold_backward: nan passes).
struct ReluMask : fn::FloatingRule {
    static constexpr const char* name = "ReluMask";
    template <class C>
    using result_t = bool;
    template <class T>
    TENET_HD bool operator()(T a) const {
        using M = fn::opmath_t<T>;
        return !(static_cast<M>(a) <= M(0));
    }
};
/// g * (k x^(k-1)) for x^k by a small integer k, 0 when k == 0 (PyTorch's mask): the
/// gradient of expr::SmallPow, computed in the promoted type of g and x.
template <bool Negative>
struct SmallPowGrad : fn::ArithmeticRule {
    static constexpr const char* name = "SmallPowGrad";
    int k = 0;
    template <class T>
    TENET_HD auto operator()(T g, T a) const {
        using M = fn::opmath_t<T>;
        using U = std::conditional_t<sizeof(M) == 8, uint64_t, uint32_t>;
        expr::SmallPow<Negative> lower;
        lower.k = Negative || k > 0 ? k - 1 : 0;
        const M v = static_cast<M>(g) * (static_cast<M>(k) * static_cast<M>(lower(a)));
        return std::bit_cast<M>(std::bit_cast<U>(v) & (U(0) - U(k != 0)));
    }
};
/// The zero derivative of rounding and sign, applied to the upstream gradient (whatever its
/// values: PyTorch's zeros_like).
struct Zero : fn::ArithmeticRule {
    static constexpr const char* name = "Zero";
    template <class T>
    TENET_HD auto operator()(T) const {
        return fn::opmath_t<T>(0);
    }
};
/// nan_to_num'(x): 1 where x is finite, 0 where it was replaced.
struct DNanToNum : fn::FloatingRule {
    static constexpr const char* name = "DNanToNum";
    template <class T>
    TENET_HD auto operator()(T a) const {
        using M = fn::opmath_t<T>;
        return std::isfinite(static_cast<M>(a)) ? M(1) : M(0);
    }
};
}  // namespace dfn

/// g * f'(a) for a unary node whose local derivative functor is D.
template <class D, class N, class G>
auto chain(const N& n, const G& g, D d = {}) {
    return g * expr::make_unary<D>(n.a, d);
}

/// The ops of the table (expr/unary_ops.def): g * f'(x) from the op's rule, a recorded zero
/// (rounding, sign: PyTorch's FloorBackward0, ... give zeros), or nothing.
template <class Op>
    requires fn::LocalDerivative<Op>::in_table
struct Derivative<Op> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        using Rule = decltype(fn::LocalDerivative<Op>::template of<double>(0.0));
        static_assert(!std::is_same_v<Rule, fn::rule::CustomDerivative>,
                      "tenet: an op whose table row says custom_derivative needs a Derivative<> specialisation");
        if constexpr (std::is_same_v<Rule, fn::rule::NoDerivative>) return NoGradient{};
        else if constexpr (std::is_same_v<Rule, fn::rule::ZeroDerivative>) return expr::make_unary<dfn::Zero>(g);
        else return chain<dfn::Local<Op>>(n, g);
    }
};

template <>
struct Derivative<fn::NanToNum> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return chain<dfn::DNanToNum>(n, g);
    }
};
template <>
struct Derivative<fn::Neg> {
    template <size_t I, class N, class G>
    static auto d(const N&, const G& g) {
        return -g;
    }
};
template <>
struct Derivative<fn::Gelu> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return chain(n, g, dfn::DGelu{{}, n.op.tanh_approximation});
    }
};
template <>
struct Derivative<fn::Softplus> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return chain(n, g, dfn::DSoftplus{{}, n.op.beta, n.op.threshold});
    }
};
template <>
struct Derivative<fn::Clamp> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return where(expr::make_unary(n.a, dfn::ClampMask{{}, n.op.lo, n.op.hi}), g, 0);
    }
};
template <>
struct Derivative<fn::Relu> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return where(expr::make_unary<dfn::ReluMask>(n.a), g, 0);
    }
};
/// x^k by a small integer (expr::SmallPow, the loops' form of pow(x, k)): g k x^(k-1), 0
/// where k == 0, as Derivative<fn::Pow>. One functor of (g, x) that picks with a bit mask:
/// a where() on the loop-invariant k would be a branch in the loop at -O2 (no vectorisation).
template <bool Negative>
struct Derivative<expr::SmallPow<Negative>> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        return expr::make_binary(g, n.a, dfn::SmallPowGrad<Negative>{{}, n.op.k});
    }
};
/// A cast passes the gradient back in the source type, if that type is floating.
template <class U>
struct Derivative<fn::CastTo<U>> {
    template <size_t I, class N, class G>
    static auto d(const N&, const G& g) {
        using From = typename decltype(N::a)::value_type;
        if constexpr (FloatingElement<From> && FloatingElement<U>) return cast<From>(g);
        else return NoGradient{};
    }
};

template <class S, bool Subtract>
struct Derivative<fn::AddAlpha<S, Subtract>> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        if constexpr (I == 0) return g;
        else return g * (Subtract ? -n.op.alpha : n.op.alpha);
    }
};
/// The binary ops of the table (expr/binary_ops.def): g * d(op)/d(operand I) from the op's one
/// rule (its row's D_A and D_B over the operands a, b and the upstream gradient g), or nothing.
template <class Op>
struct BinaryRule {
    static constexpr bool in_table = false;
};
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B)                                  \
    template <>                                                                                  \
    struct BinaryRule<fn::Functor> {                                                             \
        static constexpr bool in_table = true;                                                   \
        template <size_t I, class A, class B, class G>                                           \
        static auto of([[maybe_unused]] const A& a, [[maybe_unused]] const B& b,                 \
                       [[maybe_unused]] const G& g) {                                            \
            using fn::rule::custom_derivative;                                                   \
            using fn::rule::no_derivative;                                                       \
            if constexpr (I == 0) return D_A;                                                    \
            else return D_B;                                                                     \
        }                                                                                        \
    };
#include "tenet/expr/binary_ops.def"

template <class Op>
    requires BinaryRule<Op>::in_table
struct Derivative<Op> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        using R = decltype(BinaryRule<Op>::template of<I>(n.a, n.b, g));
        static_assert(!std::is_same_v<R, fn::rule::CustomDerivative>,
                      "tenet: a custom_derivative row of expr/binary_ops.def needs its Derivative<> written by hand");
        if constexpr (std::is_same_v<R, fn::rule::NoDerivative>) return NoGradient{};
        else return BinaryRule<Op>::template of<I>(n.a, n.b, g);
    }
};

/// d/da a^b = b a^(b-1) (0 where b == 0); d/db a^b = a^b log a (0 where a == 0 and b >= 0),
/// PyTorch's masks, so 0^0 has zero gradients instead of nan.
template <>
struct Derivative<fn::Pow> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        if constexpr (I == 0) {
            if constexpr (decltype(n.b)::is_scalar)  // a number exponent stays a number: x^(p-1)
                return where(n.b == 0, 0, g * n.b * pow(n.a, n.b.value - 1));
            else return where(n.b == 0, 0, g * n.b * pow(n.a, n.b - 1));
        } else {
            return where((n.a == 0) & (n.b >= 0), 0, g * pow(n.a, n.b) * log(n.a));
        }
    }
};
template <>
struct Derivative<fn::Lerp> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        using W = decltype(n.c);
        if constexpr (I == 0) {
            // 1 - weight in the result's type: a float32 weight of a float64 lerp is not rounded.
            if constexpr (W::is_scalar || std::is_same_v<typename W::value_type, typename N::value_type>)
                return g * (1 - n.c);
            else return g * (1 - cast<typename N::value_type>(n.c));
        } else if constexpr (I == 1) {
            return g * n.c;
        } else {
            return g * (n.b - n.a);
        }
    }
};
/// PyTorch's clamp_backward_min_max: x's gradient where min <= x <= max, min's where
/// x < min < max, max's where x > max or max < min.
template <>
struct Derivative<fn::ClampTensors> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        if constexpr (I == 0) return where((n.a >= n.b) & (n.a <= n.c), g, 0);
        else if constexpr (I == 1) return where((n.a < n.b) & (n.b < n.c), g, 0);
        else return where((n.a > n.c) | (n.c < n.b), g, 0);
    }
};
template <>
struct Derivative<fn::Where> {
    template <size_t I, class N, class G>
    static auto d(const N& n, const G& g) {
        if constexpr (I == 0) return NoGradient{};
        else if constexpr (I == 1) return where(n.a, g, 0);
        else return where(n.a, 0, g);
    }
};
template <>
struct Derivative<fn::ComposedWhere> : Derivative<fn::Where> {};

// ---- Pushing a gradient from the root to one leaf -------------------------------------

using expr::arity_v;
using expr::op_t;
using expr::operand;
using expr::operand_t;

/// The step from operation node N towards its leaf K: the operand that holds it (`index`), and
/// how many of N's leaves come before that operand (`before`; the leaf is the operand's leaf
/// K - before). leaf_grad, grad_at and gradient_reaches all walk this path.
template <class N, size_t K>
struct leaf_step {
    static constexpr int arity = arity_v<N>;
    static constexpr size_t in_a = operand_t<0, N>::num_leaves;
    static constexpr size_t in_b = arity >= 2 ? operand_t<arity >= 2 ? 1 : 0, N>::num_leaves : 0;
    static constexpr size_t index = arity == 1 || K < in_a ? 0 : arity == 2 || K < in_a + in_b ? 1 : 2;
    static constexpr size_t before = expr::leaves_before_v<N, index>;
};

/// g * d(n)/d(leaf K) as an expression over n's shape, or NoGradient.
template <size_t K, class N, class G>
auto leaf_grad(const N& n, const G& g) {
    constexpr int arity = arity_v<N>;
    if constexpr (is_no_gradient<G> || !FloatingElement<typename N::value_type>) {
        return NoGradient{};
    } else if constexpr (arity == 0) {
        return g;
    } else {
        using S = leaf_step<N, K>;
        using D = Derivative<op_t<N>>;
        return leaf_grad<K - S::before>(operand<S::index>(n), D::template d<S::index>(n, g));
    }
}

}  // namespace tenet::autograd
