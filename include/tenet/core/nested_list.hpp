#pragma once
// NestedList<T>: a tensor's values as nested lists (PyTorch's `tolist()`), for
// printing, tests and interop. A 0-d tensor gives a bare value.

#include "tenet/config.hpp"
#include <ostream>
#include <variant>
#include <vector>

namespace tenet::inline TENET_ABI {

template <class T>
struct NestedList {
    std::variant<T, std::vector<NestedList>> node;

    bool is_value() const { return node.index() == 0; }
    const T& value() const { return std::get<0>(node); }
    const std::vector<NestedList>& items() const { return std::get<1>(node); }
    size_t size() const { return is_value() ? 0 : items().size(); }
    const NestedList& operator[](size_t i) const { return items()[i]; }

    friend bool operator==(const NestedList& a, const NestedList& b) { return a.node == b.node; }
    friend std::ostream& operator<<(std::ostream& os, const NestedList& l) {
        if (l.is_value()) {
            if constexpr (std::is_same_v<T, bool>) return os << (l.value() ? "True" : "False");
            else if constexpr (sizeof(T) == 1) return os << static_cast<int>(l.value());
            else return os << l.value();
        }
        os << '[';
        for (size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << l[i];
        return os << ']';
    }
};

}  // namespace tenet
