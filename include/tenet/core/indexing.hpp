#pragma once
// The pieces of a `t.index({...})` list, spelled as LibTorch spells them
// (`using namespace tenet::indexing;`): integers (negative count from the end),
// `Slice(start, stop, step)` with omitted or negative bounds, `None` (a new axis
// of size 1), `Ellipsis` (or "..."), `true`/`false` (a new axis of size 1 / 0), and index
// tensors: int64 or int32 positions, or bool masks (advanced indexing, core/advanced_index.hpp).

#include "tenet/config.hpp"
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <type_traits>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI {
class TensorBase;
template <class T>
class Tensor;
}  // namespace tenet

namespace tenet::inline TENET_ABI::indexing {

struct EllipsisIndexType {};
inline constexpr EllipsisIndexType Ellipsis{};
/// A new axis in an index list; an omitted bound in a Slice.
inline constexpr std::nullopt_t None = std::nullopt;

/// Python's start:stop:step. Omitted bounds take the whole dimension.
class Slice {
public:
    Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
          std::optional<int64_t> step = std::nullopt)
        : start_(start), stop_(stop), step_(step.value_or(1)) {}

    std::optional<int64_t> start() const { return start_; }
    std::optional<int64_t> stop() const { return stop_; }
    int64_t step() const { return step_; }

    friend std::ostream& operator<<(std::ostream& os, const Slice& s) {
        if (s.start_) os << *s.start_;
        os << ':';
        if (s.stop_) os << *s.stop_;
        return os << ':' << s.step_;
    }

private:
    std::optional<int64_t> start_, stop_;
    int64_t step_;
};

/// One entry of an index list.
class TensorIndex {
public:
    enum class Kind { Integer, Slice, None, Ellipsis, Boolean, Indices };

    template <class I>
        requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
    TensorIndex(I i) : kind_(Kind::Integer), integer_(static_cast<int64_t>(i)) {}  // NOLINT
    TensorIndex(bool b) : kind_(Kind::Boolean), boolean_(b) {}                      // NOLINT
    TensorIndex(Slice s) : kind_(Kind::Slice), slice_(s) {}                         // NOLINT
    TensorIndex(std::nullopt_t) : kind_(Kind::None) {}                              // NOLINT
    TensorIndex(EllipsisIndexType) : kind_(Kind::Ellipsis) {}                       // NOLINT
    /// An index tensor: int64 or int32 positions along a dim, or a bool mask over as many dims
    /// as it has.
    template <class T>
        requires(std::is_same_v<T, int64_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, bool>)
    TensorIndex(const Tensor<T>& t) : kind_(Kind::Indices), tensor_(std::make_shared<const TensorBase>(t)) {}  // NOLINT
    /// An expression (`x.index({x > 0})`), evaluated into its tensor.
    template <class E>
        requires(std::remove_cvref_t<E>::is_tenet_expression)
    TensorIndex(const E& e) : TensorIndex(Tensor<typename std::remove_cvref_t<E>::value_type>(e)) {}  // NOLINT
    TensorIndex(const char* s) : kind_(Kind::Ellipsis) {                             // NOLINT
        if (std::strcmp(s, "...") != 0)
            detail::fail<index_error>("index: expected \"...\" for an Ellipsis, got \"", s, "\"");
    }

    Kind kind() const { return kind_; }
    int64_t integer() const { return integer_; }
    bool boolean() const { return boolean_; }
    const Slice& slice() const { return slice_; }
    /// The index tensor (Kind::Indices).
    const TensorBase& tensor() const { return *tensor_; }
    /// Whether this entry consumes a dimension of the indexed tensor (basic indexing: an index
    /// tensor is handled before, by core/advanced_index.hpp).
    bool consumes_dim() const { return kind_ == Kind::Integer || kind_ == Kind::Slice; }

private:
    Kind kind_;
    int64_t integer_ = 0;
    bool boolean_ = false;
    Slice slice_;
    std::shared_ptr<const TensorBase> tensor_;
};

}  // namespace tenet::indexing

namespace tenet::inline TENET_ABI {
using indexing::Ellipsis;
using indexing::None;
using indexing::Slice;
using indexing::TensorIndex;
}  // namespace tenet
