#pragma once
// The compile-time einsum: `einsum<"ij,jk->ik">(a, b)`. The equation is a template argument
// (a structural fixed_string), parsed at compile time by the same parser as the run-time form
// (linalg/einsum.hpp): a malformed equation or a wrong number of operands does not compile.
// Operands with static shapes (StaticTensor<T, Shape<...>>) are checked too — rank against
// subscripts, equal sizes for equal subscripts — and when every operand's shape is static the
// result is a StaticTensor of the deduced shape. The errors are static_asserts inside
// static_einsum<equation, shapes...>, whose name in the compiler's message shows all of them.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tenet/core/static_shape.hpp"
#include "tenet/linalg/einsum.hpp"

namespace tenet::inline TENET_ABI {

/// A string usable as a template argument: `einsum<"ij,jk->ik">`.
template <size_t N>
struct fixed_string {
    char data[N]{};
    constexpr fixed_string(const char (&s)[N]) {  // NOLINT: implicit on purpose
        for (size_t i = 0; i < N; ++i) data[i] = s[i];
    }
    constexpr std::string_view view() const { return {data, N - 1}; }
};

namespace detail {

enum class StaticEinsumError { None, Rank, Size };

struct StaticEinsumShapes {
    StaticEinsumError error = StaticEinsumError::None;
    size_t operand = 0;
    bool all_static = true;
    size_t rank = 0;
    std::array<int64_t, kEinsumMaxTerm * 2> extents{};
};

/// Two static extents of one subscript: equal, or one of them 1 (broadcast); Dyn meets anything.
constexpr bool meet_extent(int64_t& cur, int64_t s) {
    if (cur == -2 || cur == 1) cur = s;
    else if (s == Dyn || s == 1) return true;
    else if (cur == Dyn) cur = s;
    else if (cur != s) return false;
    return true;
}

template <size_t K>
constexpr StaticEinsumShapes static_einsum_shapes(const EinsumEquation& eq,
                                                  const std::array<std::array<int64_t, kEinsumMaxTerm>, K>& shapes,
                                                  const std::array<size_t, K>& ranks,
                                                  const std::array<bool, K>& known) {
    StaticEinsumShapes r;
    if (eq.error != EinsumError::None) return r;
    std::array<int64_t, kEinsumLetters> size{};
    for (auto& s : size) s = -2;  // not seen
    std::array<int64_t, kEinsumMaxTerm> ell{};
    for (auto& s : ell) s = -2;
    size_t ell_rank = 0;
    for (size_t i = 0; i < K; ++i) {
        if (!known[i]) {
            r.all_static = false;
            continue;
        }
        const bool has_ell = eq.has_ellipsis(i);
        const size_t named = eq.lengths[i] - (has_ell ? 1 : 0);
        if (has_ell ? ranks[i] < named : ranks[i] != named) {
            r.error = StaticEinsumError::Rank;
            r.operand = i;
            return r;
        }
        const size_t e = ranks[i] - named;
        if (has_ell && e > ell_rank) ell_rank = e;
        size_t d = 0;
        for (size_t j = 0; j < eq.lengths[i]; ++j) {
            if (eq.terms[i][j] == kEllipsis) {
                // Right-aligned: the last ellipsis dim is ell[kEinsumMaxTerm - 1].
                for (size_t k = 0; k < e; ++k)
                    if (!meet_extent(ell[kEinsumMaxTerm - e + k], shapes[i][d + k])) {
                        r.error = StaticEinsumError::Size;
                        r.operand = i;
                        return r;
                    }
                d += e;
            } else {
                if (!meet_extent(size[static_cast<size_t>(eq.terms[i][j])], shapes[i][d])) {
                    r.error = StaticEinsumError::Size;
                    r.operand = i;
                    return r;
                }
                ++d;
            }
        }
    }
    if (!r.all_static) return r;
    const size_t out = eq.num_inputs;
    for (size_t j = 0; j < eq.lengths[out]; ++j) {
        if (eq.terms[out][j] == kEllipsis) {
            for (size_t k = 0; k < ell_rank; ++k) {
                const int64_t s = ell[kEinsumMaxTerm - ell_rank + k];
                r.extents[r.rank++] = s == -2 ? 1 : s;
            }
        } else {
            r.extents[r.rank++] = size[static_cast<size_t>(eq.terms[out][j])];
        }
    }
    return r;
}

template <class S>
constexpr std::array<int64_t, kEinsumMaxTerm> padded_extents() {
    std::array<int64_t, kEinsumMaxTerm> a{};
    if constexpr (StaticShape<S>)
        for (size_t i = 0; i < S::rank && i < kEinsumMaxTerm; ++i) a[i] = S::extents[i];
    return a;
}
template <class S>
constexpr size_t rank_of() {
    if constexpr (StaticShape<S>) return S::rank;
    else return 0;
}

template <std::array E, size_t... I>
Shape<E[I]...> einsum_shape_from(std::index_sequence<I...>);

}  // namespace detail

/// The compile-time checks and result shape of einsum<Eq> on operands of shapes S...
/// (Shape<...> or DynamicShape). A failed check names this struct, with the equation and the
/// shapes, in the compiler's message.
template <fixed_string Eq, class... S>
struct static_einsum {
    static constexpr detail::EinsumEquation eq = detail::parse_einsum(Eq.view(), sizeof...(S));
    static_assert(eq.error != detail::EinsumError::BadCharacter,
                  "tenet: einsum: invalid character in the equation: subscripts must be in [a-zA-Z]");
    static_assert(eq.error != detail::EinsumError::LoneDot,
                  "tenet: einsum: found '.' that is not part of any ellipsis ('...')");
    static_assert(eq.error != detail::EinsumError::TwoEllipses,
                  "tenet: einsum: found more than one ellipsis for one operand");
    static_assert(eq.error != detail::EinsumError::BadArrow, "tenet: einsum: invalid '->' in the equation");
    static_assert(eq.error != detail::EinsumError::TooManyOperands,
                  "tenet: einsum: fewer operands were provided than specified in the equation");
    static_assert(eq.error != detail::EinsumError::TooFewOperands,
                  "tenet: einsum: more operands were provided than specified in the equation");
    static_assert(eq.error != detail::EinsumError::OutputRepeated,
                  "tenet: einsum: an output subscript appears more than once in the output");
    static_assert(eq.error != detail::EinsumError::OutputUnknown,
                  "tenet: einsum: an output subscript does not appear in the equation for any input operand");
    static_assert(eq.error != detail::EinsumError::TermTooLong && eq.error != detail::EinsumError::TooManyTerms &&
                      eq.error != detail::EinsumError::NoOperands,
                  "tenet: einsum: the equation has too many operands or subscripts, or no operands are given");

    static constexpr detail::StaticEinsumShapes shapes = detail::static_einsum_shapes<sizeof...(S)>(
        eq, {detail::padded_extents<S>()...}, {detail::rank_of<S>()...}, {StaticShape<S>...});
    static_assert(shapes.error != detail::StaticEinsumError::Rank,
                  "tenet: einsum: the static rank of an operand does not match its subscripts (the equation and the "
                  "shapes are the arguments of static_einsum<...> above)");
    static_assert(shapes.error != detail::StaticEinsumError::Size,
                  "tenet: einsum: a subscript has different static sizes in two places (the equation and the shapes "
                  "are the arguments of static_einsum<...> above)");

    static constexpr auto compute_type() {
        if constexpr (shapes.all_static && shapes.error == detail::StaticEinsumError::None) {
            constexpr auto ext = [] {
                std::array<int64_t, shapes.rank> a{};
                for (size_t i = 0; i < shapes.rank; ++i) a[i] = shapes.extents[i];
                return a;
            }();
            return decltype(detail::einsum_shape_from<ext>(std::make_index_sequence<shapes.rank>{})){};
        } else {
            return DynamicShape{};
        }
    }
    using type = decltype(compute_type());
};

/// einsum with the equation checked at compile time: `einsum<"bij,bjk->bik">(a, b)`. Operands
/// are tensors, static-shape tensors or expressions of one element type; with static shapes
/// the result is a StaticTensor of the deduced shape.
template <fixed_string Eq, expr::TensorOperand... X>
auto einsum(const X&... operands) {
    using S = typename static_einsum<Eq, detail::operand_shape_t<X>...>::type;
    using T = std::tuple_element_t<0, std::tuple<detail::operand_value_t<X>...>>;
    static_assert((std::is_same_v<T, detail::operand_value_t<X>> && ...),
                  "tenet: einsum: all operands must have the same element type");
    detail::check_gemm_dtype<T>("einsum()");
    if constexpr (detail::is_gemm_element<T>) {
        Tensor<T> r = detail::einsum_impl<T>(Eq.view(), {detail::materialize(operands, "einsum()")...});
        return detail::with_static_shape<S>(std::move(r));
    } else {
        return Tensor<T>();  // unreachable: the check threw
    }
}

}  // namespace tenet
