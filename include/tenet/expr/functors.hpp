#pragma once
// Element-wise operation functors. Each says what it computes on one element and,
// through two type rules, in which type:
//   compute_t<C>  the type the operands are converted to (C is the promoted common type)
//   result_t<C>   the element type of the result
// and carries its PyTorch name for error messages. Functors are empty or hold a few
// parameters by value, so nodes stay small and copyable to a device.

#include "tenet/config.hpp"
#include <cmath>
#include <type_traits>

#include "tenet/core/host_device.hpp"
#include "tenet/core/dtype.hpp"

namespace tenet::inline TENET_ABI::fn {

/// float for 16-bit floats (they compute in float, as on PyTorch's CPU), else T itself.
template <class T>
using opmath_t = std::conditional_t<is_reduced_float<T>::value, float, T>;

/// The floating type an operation on C produces: C itself if floating or complex, else float32.
template <class C>
using floating_t = std::conditional_t<FloatingElement<C> || is_complex_v<C>, C, float>;

/// Whether a functor computes on complex operands: it says so with `complex_ok = true`. The
/// nodes (expr/node.hpp) refuse every other functor on complex at compile time, so an op that
/// PyTorch refuses on complex (floor, clamp, relu, <, max, ...) never runs on one by accident.
/// (math.hpp also marks the table's complex functions by specialising complex_support.)
template <class Op>
struct complex_support : std::bool_constant<requires { requires Op::complex_ok; }> {};
template <class Op>
inline constexpr bool accepts_complex = complex_support<Op>::value;

/// Arithmetic: computes and returns the promoted type.
struct ArithmeticRule {
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = C;
};
/// Floating functions: integer and bool inputs give float32 (sin(int64) is float32).
struct FloatingRule {
    template <class C>
    using compute_t = floating_t<C>;
    template <class C>
    using result_t = floating_t<C>;
};
/// Comparisons and logical ops: compare in the promoted type, return bool.
struct PredicateRule {
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = bool;
};

struct Add : ArithmeticRule {
    static constexpr const char* name = "add";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        if constexpr (std::is_same_v<T, bool>) return a || b;  // bool + bool is logical or in PyTorch
        else return static_cast<opmath_t<T>>(a) + static_cast<opmath_t<T>>(b);
    }
};
struct Sub : ArithmeticRule {
    static constexpr const char* name = "sub";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        static_assert(!std::is_same_v<T, bool>,
                      "tenet: sub: subtraction with two bool tensors is not supported (as in PyTorch); use "
                      "logical_xor or bitwise_xor");
        return static_cast<opmath_t<T>>(a) - static_cast<opmath_t<T>>(b);
    }
};
struct Mul : ArithmeticRule {
    static constexpr const char* name = "mul";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        if constexpr (std::is_same_v<T, bool>) return a && b;
        else return static_cast<opmath_t<T>>(a) * static_cast<opmath_t<T>>(b);
    }
};
/// True division: integer inputs give float32, as torch.div does.
struct Div : FloatingRule {
    static constexpr const char* name = "div";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a, T b) const {
        return static_cast<opmath_t<T>>(a) / static_cast<opmath_t<T>>(b);
    }
};
struct Neg : ArithmeticRule {
    static constexpr const char* name = "neg";
    static constexpr bool complex_ok = true;
    template <class T>
    TENET_HD auto operator()(T a) const {
        static_assert(!std::is_same_v<T, bool>,
                      "tenet: neg: negation of a bool tensor is not supported (as in PyTorch); use logical_not");
        return -static_cast<opmath_t<T>>(a);
    }
};

#define TENET_COMPARISON(NAME, TORCH_NAME, OP, COMPLEX)                   \
    struct NAME : PredicateRule {                                         \
        static constexpr const char* name = TORCH_NAME;                   \
        static constexpr bool complex_ok = COMPLEX;                       \
        template <class T>                                                \
        TENET_HD bool operator()(T a, T b) const {                        \
            return static_cast<opmath_t<T>>(a) OP static_cast<opmath_t<T>>(b); \
        }                                                                 \
    };
TENET_COMPARISON(Eq, "eq", ==, true)
TENET_COMPARISON(Ne, "ne", !=, true)
TENET_COMPARISON(Lt, "lt", <, false)
TENET_COMPARISON(Le, "le", <=, false)
TENET_COMPARISON(Gt, "gt", >, false)
TENET_COMPARISON(Ge, "ge", >=, false)
#undef TENET_COMPARISON

/// Conversion to U (the node for cast<U>(expr)).
template <class U>
struct CastTo {
    static constexpr const char* name = "to";
    static constexpr bool complex_ok = true;
    template <class C>
    using compute_t = C;
    template <class C>
    using result_t = U;
    template <class T>
    TENET_HD T operator()(T a) const {
        return a;
    }
};

}  // namespace tenet::fn
