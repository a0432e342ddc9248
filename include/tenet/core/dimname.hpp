#pragma once
// Dimname: the name of one dim of a named tensor (PyTorch's named tensors, LibTorch's
// at::Dimname). A name is a Python identifier ("N", "C", "_h2") or the wildcard, PyTorch's
// None (an unnamed dim). The rules that combine the names of several tensors (PyTorch's
// unification: names align from the right, as broadcasting does) live here too; the
// operations on named tensors are in core/named.hpp.

#include "tenet/config.hpp"
#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI {

/// One dim's name: a Python identifier, or the wildcard (None). Built implicitly from a string
/// ("N") or from std::nullopt (the wildcard), so `{"N", std::nullopt}` is a list of names. The
/// string "..." stands for PyTorch's Ellipsis where refine_names and align_to accept it.
class Dimname {
public:
    /// The wildcard (None).
    Dimname() = default;
    Dimname(std::nullopt_t) {}                               // NOLINT: implicit, as None
    /// From one string ("N", a std::string or string_view). A template, so that a braced pair of
    /// strings (`{"A", "C"}`) is never taken for one name (std::string's iterator-pair constructor).
    template <class S>
        requires std::convertible_to<const S&, std::string_view>
    Dimname(const S& name) : name_(std::string_view(name)), wildcard_(false) {}  // NOLINT: implicit, as 'N'
    Dimname(const std::optional<std::string>& name)  // NOLINT
        : name_(name.value_or("")), wildcard_(!name) {}

    static Dimname wildcard() { return {}; }
    /// Whether this is None (LibTorch's isWildcard()).
    bool is_wildcard() const { return wildcard_; }
    bool is_basic() const { return !wildcard_; }
    /// The name ("" for the wildcard).
    const std::string& symbol() const { return name_; }
    /// The name, or nullopt for the wildcard.
    std::optional<std::string> value() const {
        if (wildcard_) return std::nullopt;
        return name_;
    }
    /// Python's repr of the name: 'N' or None.
    std::string repr() const { return wildcard_ ? std::string("None") : "'" + name_ + "'"; }

    friend bool operator==(const Dimname& a, const Dimname& b) {
        return a.wildcard_ == b.wildcard_ && a.name_ == b.name_;
    }
    friend std::ostream& operator<<(std::ostream& os, const Dimname& d) { return os << d.repr(); }

private:
    std::string name_;
    bool wildcard_ = true;
};

/// The names of a tensor's dims, one per dim.
using DimnameList = std::vector<Dimname>;


namespace detail {

/// Deletes a tensor's names out of line, so that destroying an unnamed tensor costs one test.
struct NamesDeleter {
    [[gnu::noinline]] void operator()(const DimnameList* names) const noexcept { delete names; }
};
/// What a TensorImpl holds: its names, or null.
using DimnamesPtr = std::unique_ptr<const DimnameList, NamesDeleter>;

inline bool is_ellipsis(const Dimname& d) { return d.symbol() == "..."; }

/// Python's list repr of names: ['N', None].
inline std::string names_repr(const DimnameList& names) {
    std::string s = "[";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i].repr();
    return s + "]";
}
/// PyTorch's Tensor['N', None] (an empty list reads Tensor[]).
inline std::string tensor_names_repr(const DimnameList& names) {
    std::string s = names_repr(names);
    return "Tensor" + s;
}
/// Python's tuple repr of names: ('N',) or ('N', None) or ().
inline std::string names_tuple_repr(const DimnameList& names) {
    std::string s = "(";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i].repr();
    return s + (names.size() == 1 ? ",)" : ")");
}

/// PyTorch refuses names that are not Python identifiers (letters, digits, underscores, not
/// starting with a digit; ASCII here).
inline void check_valid_name(const Dimname& d) {
    if (d.is_wildcard()) return;
    const std::string& s = d.symbol();
    bool ok = !s.empty() && !(s[0] >= '0' && s[0] <= '9');
    for (char c : s) ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
    if (!ok)
        fail<value_error>("Invalid name: a valid identifier contains only digits, alphabetical characters, and/or "
                          "underscore and starts with a non-digit. got: '", s, "'.");
}

/// The checks of PyTorch's internal_set_names_inplace: valid names, no name twice, one per dim.
inline void check_names(const DimnameList& names, size_t ndim) {
    if (names.size() != ndim)
        fail<shape_error>("Number of names (", names.size(), ") and number of dimensions in tensor (", ndim,
                          ") do not match. Attempted to create a tensor with names ", names_repr(names));
    for (const Dimname& d : names) check_valid_name(d);
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = i + 1; j < names.size() && names[i].is_basic(); ++j)
            if (names[i] == names[j])
                fail<value_error>("Cannot construct a tensor with duplicate names. Got names: ", names_repr(names), ".");
}

/// The position of `name` in `names` (PyTorch's dimname_to_position).
inline int64_t dim_of(const DimnameList& names, const Dimname& name) {
    if (name.is_basic())
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] == name) return static_cast<int64_t>(i);
    fail<index_error>("Name ", name.repr(), " not found in ", tensor_names_repr(names), ".");
}

/// PyTorch's unify_from_right: the names of a broadcast result of operands named `names` and
/// `other` (right-aligned; None takes the other's name). A mismatch at one position, or a name
/// met against None that also sits elsewhere in the other list ("misaligned"), is a
/// value_error worded as PyTorch's (its RuntimeError).
/// `action` words the errors ("broadcast"; "cat" for cat).
inline DimnameList unify_from_right(const DimnameList& names, const DimnameList& other,
                                    const char* action = "broadcast") {
    const Dimname none;
    const size_t size = std::max(names.size(), other.size());
    DimnameList out(size);
    auto misaligned = [action](const Dimname& name, const DimnameList& in, const DimnameList& against) {
        if (name.is_wildcard()) return;
        for (const Dimname& d : against)
            if (d == name)
                fail<value_error>("Misaligned dims when attempting to ", action, " dims ", names_repr(in), " and dims ",
                                  names_repr(against), ": dim ", name.repr(),
                                  " appears in a different position from the right across both lists.");
    };
    for (size_t k = 1; k <= size; ++k) {
        const Dimname& a = k <= names.size() ? names[names.size() - k] : none;
        const Dimname& b = k <= other.size() ? other[other.size() - k] : none;
        if (a.is_basic() && b.is_basic() && !(a == b))
            fail<value_error>("Error when attempting to ", action, " dims ", names_repr(names), " and dims ",
                              names_repr(other), ": dim ", a.repr(), " and dim ", b.repr(),
                              " are at the same position from the right but do not match.");
        out[size - k] = a.is_basic() ? a : b;
        if (!a.is_basic() || !b.is_basic()) {
            misaligned(a, names, other);
            misaligned(b, other, names);
        }
    }
    return out;
}

}  // namespace detail

/// Prints a tensor's names as Python prints `t.names`: ('N', None), ('C',) or ().
inline std::ostream& operator<<(std::ostream& os, const DimnameList& names) {
    return os << detail::names_tuple_repr(names);
}
}  // namespace tenet
