#pragma once
// Printing tensors exactly as PyTorch's repr does (torch/_tensor_str.py), with tenet's dtype
// prefix: `tensor([1, 2], dtype=tenet.int32)`, and `device='cuda:0'` for a device tensor (its
// values are copied to the host first). The print options (precision, threshold, edgeitems,
// linewidth, sci_mode, profiles) are PyTorch's torch.set_printoptions, process-wide as there.
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
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tenet/core/dtype.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/small_mutex.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

/// Options for printing tensors, as PyTorch's `torch.set_printoptions` takes them (same names,
/// same order, so `set_printoptions({.precision = 2, .sci_mode = false})` reads as in Python).
/// An unset field keeps its current value, except `sci_mode`: see set_printoptions.
struct PrintOptions {
    /// Digits after the point in fixed notation, after the first digit in scientific (default 4).
    std::optional<int> precision{};
    /// More elements than this and the tensor is summarised with `...` (default 1000; the
    /// "full" profile sets infinity, never summarise).
    std::optional<double> threshold{};
    /// Items shown at the start and at the end of each summarised dimension (default 3).
    std::optional<int64_t> edgeitems{};
    /// Characters per line before a row wraps (default 80).
    std::optional<int64_t> linewidth{};
    /// "default", "short" or "full": applied first, then the fields above override it.
    /// default: precision 4, threshold 1000, edgeitems 3, linewidth 80; short: precision 2,
    /// threshold 1000, edgeitems 2, linewidth 80; full: precision 4, threshold infinity,
    /// edgeitems 3, linewidth 80. A profile does not change sci_mode.
    std::optional<std::string> profile{};
    /// true: always scientific notation; false: never; unset: PyTorch's automatic choice.
    std::optional<bool> sci_mode{};
};

namespace detail::print {

/// The options in force, as plain values (PyTorch's PRINT_OPTS).
struct Settings {
    int precision = 4;
    double threshold = 1000;
    int64_t edgeitems = 3;
    int64_t linewidth = 80;
    int8_t sci_mode = -1;  // -1 automatic, 0 off, 1 on
};

/// The process-wide options and the lock that makes a print read them as one snapshot.
struct SettingsCell {
    SmallMutex mutex;
    Settings value;
};
inline SettingsCell& settings_cell() noexcept {
    static SettingsCell cell;  // constant-initialised: no guard, no destructor
    return cell;
}
inline Settings load_settings() noexcept {
    SettingsCell& c = settings_cell();
    c.mutex.lock();
    const Settings s = c.value;
    c.mutex.unlock();
    return s;
}
inline void store_settings(const Settings& s) noexcept {
    SettingsCell& c = settings_cell();
    c.mutex.lock();
    c.value = s;
    c.mutex.unlock();
}

/// The shown elements of a tensor, row-major over the summarised shape.
struct Values {
    DType dtype = ScalarType::Float32;
    IntArray sizes;          // the tensor's own sizes
    Settings opts;           // the options this print uses (one snapshot)
    bool summarize = false;  // more than opts.threshold elements: only edge items are shown
    std::vector<double> floats;  // floating dtypes; the real parts of complex ones
    std::vector<double> imags;   // complex dtypes: the imaginary parts
    std::vector<int64_t> ints;   // integral dtypes and bool (0/1)
    std::string autograd;        // "grad_fn=<MulBackward0>" or "requires_grad=True" (or empty)
    std::string device;          // "cuda:0" for a device tensor, empty on the host
    bool meta = false;           // a meta tensor: no values, printed as `tensor(..., device='meta', size=(...))`
    std::string names;           // "names=('N', None)" for a named tensor (or empty)
};

/// Whether a dim of size n is cut to its edge items (PyTorch: `size > 2 * edgeitems`).
inline bool cut(int64_t n, bool summarize, int64_t edge) { return summarize && n - edge > edge; }
/// Where the tail of a cut dim starts. PyTorch takes it as `self[-edgeitems:]`, which for
/// edgeitems 0 is the whole row: `[ ..., 0, 1, ...]`.
inline int64_t tail_start(int64_t n, int64_t edge) { return edge == 0 ? 0 : n - edge; }
/// How many items of a dim of size n are shown.
inline int64_t shown(int64_t n, bool summarize, int64_t edge) {
    return cut(n, summarize, edge) ? edge + n - tail_start(n, edge) : n;
}

/// The storage offsets of the shown elements, in row-major order.
TENET_FIXED std::vector<int64_t> shown_offsets(const IntArray& sizes, const IntArray& strides, int64_t offset,
                                          bool summarize, int64_t edge);

/// C's printf into a std::string (on the stack up to 511 characters: ~320 at most for a double
/// at precision 4; a larger precision takes the heap, as long as Python's would be).
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
    int precision = 4;
    size_t max_width = 1;

    explicit Formatter(const Values& v)
        : floating(v.dtype.is_floating_point()), is_bool(v.dtype == kBool), precision(v.opts.precision) {
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
        if (!any) return;  // nothing but zeros, nan and inf: int mode, width 1, sci_mode ignored
        if (int_mode) {
            sci_mode = hi / lo > 1000.0 || hi > 1.0e8;
        } else {
            sci_mode = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
        }
        for (double x : v.floats) {
            if (!std::isfinite(x) || x == 0) continue;
            size_t w;
            if (sci_mode) w = py_sci(x, precision).size();
            else if (int_mode) w = py_fixed(x, 0).size() + 1;
            else w = py_fixed(x, precision).size();
            max_width = std::max(max_width, w);
        }
        // A forced notation comes after the width, which stays the automatic one's (as PyTorch).
        if (v.opts.sci_mode >= 0) sci_mode = v.opts.sci_mode == 1;
    }

    std::string int_str(int64_t x) const {
        if (is_bool) return x ? "True" : "False";
        return std::to_string(x);
    }

    std::string format_float(double x) const {
        std::string s;
        if (sci_mode) {
            s = py_sci(x, precision);
        } else if (int_mode) {
            s = py_fixed(x, 0);
            if (std::isfinite(x)) s += '.';
        } else {
            s = py_fixed(x, precision);
        }
        return pad(std::move(s));
    }
    std::string format_int(int64_t x) const { return pad(int_str(x)); }

    std::string pad(std::string s) const {
        if (s.size() < max_width) s.insert(0, max_width - s.size(), ' ');
        return s;
    }
};

/// The formatter of a complex tensor's imaginary parts: the real parts' options, its own values
/// (PyTorch formats the two parts with two formatters).
inline Values imaginary_parts(const Values& v) {
    Values im;
    im.dtype = kFloat64;
    im.opts = v.opts;
    im.floats = v.imags;
    return im;
}

struct Writer {
    const Values& v;
    const Formatter& f;
    const Formatter* imag = nullptr;  // complex dtypes: the imaginary parts' formatter
    size_t next = 0;                  // the next shown element

    std::string element() {
        const size_t i = next++;
        if (imag) {  // PyTorch's _val_formatter: the imaginary part's padding dropped, its sign kept
            std::string re = f.format_float(v.floats[i]);
            std::string im = imag->format_float(v.imags[i]) + "j";
            im.erase(0, im.find_first_not_of(' '));
            return im[0] == '+' || im[0] == '-' ? re + im : re + "+" + im;
        }
        return f.floating ? f.format_float(v.floats[i]) : f.format_int(v.ints[i]);
    }

    // PyTorch's _vector_str: one row, wrapped at the line width.
    void vector(std::string& out, int64_t n, int64_t indent) {
        const int64_t edge = v.opts.edgeitems;
        const auto element_length = static_cast<double>(f.max_width + 2 + (imag ? imag->max_width + 1 : 0));
        // In doubles, as Python's true division: any linewidth, however negative, gives 1.
        const double fit = std::floor((static_cast<double>(v.opts.linewidth) - static_cast<double>(indent)) / element_length);
        const int64_t per_line = fit < 1 ? 1 : fit > 1e18 ? int64_t{1} << 60 : static_cast<int64_t>(fit);
        std::vector<std::string> items;
        if (cut(n, v.summarize, edge)) {
            for (int64_t i = 0; i < edge; ++i) items.push_back(element());
            items.emplace_back(" ...");
            for (int64_t i = tail_start(n, edge); i < n; ++i) items.push_back(element());
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
        const int64_t edge = v.opts.edgeitems;  // >= 1 here: shown_offsets refuses 0 on >= 2 dims
        if (cut(n, v.summarize, edge)) {
            for (int64_t i = 0; i < edge; ++i) {
                if (i > 0) out += sep;
                tensor(out, d + 1, indent + 1);
            }
            out += sep;
            out += "...";
            for (int64_t i = 0; i < edge; ++i) {
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

/// The data part of a repr (PyTorch's _tensor_str): `[...]`, rows indented by `indent`.
inline std::string body(const Values& v, int64_t indent) {
    if (product(v.sizes) == 0) return "[]";
    if (v.dtype.is_complex()) {
        Values re = v;
        re.dtype = kFloat64;
        const Formatter f(re), fi(imaginary_parts(v));
        Writer w{v, f, &fi};
        std::string text;
        w.tensor(text, 0, indent);
        return text;
    }
    const Formatter f(v);
    Writer w{v, f};
    std::string text;
    w.tensor(text, 0, indent);
    return text;
}

/// PyTorch's _add_suffixes: appends `, suffix` for each, wrapping at the line width (and before
/// the first when force_newline, as for sparse tensors), and `)`.
inline std::string add_suffixes(std::string text, const std::vector<std::string>& suffixes, int64_t indent,
                                int64_t linewidth, bool force_newline = false) {
    const size_t nl = text.rfind('\n');
    int64_t last_line_len = static_cast<int64_t>(text.size()) - (nl == std::string::npos ? -1 : static_cast<int64_t>(nl)) + 1;
    for (const std::string& s : suffixes) {
        const auto len = static_cast<int64_t>(s.size());
        if (force_newline || last_line_len + len + 2 > linewidth) {
            force_newline = false;
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

/// The whole repr: `tensor(` + data + suffixes + `)`.
TENET_FIXED std::string format(const Values& v);

#if TENET_HEADER_DEFINITIONS
TENET_FIXED std::vector<int64_t> shown_offsets(const IntArray& sizes, const IntArray& strides, int64_t offset,
                                          bool summarize, int64_t edge) {
    // PyTorch's get_summarized_data stacks an empty list there (RuntimeError).
    if (summarize && edge == 0 && sizes.size() >= 2)
        fail<value_error>("print: edgeitems=0 cannot summarise a tensor of ", sizes.size(), " dims (shape ", sizes,
                          "); PyTorch raises too. Set edgeitems >= 1 or a threshold above its numel");
    std::vector<int64_t> out;
    int64_t count = 1;
    for (int64_t s : sizes) count *= shown(s, summarize, edge);
    out.reserve(static_cast<size_t>(count));
    auto walk = [&](auto&& self, size_t d, int64_t off) -> void {
        if (d == sizes.size()) {
            out.push_back(off);
            return;
        }
        const int64_t n = sizes[d];
        auto visit = [&](int64_t i) { self(self, d + 1, off + i * strides[d]); };
        if (cut(n, summarize, edge)) {
            for (int64_t i = 0; i < edge; ++i) visit(i);
            for (int64_t i = tail_start(n, edge); i < n; ++i) visit(i);
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
    if (n < 0) fail<value_error>("print: cannot format ", v, " with precision ", precision);
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
    auto size_suffix = [&] {  // Python's str(tuple(shape)): (), (5,), (2, 3)
        std::string s = "size=(";
        for (size_t i = 0; i < v.sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(v.sizes[i]);
        s += v.sizes.size() == 1 ? ",)" : ")";
        return s;
    };
    if (v.meta) {  // PyTorch 1.13: the size always, the dtype unless the default
        suffixes.push_back(size_suffix());
        if (!(v.dtype == get_default_dtype())) suffixes.push_back("dtype=tenet." + std::string(v.dtype.name()));
        text += "...";
    } else if (product(v.sizes) == 0) {
        if (v.sizes.size() != 1) suffixes.push_back(size_suffix());
        if (!(v.dtype == get_default_dtype())) suffixes.push_back("dtype=tenet." + std::string(v.dtype.name()));
        text += "[]";
    } else {
        if (!(v.dtype == kFloat32 || v.dtype == kComplex64 || v.dtype == kInt64 || v.dtype == kBool))
            suffixes.push_back("dtype=tenet." + std::string(v.dtype.name()));
        text += body(v, indent);
    }
    if (!v.autograd.empty()) suffixes.push_back(v.autograd);
    if (!v.names.empty()) suffixes.push_back(v.names);
    return add_suffixes(std::move(text), suffixes, indent, v.opts.linewidth);
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace detail::print

/// Sets the print options, as PyTorch's `torch.set_printoptions`: the profile first (if given),
/// then each given field; unset fields keep their current values. Except sci_mode, which (as in
/// PyTorch, whose keyword defaults to None) is always set: leaving it unset returns to the
/// automatic choice. The options are process-wide; a print on another thread uses either the
/// old or the new options, never a mix (each print reads one snapshot under a small lock).
/// Throws value_error, changing nothing, for precision or edgeitems below 0, a NaN threshold or
/// a profile other than "default", "short" and "full" (PyTorch ignores an unknown profile and
/// fails only when printing with a negative precision).
TENET_FIXED void set_printoptions(const PrintOptions& options);

/// The print options in force, every field set but `profile`; `sci_mode` unset means automatic.
/// (PyTorch: the fields of torch._tensor_str.PRINT_OPTS.) `set_printoptions(get_printoptions())`
/// changes nothing.
TENET_FIXED PrintOptions get_printoptions();

/// Saves the print options and restores them when it goes out of scope, optionally setting new
/// ones in between: `PrintOptionsGuard g({.precision = 2});` (PyTorch: the context manager
/// torch._tensor_str.printoptions(**kwargs)).
class PrintOptionsGuard {
public:
    /// Saves the options in force.
    PrintOptionsGuard() noexcept : saved_(detail::print::load_settings()) {}
    /// Saves the options in force, then sets `options` (set_printoptions's rules and errors).
    explicit PrintOptionsGuard(const PrintOptions& options) : saved_(detail::print::load_settings()) {
        set_printoptions(options);
    }
    PrintOptionsGuard(const PrintOptionsGuard&) = delete;
    PrintOptionsGuard& operator=(const PrintOptionsGuard&) = delete;
    /// Restores the saved options.
    ~PrintOptionsGuard() { detail::print::store_settings(saved_); }

private:
    detail::print::Settings saved_;
};

#if TENET_HEADER_DEFINITIONS
TENET_FIXED void set_printoptions(const PrintOptions& options) {
    using detail::fail;
    detail::print::Settings profile{};  // "default"
    bool has_profile = false;
    if (options.profile) {
        const std::string& p = *options.profile;
        has_profile = true;
        if (p == "short") {
            profile.precision = 2;
            profile.edgeitems = 2;
        } else if (p == "full") {
            profile.threshold = std::numeric_limits<double>::infinity();
        } else if (p != "default") {
            fail<value_error>("set_printoptions: profile must be \"default\", \"short\" or \"full\", got \"", p, "\"");
        }
    }
    if (options.precision && *options.precision < 0)
        fail<value_error>("set_printoptions: precision must be >= 0, got ", *options.precision);
    if (options.edgeitems && *options.edgeitems < 0)
        fail<value_error>("set_printoptions: edgeitems must be >= 0, got ", *options.edgeitems);
    if (options.threshold && std::isnan(*options.threshold)) fail<value_error>("set_printoptions: threshold is NaN");

    // Read, change and write under one lock, so that two threads setting options do not interleave.
    detail::print::SettingsCell& cell = detail::print::settings_cell();
    cell.mutex.lock();
    detail::print::Settings& s = cell.value;
    if (has_profile) {
        s.precision = profile.precision;
        s.threshold = profile.threshold;
        s.edgeitems = profile.edgeitems;
        s.linewidth = profile.linewidth;
    }
    if (options.precision) s.precision = *options.precision;
    if (options.threshold) s.threshold = *options.threshold;
    if (options.edgeitems) s.edgeitems = *options.edgeitems;
    if (options.linewidth) s.linewidth = *options.linewidth;
    s.sci_mode = options.sci_mode ? static_cast<int8_t>(*options.sci_mode) : int8_t{-1};
    cell.mutex.unlock();
}

TENET_FIXED PrintOptions get_printoptions() {
    const detail::print::Settings s = detail::print::load_settings();
    PrintOptions o;
    o.precision = s.precision;
    o.threshold = s.threshold;
    o.edgeitems = s.edgeitems;
    o.linewidth = s.linewidth;
    if (s.sci_mode >= 0) o.sci_mode = s.sci_mode == 1;
    return o;
}
#endif  // TENET_HEADER_DEFINITIONS

namespace detail::print {
/// The shown values of a tensor and the options in force (one snapshot), as format reads them.
template <class T>
Values values_of(const Tensor<T>& tensor) {
    Values v;
    v.dtype = tensor.dtype();
    v.sizes = tensor.sizes();
    v.opts = load_settings();
    v.summarize = static_cast<double>(tensor.numel()) > v.opts.threshold;
    v.autograd = autograd_repr(tensor);
    if (tensor.has_names()) v.names = "names=" + names_tuple_repr(tensor.names());
    if (!tensor.is_cpu()) v.device = tensor.device().str();
    v.meta = tensor.is_meta();
    if (v.meta) return v;  // nothing to read
    // A device tensor's values are read from a host copy.
    const Tensor<T> t = tensor.is_cpu() ? tensor : host_copy(tensor);
    if (t.numel() > 0) {
        const std::vector<int64_t> offsets = shown_offsets(t.sizes(), t.strides(), t.storage_offset(), v.summarize,
                                                           v.opts.edgeitems);
        const T* base = static_cast<const T*>(t.impl().storage->data());
        if constexpr (is_complex_v<T>) {
            v.floats.reserve(offsets.size());
            v.imags.reserve(offsets.size());
            for (int64_t o : offsets) {
                v.floats.push_back(static_cast<double>(base[o].real()));
                v.imags.push_back(static_cast<double>(base[o].imag()));
            }
        } else if constexpr (FloatingElement<T>) {
            v.floats.reserve(offsets.size());
            for (int64_t o : offsets) v.floats.push_back(static_cast<double>(base[o]));
        } else {
            v.ints.reserve(offsets.size());
            for (int64_t o : offsets) v.ints.push_back(static_cast<int64_t>(base[o]));
        }
    }
    return v;
}
}  // namespace detail::print

/// The text PyTorch's repr gives for the same values, dtype and shape (with `tenet.` dtypes).
template <class T>
std::string to_string(const Tensor<T>& tensor) {
    if (!tensor.defined()) return "[ Tensor (undefined) ]";
    return detail::print::format(detail::print::values_of(tensor));
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
