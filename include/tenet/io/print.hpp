#pragma once
// Printing tensors exactly as PyTorch's repr does (torch/_tensor_str.py, default
// print options), with tenet's dtype prefix: `tensor([1, 2], dtype=tenet.int32)`, and
// `device='cuda:0'` for a device tensor (its values are copied to the host first).
//
// Only the elements that are shown are read: a tensor of more than `threshold`
// elements is summarised to its edge items before anything is converted. The
// element type matters only when those elements are read (converted to double,
// int64 or bool); all formatting below is compiled once, not once per T.

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "tenet/core/dtype.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::print {

// PyTorch's default print options.
inline constexpr int kPrecision = 4;
inline constexpr int64_t kThreshold = 1000;
inline constexpr int64_t kEdgeItems = 3;
inline constexpr int64_t kLineWidth = 80;

/// The shown elements of a tensor, row-major over the summarised shape.
struct Values {
    DType dtype = ScalarType::Float32;
    IntArray sizes;          // the tensor's own sizes
    bool summarize = false;  // more than kThreshold elements: only edge items are shown
    std::vector<double> floats;  // floating dtypes
    std::vector<int64_t> ints;   // integral dtypes and bool (0/1)
    std::string autograd;        // "grad_fn=<MulBackward0>" or "requires_grad=True" (or empty)
    std::string device;          // "cuda:0" for a device tensor, empty on the host
};

/// How many items of a dim of size n are shown.
inline int64_t shown(int64_t n, bool summarize) { return summarize && n > 2 * kEdgeItems ? 2 * kEdgeItems : n; }

/// The storage offsets of the shown elements, in row-major order.
TENET_FIXED std::vector<int64_t> shown_offsets(const IntArray& sizes, const IntArray& strides, int64_t offset,
                                          bool summarize);

/// C's printf into a std::string (the formats used here give at most ~320 characters).
TENET_FIXED std::string cformat(const char* fmt, int precision, double v);

/// Python's format(v, '.{p}f') / '.{p}e': as C's, except that nan never has a sign.
inline std::string py_fixed(double v, int precision) {
    if (std::isnan(v)) return "nan";
    return cformat("%.*f", precision, v);
}
inline std::string py_sci(double v, int precision) {
    if (std::isnan(v)) return "nan";
    return cformat("%.*e", precision, v);
}

/// PyTorch's _Formatter: chooses int/fixed/scientific notation and a common width.
struct Formatter {
    bool floating = false;
    bool is_bool = false;
    bool int_mode = true;
    bool sci_mode = false;
    size_t max_width = 1;

    explicit Formatter(const Values& v) : floating(v.dtype.is_floating_point()), is_bool(v.dtype == kBool) {
        if (!floating) {
            for (int64_t x : v.ints) max_width = std::max(max_width, int_str(x).size());
            return;
        }
        double lo = 0, hi = 0;
        bool any = false;
        for (double x : v.floats) {
            if (!std::isfinite(x) || x == 0) continue;
            const double a = std::fabs(x);
            if (!any) lo = hi = a;
            lo = std::min(lo, a);
            hi = std::max(hi, a);
            any = true;
            if (x != std::ceil(x)) int_mode = false;
        }
        if (!any) return;  // nothing but zeros, nan and inf: int mode, width 1
        if (int_mode) {
            sci_mode = hi / lo > 1000.0 || hi > 1.0e8;
        } else {
            sci_mode = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
        }
        for (double x : v.floats) {
            if (!std::isfinite(x) || x == 0) continue;
            size_t w;
            if (sci_mode) w = py_sci(x, kPrecision).size();
            else if (int_mode) w = py_fixed(x, 0).size() + 1;
            else w = py_fixed(x, kPrecision).size();
            max_width = std::max(max_width, w);
        }
    }

    std::string int_str(int64_t x) const {
        if (is_bool) return x ? "True" : "False";
        return std::to_string(x);
    }

    std::string format_float(double x) const {
        std::string s;
        if (sci_mode) {
            s = py_sci(x, kPrecision);
        } else if (int_mode) {
            s = py_fixed(x, 0);
            if (std::isfinite(x)) s += '.';
        } else {
            s = py_fixed(x, kPrecision);
        }
        return pad(std::move(s));
    }
    std::string format_int(int64_t x) const { return pad(int_str(x)); }

    std::string pad(std::string s) const {
        if (s.size() < max_width) s.insert(0, max_width - s.size(), ' ');
        return s;
    }
};

struct Writer {
    const Values& v;
    const Formatter& f;
    size_t next = 0;  // the next shown element

    std::string element() {
        const size_t i = next++;
        return f.floating ? f.format_float(v.floats[i]) : f.format_int(v.ints[i]);
    }

    // PyTorch's _vector_str: one row, wrapped at the line width.
    void vector(std::string& out, int64_t n, int64_t indent) {
        const int64_t element_length = static_cast<int64_t>(f.max_width) + 2;
        const int64_t per_line = std::max<int64_t>(
            1, static_cast<int64_t>(std::floor(static_cast<double>(kLineWidth - indent) / static_cast<double>(element_length))));
        std::vector<std::string> items;
        if (v.summarize && n > 2 * kEdgeItems) {
            for (int64_t i = 0; i < kEdgeItems; ++i) items.push_back(element());
            items.emplace_back(" ...");
            for (int64_t i = 0; i < kEdgeItems; ++i) items.push_back(element());
        } else {
            for (int64_t i = 0; i < n; ++i) items.push_back(element());
        }
        out += '[';
        for (size_t i = 0; i < items.size(); ++i) {
            if (i > 0) {
                if (static_cast<int64_t>(i) % per_line == 0) {
                    out += ",\n";
                    out.append(static_cast<size_t>(indent + 1), ' ');
                } else {
                    out += ", ";
                }
            }
            out += items[i];
        }
        out += ']';
    }

    // PyTorch's _tensor_str_with_formatter, from dim d on.
    void tensor(std::string& out, size_t d, int64_t indent) {
        const size_t ndim = v.sizes.size();
        if (ndim == 0) {
            out += element();
            return;
        }
        const int64_t n = v.sizes[d];
        if (d + 1 == ndim) {
            vector(out, n, indent);
            return;
        }
        std::string sep = ",";
        sep.append(ndim - d - 1, '\n');
        sep.append(static_cast<size_t>(indent + 1), ' ');
        out += '[';
        if (v.summarize && n > 2 * kEdgeItems) {
            for (int64_t i = 0; i < kEdgeItems; ++i) {
                if (i > 0) out += sep;
                tensor(out, d + 1, indent + 1);
            }
            out += sep;
            out += "...";
            for (int64_t i = 0; i < kEdgeItems; ++i) {
                out += sep;
                tensor(out, d + 1, indent + 1);
            }
        } else {
            for (int64_t i = 0; i < n; ++i) {
                if (i > 0) out += sep;
                tensor(out, d + 1, indent + 1);
            }
        }
        out += ']';
    }
};

/// The whole repr: `tensor(` + data + suffixes + `)`.
TENET_FIXED std::string format(const Values& v);

#if TENET_HEADER_DEFINITIONS
TENET_FIXED std::vector<int64_t> shown_offsets(const IntArray& sizes, const IntArray& strides, int64_t offset,
                                          bool summarize) {
    std::vector<int64_t> out;
    int64_t count = 1;
    for (int64_t s : sizes) count *= shown(s, summarize);
    out.reserve(static_cast<size_t>(count));
    auto walk = [&](auto&& self, size_t d, int64_t off) -> void {
        if (d == sizes.size()) {
            out.push_back(off);
            return;
        }
        const int64_t n = sizes[d];
        auto visit = [&](int64_t i) { self(self, d + 1, off + i * strides[d]); };
        if (summarize && n > 2 * kEdgeItems) {
            for (int64_t i = 0; i < kEdgeItems; ++i) visit(i);
            for (int64_t i = n - kEdgeItems; i < n; ++i) visit(i);
        } else {
            for (int64_t i = 0; i < n; ++i) visit(i);
        }
    };
    walk(walk, 0, offset);
    return out;
}

TENET_FIXED std::string cformat(const char* fmt, int precision, double v) {
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, fmt, precision, v);
    if (n < 0) return {};
    if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
    std::string s(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(s.data(), s.size(), fmt, precision, v);
    s.resize(static_cast<size_t>(n));
    return s;
}

TENET_FIXED std::string format(const Values& v) {
    const std::string prefix = "tensor(";
    const int64_t indent = static_cast<int64_t>(prefix.size());
    std::string text = prefix;
    std::vector<std::string> suffixes;
    if (!v.device.empty()) suffixes.push_back("device='" + v.device + "'");
    if (product(v.sizes) == 0) {
        if (v.sizes.size() != 1) {  // Python's str(tuple(shape))
            std::string s = "size=(";
            for (size_t i = 0; i < v.sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(v.sizes[i]);
            s += ")";
            suffixes.push_back(std::move(s));
        }
        if (!(v.dtype == get_default_dtype())) suffixes.push_back("dtype=tenet." + std::string(v.dtype.name()));
        text += "[]";
    } else {
        if (!(v.dtype == kFloat32 || v.dtype == kInt64 || v.dtype == kBool))
            suffixes.push_back("dtype=tenet." + std::string(v.dtype.name()));
        const Formatter f(v);
        Writer w{v, f};
        w.tensor(text, 0, indent);
    }
    if (!v.autograd.empty()) suffixes.push_back(v.autograd);
    // PyTorch's _add_suffixes.
    const size_t nl = text.rfind('\n');
    int64_t last_line_len = static_cast<int64_t>(text.size()) - (nl == std::string::npos ? -1 : static_cast<int64_t>(nl)) + 1;
    for (const std::string& s : suffixes) {
        const auto len = static_cast<int64_t>(s.size());
        if (last_line_len + len + 2 > kLineWidth) {
            text += ",\n";
            text.append(static_cast<size_t>(indent), ' ');
            text += s;
            last_line_len = indent + len;
        } else {
            text += ", ";
            text += s;
            last_line_len += len + 2;
        }
    }
    text += ')';
    return text;
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace detail::print

/// The text PyTorch's repr gives for the same values, dtype and shape (with `tenet.` dtypes).
template <class T>
std::string to_string(const Tensor<T>& tensor) {
    if (!tensor.defined()) return "[ Tensor (undefined) ]";
    detail::print::Values v;
    v.dtype = tensor.dtype();
    v.sizes = tensor.sizes();
    v.summarize = tensor.numel() > detail::print::kThreshold;
    v.autograd = detail::autograd_repr(tensor);
    if (!tensor.is_cpu()) v.device = tensor.device().str();
    // A device tensor's values are read from a host copy.
    const Tensor<T> t = tensor.is_cpu() ? tensor : detail::host_copy(tensor);
    if (t.numel() > 0) {
        const std::vector<int64_t> offsets =
            detail::print::shown_offsets(t.sizes(), t.strides(), t.storage_offset(), v.summarize);
        const T* base = static_cast<const T*>(t.impl().storage->data());
        if constexpr (FloatingElement<T>) {
            v.floats.reserve(offsets.size());
            for (int64_t o : offsets) v.floats.push_back(static_cast<double>(base[o]));
        } else {
            v.ints.reserve(offsets.size());
            for (int64_t o : offsets) v.ints.push_back(static_cast<int64_t>(base[o]));
        }
    }
    return detail::print::format(v);
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t) {
    return os << to_string(t);
}
/// An expression prints as its value (evaluated once), as `print(a + b)` does in PyTorch.
template <TensorExpression E>
std::ostream& operator<<(std::ostream& os, const E& e) {
    return os << to_string(Tensor<typename std::remove_cvref_t<E>::value_type>(e));
}

}  // namespace tenet
