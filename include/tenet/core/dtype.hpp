#pragma once
// Element types. A tensor's element type is part of its C++ type (`Tensor<float>`);
// `DType` is the run-time name of it, for printing, I/O and interop. The dtype
// constants (`kFloat32`, `kInt64`, ...) are tag objects: they convert to `DType` and
// also carry the C++ type, so `t.to(kFloat64)` is statically typed `Tensor<double>`.

#include "tenet/config.hpp"
#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>

#include "tenet/core/complex.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/half.hpp"

namespace tenet::inline TENET_ABI {

/// Run-time element type, in PyTorch's order.
/// (The complex types come last, after the real ones, so that the real ones keep their values.)
enum class ScalarType : int8_t {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    ComplexFloat,
    ComplexDouble
};

/// The element types a tensor may hold.
template <class T>
concept Element = std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
                  std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                  std::is_same_v<T, Half> || std::is_same_v<T, BFloat16> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double> || std::is_same_v<T, complex<float>> || std::is_same_v<T, complex<double>>;

/// Complex element types (complex64, complex128).
template <class T>
concept ComplexElement = Element<T> && is_complex_v<T>;

template <class T>
struct is_reduced_float : std::bool_constant<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>> {};

/// Floating element types, including the 16-bit ones.
template <class T>
concept FloatingElement = Element<T> && (std::is_floating_point_v<T> || is_reduced_float<T>::value);

/// Integral element types, bool excluded.
template <class T>
concept IntegralElement = Element<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

namespace detail {
template <class T>
constexpr ScalarType scalar_type_of() {
    if constexpr (std::is_same_v<T, bool>) return ScalarType::Bool;
    else if constexpr (std::is_same_v<T, uint8_t>) return ScalarType::UInt8;
    else if constexpr (std::is_same_v<T, int8_t>) return ScalarType::Int8;
    else if constexpr (std::is_same_v<T, int16_t>) return ScalarType::Int16;
    else if constexpr (std::is_same_v<T, int32_t>) return ScalarType::Int32;
    else if constexpr (std::is_same_v<T, int64_t>) return ScalarType::Int64;
    else if constexpr (std::is_same_v<T, Half>) return ScalarType::Float16;
    else if constexpr (std::is_same_v<T, BFloat16>) return ScalarType::BFloat16;
    else if constexpr (std::is_same_v<T, float>) return ScalarType::Float32;
    else if constexpr (std::is_same_v<T, double>) return ScalarType::Float64;
    else if constexpr (std::is_same_v<T, complex<float>>) return ScalarType::ComplexFloat;
    else return ScalarType::ComplexDouble;
}
}  // namespace detail

/// A run-time element type. Prints as PyTorch does, with tenet's prefix: `tenet.float32`.
class DType {
public:
    constexpr DType(ScalarType s) noexcept : type_(s) {}  // NOLINT: implicit on purpose, like c10
    constexpr ScalarType scalar_type() const { return type_; }

    // Switches, not local arrays: GCC builds a local constexpr array on the stack at every call,
    // and every tensor's creation asks for its item size.
    /// PyTorch's name without the module prefix: "float32", "int64", "bool", ...
    constexpr std::string_view name() const {
        switch (type_) {
            case ScalarType::Bool: return "bool";
            case ScalarType::UInt8: return "uint8";
            case ScalarType::Int8: return "int8";
            case ScalarType::Int16: return "int16";
            case ScalarType::Int32: return "int32";
            case ScalarType::Int64: return "int64";
            case ScalarType::Float16: return "float16";
            case ScalarType::BFloat16: return "bfloat16";
            case ScalarType::Float32: return "float32";
            case ScalarType::Float64: return "float64";
            case ScalarType::ComplexFloat: return "complex64";
            case ScalarType::ComplexDouble: return "complex128";
        }
        return "?";
    }
    constexpr int64_t itemsize() const {
        switch (type_) {
            case ScalarType::Bool:
            case ScalarType::UInt8:
            case ScalarType::Int8: return 1;
            case ScalarType::Int16:
            case ScalarType::Float16:
            case ScalarType::BFloat16: return 2;
            case ScalarType::Int32:
            case ScalarType::Float32: return 4;
            case ScalarType::Int64:
            case ScalarType::Float64:
            case ScalarType::ComplexFloat: return 8;
            case ScalarType::ComplexDouble: return 16;
        }
        return 0;
    }
    /// Float16 to Float64: complex types are not floating point (as PyTorch's is_floating_point).
    constexpr bool is_floating_point() const { return type_ >= ScalarType::Float16 && type_ <= ScalarType::Float64; }
    constexpr bool is_complex() const { return type_ >= ScalarType::ComplexFloat; }
    constexpr bool is_signed() const { return type_ != ScalarType::Bool && type_ != ScalarType::UInt8; }

    friend constexpr bool operator==(DType a, DType b) { return a.type_ == b.type_; }
    friend std::ostream& operator<<(std::ostream& os, DType d) { return os << "tenet." << d.name(); }

private:
    ScalarType type_;
};

/// The DType of a C++ element type.
template <Element T>
inline constexpr DType dtype_of = DType(detail::scalar_type_of<T>());

/// A dtype constant that also carries its C++ type (see the file comment).
template <Element T>
struct dtype_t {
    using type = T;
    constexpr operator DType() const { return dtype_of<T>; }  // NOLINT: implicit on purpose
    friend constexpr bool operator==(dtype_t, DType d) { return dtype_of<T> == d; }
    friend std::ostream& operator<<(std::ostream& os, dtype_t) { return os << dtype_of<T>; }
};

inline constexpr dtype_t<bool> kBool{};
inline constexpr dtype_t<uint8_t> kUInt8{};
inline constexpr dtype_t<int8_t> kInt8{};
inline constexpr dtype_t<int16_t> kInt16{};
inline constexpr dtype_t<int32_t> kInt32{};
inline constexpr dtype_t<int64_t> kInt64{};
inline constexpr dtype_t<Half> kFloat16{};
inline constexpr dtype_t<BFloat16> kBFloat16{};
inline constexpr dtype_t<float> kFloat32{};
inline constexpr dtype_t<double> kFloat64{};
inline constexpr dtype_t<complex<float>> kComplex64{};
inline constexpr dtype_t<complex<double>> kComplex128{};
// LibTorch's alternative spellings.
inline constexpr dtype_t<uint8_t> kByte{};
inline constexpr dtype_t<int8_t> kChar{};
inline constexpr dtype_t<int16_t> kShort{};
inline constexpr dtype_t<int32_t> kInt{};
inline constexpr dtype_t<int64_t> kLong{};
inline constexpr dtype_t<Half> kHalf{};
inline constexpr dtype_t<float> kFloat{};
inline constexpr dtype_t<double> kDouble{};
inline constexpr dtype_t<complex<float>> kComplexFloat{};
inline constexpr dtype_t<complex<double>> kComplexDouble{};

/// PyTorch's default floating dtype. Fixed at float32: element types are static in tenet.
inline constexpr DType get_default_dtype() { return kFloat32; }

/// The element type a C++ literal gets when tenet infers it, as PyTorch infers it from
/// Python values: bool -> bool, any integer -> int64, any floating value -> float32, any
/// complex value -> complex64.
template <class V>
using default_element_t = std::conditional_t<
    std::is_same_v<V, bool>, bool,
    std::conditional_t<std::is_integral_v<V>, int64_t,
                       std::conditional_t<is_reduced_float<V>::value, V,
                                          std::conditional_t<is_complex_v<V>, complex<float>, float>>>>;

/// Calls `f(dtype_t<T>{})` for the C++ type named by a run-time DType: the real dtypes only, so
/// that its many callers (I/O, interop, distributed) never instantiate complex code; a complex
/// DType is a dtype_error naming `op`. Complex-aware call sites use visit_dtype_with_complex.
template <class F>
decltype(auto) visit_dtype(DType d, F&& f, const char* op = "visit_dtype");
/// As visit_dtype, complex64 and complex128 included.
template <class F>
decltype(auto) visit_dtype_with_complex(DType d, F&& f) {
    if (d.scalar_type() == ScalarType::ComplexFloat) return f(kComplex64);
    if (d.scalar_type() == ScalarType::ComplexDouble) return f(kComplex128);
    return visit_dtype(d, std::forward<F>(f));
}

namespace detail {
[[noreturn]] inline void fail_complex_dtype(DType d, const char* op) {
    fail<dtype_error>(op, ": complex dtypes are not supported here yet (got ", d, ")");
}
}  // namespace detail

template <class F>
decltype(auto) visit_dtype(DType d, F&& f, const char* op) {
    switch (d.scalar_type()) {
        case ScalarType::Bool: return f(kBool);
        case ScalarType::UInt8: return f(kUInt8);
        case ScalarType::Int8: return f(kInt8);
        case ScalarType::Int16: return f(kInt16);
        case ScalarType::Int32: return f(kInt32);
        case ScalarType::Int64: return f(kInt64);
        case ScalarType::Float16: return f(kFloat16);
        case ScalarType::BFloat16: return f(kBFloat16);
        case ScalarType::Float32: return f(kFloat32);
        case ScalarType::Float64: return f(kFloat64);
        case ScalarType::ComplexFloat:
        case ScalarType::ComplexDouble: detail::fail_complex_dtype(d, op);
    }
    return f(kFloat32);  // unreachable: every ScalarType is handled above
}

}  // namespace tenet
