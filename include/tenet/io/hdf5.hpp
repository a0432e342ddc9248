#pragma once
// HDF5 datasets as tensors, through HDF5's own C library (h5py's vocabulary where C++ allows):
// save_h5 / load_h5 (whole datasets or hyperslabs), chunked and gzip-compressed layouts,
// attributes as metadata, and h5_datasets to list a file.
//
// Element types, as h5py maps NumPy's: the integer and IEEE float types of every byte order
// (HDF5 converts to native order while reading); bool is h5py's enum {FALSE = 0, TRUE = 1} over
// a 1-byte integer; float16 is h5py's 16-bit float (sign 15, exponent 10..14, mantissa 0..9,
// bias 15); complex64 and complex128 are h5py's compound {r, i} of two float32 or two float64
// (any byte order, any member offsets: HDF5 converts by member name). tenet writes those same
// types (little-endian; complex as {r at 0, i after it}). bfloat16 has no HDF5 standard type:
// writing it is a dtype_error. A compound that is not exactly {r, i} of one float32 or float64
// type (h5py reads it as a structured array) is a dtype_error naming the file, the dataset and
// its members. Everything else (strings, other enums, variable-length, arrays, opaque,
// references, unsigned 16/32/64-bit integers, which tenet has no dtype for) is an io_error
// naming the file, the dataset and the type.
//
// HDF5's own printing of its error stack is switched off while tenet calls it (and restored
// after): failures are tenet exceptions whose message ends with HDF5's error stack. Every
// HDF5 handle is closed by an RAII wrapper, on the error paths too. Calls from several threads
// need a thread-safe HDF5 build (Debian's is; it serialises them); a file open for writing
// elsewhere (also in this process, through h5py or HDF5 directly) cannot be opened again.

#include "tenet/config.hpp"

#if !TENET_HAVE_HDF5
#error "<tenet/io/hdf5.hpp> needs HDF5's C library (Debian libhdf5-dev); see cmake/tenetFiles.cmake"
#endif

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tenet/core/dtype.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/indexing.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

/// How save_h5 lays a dataset out (h5py's create_dataset arguments).
struct H5Options {
    /// Chunk shape (one entry per dim, each in [1, size]); empty: the contiguous layout.
    IntArray chunks = {};
    /// gzip level 0..9 (h5py's compression="gzip", compression_opts=level); unset: none.
    /// Needs `chunks` (HDF5 filters only chunked data): without them save_h5 refuses
    /// (value_error) rather than guess a chunk shape.
    std::optional<int> compression = std::nullopt;
    /// Replace a dataset of the same name (its old space in the file is not reclaimed, as in
    /// HDF5 itself); otherwise an existing one is an io_error.
    bool overwrite = false;
};

/// An attribute's value (h5py's attrs[name]): scalar integers read as int64, scalar floats as
/// double, strings (fixed or variable length) as std::string, everything else (arrays, bools,
/// complex scalars: 0-d) as a tensor.
using H5Attribute = std::variant<int64_t, double, std::string, TensorBase>;

namespace detail::h5 {

/// An owned hid_t, closed by the given H5*close function.
class Id {
public:
    Id() = default;
    Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;
    Id(Id&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
    Id& operator=(Id&& o) noexcept {
        std::swap(id_, o.id_);
        std::swap(close_, o.close_);
        return *this;
    }
    ~Id() {
        if (id_ >= 0 && close_) close_(id_);
    }
    hid_t get() const { return id_; }
    /// Closes now, reporting failure (a file's close flushes it).
    herr_t close() { return id_ >= 0 && close_ ? close_(std::exchange(id_, H5I_INVALID_HID)) : 0; }

private:
    hid_t id_ = H5I_INVALID_HID;
    herr_t (*close_)(hid_t) = nullptr;
};

/// Switches off HDF5's automatic printing of its error stack for its lifetime (restored after).
class Quiet {
public:
    Quiet() {
        if (H5Eget_auto2(H5E_DEFAULT, &func_, &data_) < 0) func_ = nullptr, data_ = nullptr;
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    Quiet(const Quiet&) = delete;
    Quiet& operator=(const Quiet&) = delete;
    ~Quiet() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

private:
    H5E_auto2_t func_ = nullptr;
    void* data_ = nullptr;
};

/// HDF5's reasons for the last failure (its error stack, innermost first: the innermost alone
/// can be a side issue, such as a missing plugin directory for an unregistered filter), or "".
inline std::string reason() {
    std::string text;
    auto walk = [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
        try {
            auto& t = *static_cast<std::string*>(out);
            if (e->desc && *e->desc) t += (t.empty() ? "" : "; ") + std::string(e->desc);
            return 0;
        } catch (...) {  // no exception may cross HDF5's C frames
            return -1;
        }
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk, &text);
    H5Eclear2(H5E_DEFAULT);
    return text;
}

/// What a call is about, for messages: "load_h5: data.h5: dataset '/x'".
struct Where {
    const char* op;
    const std::string& path;
    std::string object;  // "dataset '/x'", "attribute 'a' of '/x'", or empty

    template <class Error = io_error, class... Parts>
    [[noreturn]] void fail(const Parts&... parts) const {
        detail::fail<Error>(op, ": ", path, object.empty() ? "" : ": ", object, object.empty() ? "" : ": ", parts...);
    }
    /// Fails with HDF5's reason appended.
    template <class... Parts>
    [[noreturn]] void fail_hdf5(const Parts&... parts) const {
        const std::string why = reason();
        fail(parts..., why.empty() ? "" : " (HDF5: ", why, why.empty() ? "" : ")");
    }
    Id check(hid_t id, herr_t (*close)(hid_t), const char* what) const {
        if (id < 0) fail_hdf5(what, " failed");
        return Id(id, close);
    }
    void check(herr_t status, const char* what) const {
        if (status < 0) fail_hdf5(what, " failed");
    }
};

inline Id copy_type(hid_t predefined, const Where& w) { return w.check(H5Tcopy(predefined), H5Tclose, "H5Tcopy"); }

/// h5py's float16: an IEEE binary16 in the given byte order.
inline Id half_type(hid_t float32_base, const Where& w) {
    Id t = copy_type(float32_base, w);
    w.check(H5Tset_fields(t.get(), 15, 10, 5, 0, 10), "H5Tset_fields");
    w.check(H5Tset_size(t.get(), 2), "H5Tset_size");
    w.check(H5Tset_ebias(t.get(), 15), "H5Tset_ebias");
    return t;
}

/// h5py's bool: an enum {FALSE = 0, TRUE = 1} over a 1-byte signed integer.
inline Id bool_type(hid_t int8_base, const Where& w) {
    Id t = w.check(H5Tenum_create(int8_base), H5Tclose, "H5Tenum_create");
    const signed char no = 0, yes = 1;
    w.check(H5Tenum_insert(t.get(), "FALSE", &no), "H5Tenum_insert");
    w.check(H5Tenum_insert(t.get(), "TRUE", &yes), "H5Tenum_insert");
    return t;
}

/// h5py's complex: a compound {r, i} of two `part` floats, i right after r.
inline Id complex_type(hid_t part, const Where& w) {
    const size_t size = H5Tget_size(part);
    Id t = w.check(H5Tcreate(H5T_COMPOUND, 2 * size), H5Tclose, "H5Tcreate");
    w.check(H5Tinsert(t.get(), "r", 0, part), "H5Tinsert");
    w.check(H5Tinsert(t.get(), "i", size, part), "H5Tinsert");
    return t;
}

/// The HDF5 type of a tenet dtype: in memory (native order; HDF5 converts a file's byte order
/// to it while reading) or in a file (little-endian, as h5py writes on x86).
inline Id hdf5_type(ScalarType s, bool in_file, const Where& w) {
    switch (s) {
        case ScalarType::Bool: return bool_type(in_file ? H5T_STD_I8LE : H5T_NATIVE_SCHAR, w);
        case ScalarType::UInt8: return copy_type(in_file ? H5T_STD_U8LE : H5T_NATIVE_UCHAR, w);
        case ScalarType::Int8: return copy_type(in_file ? H5T_STD_I8LE : H5T_NATIVE_SCHAR, w);
        case ScalarType::Int16: return copy_type(in_file ? H5T_STD_I16LE : H5T_NATIVE_INT16, w);
        case ScalarType::Int32: return copy_type(in_file ? H5T_STD_I32LE : H5T_NATIVE_INT32, w);
        case ScalarType::Int64: return copy_type(in_file ? H5T_STD_I64LE : H5T_NATIVE_INT64, w);
        case ScalarType::Float16: return half_type(in_file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT, w);
        case ScalarType::Float32: return copy_type(in_file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT, w);
        case ScalarType::Float64: return copy_type(in_file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE, w);
        case ScalarType::ComplexFloat: return complex_type(in_file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT, w);
        case ScalarType::ComplexDouble: return complex_type(in_file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE, w);
        case ScalarType::BFloat16: break;
    }
    w.fail<dtype_error>("bfloat16 has no HDF5 standard type (h5py has none either); convert it first, "
                        "e.g. t.to<float>()");
}

/// Whether an enum type is h5py's bool: two members, FALSE = 0 and TRUE = 1, over 1 byte.
inline bool is_h5py_bool(hid_t type) {
    if (H5Tget_nmembers(type) != 2 || H5Tget_size(type) != 1) return false;
    bool ok = true;
    for (unsigned i = 0; i < 2 && ok; ++i) {
        char* name = H5Tget_member_name(type, i);
        signed char value = -1;
        ok = name && H5Tget_member_value(type, i, &value) >= 0 &&
             std::strcmp(name, value == 0 ? "FALSE" : "TRUE") == 0 && (value == 0 || value == 1);
        if (name) H5free_memory(name);
    }
    return ok;
}

/// Calls f(i, name, member) for the members of compound `type` in order until f returns false:
/// `name` the member's name (null if HDF5 gives none), `member` its type (negative if HDF5 fails);
/// both are released after each call.
template <class F>
void for_each_member(hid_t type, F&& f) {
    for (int i = 0, n = H5Tget_nmembers(type); i < n; ++i) {
        char* name = H5Tget_member_name(type, static_cast<unsigned>(i));
        const hid_t member = H5Tget_member_type(type, static_cast<unsigned>(i));
        const bool more = f(i, static_cast<const char*>(name), member);
        if (name) H5free_memory(name);
        if (member >= 0) H5Tclose(member);
        if (!more) return;
    }
}

/// A compound's member names and types, in order ("{a: signed 32-bit integer, b: 64-bit float}"),
/// for messages (the first 8; nested compounds described the same way).
inline std::string describe(hid_t type);
inline std::string describe_members(hid_t type) {
    std::string text = "{";
    for_each_member(type, [&](int i, const char* name, hid_t member) {
        if (i == 8) {
            text += ", ... (" + std::to_string(H5Tget_nmembers(type)) + " members)";
            return false;
        }
        text += (i ? ", " : "") + std::string(name ? name : "?") + ": " + (member >= 0 ? describe(member) : "?");
        return true;
    });
    return text + "}";
}

/// A reader's description of a type tenet has no dtype for.
inline std::string describe(hid_t type) {
    const size_t size = H5Tget_size(type);
    const std::string bits = std::to_string(size * 8) + "-bit";
    switch (H5Tget_class(type)) {
        case H5T_INTEGER:
            return (H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned " : "signed ") + bits + " integer";
        case H5T_FLOAT: return bits + " float";
        case H5T_STRING: return H5Tis_variable_str(type) > 0 ? "variable-length string" : "fixed-length string";
        case H5T_COMPOUND: return "compound " + describe_members(type);
        case H5T_ENUM: return "enum (not h5py's bool)";
        case H5T_VLEN: return "variable-length sequence";
        case H5T_ARRAY: return "array";
        case H5T_OPAQUE: return "opaque";
        case H5T_REFERENCE: return "reference";
        case H5T_BITFIELD: return "bitfield";
        case H5T_TIME: return "time";
        default: return "unknown type class";
    }
}

inline std::optional<ScalarType> dtype_for(hid_t type);

/// h5py's complex: exactly two members, "r" then "i", of one float type (float32 or float64).
inline std::optional<ScalarType> complex_dtype_for(hid_t type) {
    if (H5Tget_nmembers(type) != 2) return std::nullopt;
    std::optional<ScalarType> parts[2];
    bool names = true, members = true;
    for_each_member(type, [&](int i, const char* name, hid_t member) {
        names = names && name && std::strcmp(name, i == 0 ? "r" : "i") == 0;
        if (member < 0) return members = false;
        if (H5Tget_class(member) == H5T_FLOAT) parts[i] = dtype_for(member);
        return true;
    });
    if (!members || !names || parts[0] != parts[1]) return std::nullopt;
    if (parts[0] == ScalarType::Float32) return ScalarType::ComplexFloat;
    if (parts[0] == ScalarType::Float64) return ScalarType::ComplexDouble;
    return std::nullopt;  // float16 parts: NumPy and tenet have no complex32
}

/// The tenet dtype a file type reads as, or nullopt.
inline std::optional<ScalarType> dtype_for(hid_t type) {
    const size_t size = H5Tget_size(type);
    switch (H5Tget_class(type)) {
        case H5T_INTEGER: {
            const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
            if (H5Tget_precision(type) != size * 8) return std::nullopt;  // padded integers
            if (!is_signed) return size == 1 ? std::optional(ScalarType::UInt8) : std::nullopt;
            if (size == 1) return ScalarType::Int8;
            if (size == 2) return ScalarType::Int16;
            if (size == 4) return ScalarType::Int32;
            if (size == 8) return ScalarType::Int64;
            return std::nullopt;
        }
        case H5T_FLOAT: {
            size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
            if (H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize) < 0) return std::nullopt;
            if (size == 2 && spos == 15 && epos == 10 && esize == 5 && mpos == 0 && msize == 10 &&
                H5Tget_ebias(type) == 15)
                return ScalarType::Float16;
            if (size == 4 && esize == 8 && msize == 23) return ScalarType::Float32;
            if (size == 8 && esize == 11 && msize == 52) return ScalarType::Float64;
            return std::nullopt;
        }
        case H5T_ENUM:
            if (is_h5py_bool(type)) return ScalarType::Bool;
            return std::nullopt;
        case H5T_COMPOUND: return complex_dtype_for(type);
        default: return std::nullopt;
    }
}

/// Refuses a type dtype_for has no dtype for: a dtype_error for a compound (a structured
/// array, not h5py's complex), an io_error for the rest.
[[noreturn]] inline void fail_no_dtype(hid_t type, const Where& w) {
    if (H5Tget_class(type) == H5T_COMPOUND)
        w.fail<dtype_error>("has type ", describe(type), ", which is not h5py's complex (exactly the members r and "
                            "i, both float32 or both float64): tenet has no dtype for it");
    w.fail("has type ", describe(type), ", which tenet has no dtype for");
}

/// The extent of a dataspace (empty for a scalar), refusing a null dataspace. Its product may
/// overflow (a hyperslab of it can still be read): check_bytes guards what is allocated.
inline IntArray extent(hid_t space, const Where& w) {
    const H5S_class_t kind = H5Sget_simple_extent_type(space);
    if (kind == H5S_SCALAR) return {};
    if (kind != H5S_SIMPLE) w.fail(kind == H5S_NULL ? "has a null dataspace (no data)" : "has an unknown dataspace");
    const int rank = H5Sget_simple_extent_ndims(space);
    if (rank < 0) w.fail_hdf5("H5Sget_simple_extent_ndims failed");
    std::vector<hsize_t> dims(static_cast<size_t>(rank));
    if (H5Sget_simple_extent_dims(space, dims.data(), nullptr) < 0) w.fail_hdf5("H5Sget_simple_extent_dims failed");
    IntArray sizes;
    for (hsize_t d : dims) {
        if (d > static_cast<hsize_t>(INT64_MAX)) w.fail("dimension ", d, " does not fit int64");
        sizes.push_back(static_cast<int64_t>(d));
    }
    return sizes;
}

/// Refuses sizes whose byte count overflows int64 before anything is allocated from them.
inline void check_bytes(const IntArray& sizes, ScalarType dtype, const Where& w) {
    int64_t bytes = DType(dtype).itemsize();
    for (int64_t s : sizes)
        if (s == 0) return;
    for (int64_t s : sizes)
        if (__builtin_mul_overflow(bytes, s, &bytes))
            w.fail("extent ", sizes, " of ", DType(dtype), " overflows int64 bytes");
}

/// The C-order host copy of a tensor that is written (views and device tensors copied).
inline TensorBase host_contiguous(const TensorBase& t) {
    return visit_dtype_with_complex(t.dtype(), [&]<class U>(dtype_t<U>) -> TensorBase {
        Tensor<U> typed(t.impl_ptr());
        if (!typed.is_cpu()) typed = typed.cpu();
        return typed.contiguous();
    });
}

/// After reading into a bool tensor's bytes: every byte must be 0 or 1 (HDF5 writes 0xff for an
/// enum value that is no member).
inline void check_bools(const TensorBase& t, const Where& w) {
    const auto* bytes = static_cast<const unsigned char*>(first_byte(t));
    for (int64_t i = 0; i < t.numel(); ++i)
        if (bytes[i] > 1) w.fail("bool element ", i, " is neither FALSE nor TRUE");
}

inline Id open_file(const std::string& path, bool writable, const Where& w) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) w.fail("no such file");
    const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
    if (is_hdf5 == 0) w.fail("not an HDF5 file");
    if (is_hdf5 < 0) w.fail_hdf5("cannot be read");
    return w.check(H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                   "H5Fopen");
}

/// Whether every link along `name` exists (H5Lexists fails, rather than answering, on a
/// missing intermediate group).
inline bool exists(hid_t file, const std::string& name, const Where& w) {
    if (name.empty() || name == "/") return true;
    for (size_t pos = 1; pos != std::string::npos;) {
        pos = name.find('/', pos + 1);
        const std::string prefix = name.substr(0, pos);
        if (prefix.empty() || prefix.back() == '/') continue;
        const htri_t e = H5Lexists(file, prefix.c_str(), H5P_DEFAULT);
        if (e < 0) w.fail_hdf5("cannot look up '", prefix, "' (is a component of the path not a group?)");
        if (e == 0) return false;
    }
    return true;
}

inline std::string absolute(const std::string& name) { return name.empty() || name[0] != '/' ? "/" + name : name; }

inline Id open_object(hid_t file, const std::string& name, const Where& w) {
    if (!exists(file, absolute(name), w)) w.fail("no such object");
    return w.check(H5Oopen(file, absolute(name).c_str(), H5P_DEFAULT), H5Oclose, "H5Oopen");
}

inline Id open_dataset(hid_t file, const std::string& name, const Where& w) {
    if (!exists(file, absolute(name), w)) w.fail("no such dataset");
    Id object = w.check(H5Oopen(file, absolute(name).c_str(), H5P_DEFAULT), H5Oclose, "H5Oopen");
    if (H5Iget_type(object.get()) != H5I_DATASET) w.fail("is not a dataset");
    return object;
}

/// The hyperslab an index list selects: start/stride/count per dataset dim, and the result's
/// sizes (integers drop their dim, None adds one of size 1), as tensor indexing does.
struct Hyperslab {
    std::vector<hsize_t> start, stride, count;
    IntArray sizes;
};

inline Hyperslab hyperslab(const IntArray& dims, std::span<const TensorIndex> index, const Where& w) {
    const auto ndim = static_cast<int64_t>(dims.size());
    int64_t consumed = 0, ellipses = 0;
    for (const TensorIndex& i : index) {
        if (i.kind() == TensorIndex::Kind::Boolean || i.kind() == TensorIndex::Kind::Indices)
            w.fail<index_error>("a hyperslab takes integers, slices, None and Ellipsis only (no bools or index "
                                "tensors: index the loaded tensor instead)");
        consumed += i.consumes_dim() ? 1 : 0;
        ellipses += i.kind() == TensorIndex::Kind::Ellipsis ? 1 : 0;
    }
    if (ellipses > 1) w.fail<index_error>("an index can only have a single ellipsis ('...')");
    if (consumed > ndim)
        w.fail<index_error>("too many indices for a dataset of dimension ", ndim, " (got ", consumed, ")");
    Hyperslab h;
    int64_t d = 0;
    auto take_whole = [&] {
        h.start.push_back(0);
        h.stride.push_back(1);
        h.count.push_back(static_cast<hsize_t>(dims[static_cast<size_t>(d)]));
        h.sizes.push_back(dims[static_cast<size_t>(d)]);
        ++d;
    };
    for (const TensorIndex& i : index) {
        switch (i.kind()) {
            case TensorIndex::Kind::Ellipsis:
                for (int64_t k = 0; k < ndim - consumed; ++k) take_whole();
                break;
            case TensorIndex::Kind::None: h.sizes.push_back(1); break;
            case TensorIndex::Kind::Integer: {
                const int64_t size = dims[static_cast<size_t>(d)];
                int64_t at = i.integer();
                if (at < -size || at >= size)
                    w.fail<index_error>("index ", at, " is out of bounds for dimension ", d, " with size ", size);
                if (at < 0) at += size;
                h.start.push_back(static_cast<hsize_t>(at));
                h.stride.push_back(1);
                h.count.push_back(1);
                ++d;
                break;
            }
            case TensorIndex::Kind::Slice: {
                // Python's clamping, as tensor slicing (slice_geometry) does.
                const Slice& s = i.slice();
                if (s.step() <= 0) w.fail<value_error>("slice step must be greater than zero, got ", s.step());
                const int64_t size = dims[static_cast<size_t>(d)];
                auto clamp_bound = [size](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size); };
                const int64_t start = s.start() ? clamp_bound(*s.start()) : 0;
                const int64_t stop = std::max(start, s.stop() ? clamp_bound(*s.stop()) : size);
                const int64_t count = (stop - start + s.step() - 1) / s.step();
                h.start.push_back(static_cast<hsize_t>(start));
                h.stride.push_back(static_cast<hsize_t>(s.step()));
                h.count.push_back(static_cast<hsize_t>(count));
                h.sizes.push_back(count);
                ++d;
                break;
            }
            default: break;
        }
    }
    while (d < ndim) take_whole();  // trailing dims are taken whole
    return h;
}

/// Reads a dataset, or the hyperslab `index` selects (nullptr: all of it), into a new tensor.
inline TensorBase read_dataset(const std::string& path, const std::string& name, std::span<const TensorIndex>* index,
                               const char* op) {
    Quiet quiet;
    Where w{op, path, ""};
    Id file = open_file(path, false, w);
    w.object = "dataset '" + absolute(name) + "'";
    Id dset = open_dataset(file.get(), name, w);
    Id type = w.check(H5Dget_type(dset.get()), H5Tclose, "H5Dget_type");
    const std::optional<ScalarType> dtype = dtype_for(type.get());
    if (!dtype) fail_no_dtype(type.get(), w);
    Id space = w.check(H5Dget_space(dset.get()), H5Sclose, "H5Dget_space");
    const IntArray dims = extent(space.get(), w);
    Hyperslab slab;
    if (index) slab = hyperslab(dims, *index, w);
    const IntArray& sizes = index ? slab.sizes : dims;
    check_bytes(sizes, *dtype, w);
    TensorBase out(make_contiguous_impl(sizes, *dtype, Device(DeviceType::CPU)));
    if (out.numel() == 0) return out;
    Id mem_type = hdf5_type(*dtype, false, w);
    Id mem_space;
    if (index && !dims.empty()) {
        w.check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, slab.start.data(), slab.stride.data(),
                                    slab.count.data(), nullptr),
                "H5Sselect_hyperslab");
        mem_space = w.check(H5Screate_simple(static_cast<int>(slab.count.size()), slab.count.data(), nullptr),
                            H5Sclose, "H5Screate_simple");
    } else {
        mem_space = w.check(H5Scopy(space.get()), H5Sclose, "H5Scopy");
    }
    w.check(H5Dread(dset.get(), mem_type.get(), mem_space.get(), space.get(), H5P_DEFAULT, first_byte(out)),
            "H5Dread");
    if (*dtype == ScalarType::Bool) check_bools(out, w);
    return out;
}

/// A dataspace of a tensor's sizes (scalar for 0-d).
inline Id space_of(const IntArray& sizes, const Where& w) {
    if (sizes.empty()) return w.check(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
    std::vector<hsize_t> dims(sizes.begin(), sizes.end());
    return w.check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
                   "H5Screate_simple");
}

/// Reads an attribute: scalar integers as int64, scalar floats as double, strings as string,
/// the rest as a tensor.
inline H5Attribute read_attribute(hid_t attr, const Where& w) {
    Id type = w.check(H5Aget_type(attr), H5Tclose, "H5Aget_type");
    Id space = w.check(H5Aget_space(attr), H5Sclose, "H5Aget_space");
    const IntArray dims = extent(space.get(), w);
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls == H5T_STRING) {
        if (!dims.empty()) w.fail("is an array of strings, which tenet does not read");
        if (H5Tis_variable_str(type.get()) > 0) {
            Id mem = copy_type(H5T_C_S1, w);
            w.check(H5Tset_size(mem.get(), H5T_VARIABLE), "H5Tset_size");
            w.check(H5Tset_cset(mem.get(), H5Tget_cset(type.get())), "H5Tset_cset");
            char* text = nullptr;
            w.check(H5Aread(attr, mem.get(), &text), "H5Aread");
            std::string value = text ? text : "";
            if (text) H5free_memory(text);
            return value;
        }
        const size_t size = H5Tget_size(type.get());
        std::string value(size, '\0');
        w.check(H5Aread(attr, type.get(), value.data()), "H5Aread");
        if (H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD) value.erase(value.find_last_not_of(' ') + 1);
        else value.resize(std::strlen(value.c_str()));
        return value;
    }
    const std::optional<ScalarType> dtype = dtype_for(type.get());
    if (dims.empty() && cls == H5T_INTEGER) {
        if (H5Tget_sign(type.get()) == H5T_SGN_NONE && H5Tget_size(type.get()) >= 8) {
            uint64_t value = 0;
            w.check(H5Aread(attr, H5T_NATIVE_UINT64, &value), "H5Aread");
            if (value > static_cast<uint64_t>(INT64_MAX)) w.fail("unsigned value ", value, " does not fit int64");
            return static_cast<int64_t>(value);
        }
        int64_t value = 0;
        w.check(H5Aread(attr, H5T_NATIVE_INT64, &value), "H5Aread");
        return value;
    }
    if (dims.empty() && cls == H5T_FLOAT && dtype) {
        double value = 0;
        w.check(H5Aread(attr, H5T_NATIVE_DOUBLE, &value), "H5Aread");
        return value;
    }
    if (!dtype) fail_no_dtype(type.get(), w);
    check_bytes(dims, *dtype, w);
    TensorBase out(make_contiguous_impl(dims, *dtype, Device(DeviceType::CPU)));
    if (out.numel() == 0) return out;
    Id mem = hdf5_type(*dtype, false, w);
    w.check(H5Aread(attr, mem.get(), first_byte(out)), "H5Aread");
    if (*dtype == ScalarType::Bool) check_bools(out, w);
    return out;
}

}  // namespace detail::h5

/// Writes a tensor as dataset `dataset` of the HDF5 file `path` (h5py's
/// `File(path, "a").create_dataset(dataset, data=t, chunks=..., compression="gzip")`): creates
/// the file if absent, else adds to it; intermediate groups ("group/sub/name") are created.
/// Views are written in C order, device tensors copied to the host first. An existing dataset
/// of that name is an io_error unless `options.overwrite`; bfloat16 is a dtype_error; chunks
/// that do not fit the shape, or compression without chunks, are a value_error.
inline void save_h5(const std::string& path, const std::string& dataset, const TensorBase& t,
                    const H5Options& options = {}) {
    using namespace detail::h5;
    Quiet quiet;
    Where w{"save_h5", path, "dataset '" + absolute(dataset) + "'"};
    if (dataset.empty() || dataset == "/") w.fail<value_error>("a dataset needs a name");
    Id file_type = hdf5_type(t.dtype().scalar_type(), true, w);  // bfloat16 refused before any file is touched
    if (options.compression && (*options.compression < 0 || *options.compression > 9))
        w.fail<value_error>("gzip compression level must be in 0..9, got ", *options.compression);
    if (options.compression && options.chunks.empty())
        w.fail<value_error>("compression needs chunks (HDF5 compresses chunk by chunk); set H5Options::chunks");
    if (!options.chunks.empty()) {
        if (options.chunks.size() != t.sizes().size())
            w.fail<value_error>("chunks ", options.chunks, " do not have one entry per dim of the shape ", t.sizes());
        for (size_t d = 0; d < options.chunks.size(); ++d)
            if (options.chunks[d] < 1 || options.chunks[d] > t.sizes()[d])
                w.fail<value_error>("chunks ", options.chunks, " do not fit the shape ", t.sizes(),
                                    " (each must be in [1, size])");
    }
    if (options.compression && H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
        w.fail("this HDF5 library has no gzip (deflate) filter");
    const TensorBase data = host_contiguous(t);

    Id file;
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        Where at{"save_h5", path, ""};
        file = open_file(path, true, at);
    } else {
        file = w.check(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "H5Fcreate");
    }
    const std::string name = absolute(dataset);
    if (exists(file.get(), name, w)) {
        Id existing = w.check(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), H5Oclose, "H5Oopen");
        if (H5Iget_type(existing.get()) != H5I_DATASET) w.fail("exists and is not a dataset");
        if (!options.overwrite) w.fail("already exists (set H5Options::overwrite to replace it)");
        existing.close();
        w.check(H5Ldelete(file.get(), name.c_str(), H5P_DEFAULT), "H5Ldelete");
    }
    Id space = space_of(data.sizes(), w);
    Id lcpl = w.check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "H5Pcreate");
    w.check(H5Pset_create_intermediate_group(lcpl.get(), 1), "H5Pset_create_intermediate_group");
    Id dcpl = w.check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate");
    if (!options.chunks.empty()) {
        std::vector<hsize_t> chunks(options.chunks.begin(), options.chunks.end());
        w.check(H5Pset_chunk(dcpl.get(), static_cast<int>(chunks.size()), chunks.data()), "H5Pset_chunk");
    }
    if (options.compression)
        w.check(H5Pset_deflate(dcpl.get(), static_cast<unsigned>(*options.compression)), "H5Pset_deflate");
    Id dset = w.check(H5Dcreate2(file.get(), name.c_str(), file_type.get(), space.get(), lcpl.get(), dcpl.get(),
                                 H5P_DEFAULT),
                      H5Dclose, "H5Dcreate2");
    if (data.numel() > 0) {
        Id mem_type = hdf5_type(data.dtype().scalar_type(), false, w);
        w.check(H5Dwrite(dset.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, detail::first_byte(data)),
                "H5Dwrite");
    }
    w.check(dset.close(), "H5Dclose");
    w.check(file.close(), "H5Fclose");
}

/// Reads dataset `dataset` of the HDF5 file `path` into a new tensor of the dtype it is stored
/// as (h5py's `File(path)[dataset][()]`; h5py's complex compounds as complex64/complex128). A
/// missing file or dataset, a file that is not HDF5, or a type tenet has no dtype for is an
/// io_error naming the file, the dataset and the type; a compound other than h5py's complex is a
/// dtype_error naming its members.
inline TensorBase load_h5(const std::string& path, const std::string& dataset) {
    return detail::h5::read_dataset(path, dataset, nullptr, "load_h5");
}

/// Reads only the hyperslab an index list selects (h5py's `File(path)[dataset][1:3, ::2, 0]`):
/// integers (negative from the end; out of range an index_error naming the dim and its size)
/// drop their dim, Slice(start, stop, step) with step > 0 clamps as slicing does, None adds a
/// dim of size 1, Ellipsis stands for the dims not named; trailing dims are taken whole. Only the
/// selected elements are read and allocated. Typed: `load_h5(path, dataset, {...}).as<T>()`.
inline TensorBase load_h5(const std::string& path, const std::string& dataset, std::span<const TensorIndex> index) {
    return detail::h5::read_dataset(path, dataset, &index, "load_h5");
}
/// load_h5 of a hyperslab, from a braced list: `load_h5(path, "x", {Slice(1, 3), 0})`.
inline TensorBase load_h5(const std::string& path, const std::string& dataset,
                          std::initializer_list<TensorIndex> index) {
    return load_h5(path, dataset, std::span<const TensorIndex>(index.begin(), index.size()));
}

/// load_h5 checked to element type T: a dtype_error naming both dtypes when the dataset holds
/// another (convert with `load_h5(path, dataset).to<T>()`).
template <class T>
Tensor<T> load_h5(const std::string& path, const std::string& dataset) {
    const TensorBase t = load_h5(path, dataset);
    if (t.dtype() != dtype_of<T>)
        detail::fail<dtype_error>("load_h5: ", path, ": dataset '", detail::h5::absolute(dataset), "' holds ",
                                  t.dtype(), ", not the requested ", dtype_of<T>, " (convert with .to<T>())");
    return Tensor<T>(t.impl_ptr());
}

/// Sets attribute `name` of `object` (a dataset or group path, "/" the root) in the HDF5 file
/// `path`, replacing one of that name (h5py's `obj.attrs[name] = value`). Integers are stored
/// as int64, floats as float64, strings as variable-length UTF-8 (as h5py does), tensors in
/// their dtype and shape (bfloat16 a dtype_error; a 0-d integer or float tensor reads back
/// as int64 or double, as h5py reads it as a NumPy scalar).
inline void set_h5_attribute(const std::string& path, const std::string& object, const std::string& name,
                             const H5Attribute& value) {
    using namespace detail::h5;
    Quiet quiet;
    Where w{"set_h5_attribute", path, ""};
    Id file = open_file(path, true, w);
    w.object = "attribute '" + name + "' of '" + absolute(object) + "'";
    Id obj = open_object(file.get(), object, w);
    TensorBase data;
    Id type, mem_type, space;
    const void* buffer = nullptr;
    const char* text = nullptr;
    int64_t int_value = 0;
    double float_value = 0;
    if (const auto* i = std::get_if<int64_t>(&value)) {
        int_value = *i;
        type = copy_type(H5T_STD_I64LE, w), mem_type = copy_type(H5T_NATIVE_INT64, w);
        space = space_of({}, w), buffer = &int_value;
    } else if (const auto* f = std::get_if<double>(&value)) {
        float_value = *f;
        type = copy_type(H5T_IEEE_F64LE, w), mem_type = copy_type(H5T_NATIVE_DOUBLE, w);
        space = space_of({}, w), buffer = &float_value;
    } else if (const auto* s = std::get_if<std::string>(&value)) {
        if (s->find('\0') != std::string::npos) w.fail<value_error>("a string attribute cannot hold a NUL character");
        type = copy_type(H5T_C_S1, w);
        w.check(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size");
        w.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
        mem_type = copy_type(type.get(), w);
        text = s->c_str();
        space = space_of({}, w), buffer = &text;
    } else {
        const TensorBase& t = std::get<TensorBase>(value);
        type = hdf5_type(t.dtype().scalar_type(), true, w);
        mem_type = hdf5_type(t.dtype().scalar_type(), false, w);
        data = host_contiguous(t);
        space = space_of(data.sizes(), w), buffer = data.numel() > 0 ? detail::first_byte(data) : nullptr;
    }
    const htri_t present = H5Aexists(obj.get(), name.c_str());
    if (present < 0) w.fail_hdf5("H5Aexists failed");
    if (present > 0) w.check(H5Adelete(obj.get(), name.c_str()), "H5Adelete");
    Id attr = w.check(H5Acreate2(obj.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose, "H5Acreate2");
    if (buffer) w.check(H5Awrite(attr.get(), mem_type.get(), buffer), "H5Awrite");
    w.check(attr.close(), "H5Aclose");
    obj.close();
    w.check(file.close(), "H5Fclose");
}

/// The attributes of `object` (a dataset or group path, "/" the root) in the HDF5 file `path`,
/// by name (h5py's `dict(obj.attrs)`). An attribute of a type tenet cannot read is an io_error
/// naming it.
inline std::map<std::string, H5Attribute> h5_attributes(const std::string& path, const std::string& object) {
    using namespace detail::h5;
    Quiet quiet;
    Where w{"h5_attributes", path, ""};
    Id file = open_file(path, false, w);
    w.object = "object '" + absolute(object) + "'";
    Id obj = open_object(file.get(), object, w);
    std::vector<std::string> names;
    auto collect = [](hid_t, const char* attr_name, const H5A_info_t*, void* out) -> herr_t {
        try {
            static_cast<std::vector<std::string>*>(out)->push_back(attr_name);
            return 0;
        } catch (...) {
            return -1;  // no exception may cross HDF5's C frames
        }
    };
    hsize_t at = 0;
    w.check(H5Aiterate2(obj.get(), H5_INDEX_NAME, H5_ITER_INC, &at, collect, &names), "H5Aiterate2");
    std::map<std::string, H5Attribute> out;
    for (const std::string& name : names) {
        Where wa{"h5_attributes", path, "attribute '" + name + "' of '" + absolute(object) + "'"};
        Id attr = wa.check(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), H5Aclose, "H5Aopen");
        out.emplace(name, read_attribute(attr.get(), wa));
    }
    return out;
}

/// The paths of every dataset in the HDF5 file `path` ("/group/name"), in name order (h5py's
/// `File(path).visit`, keeping the datasets). Hard links only; a dataset linked twice is
/// listed under both names.
inline std::vector<std::string> h5_datasets(const std::string& path) {
    using namespace detail::h5;
    Quiet quiet;
    Where w{"h5_datasets", path, ""};
    Id file = open_file(path, false, w);
    struct Visit {
        std::vector<std::string> names;
        bool failed = false;
    } visit;
    auto each = [](hid_t group, const char* name, const H5L_info_t* info, void* data) -> herr_t {
        auto& v = *static_cast<Visit*>(data);
        if (info->type != H5L_TYPE_HARD) return 0;
        const hid_t obj = H5Oopen(group, name, H5P_DEFAULT);
        if (obj < 0) {
            v.failed = true;
            return -1;
        }
        const bool is_dataset = H5Iget_type(obj) == H5I_DATASET;
        H5Oclose(obj);
        try {
            if (is_dataset) v.names.push_back(std::string("/") + name);
            return 0;
        } catch (...) {  // no exception may cross HDF5's C frames
            v.failed = true;
            return -1;
        }
    };
    w.check(H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, each, &visit), "H5Lvisit");
    if (visit.failed) w.fail("listing its datasets failed");
    return visit.names;
}

}  // namespace tenet
