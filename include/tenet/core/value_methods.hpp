#pragma once
// ValueMethods<Derived>: the lazy methods that Tensor and every expression share, declared
// once (a CRTP base, as Eigen's TensorBase). `t.sin()`, `(a * b).sin()`, `x.add(y)`,
// `(x - y).sum(1)` are the free functions tenet::sin(t), ...: element-wise methods return
// expressions (nothing is computed until assignment), reductions return tensors.
//
// Declared here, defined beside the free functions they call:
//   element-wise math   expr/math.hpp (the argument-free ops: the table expr/unary_ops.def)
//   binary arithmetic   expr/binary_ops.hpp
//   reductions          ops/reduce.hpp (the table ops/reductions.def)
//   softmax, scans      ops/softmax.hpp, ops/scan.hpp
//   sorting, counting   ops/forwarded_methods.hpp (the free functions of ops/sort.hpp, ...)
// In-place forms (t.sin_(), t.add_(x)) write into a tensor, so they are Tensor's own.

#include "tenet/config.hpp"
#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tenet/core/dimname.hpp"
#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {
/// A dim given as a lone integer (not a bool, which is var's and std's `unbiased`).
template <class I>
concept DimIndex = std::integral<I> && !std::same_as<I, bool>;
}  // namespace detail

/// The methods that call the free function of their name on the evaluated value (with the
/// arguments given): X(NAME) for each.
#define TENET_FORWARDED_METHODS(X)                                                                    \
    X(sort) X(argsort) X(msort) X(topk) X(kthvalue) X(median) X(nanmedian) X(mode) X(quantile)        \
    X(nanquantile) X(aminmax) X(cummax) X(cummin) X(logcumsumexp) X(diff) X(unique)                   \
    X(unique_consecutive) X(bincount) X(histc) X(histogram)                                        \
    X(index_select) X(gather) X(take_along_dim) X(take) X(scatter) X(scatter_add) X(scatter_reduce) X(index_add) X(index_copy) X(index_fill) X(index_reduce) \
    X(masked_fill) X(masked_select) X(masked_scatter) X(nonzero) X(argwhere) X(count_nonzero) X(roll) X(repeat) X(tile) X(repeat_interleave) X(movedim) X(moveaxis) X(swapaxes) X(swapdims) X(ravel) X(diagonal) X(diag_embed) X(rot90)

/// The methods of that list whose first arguments may be braced lists of sizes or dims.
#define TENET_FORWARDED_LIST_METHODS(X) X(roll) X(repeat) X(tile) X(movedim) X(moveaxis)

template <class Derived>
class ValueMethods {
public:
    // ---- Element-wise math: expr/math.hpp -------------------------------------------------
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE) auto NAME() const;
#define TENET_PREDICATE_OP(NAME, Functor) auto NAME() const;
#include "tenet/expr/unary_ops.def"
    /// gelu(approximate = "none" | "tanh"), softplus(beta, threshold) as torch.nn.functional.
    auto gelu(const char* approximate = "none") const;
    auto softplus(double beta = 1.0, double threshold = 20.0) const;
    /// nan -> nan, +inf -> posinf, -inf -> neginf (defaults: the type's max and lowest).
    auto nan_to_num(double nan = 0.0, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
    /// clamp(min, max): at least one bound must be given (throws value_error otherwise).
    /// Bounds are numbers, std::optional numbers or std::nullopt; a floating bound makes an
    /// integer or bool tensor's result float32, as in torch.clamp (so clamp_ refuses it).
    template <class Lo, class Hi = std::nullopt_t>
    auto clamp(const Lo& min, const Hi& max = std::nullopt) const;
    template <class B>
    auto clamp_min(const B& min) const;
    template <class B>
    auto clamp_max(const B& max) const;
    /// The conjugate, lazily (expr/complex.hpp); conj_physical the same (tenet has no conj bit).
    auto conj() const;
    auto conj_physical() const;

    // ---- Binary arithmetic: expr/binary_ops.hpp ------------------------------------------
    // `a.add(b)` is the lazy tenet::add(a, b): b is a tensor, an expression or a number.
#define TENET_BINARY_METHOD(NAME) \
    template <class X>            \
    auto NAME(const X& other) const;
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) TENET_BINARY_METHOD(NAME)
#define TENET_BINARY_ALIAS(ALIAS, NAME, INPLACE) TENET_BINARY_METHOD(ALIAS)
#include "tenet/expr/binary_ops.def"
#undef TENET_BINARY_METHOD
    template <class X, class S>
    auto add(const X& other, S alpha) const;
    template <class X, class S>
    auto sub(const X& other, S alpha) const;
    template <class X>
    auto div(const X& other, std::string_view rounding_mode) const;
    template <class X, class W>
    auto lerp(const X& end, const W& weight) const;
    template <class C, class X>
    auto where(const C& condition, const X& other) const;

    // ---- Reductions: ops/reduce.hpp --------------------------------------------------------
    // Over all elements (a 0-d result), along one dim, or along a list of dims (negative
    // counts from the end; keepdim keeps them as size 1).
    // The table's reductions (ops/reductions.def): sum, mean, prod, amax, amin, any, all,
    // nansum, nanmean, logsumexp; var and std with `unbiased` or `correction`.
#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS) \
    auto NAME() const;                                                                 \
    auto NAME(int64_t dim, bool keepdim = false) const;                                \
    auto NAME(const IntArray& dims, bool keepdim = false) const;
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD)                   \
    auto NAME(bool unbiased = true) const;                                             \
    template <detail::DimIndex I>                                                      \
    auto NAME(I dim, int64_t correction = 1, bool keepdim = false) const;              \
    auto NAME(const IntArray& dims, int64_t correction = 1, bool keepdim = false) const; \
    auto NAME(std::nullopt_t, int64_t correction, bool keepdim = false) const;
#include "tenet/ops/reductions.def"
    /// max()/min(): the extreme element; max(dim)/min(dim): {values, indices}.
    auto max() const;
    auto max(int64_t dim, bool keepdim = false) const;
    auto min() const;
    auto min(int64_t dim, bool keepdim = false) const;
    auto argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
    auto argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
    /// softmax, log_softmax (ops/softmax.hpp) and the scans cumsum, cumprod (ops/scan.hpp) along dim.
    auto softmax(int64_t dim) const;
    auto log_softmax(int64_t dim) const;
    auto cumsum(int64_t dim) const;
    auto cumprod(int64_t dim) const;
    // ---- By name (named tensors: core/named.hpp): the dim called `dim` (index_error if none).
    // PyTorch's named forms; its other reductions (amax, all, nansum, ...) take int dims only.
    auto sum(const Dimname& dim, bool keepdim = false) const;
    auto sum(const DimnameList& dims, bool keepdim = false) const;
    auto mean(const Dimname& dim, bool keepdim = false) const;
    auto mean(const DimnameList& dims, bool keepdim = false) const;
    auto prod(const Dimname& dim, bool keepdim = false) const;
    auto logsumexp(const Dimname& dim, bool keepdim = false) const;
    auto logsumexp(const DimnameList& dims, bool keepdim = false) const;
    /// std and var by name (a const char* overload too, which a literal would otherwise take as `unbiased`).
    auto std(const Dimname& dim, int64_t correction = 1, bool keepdim = false) const;
    auto std(const char* dim, int64_t correction = 1, bool keepdim = false) const;
    auto std(const DimnameList& dims, int64_t correction = 1, bool keepdim = false) const;
    auto var(const Dimname& dim, int64_t correction = 1, bool keepdim = false) const;
    auto var(const char* dim, int64_t correction = 1, bool keepdim = false) const;
    auto var(const DimnameList& dims, int64_t correction = 1, bool keepdim = false) const;
    auto max(const Dimname& dim, bool keepdim = false) const;
    auto min(const Dimname& dim, bool keepdim = false) const;
    auto softmax(const Dimname& dim) const;
    auto log_softmax(const Dimname& dim) const;
    auto cumsum(const Dimname& dim) const;
    auto cumprod(const Dimname& dim) const;
    /// Sorting, order statistics, scans and counting: `x.sort(1, true)` is tenet::sort(x, 1, true)
    /// (an expression is evaluated first), with the free function's arguments and defaults.
    /// The list is TENET_FORWARDED_METHODS; their definitions are in ops/forwarded_methods.hpp.
#define TENET_FORWARDED_METHOD(NAME) \
    template <class... Args>         \
    auto NAME(const Args&... args) const;
    TENET_FORWARDED_METHODS(TENET_FORWARDED_METHOD)
#undef TENET_FORWARDED_METHOD
    /// The methods of TENET_FORWARDED_LIST_METHODS also take braced lists of sizes or dims
    /// (`x.repeat({1, 2})`, `x.roll({1, 2}, {0, 1})`): C++ deduces no template argument from one.
#define TENET_FORWARDED_LIST_METHOD(NAME) \
    auto NAME(const IntArray& list) const; \
    auto NAME(const IntArray& list, const IntArray& list2) const;
    TENET_FORWARDED_LIST_METHODS(TENET_FORWARDED_LIST_METHOD)
#undef TENET_FORWARDED_LIST_METHOD
    /// torch.norm: p = 2 (default), 1, 0, +-inf or any p.
    auto norm(double p = 2) const;
    auto norm(double p, int64_t dim, bool keepdim = false) const;
    auto norm(double p, const IntArray& dims, bool keepdim = false) const;

protected:
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace tenet
