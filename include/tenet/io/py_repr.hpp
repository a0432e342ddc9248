#pragma once
// Python's reprs of a float and of a tuple of ints, for the parts of a tensor's repr that
// PyTorch writes with str(): `scale=0.1`, `size=(2, 3)`.

#include "tenet/config.hpp"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI::detail::print {

/// Python's repr(float): the shortest digits that round-trip, fixed notation for exponents in
/// [-4, 16), scientific (`1e-05`, `1.5e+16`) outside; `1.0`, `inf`, `nan`.
inline std::string py_float_repr(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    std::string sci(buf, r.ptr);
    std::string sign;
    if (sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const size_t e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::atoi(sci.c_str() + e + 1);
    if (exp >= -4 && exp < 16) {
        std::string out;
        if (exp < 0) {
            out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
        } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
            out = digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, static_cast<size_t>(exp) + 1) + "." + digits.substr(static_cast<size_t>(exp) + 1);
        }
        return sign + out;
    }
    std::string mant = digits.substr(0, 1);
    if (digits.size() > 1) mant += "." + digits.substr(1);
    const int a = std::abs(exp);
    return sign + mant + "e" + (exp < 0 ? "-" : "+") + (a < 10 ? "0" : "") + std::to_string(a);
}

/// Python's str(tuple(sizes)): `()`, `(3,)`, `(2, 3)`.
inline std::string py_tuple(const IntArray& sizes) {
    std::string s = "(";
    for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + (sizes.size() == 1 ? ",)" : ")");
}

}  // namespace tenet::inline TENET_ABI::detail::print
