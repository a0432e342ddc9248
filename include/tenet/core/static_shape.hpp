#pragma once
// Shapes in the type. `Shape<2, 3>` is a static shape; `Dyn` marks an extent known only at
// run time (`Shape<Dyn, 3>`). Broadcasting two static shapes happens at compile time: the
// result's shape is deduced, and shapes that cannot broadcast are a compile error whose
// message names both (`static_broadcast<Shape<2, 3>, Shape<3, 2>>`). Operands without a
// static shape (`DynamicShape`) make the result dynamic; it is checked at run time.

#include "tenet/config.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI {

/// An extent known only at run time.
inline constexpr int64_t Dyn = -1;

/// A static shape: its extents (>= 0, or Dyn) are part of the type.
template <int64_t... D>
struct Shape {
    static_assert(((D >= 0 || D == Dyn) && ...), "tenet: Shape extents must be non-negative or Dyn");
    static constexpr size_t rank = sizeof...(D);
    static constexpr std::array<int64_t, sizeof...(D)> extents{D...};
    static constexpr bool fully_static = ((D != Dyn) && ...);
};

/// The shape "type" of a tensor whose rank and extents are known only at run time.
struct DynamicShape {};

template <class S>
struct is_static_shape : std::false_type {};
template <int64_t... D>
struct is_static_shape<Shape<D...>> : std::true_type {};
template <class S>
concept StaticShape = is_static_shape<S>::value;

namespace detail {

template <class A, class B>
struct broadcast_result {
    static constexpr size_t rank = A::rank > B::rank ? A::rank : B::rank;
    // Per dim: the extent, and whether the two extents can meet.
    static constexpr auto compute() {
        std::array<int64_t, rank> out{};
        bool ok = true;
        for (size_t i = 0; i < rank; ++i) {
            const int64_t a = i < rank - A::rank ? 1 : A::extents[i - (rank - A::rank)];
            const int64_t b = i < rank - B::rank ? 1 : B::extents[i - (rank - B::rank)];
            if (a == b || b == 1) out[i] = a;
            else if (a == 1) out[i] = b;
            else if (a == Dyn) out[i] = b;  // checked at run time: a must be 1 or b
            else if (b == Dyn) out[i] = a;
            else ok = false;
        }
        return std::pair{out, ok};
    }
    static constexpr auto value = compute();
};

template <std::array E, size_t... I>
Shape<E[I]...> shape_from(std::index_sequence<I...>);

}  // namespace detail

/// Broadcasts two static shapes at compile time. Instantiating it with shapes that cannot
/// broadcast fails, and the compiler's message shows both Shape<...> arguments.
template <class A, class B>
struct static_broadcast {
    using type = DynamicShape;
};
template <int64_t... A, int64_t... B>
struct static_broadcast<Shape<A...>, Shape<B...>> {
    using result = detail::broadcast_result<Shape<A...>, Shape<B...>>;
    static_assert(result::value.second,
                  "tenet: static shapes cannot be broadcast together: sizes at some dimension differ and neither "
                  "is 1 (the two shapes are the arguments of static_broadcast<...> above)");
    using type = decltype(detail::shape_from<result::value.first>(std::make_index_sequence<result::rank>{}));
};
template <class A, class B>
using static_broadcast_t = typename static_broadcast<A, B>::type;

/// Checks at compile time that a value of static shape From may be stored in To: same rank,
/// equal extents where both are known.
template <class From, class To>
struct static_assignable : std::true_type {};
template <int64_t... F, int64_t... T>
struct static_assignable<Shape<F...>, Shape<T...>> : std::true_type {
    static constexpr bool fits() {
        if constexpr (sizeof...(F) != sizeof...(T)) {
            return false;
        } else {
            return ((F == T || F == Dyn || T == Dyn) && ...);
        }
    }
    static_assert(fits(),
                  "tenet: an expression of one static shape cannot be stored in a tensor of another (the two "
                  "shapes are the arguments of static_assignable<...> above)");
};

/// Whether run-time sizes fit a static shape (a Dyn extent fits anything).
template <StaticShape S>
bool fits_static_shape(const IntArray& sizes) {
    if (sizes.size() != S::rank) return false;
    for (size_t i = 0; i < S::rank; ++i)
        if (S::extents[i] != Dyn && S::extents[i] != sizes[i]) return false;
    return true;
}

template <int64_t... D>
std::ostream& operator<<(std::ostream& os, Shape<D...>) {
    os << "Shape<";
    size_t i = 0;
    ((os << (i++ ? ", " : "") << (D == Dyn ? std::string("Dyn") : std::to_string(D))), ...);
    return os << '>';
}

}  // namespace tenet
