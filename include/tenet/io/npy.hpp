#pragma once
// NumPy's .npy files (numpy/lib/format.py): np.save and np.load for one tensor.
//
// A file is a magic string "\x93NUMPY", a version byte pair (1.0: a 2-byte header length;
// 2.0: 4 bytes; 3.0: 4 bytes and a UTF-8 header), the header (a Python dict literal with the
// keys 'descr', 'fortran_order' and 'shape'), padding, and the raw element bytes. The data
// starts at a multiple of 64 bytes (NumPy >= 1.24 writes it so), which lets a mapped file be
// read in place.
//
// Reading accepts every header NumPy writes (any version, keys in any order, either byte order,
// C and Fortran order) and refuses anything else with an io_error that names the file and the
// header. Sizes read from a file are checked against the bytes actually present before anything
// is allocated, so a hostile file cannot make tenet allocate more than its own length.
//
// POSIX only (open/pread/mmap).

#include "tenet/config.hpp"
#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tenet/core/dtype.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/core.hpp"  // the hook definitions, so that this header is enough on its own

namespace tenet::inline TENET_ABI {

namespace detail::npy {

inline constexpr char kMagic[] = "\x93NUMPY";
inline constexpr size_t kMagicLen = 6;
inline constexpr size_t kAlign = 64;               // NumPy's ARRAY_ALIGN
inline constexpr size_t kGrowthAxisMaxDigits = 21;  // NumPy's GROWTH_AXIS_MAX_DIGITS
inline constexpr size_t kMaxShownHeader = 300;      // header text quoted in an error message
inline constexpr size_t kMaxDims = 64;  // NumPy 1.24 holds at most 32; tenet's other loaders stop at 64

/// What a header says.
struct Header {
    DType dtype = ScalarType::Float32;
    bool swap = false;           // the file's byte order is not the host's
    bool fortran_order = false;
    IntArray shape;
    std::string descr;           // as written in the file, for messages
    uint64_t data_offset = 0;    // where the element bytes start
    uint64_t data_bytes = 0;     // numel * itemsize (checked for overflow)
    int major = 1;
};

/// The header text as it goes into an error message: truncated, control bytes escaped.
inline std::string shown_header(std::string_view text) {
    std::string out;
    const size_t n = std::min(text.size(), kMaxShownHeader);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (text.size() > n) out += "...";
    return out;
}

/// The host's byte-order character in a descr.
inline constexpr char native_order() { return std::endian::native == std::endian::little ? '<' : '>'; }

/// The descr NumPy writes for a dtype ('|b1', '<f4', ...); a dtype_error for bfloat16.
inline std::string descr_of(DType d, const char* op) {
    const char n = native_order();
    switch (d.scalar_type()) {
        case ScalarType::Bool: return "|b1";
        case ScalarType::UInt8: return "|u1";
        case ScalarType::Int8: return "|i1";
        case ScalarType::Int16: return std::string(1, n) + "i2";
        case ScalarType::Int32: return std::string(1, n) + "i4";
        case ScalarType::Int64: return std::string(1, n) + "i8";
        case ScalarType::Float16: return std::string(1, n) + "f2";
        case ScalarType::Float32: return std::string(1, n) + "f4";
        case ScalarType::Float64: return std::string(1, n) + "f8";
        case ScalarType::BFloat16: break;
        case ScalarType::ComplexFloat: return std::string(1, n) + "c8";
        case ScalarType::ComplexDouble: return std::string(1, n) + "c16";
    }
    fail<dtype_error>(op, ": NumPy has no bfloat16 dtype, so a tenet.bfloat16 tensor cannot be saved as .npy; "
                          "convert it first, e.g. t.to<float>()");
}

/// Parses the header dict (the text between the length field and the data).
class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& name, const char* op) : s_(text), name_(name), op_(op) {}

    void parse(Header& h) {
        bool have_descr = false, have_order = false, have_shape = false;
        ws();
        expect('{');
        for (;;) {
            ws();
            if (peek() == '}') {
                ++i_;
                break;
            }
            const std::string key = string_literal("a key");
            ws();
            expect(':');
            ws();
            if (key == "descr") {
                once(have_descr, key);
                if (peek() == '[') bad("a structured dtype (descr is a list) is not supported");
                h.descr = string_literal("the descr");
                set_dtype(h);
            } else if (key == "fortran_order") {
                once(have_order, key);
                h.fortran_order = boolean();
            } else if (key == "shape") {
                once(have_shape, key);
                h.shape = shape();
            } else {
                bad("unexpected key '" + key + "'");
            }
            ws();
            if (peek() == ',') {
                ++i_;
            } else if (peek() != '}') {
                bad("expected ',' or '}' after the value of '" + key + "'");
            }
        }
        ws();
        if (i_ != s_.size()) bad("unexpected text after the closing '}'");
        if (!have_descr || !have_order || !have_shape)
            bad("the header must have the keys 'descr', 'fortran_order' and 'shape'");
        // The byte count, checked for overflow: product(shape) * itemsize must fit int64, and so
        // must the product of the nonzero dims (the strides of an empty shape), as NumPy checks.
        int64_t bytes = h.dtype.itemsize();
        bool empty = false;
        for (int64_t d : h.shape) {
            if (d == 0) empty = true;
            else if (__builtin_mul_overflow(bytes, d, &bytes)) bad("the shape's byte count overflows int64");
        }
        if (empty) bytes = 0;
        h.data_bytes = static_cast<uint64_t>(bytes);
    }

private:
    [[noreturn]] void bad(const std::string& why) const {
        fail<io_error>(op_, ": ", name_, ": bad .npy header (", why, ", at offset ", i_, " of the header): \"",
                       shown_header(s_), "\"");
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        if (peek() != c) bad(std::string("expected '") + c + "'");
        ++i_;
    }
    void once(bool& seen, const std::string& key) {
        if (seen) bad("the key '" + key + "' appears twice");
        seen = true;
    }
    std::string string_literal(const char* what) {
        const char q = peek();
        if (q != '\'' && q != '"') bad(std::string("expected a quoted string for ") + what);
        const size_t start = ++i_;
        while (i_ < s_.size() && s_[i_] != q) {
            if (s_[i_] == '\\' || s_[i_] == '\n') bad("escapes and line breaks in strings are not supported");
            ++i_;
        }
        if (i_ == s_.size()) bad("unterminated string");
        return std::string(s_.substr(start, i_++ - start));
    }
    bool word(std::string_view w) {
        if (s_.substr(i_, w.size()) != w) return false;
        const size_t end = i_ + w.size();
        if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) return false;
        i_ = end;
        return true;
    }
    bool boolean() {
        if (word("True")) return true;
        if (word("False")) return false;
        bad("fortran_order must be True or False");
    }
    int64_t integer() {
        if (peek() == '-') bad("a negative dimension");
        if (!std::isdigit(static_cast<unsigned char>(peek()))) bad("expected a dimension (a non-negative integer)");
        int64_t v = 0;
        while (std::isdigit(static_cast<unsigned char>(peek()))) {
            if (__builtin_mul_overflow(v, int64_t{10}, &v) || __builtin_add_overflow(v, int64_t{peek() - '0'}, &v))
                bad("a dimension does not fit int64");
            ++i_;
        }
        if (peek() == 'L') ++i_;  // Python 2's long literals, in files written by old NumPy
        return v;
    }
    IntArray shape() {
        expect('(');
        IntArray dims;
        ws();
        if (peek() == ')') {
            ++i_;
            return dims;
        }
        for (;;) {
            if (dims.size() == kMaxDims) bad("more than 64 dimensions");
            dims.push_back(integer());
            ws();
            if (peek() == ')') {
                if (dims.size() == 1) bad("a one-element shape needs a trailing comma, as in (3,)");
                ++i_;
                return dims;
            }
            expect(',');
            ws();
            if (peek() == ')') {
                ++i_;
                return dims;
            }
        }
    }
    void set_dtype(Header& h) {
        std::string_view d = h.descr;
        char order = '=';
        if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '=' || d[0] == '|')) {
            order = d[0];
            d.remove_prefix(1);
        }
        ScalarType st{};
        if (d == "b1") st = ScalarType::Bool;
        else if (d == "u1") st = ScalarType::UInt8;
        else if (d == "i1") st = ScalarType::Int8;
        else if (d == "i2") st = ScalarType::Int16;
        else if (d == "i4") st = ScalarType::Int32;
        else if (d == "i8") st = ScalarType::Int64;
        else if (d == "f2") st = ScalarType::Float16;
        else if (d == "f4") st = ScalarType::Float32;
        else if (d == "f8") st = ScalarType::Float64;
        else if (d == "c8") st = ScalarType::ComplexFloat;
        else if (d == "c16") st = ScalarType::ComplexDouble;
        else
            bad("descr '" + h.descr +
                "' is not one of tenet's dtypes (b1, u1, i1, i2, i4, i8, f2, f4, f8, c8, c16 in either byte order)");
        h.dtype = st;
        const char native = native_order();
        h.swap = h.dtype.itemsize() > 1 && (order == '<' || order == '>') && order != native;
    }

    std::string_view s_;
    size_t i_ = 0;
    const std::string& name_;
    const char* op_;
};

/// The header's length fields: how many bytes precede the header text, and its length.
struct Prefix {
    int major = 1;
    uint64_t prefix_len = 10;  // magic + version + length field
    uint64_t header_len = 0;
};

inline uint64_t read_le(const unsigned char* p, int n) {
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | p[k];
    return v;
}

/// Reads the magic, version and header length from the first bytes of a file (`n` of them
/// available, `file_size` in all); checks that the header fits in the file.
inline Prefix parse_prefix(const unsigned char* p, size_t n, uint64_t file_size, const std::string& name,
                           const char* op) {
    if (n < kMagicLen + 2 || std::memcmp(p, kMagic, kMagicLen) != 0)
        fail<io_error>(op, ": ", name, ": not a .npy file (it does not start with the magic string \\x93NUMPY)");
    Prefix pr;
    pr.major = p[6];
    if ((p[6] != 1 && p[6] != 2 && p[6] != 3) || p[7] != 0)
        fail<io_error>(op, ": ", name, ": unsupported .npy format version ", int(p[6]), ".", int(p[7]),
                       " (tenet reads 1.0, 2.0 and 3.0)");
    const int len_bytes = pr.major == 1 ? 2 : 4;
    pr.prefix_len = kMagicLen + 2 + static_cast<uint64_t>(len_bytes);
    if (n < pr.prefix_len)
        fail<io_error>(op, ": ", name, ": truncated .npy file (", file_size, " bytes, shorter than its header)");
    pr.header_len = read_le(p + 8, len_bytes);
    if (pr.header_len > file_size - pr.prefix_len)
        fail<io_error>(op, ": ", name, ": truncated .npy file: the header claims ", pr.header_len,
                       " bytes but the file has ", file_size - pr.prefix_len, " after the length field");
    return pr;
}

/// Parses a whole header from memory that holds at least the prefix and header text.
inline Header parse_header(const unsigned char* p, size_t n, uint64_t file_size, const std::string& name,
                           const char* op) {
    const Prefix pr = parse_prefix(p, n, file_size, name, op);
    if (n - pr.prefix_len < pr.header_len)
        fail<io_error>(op, ": ", name, ": truncated .npy header");
    Header h;
    h.major = pr.major;
    h.data_offset = pr.prefix_len + pr.header_len;
    HeaderParser(std::string_view(reinterpret_cast<const char*>(p) + pr.prefix_len, pr.header_len), name, op)
        .parse(h);
    return h;
}

/// Checks that the element bytes the header promises are present.
inline void check_data_present(const Header& h, uint64_t available, const std::string& name, const char* op) {
    if (available < h.data_bytes)
        fail<io_error>(op, ": ", name, ": truncated .npy data: the header (shape ", h.shape, ", descr '", h.descr,
                       "') needs ", h.data_bytes, " bytes of data but ", available, " are present");
}

/// Strides of a dense tensor in the file's order.
inline IntArray file_strides(const Header& h) {
    if (!h.fortran_order) return contiguous_strides(h.shape);
    IntArray st(h.shape.size());
    int64_t s = 1;
    for (size_t i = 0; i < h.shape.size(); ++i) {
        st[i] = s;
        s *= std::max<int64_t>(h.shape[i], 1);
    }
    return st;
}

/// Fixes the element bytes after a raw read: the byte order, and bool bytes other than 0/1
/// (a C++ bool may only hold 0 or 1; NumPy treats any nonzero byte as True).
inline void fix_elements(const Header& h, void* data) {
    auto* b = static_cast<unsigned char*>(data);
    const uint64_t n = h.data_bytes;
    if (h.swap) {  // a complex element is two reals, each swapped on its own
        const auto k = static_cast<uint64_t>(h.dtype.itemsize() / (h.dtype.is_complex() ? 2 : 1));
        for (uint64_t i = 0; i < n; i += k) std::reverse(b + i, b + i + k);
    }
    if (h.dtype == kBool)
        for (uint64_t i = 0; i < n; ++i)
            if (b[i] > 1) b[i] = 1;
}

/// A fresh host tensor of the header's shape, dtype and order.
inline TensorBase make_tensor(const Header& h) {
    return TensorBase(make_dense_impl(h.shape, file_strides(h), h.dtype, Device(DeviceType::CPU)));
}

/// A file descriptor closed on scope exit.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

/// pread until `n` bytes are in or the file ends; returns how many were read.
inline uint64_t pread_all(int fd, void* dst, uint64_t n, uint64_t offset, const std::string& name, const char* op) {
    auto* d = static_cast<char*>(dst);
    uint64_t done = 0;
    while (done < n) {
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n - done, uint64_t{1} << 30));
        const ssize_t r = ::pread(fd, d + done, chunk, static_cast<off_t>(offset + done));
        if (r < 0) {
            if (errno == EINTR) continue;
            fail<io_error>(op, ": ", name, ": read failed: ", std::strerror(errno));
        }
        if (r == 0) break;
        done += static_cast<uint64_t>(r);
    }
    return done;
}

inline void write_all(int fd, const void* src, uint64_t n, const std::string& name, const char* op) {
    const auto* s = static_cast<const char*>(src);
    while (n > 0) {
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(n, uint64_t{1} << 30));
        const ssize_t w = ::write(fd, s, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            fail<io_error>(op, ": ", name, ": write failed: ", std::strerror(errno));
        }
        s += w;
        n -= static_cast<uint64_t>(w);
    }
}

/// Python's repr of a shape tuple: (), (3,), (2, 3).
inline std::string shape_repr(const IntArray& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

/// The bytes before the data, exactly as NumPy 1.24's np.save writes them: the dict with its
/// keys sorted, room for the first (C order) or last (Fortran order) dim to grow to 21 digits,
/// spaces and a newline up to a multiple of 64 bytes; version 1.0 when the header length fits
/// 16 bits, else 2.0.
inline std::string make_header(DType dtype, bool fortran_order, const IntArray& shape, const char* op) {
    if (shape.size() > kMaxDims)
        fail<shape_error>(op, ": a tensor of ", shape.size(), " dimensions; .npy files hold at most ", kMaxDims,
                          " here (NumPy: 32)");
    std::string dict = "{'descr': '" + descr_of(dtype, op) + "', 'fortran_order': " +
                       (fortran_order ? "True" : "False") + ", 'shape': " + shape_repr(shape) + ", }";
    if (!shape.empty()) {
        const size_t digits = std::to_string(shape[fortran_order ? shape.size() - 1 : 0]).size();
        if (digits < kGrowthAxisMaxDigits) dict.append(kGrowthAxisMaxDigits - digits, ' ');
    }
    const auto wrap = [&](int major) {
        const size_t len_bytes = major == 1 ? 2 : 4;
        const size_t hlen = dict.size() + 1;
        const size_t pad = kAlign - (kMagicLen + 2 + len_bytes + hlen) % kAlign;
        const uint64_t total = hlen + pad;
        std::string out(kMagic, kMagicLen);
        out += static_cast<char>(major);
        out += '\0';
        for (size_t k = 0; k < len_bytes; ++k) out += static_cast<char>((total >> (8 * k)) & 0xff);
        out += dict;
        out.append(pad, ' ');
        out += '\n';
        return std::pair{out, total};
    };
    auto [v1, len1] = wrap(1);
    if (len1 <= 0xffff) return v1;
    auto [v2, len2] = wrap(2);
    if (len2 > 0xffffffffu) fail<value_error>(op, ": the .npy header of shape ", shape, " is too long");
    return v2;
}

/// Whether a tensor's elements are dense in column-major (Fortran) order.
inline bool is_fortran_contiguous(const TensorBase& t) {
    IntArray sizes = t.sizes(), strides = t.strides();
    std::reverse(sizes.begin(), sizes.end());
    std::reverse(strides.begin(), strides.end());
    return is_contiguous(sizes, strides);
}

/// The tensor as it is written: on the host, and contiguous in C or (`fortran` set) Fortran
/// order, without a copy when it already is. A dtype_error for bfloat16, before any copy.
inline TensorBase prepare(const TensorBase& tensor, bool& fortran, const char* op) {
    (void)descr_of(tensor.dtype(), op);
    TensorBase t = tensor;
    if (!t.is_cpu()) t = visit_dtype_with_complex(t.dtype(), [&]<class U>(dtype_t<U>) -> TensorBase { return t.as<U>().cpu(); });
    fortran = false;
    if (!t.is_contiguous()) {
        fortran = is_fortran_contiguous(t);
        if (!fortran)
            t = visit_dtype_with_complex(t.dtype(),
                                         [&]<class U>(dtype_t<U>) -> TensorBase { return t.as<U>().contiguous(); });
    }
    return t;
}

}  // namespace detail::npy

namespace detail {

/// Reads a .npy file held in memory (`name` is used in messages): the element bytes are copied
/// into a fresh host tensor. Bytes after the data are ignored, as np.load does. The from-memory
/// reader behind the fuzzer and load_npz.
inline TensorBase parse_npy(const void* data, size_t size, const std::string& name) {
    const char* op = "load_npy";
    const auto* p = static_cast<const unsigned char*>(data);
    const npy::Header h = npy::parse_header(p, size, size, name, op);
    npy::check_data_present(h, size - h.data_offset, name, op);
    TensorBase t = npy::make_tensor(h);
    if (h.data_bytes) std::memcpy(first_byte(t), p + h.data_offset, h.data_bytes);
    npy::fix_elements(h, first_byte(t));
    return t;
}

}  // namespace detail

/// Writes a tensor to a .npy file, as NumPy's np.save (byte for byte what NumPy 1.24 writes).
/// A contiguous tensor is written straight from its storage; a Fortran-contiguous one (such as
/// `.t()` of a contiguous matrix) is written with fortran_order True, also without a copy; any
/// other view is written in C order through a contiguous copy. A device tensor is copied to the
/// host first. bfloat16 has no NumPy dtype: a dtype_error (save `t.to<float>()` instead).
inline void save_npy(const std::string& path, const TensorBase& tensor) {
    const char* op = "save_npy";
    if (!tensor.defined()) detail::fail<value_error>(op, ": ", path, ": the tensor is undefined");
    bool fortran = false;
    const TensorBase t = detail::npy::prepare(tensor, fortran, op);
    const std::string header = detail::npy::make_header(t.dtype(), fortran, t.sizes(), op);
    detail::npy::Fd fd{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (fd.fd < 0) detail::fail<io_error>(op, ": cannot open ", path, " for writing: ", std::strerror(errno));
    detail::npy::write_all(fd.fd, header.data(), header.size(), path, op);
    detail::npy::write_all(fd.fd, detail::first_byte(t), static_cast<uint64_t>(t.nbytes()), path, op);
    const int rc = ::close(std::exchange(fd.fd, -1));
    if (rc != 0) detail::fail<io_error>(op, ": ", path, ": close failed: ", std::strerror(errno));
}

/// Reads a .npy file, as NumPy's np.load: a host tensor of the file's dtype and shape. A file in
/// Fortran order loads as a column-major tensor (strides reversed, as torch.from_numpy gives for
/// a Fortran array); big-endian data is byte-swapped. Versions 1.0, 2.0 and 3.0 are read.
///
/// With `mmap` true the file is mapped (np.load's mmap_mode='c'): MAP_PRIVATE, so writes to the
/// tensor stay in this process's memory and never reach the file; the tensor's storage owns the
/// mapping and unmaps it when the last tensor sharing it goes. A big-endian file, or one whose
/// data is not aligned for its dtype (NumPy's own files always are), is read and converted
/// instead of mapped. As with any mapping (and NumPy's), the file must not be truncated while a
/// tensor maps it.
inline TensorBase load_npy(const std::string& path, bool mmap = false) {
    namespace npy = detail::npy;
    const char* op = "load_npy";
    npy::Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (fd.fd < 0) detail::fail<io_error>(op, ": cannot open ", path, ": ", std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0) detail::fail<io_error>(op, ": ", path, ": stat failed: ", std::strerror(errno));
    if (!S_ISREG(st.st_mode)) detail::fail<io_error>(op, ": ", path, ": not a regular file");
    const auto file_size = static_cast<uint64_t>(st.st_size);

    unsigned char prefix[12] = {};
    const uint64_t got = npy::pread_all(fd.fd, prefix, std::min<uint64_t>(file_size, sizeof prefix), 0, path, op);
    const npy::Prefix pr = npy::parse_prefix(prefix, static_cast<size_t>(got), file_size, path, op);
    // The header's length was checked against the file's, so this allocation is bounded by it.
    std::string text(static_cast<size_t>(pr.header_len), '\0');
    if (npy::pread_all(fd.fd, text.data(), pr.header_len, pr.prefix_len, path, op) != pr.header_len)
        detail::fail<io_error>(op, ": ", path, ": the file shrank while being read");
    npy::Header h;
    h.major = pr.major;
    h.data_offset = pr.prefix_len + pr.header_len;
    npy::HeaderParser(text, path, op).parse(h);
    npy::check_data_present(h, file_size - h.data_offset, path, op);

    const bool aligned = h.data_offset % static_cast<uint64_t>(h.dtype.itemsize()) == 0;
    if (mmap && !h.swap && aligned && h.data_bytes > 0) {
        void* base = ::mmap(nullptr, static_cast<size_t>(file_size), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd.fd, 0);
        if (base == MAP_FAILED) detail::fail<io_error>(op, ": ", path, ": mmap failed: ", std::strerror(errno));
        const auto map_size = static_cast<size_t>(file_size);
        auto impl = TensorImplPtr::make();
        try {
            impl->storage = detail::make_pooled<StorageImpl>(static_cast<char*>(base) + h.data_offset,
                                                             static_cast<size_t>(h.data_bytes),
                                                             Device(DeviceType::CPU),
                                                             [base, map_size](void*) { ::munmap(base, map_size); });
        } catch (...) {
            ::munmap(base, map_size);
            throw;
        }
        impl->set_geometry(h.shape, npy::file_strides(h));
        impl->dtype = h.dtype;
        npy::fix_elements(h, impl->storage->data());  // bool bytes: copy-on-write only where changed
        return TensorBase(std::move(impl));
    }
    TensorBase t = npy::make_tensor(h);
    if (npy::pread_all(fd.fd, detail::first_byte(t), h.data_bytes, h.data_offset, path, op) != h.data_bytes)
        detail::fail<io_error>(op, ": ", path, ": the file shrank while being read");
    npy::fix_elements(h, detail::first_byte(t));
    return t;
}

/// Reads a .npy file whose dtype is T (np.load with a checked dtype): a dtype_error naming both
/// dtypes otherwise (to convert, write `load_npy(path).to<T>()`).
template <class T>
Tensor<T> load_npy(const std::string& path, bool mmap = false) {
    TensorBase t = load_npy(path, mmap);
    if (t.dtype() != dtype_of<T>)
        detail::fail<dtype_error>("load_npy: ", path, " holds ", t.dtype(), " but ", dtype_of<T>,
                                  " was asked for; to convert, use load_npy(path).to<T>()");
    return t.as<T>();
}

}  // namespace tenet
