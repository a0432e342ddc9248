#pragma once
// Element-wise unary math with PyTorch's semantics, as lazy expressions:
//   tenet::sin(x)      any tensor or expression (never a bare number: std::sin stays std::sin)
//   t.sin(), (a * b).sin()   the same as methods of Tensor and of every expression
//   t.sin_(), tenet::sin_(t)  in place: evaluates into t itself (one pass, no temporary)
//
// Type rules follow PyTorch:
//   - floating functions (sqrt, exp, log, sin, ..., sigmoid, erf, erfinv) on integer or
//     bool tensors give float32;
//   - abs, sign, relu, ceil/floor/round/trunc keep the element type (the rounding ops
//     return integers unchanged); square also keeps it, except that bool becomes int64
//     (as torch.square does);
//   - clamp's bounds take part in type promotion, as in torch.clamp: integer bounds keep
//     the element type (bool becomes int64), a floating bound makes an integer or bool
//     tensor's result float32 (clamp(int64 [1, 2, 3], 0.5, 2.5) is float32 [1, 2, 2.5]);
//   - isnan, isinf, isfinite, logical_not give bool;
//   - bitwise_not takes integers and bool only; gelu, silu and softplus take floating
//     tensors only (PyTorch has no integer kernels for them); abs, relu and the rounding
//     ops reject bool. These are compile errors with a readable message.
// In-place forms require the result type to be castable to the tensor's type, as
// PyTorch's "result type Float can't be cast to the desired output type Long".
// 16-bit floats compute in float32 (opmath_t) and round once at the end.

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>
#include <type_traits>
#include <utility>

#include "tenet/core/host_device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/simd_exp.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// PyTorch's calc_erfinv (aten/src/ATen/native/Math.h): a rational first guess, then two
/// Newton steps on erf(x) = y, in the computation type M. erfinv(+-1) = +-inf, |y| > 1 -> nan.
template <class M>
TENET_HD M erfinv(M y) {
    constexpr M a[4] = {M(0.886226899), M(-1.645349621), M(0.914624893), M(-0.140543331)};
    constexpr M b[4] = {M(-2.118377725), M(1.442710462), M(-0.329097515), M(0.012229801)};
    constexpr M c[4] = {M(-1.970840454), M(-1.624906493), M(3.429567803), M(1.641345311)};
    constexpr M d[2] = {M(3.543889200), M(1.637067800)};
    const M y_abs = std::abs(y);
    if (y_abs > M(1)) return std::numeric_limits<M>::quiet_NaN();
    if (y_abs == M(1)) return std::copysign(std::numeric_limits<M>::infinity(), y);
    M x;
    if (y_abs <= M(0.7)) {
        const M z = y * y;
        const M num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
        const M dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + M(1);
        x = y * num / dem;
    } else {
        const M z = std::sqrt(-std::log((M(1) - y_abs) / M(2)));
        const M num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
        const M dem = (d[1] * z + d[0]) * z + M(1);
        x = std::copysign(num, y) / dem;
    }
    const M two_over_sqrt_pi = M(2) / static_cast<M>(std::sqrt(3.14159265358979323846));
    x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
    x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
    return x;
}

/// e^x: the vectorisable simd_exp in float (and for Half/BFloat16, which compute in float),
/// std::exp in double. Always inlined, as simd_exp is.
template <class M>
TENET_ALWAYS_INLINE inline TENET_HD M exp(M x) {
#if defined(__CUDA_ARCH__)
    return std::exp(x);  // the GPU's own expf/exp
#else
    if constexpr (std::is_same_v<M, float>) return simd_exp(x);
    else return std::exp(x);
#endif
}

/// 1 / (1 + e^-x), shared by sigmoid, silu and their derivatives (in one fused backward
/// loop the compiler then computes it once).
template <class M>
TENET_ALWAYS_INLINE inline TENET_HD M sigmoid(M x) {
    return M(1) / (M(1) + exp(-x));
}

// can_cast_v (PyTorch's canCast) is in core/tensor.hpp, beside Tensor::assign's check.

/// Evaluates `e` into `t` itself (the in-place forms). The static_assert's instantiation
/// context names both types, e.g. can_cast_in_place<float, long>.
template <class From, class To>
constexpr void check_in_place_cast() {
    static_assert(can_cast_v<From, To>,
                  "tenet: in-place op: the result type can't be cast to the tensor's element type (PyTorch: "
                  "\"result type Float can't be cast to the desired output type Long\"); use the out-of-place "
                  "form, e.g. `auto y = t.sqrt();`");
}
template <class T, class E>
Tensor<T>& evaluate_in_place(Tensor<T>& t, const E& e) {
    check_in_place_cast<typename E::value_type, T>();
    evaluate_into(t, e, AssignMode::Into);
    return t;
}

}  // namespace detail

namespace fn {

/// Like ArithmeticRule, but bool becomes int64 (torch.square and torch.clamp on bool).
struct BoolToLongRule {
    template <class C>
    using compute_t = std::conditional_t<std::is_same_v<C, bool>, int64_t, C>;
    template <class C>
    using result_t = compute_t<C>;
};

// ---- Activations defined on floating tensors only (as PyTorch's CPU kernels) ---------
#define TENET_FLOAT_ONLY(OPNAME)                                                                        \
    static_assert(FloatingElement<T>, "tenet: " OPNAME " is only defined on floating tensors (as in "  \
                                      "PyTorch); convert first, e.g. " OPNAME "(cast<float>(x))")

struct Gelu : ArithmeticRule {
    static constexpr const char* name = "gelu";
    bool tanh_approximation = false;
    template <class T>
    TENET_HD auto operator()(T a) const {
        TENET_FLOAT_ONLY("gelu");
        using M = opmath_t<T>;
        const M x = static_cast<M>(a);
        if (tanh_approximation) {
            const M beta = static_cast<M>(1.41421356237309504880 * 1.12837916709551257390 * 0.5);
            const M kappa = static_cast<M>(0.044715);
            const M inner = beta * (x + kappa * (x * x * x));
            return M(0.5) * x * (M(1) + std::tanh(inner));
        }
        return x * M(0.5) * (M(1) + std::erf(x * static_cast<M>(0.70710678118654752440)));
    }
};
struct Silu : ArithmeticRule {
    static constexpr const char* name = "silu";
    template <class T>
    TENET_HD auto operator()(T a) const {
        TENET_FLOAT_ONLY("silu");
        using M = opmath_t<T>;
        const M x = static_cast<M>(a);
        return x / (M(1) + detail::exp(-x));
    }
};
struct Softplus : ArithmeticRule {
    static constexpr const char* name = "softplus";
    double beta = 1.0, threshold = 20.0;
    template <class T>
    TENET_HD auto operator()(T a) const {
        TENET_FLOAT_ONLY("softplus");
        using M = opmath_t<T>;
        const M x = static_cast<M>(a), b = static_cast<M>(beta);
        return x * b > static_cast<M>(threshold) ? x : static_cast<M>(std::log1p(std::exp(x * b))) / b;
    }
};
#undef TENET_FLOAT_ONLY

// ---- Type-keeping ops -----------------------------------------------------------------
#define TENET_NO_BOOL(OPNAME) \
    static_assert(!std::is_same_v<T, bool>, "tenet: " OPNAME " is not supported for bool tensors (as in PyTorch)")

/// Type-keeping, except that complex gives its real type (abs, and angle's rule below).
struct AbsRule {
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = real_t<C>;
};
struct Abs : AbsRule {
    static constexpr const char* name = "abs";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a) const {
        TENET_NO_BOOL("abs");
        if constexpr (is_complex_v<T>) return tenet::abs(a);
        else if constexpr (FloatingElement<T>) return std::abs(static_cast<opmath_t<T>>(a));
        else if constexpr (std::is_signed_v<T>)  // wraps at the minimum, as PyTorch: abs(int8 -128) = -128
            return a < 0 ? static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a)) : a;
        else return a;
    }
};
struct Sign : ArithmeticRule {
    static constexpr const char* name = "sign";
    template <class T>
    TENET_HD auto operator()(T a) const {
        if constexpr (FloatingElement<T>) {  // sign(nan) = 0, sign(-0) = +0, as PyTorch
            using M = opmath_t<T>;
            const M x = static_cast<M>(a);
            return static_cast<M>((M(0) < x) - (x < M(0)));
        } else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
            return static_cast<T>(a != T(0));
        } else {
            return static_cast<T>((T(0) < a) - (a < T(0)));
        }
    }
};
/// torch.sgn: z / |z| for complex (0 at 0), sign(x) for real numbers.
struct Sgn : Sign {
    static constexpr const char* name = "sgn";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a) const {
        if constexpr (is_complex_v<T>) {
            const real_t<T> r = tenet::abs(a);
            return r == real_t<T>(0) ? T(0) : a / r;
        } else {
            return Sign::operator()(a);
        }
    }
};
/// torch.angle: arg(z) for complex; for real numbers pi where x < 0, else 0 (nan stays nan);
/// integers and bool give float32; the result is real.
struct Angle {
    static constexpr const char* name = "angle";
    static constexpr bool complex_ok = true;
    template <class C>
    using compute_t = floating_t<C>;
    template <class C>
    using result_t = real_t<floating_t<C>>;
    template <class T>
    TENET_HD auto operator()(T a) const {
        if constexpr (is_complex_v<T>) {
            return tenet::arg(a);
        } else {
            using M = opmath_t<T>;
            const M x = static_cast<M>(a);
            return x != x ? x : (x < M(0) ? static_cast<M>(std::numbers::pi) : M(0));
        }
    }
};
/// conj: the conjugate of a complex number (conj_physical's functor; see conj below).
struct Conj : ArithmeticRule {
    static constexpr const char* name = "conj_physical";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD T operator()(T a) const {
        if constexpr (is_complex_v<T>) return tenet::conj(a);
        else return a;
    }
};
#define TENET_ROUNDING_FUNCTOR(NAME, TORCH_NAME, FUNC)                                   \
    struct NAME : ArithmeticRule {                                                       \
        static constexpr const char* name = TORCH_NAME;                                  \
        template <class T>                                                               \
        TENET_HD auto operator()(T a) const {                                            \
            TENET_NO_BOOL(TORCH_NAME);                                                   \
            if constexpr (FloatingElement<T>) return FUNC(static_cast<opmath_t<T>>(a)); \
            else return a; /* integers are already whole */                              \
        }                                                                                \
    };
TENET_ROUNDING_FUNCTOR(Ceil, "ceil", std::ceil)
TENET_ROUNDING_FUNCTOR(Floor, "floor", std::floor)
TENET_ROUNDING_FUNCTOR(Round, "round", std::nearbyint)  // half to even (default rounding mode)
TENET_ROUNDING_FUNCTOR(Trunc, "trunc", std::trunc)
#undef TENET_ROUNDING_FUNCTOR

struct Square : BoolToLongRule {
    static constexpr const char* name = "square";
    template <class T>
    TENET_HD auto operator()(T a) const {
        if constexpr (FloatingElement<T>) {
            const auto x = static_cast<opmath_t<T>>(a);
            return x * x;
        } else if constexpr (sizeof(T) >= 4) {  // wraps on overflow, as PyTorch (no signed-overflow UB)
            using U = std::make_unsigned_t<T>;
            return static_cast<T>(static_cast<U>(a) * static_cast<U>(a));
        } else {
            return static_cast<T>(a * a);  // promoted to int: cannot overflow
        }
    }
};
struct Relu : ArithmeticRule {
    static constexpr const char* name = "relu";
    template <class T>
    TENET_HD auto operator()(T a) const {
        static_assert(!std::is_same_v<T, bool>, "tenet: relu: Boolean inputs not supported for relu (as in PyTorch)");
        if constexpr (FloatingElement<T>) {  // relu(-0) = -0 and relu(nan) = nan, as PyTorch
            using M = opmath_t<T>;
            const M x = static_cast<M>(a);
            return x < M(0) ? M(0) : x;
        } else if constexpr (std::is_signed_v<T>) {
            return a < 0 ? T(0) : a;
        } else {
            return a;
        }
    }
};
#undef TENET_NO_BOOL

/// clamp, clamp_min and clamp_max with integer bounds, or with any bounds on a floating
/// tensor: the element type is kept (bool becomes int64). A nan element or a nan bound
/// gives nan, as PyTorch.
struct Clamp : BoolToLongRule {
    static constexpr const char* name = "clamp";
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();  // absent: +-inf
    bool has_lo = false, has_hi = false;
    template <class T>
    TENET_HD auto operator()(T a) const {
        if constexpr (FloatingElement<T>) {
            // Selects only, no early return, so the loop vectorises: a nan x fails both
            // comparisons and stays nan; a nan bound gives nan (the flag is loop-invariant).
            // lo and hi are read unconditionally (an absent bound is +-inf): chosen per element by
            // the has_ flags (has_lo ? lo : -inf), GCC 12 kept the choice in the loop, scalar.
            using M = opmath_t<T>;
            const M x = static_cast<M>(a);
            const M l = static_cast<M>(lo), h = static_cast<M>(hi);
            const bool nan_bound = std::isnan(lo) || std::isnan(hi);
            M r = x < l ? l : x;
            r = h < r ? h : r;
            return nan_bound ? std::numeric_limits<M>::quiet_NaN() : r;
        } else {
            T x = a;
            if (has_lo && x < convert<T>(lo)) x = convert<T>(lo);
            if (has_hi && convert<T>(hi) < x) x = convert<T>(hi);
            return x;
        }
    }
};
/// clamp of an integer or bool tensor with a floating bound: the bound promotes the result
/// to float32, as torch.clamp's type promotion does (the element converts, then clamps).
/// Integer inputs have no gradient, so it needs no derivative rule.
struct ClampFloating : Clamp {
    template <class C>
    using compute_t = floating_t<C>;
    template <class C>
    using result_t = floating_t<C>;
};

/// clamp with tensor bounds: min(max(x, lo), hi) in the promoted type of x and the bounds (a
/// missing bound is a number: the type's infinity or limit, which takes no part in promotion).
/// A nan element or a nan bound gives nan, as PyTorch's.
struct ClampTensors {
    static constexpr const char* name = "clamp";
    template <class A, class B>
    using bound_t = typename std::conditional_t<B::is_scalar, A, B>::value_type;
    template <class A, class B, class C>
    using common_t = promote_t<promote_t<typename A::value_type, bound_t<A, B>>, bound_t<A, C>>;
    template <class C>
    using result_t = C;
    template <class C, class VA, class VB, class VC>
    TENET_HD C apply(VA a, VB lo, VC hi) const {
        static_assert(!std::is_same_v<C, bool>, "tenet: clamp is not defined on bool tensors (as in PyTorch)");
        if constexpr (FloatingElement<C>) {
            using M = opmath_t<C>;
            const M x = convert<M>(convert<C>(a)), l = convert<M>(convert<C>(lo)), h = convert<M>(convert<C>(hi));
            if (x != x || l != l || h != h) return convert<C>(std::numeric_limits<M>::quiet_NaN());
            const M up = x < l ? l : x;
            return convert<C>(h < up ? h : up);
        } else {
            const C x = convert<C>(a), l = convert<C>(lo), h = convert<C>(hi);
            const C up = x < l ? l : x;
            return h < up ? h : up;
        }
    }
};

struct NanToNum : ArithmeticRule {
    static constexpr const char* name = "nan_to_num";
    double nan = 0;
    std::optional<double> posinf, neginf;
    template <class T>
    TENET_HD T operator()(T a) const {
        if constexpr (FloatingElement<T>) {
            const auto x = static_cast<opmath_t<T>>(a);
            if (std::isnan(x)) return convert<T>(nan);
            if (x == std::numeric_limits<decltype(x)>::infinity())
                return posinf ? convert<T>(*posinf) : std::numeric_limits<T>::max();
            if (x == -std::numeric_limits<decltype(x)>::infinity())
                return neginf ? convert<T>(*neginf) : std::numeric_limits<T>::lowest();
        }
        return a;  // integers and bool: unchanged
    }
};

// ---- Predicates: bool results -----------------------------------------------------------
#define TENET_PREDICATE_FUNCTOR(NAME, TORCH_NAME, FLOAT_EXPR, OTHER_VALUE)                  \
    struct NAME : PredicateRule {                                                           \
        static constexpr const char* name = TORCH_NAME;                                     \
        template <class T>                                                                  \
        TENET_HD bool operator()(T a) const {                                               \
            if constexpr (FloatingElement<T>) {                                             \
                const auto x = static_cast<opmath_t<T>>(a);                                 \
                return FLOAT_EXPR;                                                          \
            } else {                                                                        \
                (void)a;                                                                    \
                return OTHER_VALUE;                                                         \
            }                                                                               \
        }                                                                                   \
    };
TENET_PREDICATE_FUNCTOR(IsNan, "isnan", std::isnan(x), false)
TENET_PREDICATE_FUNCTOR(IsInf, "isinf", std::isinf(x), false)
TENET_PREDICATE_FUNCTOR(IsFinite, "isfinite", std::isfinite(x), true)
#undef TENET_PREDICATE_FUNCTOR
/// signbit: the sign bit (-0.0 and -nan have it); negative integers; never for unsigned and bool.
struct SignBit : PredicateRule {
    static constexpr const char* name = "signbit";
    template <class T>
    TENET_HD bool operator()(T a) const {
        if constexpr (FloatingElement<T>) return std::signbit(static_cast<opmath_t<T>>(a));
        else if constexpr (std::is_signed_v<T>) return a < 0;
        else return (void)a, false;
    }
};

struct LogicalNot : PredicateRule {
    static constexpr const char* name = "logical_not";
    template <class T>
    TENET_HD bool operator()(T a) const {
        return !convert<bool>(a);  // nan is "true", so logical_not(nan) is false
    }
};
struct BitwiseNot : ArithmeticRule {
    static constexpr const char* name = "bitwise_not";
    template <class T>
    TENET_HD auto operator()(T a) const {
        static_assert(!FloatingElement<T>, "tenet: bitwise_not is only defined on integer and bool tensors");
        if constexpr (std::is_same_v<T, bool>) return !a;
        else return static_cast<T>(~a);
    }
};

// ---- Floating functions, from the table: integer/bool -> float32, computed in opmath_t -----
// Always inlined (as expression nodes' at()): GCC's inliner leaves a functor such as Sigmoid
// out of line in a large translation unit, and a loop calling it stays scalar.
// On complex operands an op computes ComplexForward<Functor, M>::of(x), given below for the ops
// PyTorch defines on complex; the others are refused by the nodes (fn::accepts_complex).
template <class Functor, class M>
struct ComplexForward;
#define TENET_FLOATING_OP(NAME, Functor, FORWARD, DERIVATIVE)         \
    struct Functor : FloatingRule {                                   \
        static constexpr const char* name = #NAME;                    \
        template <class T>                                            \
        TENET_ALWAYS_INLINE TENET_HD auto operator()(T a) const {  \
            using M = opmath_t<T>;                                    \
            const M x = static_cast<M>(a);                            \
            if constexpr (is_complex_v<M>) return ComplexForward<Functor, M>::of(x); \
            else return FORWARD;                                      \
        }                                                             \
    };
#include "tenet/expr/unary_ops.def"

// ---- The table's floating functions on complex (std::complex's, as PyTorch's CPU kernels;
// cuda::std::complex's in device code) ----
#define TENET_COMPLEX_FORWARD(Functor, EXPR)                   \
    template <>                                                \
    struct complex_support<Functor> : std::true_type {};       \
    template <class M>                                         \
    struct ComplexForward<Functor, M> {                        \
        TENET_HD static M of(M x) { return EXPR; }             \
    };
TENET_COMPLEX_FORWARD(Sqrt, tenet::sqrt(x))
TENET_COMPLEX_FORWARD(Rsqrt, M(1) / tenet::sqrt(x))
// PyTorch's vectorised complex reciprocal: conj(x) / |x|^2 (nan + nan j at 0, where 1 / x gives inf).
TENET_COMPLEX_FORWARD(Reciprocal, tenet::conj(x) / tenet::norm(x))
TENET_COMPLEX_FORWARD(Exp, tenet::exp(x))
TENET_COMPLEX_FORWARD(Log, tenet::log(x))
TENET_COMPLEX_FORWARD(Log10, tenet::log10(x))
TENET_COMPLEX_FORWARD(Sin, tenet::sin(x))
TENET_COMPLEX_FORWARD(Cos, tenet::cos(x))
TENET_COMPLEX_FORWARD(Tan, tenet::tan(x))
TENET_COMPLEX_FORWARD(Asin, tenet::asin(x))
TENET_COMPLEX_FORWARD(Acos, tenet::acos(x))
TENET_COMPLEX_FORWARD(Atan, tenet::atan(x))
TENET_COMPLEX_FORWARD(Sinh, tenet::sinh(x))
TENET_COMPLEX_FORWARD(Cosh, tenet::cosh(x))
TENET_COMPLEX_FORWARD(Tanh, tenet::tanh(x))
TENET_COMPLEX_FORWARD(Asinh, tenet::asinh(x))
TENET_COMPLEX_FORWARD(Acosh, tenet::acosh(x))
TENET_COMPLEX_FORWARD(Atanh, tenet::atanh(x))
TENET_COMPLEX_FORWARD(Sigmoid, M(1) / (M(1) + tenet::exp(-x)))
#undef TENET_COMPLEX_FORWARD

/// The table's ops on one number of a floating computation type M: the vocabulary in which
/// the DERIVATIVE column is written, so that one rule serves per-element evaluation.
namespace rule {
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE)                          \
    template <class M>                                                     \
        requires std::is_floating_point_v<M>                               \
    TENET_ALWAYS_INLINE inline TENET_HD M NAME(M x) {                   \
        return static_cast<M>(Functor{}(x));                               \
    }
#include "tenet/expr/unary_ops.def"

/// The DERIVATIVE column's words for "no formula" (see expr/unary_ops.def).
struct ZeroDerivative {};
struct NoDerivative {};
struct CustomDerivative {};
inline constexpr ZeroDerivative zero_derivative{};
inline constexpr NoDerivative no_derivative{};
inline constexpr CustomDerivative custom_derivative{};
}  // namespace rule

/// An op's local derivative f'(x), from its row of expr/unary_ops.def: of<M>(x) with x a
/// number of type M (the fused backward, per element; host and device), of_tensors<M>(x) the
/// same formula over a tensor operand (create_graph's replay, with M = double, so constants stay
/// weak scalars; host only: its expression holds tensors).
template <class Op>
struct LocalDerivative {
    static constexpr bool in_table = false;
};
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE)                          \
    template <>                                                            \
    struct LocalDerivative<Functor> {                                      \
        static constexpr bool in_table = true;                             \
        template <class M, class X>                                        \
        TENET_ALWAYS_INLINE static TENET_HD auto of(const X& x) {       \
            using namespace rule;                                          \
            (void)x;                                                       \
            return DERIVATIVE;                                             \
        }                                                                  \
        template <class M, class X>                                        \
        static auto of_tensors(const X& x) {                               \
            using namespace rule;                                          \
            (void)x;                                                       \
            return DERIVATIVE;                                             \
        }                                                                  \
    };
#include "tenet/expr/unary_ops.def"

}  // namespace fn

// ---- Free functions ------------------------------------------------------------------------
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE)                    \
    template <expr::TensorOperand A>                                 \
    auto NAME(A&& a) {                                               \
        return expr::make_unary<fn::Functor>(std::forward<A>(a));    \
    }
#define TENET_PREDICATE_OP(NAME, Functor) TENET_UNARY_OP(NAME, Functor, )
#include "tenet/expr/unary_ops.def"

/// torch.nn.functional.gelu: approximate "none" (exact, with erf; the default) or "tanh".
template <expr::TensorOperand A>
auto gelu(A&& a, const char* approximate = "none") {
    fn::Gelu op;
    if (std::strcmp(approximate, "tanh") == 0) op.tanh_approximation = true;
    else if (std::strcmp(approximate, "none") != 0)
        detail::fail<value_error>("gelu: approximate argument must be either none or tanh.");
    return expr::make_unary(std::forward<A>(a), op);
}
/// torch.nn.functional.softplus: log1p(exp(beta x)) / beta, or x where beta x > threshold.
template <expr::TensorOperand A>
auto softplus(A&& a, double beta = 1.0, double threshold = 20.0) {
    return expr::make_unary(std::forward<A>(a), fn::Softplus{{}, beta, threshold});
}
/// torch.nan_to_num: posinf/neginf default to the element type's max and lowest.
template <expr::TensorOperand A>
auto nan_to_num(A&& a, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
    return expr::make_unary(std::forward<A>(a), fn::NanToNum{{}, nan, posinf, neginf});
}
namespace detail {
/// A clamp bound: a number (not bool: torch.clamp has no bool kernel), a std::optional of
/// one, or std::nullopt. Its C++ type decides the result type (a std::optional<double> is a
/// floating bound even when empty: element types are static).
template <class B>
struct ClampBound : std::false_type {};
template <class B>
    requires std::is_arithmetic_v<B> && (!std::is_same_v<B, bool>)
struct ClampBound<B> : std::true_type {
    static constexpr bool floating = std::is_floating_point_v<B>;
    static std::optional<double> get(B b) { return static_cast<double>(b); }
};
template <class B>
    requires ClampBound<B>::value
struct ClampBound<std::optional<B>> : std::true_type {
    static constexpr bool floating = ClampBound<B>::floating;
    static std::optional<double> get(const std::optional<B>& b) {
        return b ? std::optional<double>(static_cast<double>(*b)) : std::nullopt;
    }
};
template <>
struct ClampBound<std::nullopt_t> : std::true_type {
    static constexpr bool floating = false;
    static std::optional<double> get(std::nullopt_t) { return std::nullopt; }
};

/// A clamp bound that is a tensor or an expression, or std::nullopt beside one.
template <class B>
concept ClampTensorBound = expr::TensorOperand<B> || std::is_same_v<std::remove_cvref_t<B>, std::nullopt_t>;

/// The missing bound of a clamp with tensor bounds: -inf / +inf (the type's limits for integers).
template <class V, bool Upper>
V open_clamp_bound() {
    if constexpr (std::is_floating_point_v<V>) return Upper ? std::numeric_limits<V>::infinity() : -std::numeric_limits<V>::infinity();
    else return Upper ? std::numeric_limits<V>::max() : std::numeric_limits<V>::lowest();
}
}  // namespace detail

/// torch.clamp(x, min, max) with tensor bounds (tensors or expressions, broadcast with x; one
/// may be std::nullopt): min(max(x, min), max) in the promoted type of the three; NaN anywhere
/// gives NaN. The gradients are PyTorch's: x's where min <= x <= max, min's where x < min < max,
/// max's where x > max or max < min.
template <expr::TensorOperand A, detail::ClampTensorBound Lo, detail::ClampTensorBound Hi>
    requires(expr::TensorOperand<Lo> || expr::TensorOperand<Hi>)
auto clamp(A&& a, Lo&& min, Hi&& max) {
    using V = typename expr::node_t<A>::value_type;
    if constexpr (std::is_same_v<std::remove_cvref_t<Lo>, std::nullopt_t>)
        return expr::make_ternary<fn::ClampTensors>(std::forward<A>(a), detail::open_clamp_bound<V, false>(),
                                                    std::forward<Hi>(max));
    else if constexpr (std::is_same_v<std::remove_cvref_t<Hi>, std::nullopt_t>)
        return expr::make_ternary<fn::ClampTensors>(std::forward<A>(a), std::forward<Lo>(min),
                                                    detail::open_clamp_bound<V, true>());
    else
        return expr::make_ternary<fn::ClampTensors>(std::forward<A>(a), std::forward<Lo>(min), std::forward<Hi>(max));
}
template <expr::TensorOperand A, expr::TensorOperand Lo>
auto clamp(A&& a, Lo&& min) {
    return clamp(std::forward<A>(a), std::forward<Lo>(min), std::nullopt);
}

/// torch.clamp with number bounds; at least one must be given. The bounds take part in type
/// promotion: integer bounds keep the element type (bool becomes int64); a floating bound
/// makes an integer or bool tensor's result float32, as PyTorch's
/// (clamp(int64 [1, 2, 3], 0.5, 2.5) is float32 [1, 2, 2.5]).
template <expr::TensorOperand A, class Lo, class Hi = std::nullopt_t>
    requires(!expr::TensorOperand<Lo> && !expr::TensorOperand<Hi>)
auto clamp(A&& a, const Lo& min, const Hi& max = std::nullopt) {  // (tensor bounds: the overload above)
    static_assert(detail::ClampBound<Lo>::value && detail::ClampBound<Hi>::value,
                  "tenet: clamp bounds are numbers (not bool), std::optional numbers or std::nullopt");
    const std::optional<double> lo = detail::ClampBound<Lo>::get(min), hi = detail::ClampBound<Hi>::get(max);
    if (!lo && !hi) detail::fail<value_error>("clamp: At least one of 'min' or 'max' must not be None");
    constexpr double inf = std::numeric_limits<double>::infinity();
    const fn::Clamp op{{}, lo.value_or(-inf), hi.value_or(inf), lo.has_value(), hi.has_value()};
    using V = typename expr::node_t<A>::value_type;
    if constexpr (!FloatingElement<V> && (detail::ClampBound<Lo>::floating || detail::ClampBound<Hi>::floating))
        return expr::make_unary(std::forward<A>(a), fn::ClampFloating{op});
    else
        return expr::make_unary(std::forward<A>(a), op);
}
template <expr::TensorOperand A, class B>
auto clamp_min(A&& a, const B& min) {
    return clamp(std::forward<A>(a), min, std::nullopt);
}
template <expr::TensorOperand A, class B>
auto clamp_max(A&& a, const B& max) {
    return clamp(std::forward<A>(a), std::nullopt, max);
}

// ---- Methods (core/value_methods.hpp) and in-place forms --------------------------------------
#define TENET_PREDICATE_OP(NAME, Functor)             \
    template <class Derived>                          \
    auto ValueMethods<Derived>::NAME() const {        \
        return tenet::NAME(self());                   \
    }
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE)                         \
    TENET_PREDICATE_OP(NAME, Functor)                                     \
    template <class T>                                                    \
    Tensor<T>& Tensor<T>::NAME##_() {                                     \
        return detail::evaluate_in_place(*this, tenet::NAME(*this));      \
    }                                                                     \
    template <class T>                                                    \
    Tensor<T>& NAME##_(Tensor<T>& t) {                                    \
        return t.NAME##_();                                               \
    }
#include "tenet/expr/unary_ops.def"

// The ops with parameters, spelled out.
template <class Derived>
auto ValueMethods<Derived>::gelu(const char* approximate) const {
    return tenet::gelu(self(), approximate);
}
template <class T>
Tensor<T>& Tensor<T>::gelu_(const char* approximate) {
    return detail::evaluate_in_place(*this, tenet::gelu(*this, approximate));
}
template <class T>
Tensor<T>& gelu_(Tensor<T>& t, const char* approximate = "none") {
    return t.gelu_(approximate);
}

template <class Derived>
auto ValueMethods<Derived>::softplus(double beta, double threshold) const {
    return tenet::softplus(self(), beta, threshold);
}
template <class T>
Tensor<T>& Tensor<T>::softplus_(double beta, double threshold) {
    return detail::evaluate_in_place(*this, tenet::softplus(*this, beta, threshold));
}
template <class T>
Tensor<T>& softplus_(Tensor<T>& t, double beta = 1.0, double threshold = 20.0) {
    return t.softplus_(beta, threshold);
}

template <class Derived>
auto ValueMethods<Derived>::nan_to_num(double nan, std::optional<double> posinf, std::optional<double> neginf) const {
    return tenet::nan_to_num(self(), nan, posinf, neginf);
}
template <class T>
Tensor<T>& Tensor<T>::nan_to_num_(double nan, std::optional<double> posinf, std::optional<double> neginf) {
    return detail::evaluate_in_place(*this, tenet::nan_to_num(*this, nan, posinf, neginf));
}
template <class T>
Tensor<T>& nan_to_num_(Tensor<T>& t, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                       std::optional<double> neginf = std::nullopt) {
    return t.nan_to_num_(nan, posinf, neginf);
}

template <class Derived>
template <class Lo, class Hi>
auto ValueMethods<Derived>::clamp(const Lo& min, const Hi& max) const {
    return tenet::clamp(self(), min, max);
}
template <class T>
template <class Lo, class Hi>
Tensor<T>& Tensor<T>::clamp_(const Lo& min, const Hi& max) {
    return detail::evaluate_in_place(*this, tenet::clamp(*this, min, max));
}
template <class T, class Lo, class Hi = std::nullopt_t>
Tensor<T>& clamp_(Tensor<T>& t, const Lo& min, const Hi& max = std::nullopt) {
    return t.clamp_(min, max);
}
template <class Derived>
template <class B>
auto ValueMethods<Derived>::clamp_min(const B& min) const {
    return tenet::clamp_min(self(), min);
}
template <class T>
template <class B>
Tensor<T>& Tensor<T>::clamp_min_(const B& min) {
    return clamp_(min, std::nullopt);
}
template <class T, class B>
Tensor<T>& clamp_min_(Tensor<T>& t, const B& min) {
    return t.clamp_min_(min);
}
template <class Derived>
template <class B>
auto ValueMethods<Derived>::clamp_max(const B& max) const {
    return tenet::clamp_max(self(), max);
}
template <class T>
template <class B>
Tensor<T>& Tensor<T>::clamp_max_(const B& max) {
    return clamp_(std::nullopt, max);
}
template <class T, class B>
Tensor<T>& clamp_max_(Tensor<T>& t, const B& max) {
    return t.clamp_max_(max);
}

}  // namespace tenet
