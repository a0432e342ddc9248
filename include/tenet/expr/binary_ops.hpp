#pragma once
// The functors of PyTorch's element-wise binary and ternary operations, lazily (expression nodes,
// see expr/node.hpp); the ops of the table expr/binary_ops.def get their methods and in-place
// forms here, their free functions and operators in expr/operators.hpp:
//
//   floor_divide, remainder (%), fmod, div(a, b, "trunc" | "floor"), pow, atan2, hypot,
//   maximum, minimum, lerp, where, bitwise_and/or/xor (& | ^),
//   bitwise_left_shift/right_shift (<< >>), logical_and/or/xor, add/sub with alpha;
//   a.add_(b), a += b, ... evaluate `a op b` into a in ONE pass (`a += b * c` allocates
//   nothing) and refuse at compile time a result type a cannot hold.
//
// Integer division by zero. PyTorch raises ZeroDivisionError; a hardware integer
// division by zero would kill the process (SIGFPE). An exception cannot leave the
// element loop (it may run on OpenMP threads), so the divisor is checked before the
// loop, on the calling thread, when the node is built (which is when PyTorch, being
// eager, raises): a scalar divisor is tested once, a tensor divisor is scanned (one
// read-only pass, far cheaper than the integer divisions that follow), and a compound
// divisor expression is first evaluated into a temporary, which then becomes the
// node's divisor leaf (so it is computed once). Floating divisions skip all of this.
// The integer functors also guard the divisor themselves (returning 0), so a divisor
// changed between building and evaluating an expression gives 0, never a crash.
// INT_MIN / -1 (which PyTorch 1.13 itself crashes on) wraps to INT_MIN, remainder 0.

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "tenet/core/host_device.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/functors.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/operators.hpp"

namespace tenet::inline TENET_ABI {

// =====================================================================================
// Element functors
// =====================================================================================
namespace fn {

namespace arith {

template <class T>
using wide_unsigned_t = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

/// -a with wrap-around (INT_MIN stays INT_MIN), without undefined behaviour.
template <class T>
TENET_HD T wrapping_neg(T a) {
    return static_cast<T>(wide_unsigned_t<T>(0) - static_cast<wide_unsigned_t<T>>(a));
}

template <class T>
TENET_HD T int_div_trunc(T a, T b) {
    if (b == 0) return 0;  // reported before the loop: see the file comment
    if constexpr (std::is_signed_v<T>)
        if (b == -1) return wrapping_neg(a);
    return static_cast<T>(a / b);
}
/// Python's //: truncation minus one when the signs differ and the division is inexact.
template <class T>
TENET_HD T int_div_floor(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) return wrapping_neg(a);
        const T q = static_cast<T>(a / b);
        const T r = static_cast<T>(a % b);
        return (r != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
    } else {
        return static_cast<T>(a / b);
    }
}
/// Python's %: the sign of the divisor.
template <class T>
TENET_HD T int_remainder(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
        T r = static_cast<T>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
    } else {
        return static_cast<T>(a % b);
    }
}
/// C's %: the sign of the dividend.
template <class T>
TENET_HD T int_fmod(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>)
        if (b == -1) return 0;
    return static_cast<T>(a % b);
}

/// PyTorch's div_floor_floating (ATen/native/cpu/BinaryOpsKernel.cpp), step for step.
template <class F>
TENET_HD F float_div_floor(F a, F b) {
    if (b == 0) return a / b;  // IEEE: +-inf or nan
    const F mod = std::fmod(a, b);
    F div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= F(1);
    if (div == 0) return std::copysign(F(0), a / b);
    F floordiv = std::floor(div);
    if (div - floordiv > F(0.5)) floordiv += F(1);
    return floordiv;
}
template <class F>
TENET_HD F float_remainder(F a, F b) {
    F mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
    return mod;
}

/// Integer power by repeated squaring, wrapping as PyTorch's powi; a negative exponent
/// gives 1 for base 1, +-1 for base -1 and 0 otherwise (PyTorch's tensor-exponent rule).
template <class T>
TENET_HD T int_pow(T a, T b) {
    if constexpr (std::is_signed_v<T>) {
        if (b < 0) {
            if (a == 1) return 1;
            if (a == -1) return (b % 2) ? T(-1) : T(1);
            return 0;
        }
    }
    using U = wide_unsigned_t<T>;
    U result = 1, base = static_cast<U>(a);
    for (auto e = b; e != 0; e /= 2) {
        if (e & 1) result *= base;
        base *= base;
    }
    return static_cast<T>(result);
}

template <class T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;

}  // namespace arith

struct FloorDivide : ArithmeticRule {
    static constexpr const char* name = "floor_divide";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!arith::is_bool_v<T>, "tenet: floor_divide is not defined on bool tensors (as in PyTorch)");
        if constexpr (std::is_integral_v<T>) return arith::int_div_floor(a, b);
        else return arith::float_div_floor(static_cast<opmath_t<T>>(a), static_cast<opmath_t<T>>(b));
    }
};
struct Remainder : ArithmeticRule {
    static constexpr const char* name = "remainder";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!arith::is_bool_v<T>, "tenet: remainder is not defined on bool tensors (as in PyTorch)");
        if constexpr (std::is_integral_v<T>) return arith::int_remainder(a, b);
        else return arith::float_remainder(static_cast<opmath_t<T>>(a), static_cast<opmath_t<T>>(b));
    }
};
struct Fmod : ArithmeticRule {
    static constexpr const char* name = "fmod";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!arith::is_bool_v<T>, "tenet: fmod is not defined on bool tensors (as in PyTorch)");
        if constexpr (std::is_integral_v<T>) return arith::int_fmod(a, b);
        else return std::fmod(static_cast<opmath_t<T>>(a), static_cast<opmath_t<T>>(b));
    }
};
/// div with rounding_mode "trunc" or "floor": keeps the promoted type (int stays int).
struct DivRounding : ArithmeticRule {
    static constexpr const char* name = "div";
    bool floor = false;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!arith::is_bool_v<T>,
                      "tenet: div with a rounding mode is not defined on bool tensors (as in PyTorch)");
        if constexpr (std::is_integral_v<T>) {
            return floor ? arith::int_div_floor(a, b) : arith::int_div_trunc(a, b);
        } else {
            using O = opmath_t<T>;
            return floor ? arith::float_div_floor(static_cast<O>(a), static_cast<O>(b))
                         : std::trunc(static_cast<O>(a) / static_cast<O>(b));
        }
    }
};
struct Pow : ArithmeticRule {
    static constexpr const char* name = "pow";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!arith::is_bool_v<T>, "tenet: pow is not defined on bool tensors (as in PyTorch)");
        if constexpr (std::is_integral_v<T>) {
            return arith::int_pow(a, b);
        } else if constexpr (is_complex_v<T>) {
            return b == T(2) ? a * a : (b == T(1) ? a : tenet::pow(a, b));
        } else {
            using M = opmath_t<T>;
            const M x = static_cast<M>(a), p = static_cast<M>(b);
            // x^2 as x * x and x^1 as x (exact either way, as PyTorch's kernel does): with a
            // scalar exponent the tests are loop-invariant, so the loop vectorises without a
            // pow call (x^2 is the squared error; its derivative needs x^1).
            return p == M(2) ? x * x : (p == M(1) ? x : std::pow(x, p));
        }
    }
};
/// a + alpha * b (or a - alpha * b), in the promoted type of a and b.
template <class S, bool Subtract>
struct AddAlpha : ArithmeticRule {
    static constexpr const char* name = Subtract ? "sub" : "add";
    S alpha;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!(Subtract && arith::is_bool_v<T>),
                      "tenet: sub: subtraction with two bool tensors is not supported (as in PyTorch); use "
                      "logical_xor or bitwise_xor");
        if constexpr (arith::is_bool_v<T>) {
            return a || (b && convert<bool>(alpha));
        } else {
            using O = opmath_t<T>;
            const O scaled = convert<O>(convert<T>(alpha)) * static_cast<O>(b);
            if constexpr (Subtract) return static_cast<O>(a) - scaled;
            else return static_cast<O>(a) + scaled;
        }
    }
};
struct Atan2 : FloatingRule {
    static constexpr const char* name = "atan2";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        return std::atan2(static_cast<opmath_t<T>>(a), static_cast<opmath_t<T>>(b));
    }
};
struct Hypot : ArithmeticRule {
    static constexpr const char* name = "hypot";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(FloatingElement<T>, "tenet: hypot is only defined on floating tensors (as in PyTorch)");
        return std::hypot(static_cast<opmath_t<T>>(a), static_cast<opmath_t<T>>(b));
    }
};
/// maximum / minimum: a NaN in either operand gives NaN, as in PyTorch.
struct Maximum : ArithmeticRule {
    static constexpr const char* name = "maximum";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        using O = opmath_t<T>;
        const O x = static_cast<O>(a), y = static_cast<O>(b);
        if constexpr (FloatingElement<T>) {
            if (x != x || y != y) return std::numeric_limits<O>::quiet_NaN();
        }
        return x < y ? y : x;
    }
};
struct Minimum : ArithmeticRule {
    static constexpr const char* name = "minimum";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        using O = opmath_t<T>;
        const O x = static_cast<O>(a), y = static_cast<O>(b);
        if constexpr (FloatingElement<T>) {
            if (x != x || y != y) return std::numeric_limits<O>::quiet_NaN();
        }
        return y < x ? y : x;
    }
};

#define TENET_BITWISE_FUNCTOR(NAME, TORCH_NAME, BOOL_EXPR, INT_EXPR)                                        \
    struct NAME : ArithmeticRule {                                                                          \
        static constexpr const char* name = TORCH_NAME;                                                     \
        template <class T>                                                                                  \
        TENET_HD auto operator()(T a, T b) const {                                                          \
            static_assert(std::is_integral_v<T>,                                                            \
                          "tenet: " TORCH_NAME " is only defined on integer and bool tensors");             \
            if constexpr (arith::is_bool_v<T>) return static_cast<T>(BOOL_EXPR);                           \
            else return static_cast<T>(INT_EXPR);                                                           \
        }                                                                                                   \
    };
TENET_BITWISE_FUNCTOR(BitwiseAnd, "bitwise_and", a && b, a & b)
TENET_BITWISE_FUNCTOR(BitwiseOr, "bitwise_or", a || b, a | b)
TENET_BITWISE_FUNCTOR(BitwiseXor, "bitwise_xor", a != b, a ^ b)
#undef TENET_BITWISE_FUNCTOR

/// Shifts: a shift count outside [0, bits) gives 0 (left) or the sign fill (right),
/// PyTorch's defined behaviour, instead of C++'s undefined one.
struct LeftShift : ArithmeticRule {
    static constexpr const char* name = "bitwise_left_shift";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(std::is_integral_v<T> && !arith::is_bool_v<T>,
                      "tenet: bitwise_left_shift is only defined on integer tensors (not bool, as in PyTorch)");
        constexpr int bits = 8 * sizeof(T);
        if (static_cast<int64_t>(b) < 0 || static_cast<int64_t>(b) >= bits) return T(0);
        using U = arith::wide_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<int>(b)));
    }
};
struct RightShift : ArithmeticRule {
    static constexpr const char* name = "bitwise_right_shift";
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(std::is_integral_v<T> && !arith::is_bool_v<T>,
                      "tenet: bitwise_right_shift is only defined on integer tensors (not bool, as in PyTorch)");
        constexpr int bits = 8 * sizeof(T);
        if (static_cast<int64_t>(b) < 0 || static_cast<int64_t>(b) >= bits) return static_cast<T>(a >> (bits - 1));
        return static_cast<T>(a >> static_cast<int>(b));
    }
};

#define TENET_LOGICAL_FUNCTOR(NAME, TORCH_NAME, OP)              \
    struct NAME : PredicateRule {                                \
        static constexpr const char* name = TORCH_NAME;          \
        template <class T>                                       \
        TENET_HD bool operator()(T a, T b) const {               \
            return convert<bool>(a) OP convert<bool>(b);         \
        }                                                        \
    };
TENET_LOGICAL_FUNCTOR(LogicalAnd, "logical_and", &&)
TENET_LOGICAL_FUNCTOR(LogicalOr, "logical_or", ||)
TENET_LOGICAL_FUNCTOR(LogicalXor, "logical_xor", !=)
#undef TENET_LOGICAL_FUNCTOR

/// lerp(start, end, weight) = start + weight * (end - start), PyTorch's two-sided formula.
struct Lerp {
    static constexpr const char* name = "lerp";
    /// PyTorch has no name inference for lerp (expr/named_refusals.hpp).
    template <class A, class B, class W>
    static constexpr const char* named_refusal = W::is_scalar ? "aten::lerp.Scalar" : "aten::lerp.Tensor";
    template <class A, class B, class W>
    using common_t = std::conditional_t<W::is_scalar,
                                        promote_scalar_t<promote_t<typename A::value_type, typename B::value_type>,
                                                         typename W::value_type>,
                                        promote_t<promote_t<typename A::value_type, typename B::value_type>,
                                                  typename W::value_type>>;
    template <class C>
    using result_t = C;
    template <class C, class VA, class VB, class VW>
    TENET_HD C apply(VA a, VB b, VW w) const {
        static_assert(FloatingElement<C>, "tenet: lerp is only defined on floating tensors (as in PyTorch)");
        using O = opmath_t<C>;
        const O s = convert<O>(convert<C>(a)), e = convert<O>(convert<C>(b)), wt = convert<O>(convert<C>(w));
        return convert<C>(std::abs(wt) < O(0.5) ? s + wt * (e - s) : e - (e - s) * (O(1) - wt));
    }
};

/// where(cond, a, b): a where cond, else b, in the promoted type of a and b.
struct Where {
    static constexpr const char* name = "where";
    template <class Cond, class A, class B>
    using common_t = std::conditional_t<
        A::is_scalar && B::is_scalar,
        promote_t<default_element_t<typename A::value_type>, default_element_t<typename B::value_type>>,
        expr::common_t<A, B>>;
    template <class C>
    using result_t = C;
    template <class C, class VC, class VA, class VB>
    TENET_HD C apply(VC cond, VA a, VB b) const {
        static_assert(std::is_same_v<VC, bool>,
                      "tenet: where expected condition to be a boolean tensor (as in PyTorch)");
        return cond ? convert<C>(a) : convert<C>(b);
    }
    /// PyTorch has no name inference for where (expr/named_refusals.hpp).
    template <class...>
    static constexpr const char* named_refusal = "aten::where.self";
};
/// where inside tenet's compositions of ops that PyTorch names (masked_fill, threshold,
/// kl_div): the same, never refused on named operands.
struct ComposedWhere : Where {
    template <class...>
    static constexpr const char* named_refusal = nullptr;
};

}  // namespace fn

// =====================================================================================
// Building the nodes
// =====================================================================================
namespace detail {

template <class X>
struct is_leaf : std::false_type {};
template <class T, class S>
struct is_leaf<expr::Leaf<T, S>> : std::true_type {};

/// Throws "<op>: ZeroDivisionError" if `t`, converted to C, has a zero element.
template <class C, class U>
void check_no_zero_divisor(const Tensor<U>& t, const char* op) {
    if (!t.device().is_cpu() || t.numel() == 0) return;  // the evaluation reports the device
    const U* base = static_cast<const U*>(t.impl().storage->data());
    bool zero = false;
    if (t.is_contiguous()) {
        const U* p = t.data_ptr();
        for (int64_t i = 0, n = t.numel(); i < n; ++i) zero |= convert<C>(p[i]) == C(0);
    } else {
        for_each_offset<1>(t.sizes(), {t.strides()}, {t.storage_offset()},
                           [&](const std::array<int64_t, 1>& o) { zero |= convert<C>(base[o[0]]) == C(0); });
    }
    if (zero) fail<value_error>(op, ": ZeroDivisionError");
}

/// A division-like node whose integer divisor has been checked for zeros (see the file
/// comment); floating divisions are built as they are.
template <class Op, class A, class B>
auto make_checked_division(A&& a, B&& b, Op op) {
    using NB = expr::node_t<B>;
    using C = typename expr::Binary<Op, expr::node_t<A>, NB>::compute_type;
    if constexpr (!std::is_integral_v<C>) {
        return expr::make_binary<Op>(std::forward<A>(a), std::forward<B>(b), op);
    } else if constexpr (NB::is_scalar) {
        if (convert<C>(b) == C(0)) fail<value_error>(Op::name, ": ZeroDivisionError");
        return expr::make_binary<Op>(std::forward<A>(a), std::forward<B>(b), op);
    } else if constexpr (is_leaf<NB>::value && !TensorExpression<std::remove_cvref_t<B>>) {
        check_no_zero_divisor<C>(b, Op::name);
        return expr::make_binary<Op>(std::forward<A>(a), std::forward<B>(b), op);
    } else {
        // A compound divisor: evaluate it once, check it, and divide by the result.
        Tensor<typename NB::value_type> divisor = expr::as_node(std::forward<B>(b));
        check_no_zero_divisor<C>(divisor, Op::name);
        return expr::make_binary<Op>(std::forward<A>(a), std::move(divisor), op);
    }
}

/// PyTorch's can_cast for in-place results: no floating -> integer/bool, no integer -> bool.
template <class Result, class Dest>
constexpr void check_inplace_cast() {
#define TENET_CAST_CHECK(R, RN, D, DN)                                                \
    static_assert(!(std::is_same_v<Result, R> && std::is_same_v<Dest, D>),           \
                  "tenet: result type " RN " can't be cast to the desired output type " DN);
#define TENET_CAST_CHECK_TO(D, DN)                   \
    TENET_CAST_CHECK(Half, "float16", D, DN)         \
    TENET_CAST_CHECK(BFloat16, "bfloat16", D, DN)    \
    TENET_CAST_CHECK(float, "float32", D, DN)        \
    TENET_CAST_CHECK(double, "float64", D, DN)
    TENET_CAST_CHECK_TO(bool, "bool")
    TENET_CAST_CHECK_TO(uint8_t, "uint8")
    TENET_CAST_CHECK_TO(int8_t, "int8")
    TENET_CAST_CHECK_TO(int16_t, "int16")
    TENET_CAST_CHECK_TO(int32_t, "int32")
    TENET_CAST_CHECK_TO(int64_t, "int64")
    TENET_CAST_CHECK(uint8_t, "uint8", bool, "bool")
    TENET_CAST_CHECK(int8_t, "int8", bool, "bool")
    TENET_CAST_CHECK(int16_t, "int16", bool, "bool")
    TENET_CAST_CHECK(int32_t, "int32", bool, "bool")
    TENET_CAST_CHECK(int64_t, "int64", bool, "bool")
    static_assert(!is_complex_v<Result> || is_complex_v<Dest>,
                  "tenet: in-place op: a complex result can't be cast to a real tensor's element type (PyTorch: "
                  "\"result type ComplexFloat can't be cast to the desired output type Float\")");
#undef TENET_CAST_CHECK_TO
#undef TENET_CAST_CHECK
}

/// Evaluates `e` (= self op other) into self in one pass; `op` names the in-place op.
template <class T, class E>
Tensor<T>& assign_in_place(Tensor<T>& self, const E& e, const char* op) {
    check_inplace_cast<typename E::value_type, T>();
    if (e.shape() != self.sizes())
        fail<shape_error>(op, ": output with shape ", self.sizes(), " doesn't match the broadcast shape ", e.shape());
    evaluate_into(self, e, AssignMode::Into);
    return self;
}

inline bool parse_rounding_mode(std::string_view mode) {
    if (mode == "floor") return true;
    if (mode != "trunc")
        fail<value_error>("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", mode, "'");
    return false;
}

}  // namespace detail

// =====================================================================================
// Free functions and operators
// =====================================================================================

/// pow(tensor, tensor), pow(tensor, scalar), pow(scalar, tensor). Integer powers are
/// exact (repeated squaring, wrapping); an integer tensor to a negative integer scalar
/// power throws, as PyTorch does.
template <class A, class B>
    requires BinaryOperands<A, B>
auto pow(A&& a, B&& b) {
    using N = expr::Binary<fn::Pow, expr::node_t<A>, expr::node_t<B>>;
    static_assert(!std::is_same_v<typename N::common_type, bool>,
                  "tenet: pow is not defined on bool tensors (as in PyTorch)");
    using RB = std::remove_cvref_t<B>;
    if constexpr (Scalar<RB> && std::is_integral_v<typename N::compute_type> && std::is_signed_v<RB>)
        if (b < 0) detail::fail<value_error>("pow: Integers to negative integer powers are not allowed.");
    return expr::make_binary<fn::Pow>(std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B>
    requires BinaryOperands<A, B>
auto float_power(A&& a, B&& b) {  // PyTorch's float_power: always in float64
    return pow(cast<double>(std::forward<A>(a)), cast<double>(std::forward<B>(b)));
}

/// add(a, b, alpha) = a + alpha * b; an integral result refuses a floating alpha.
template <class A, class B, Scalar S>
    requires BinaryOperands<A, B>
auto add(A&& a, B&& b, S alpha) {
    using N = expr::Binary<fn::Add, expr::node_t<A>, expr::node_t<B>>;
    static_assert(FloatingElement<typename N::common_type> || !FloatingElement<default_element_t<S>>,
                  "tenet: add: for integral input tensors, argument alpha must not be a floating point number");
    return expr::make_binary<fn::AddAlpha<S, false>>(std::forward<A>(a), std::forward<B>(b),
                                                     fn::AddAlpha<S, false>{{}, alpha});
}
/// sub(a, b, alpha) = a - alpha * b.
template <class A, class B, Scalar S>
    requires BinaryOperands<A, B>
auto sub(A&& a, B&& b, S alpha) {
    using N = expr::Binary<fn::Sub, expr::node_t<A>, expr::node_t<B>>;
    static_assert(FloatingElement<typename N::common_type> || !FloatingElement<default_element_t<S>>,
                  "tenet: sub: for integral input tensors, argument alpha must not be a floating point number");
    return expr::make_binary<fn::AddAlpha<S, true>>(std::forward<A>(a), std::forward<B>(b),
                                                    fn::AddAlpha<S, true>{{}, alpha});
}

/// div(a, b, "trunc" | "floor"): rounded division in the promoted type (ints stay ints).
/// True division is div(a, b).
template <class A, class B>
    requires BinaryOperands<A, B>
auto div(A&& a, B&& b, std::string_view rounding_mode) {
    fn::DivRounding op;
    op.floor = detail::parse_rounding_mode(rounding_mode);
    return detail::make_checked_division<fn::DivRounding>(std::forward<A>(a), std::forward<B>(b), op);
}

/// lerp(start, end, weight): start + weight * (end - start); floating tensors only.
template <expr::TensorOperand A, expr::TensorOperand B, expr::Operand W>
auto lerp(A&& start, B&& end, W&& weight) {
    return expr::make_ternary<fn::Lerp>(std::forward<A>(start), std::forward<B>(end), std::forward<W>(weight));
}

/// where(condition, a, b): a where condition (a bool tensor) holds, else b.
template <expr::TensorOperand C, expr::Operand A, expr::Operand B>
auto where(C&& condition, A&& a, B&& b) {
    static_assert(std::is_same_v<typename expr::node_t<C>::value_type, bool>,
                  "tenet: where expected condition to be a boolean tensor (as in PyTorch)");
    return expr::make_ternary<fn::Where>(std::forward<C>(condition), std::forward<A>(a), std::forward<B>(b));
}

namespace detail {
/// where() for tenet's own ops that PyTorch names (fn::ComposedWhere): names flow through it.
template <expr::TensorOperand C, expr::Operand A, expr::Operand B>
auto composed_where(C&& condition, A&& a, B&& b) {
    return expr::make_ternary<fn::ComposedWhere>(std::forward<C>(condition), std::forward<A>(a), std::forward<B>(b));
}
}  // namespace detail

// =====================================================================================
// Methods of Tensor and of expressions (declared in core/value_methods.hpp)
// =====================================================================================

#define TENET_DEFINE_BINARY_METHOD(NAME)                 \
    template <class D>                                   \
    template <class X>                                   \
    auto ValueMethods<D>::NAME(const X& other) const {   \
        return tenet::NAME(this->self(), other);         \
    }
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) TENET_DEFINE_BINARY_METHOD(NAME)
#define TENET_BINARY_ALIAS(ALIAS, NAME, INPLACE) TENET_DEFINE_BINARY_METHOD(ALIAS)
#include "tenet/expr/binary_ops.def"
#undef TENET_DEFINE_BINARY_METHOD

template <class D>
template <class X, class S>
auto ValueMethods<D>::add(const X& other, S alpha) const {
    return tenet::add(self(), other, alpha);
}
template <class D>
template <class X, class S>
auto ValueMethods<D>::sub(const X& other, S alpha) const {
    return tenet::sub(self(), other, alpha);
}
template <class D>
template <class X>
auto ValueMethods<D>::div(const X& other, std::string_view rounding_mode) const {
    return tenet::div(self(), other, rounding_mode);
}
template <class D>
template <class X, class W>
auto ValueMethods<D>::lerp(const X& end, const W& weight) const {
    return tenet::lerp(self(), end, weight);
}
template <class D>
template <class C, class X>
auto ValueMethods<D>::where(const C& condition, const X& other) const {
    return tenet::where(condition, self(), other);
}

// ---- In-place forms: one pass of `*this op other` into *this ------------------------

#define TENET_DEFINE_INPLACE_METHOD(METHOD, FUNCTION, OP_NAME)                         \
    template <class T>                                                                 \
    template <class X>                                                                 \
    Tensor<T>& Tensor<T>::METHOD(const X& other) {                                     \
        return detail::assign_in_place(*this, tenet::FUNCTION(*this, other), OP_NAME); \
    }
#define TENET_INPLACE_inplace(NAME, FUNCTION) TENET_DEFINE_INPLACE_METHOD(NAME##_, FUNCTION, #NAME "_")
#define TENET_INPLACE_no_inplace(NAME, FUNCTION)
#define TENET_COMPOUND_compound(SYMBOL, NAME) TENET_DEFINE_INPLACE_METHOD(operator SYMBOL##=, NAME, #NAME "_")
#define TENET_COMPOUND_no_compound(SYMBOL, NAME)
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) TENET_INPLACE_##INPLACE(NAME, NAME)
#define TENET_BINARY_ALIAS(ALIAS, NAME, INPLACE) TENET_INPLACE_##INPLACE(ALIAS, NAME)
#define TENET_BINARY_OPERATOR(SYMBOL, NAME, COMPOUND) TENET_COMPOUND_##COMPOUND(SYMBOL, NAME)
#include "tenet/expr/binary_ops.def"
#undef TENET_INPLACE_inplace
#undef TENET_INPLACE_no_inplace
#undef TENET_COMPOUND_compound
#undef TENET_COMPOUND_no_compound
#undef TENET_DEFINE_INPLACE_METHOD

template <class T>
template <class X, class S>
Tensor<T>& Tensor<T>::add_(const X& other, S alpha) {
    return detail::assign_in_place(*this, tenet::add(*this, other, alpha), "add_");
}
template <class T>
template <class X, class S>
Tensor<T>& Tensor<T>::sub_(const X& other, S alpha) {
    return detail::assign_in_place(*this, tenet::sub(*this, other, alpha), "sub_");
}
template <class T>
template <class X>
Tensor<T>& Tensor<T>::div_(const X& other, std::string_view rounding_mode) {
    return detail::assign_in_place(*this, tenet::div(*this, other, rounding_mode), "div_");
}
template <class T>
template <class X, class W>
Tensor<T>& Tensor<T>::lerp_(const X& end, const W& weight) {
    return detail::assign_in_place(*this, tenet::lerp(*this, end, weight), "lerp_");
}

}  // namespace tenet
