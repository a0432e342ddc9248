#pragma once
// PyTorch's own files: tenet::save writes what torch.save (PyTorch 1.13) writes, so that
// torch.load reads it, and tenet::load reads what torch.save wrote.
//
// The format: a zip archive of stored entries `<archive>/data.pkl` (a protocol-2 pickle of the
// value; io/pickle.hpp), `<archive>/data/<key>` (each storage's bytes, little-endian),
// `<archive>/version` ("3") and `<archive>/byteorder` ("little"). Tensors refer to their storage
// by key, so views of one storage stay views of one storage both ways (offsets and strides kept).
//
// Devices: a storage saved from CUDA carries the location "cuda:N"; load puts every storage in
// host memory (as torch.load(..., map_location='cpu')). save copies a device storage to the host
// first and records its device as location, as torch.save does.
// Every tenet dtype, complex64 and complex128 included (torch.ComplexFloatStorage and
// ComplexDoubleStorage: the (real, imaginary) pairs, as torch.save writes them).
// requires_grad is written, and restored on load (a build without autograd, TENET_AUTOGRAD=0,
// loads such tensors without it); a complex tensor that requires grad is an io_error on load,
// as tenet has no autograd through complex numbers. Backward hooks and the state_dict's `_metadata` (module
// versions) are not kept: a tensor with hooks is refused; `_metadata` is read and dropped.
// Records are read straight into the new storage and written straight from the tensors'
// storages (no intermediate copy). The storage records' CRCs are not checked on load (torch.load
// does not check them either, and the CRC costs more than the read); their sizes are, and so is
// the CRC of data.pkl. Unlike torch.save, records are not padded to 64-byte
// alignment (torch.load does not need it).

#include "tenet/config.hpp"

#if !TENET_HAVE_LIBZIP
#error "<tenet/io/pt.hpp> needs libzip (Debian libzip-dev); see cmake/tenetFiles.cmake"
#endif

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tenet/core.hpp"
#include "tenet/io/pickle.hpp"
#include "tenet/io/zip.hpp"

namespace tenet::inline TENET_ABI {

static_assert(std::endian::native == std::endian::little, "tenet's .pt support assumes a little-endian host");

namespace detail::pt {

inline constexpr uint64_t kMaxPickleBytes = uint64_t(1) << 30;

/// Reads the value of a .pt archive (from a file or a buffer).
inline IValue load(const ZipReader& zip) {
    const std::string& file = zip.name();
    if (zip.names().empty()) fail<io_error>("load: ", file, ": an empty archive");
    // As torch.load: the archive's folder is the first entry's first path component.
    const std::string& first = zip.names().front();
    const size_t slash = first.find('/');
    if (slash == std::string::npos)
        fail<io_error>("load: ", file, ": not a PyTorch archive (its first entry '", first, "' is not in a folder)");
    const std::string prefix = first.substr(0, slash + 1);
    if (!zip.contains(prefix + "data.pkl"))
        fail<io_error>("load: ", file, ": not a PyTorch archive (no ", prefix, "data.pkl)");
    const std::string version_entry = zip.contains(prefix + "version") ? prefix + "version" : prefix + ".data/version";
    if (!zip.contains(version_entry)) fail<io_error>("load: ", file, ": no ", prefix, "version record");
    {
        const std::string v = zip.read(version_entry, 32);
        int64_t n = 0;
        size_t i = 0;
        for (; i < v.size() && v[i] >= '0' && v[i] <= '9' && n < 1000; ++i) n = n * 10 + (v[i] - '0');
        if (i == 0 || (i < v.size() && v.substr(i) != "\n") || n < 1 || n > 10)
            fail<io_error>("load: ", file, ": unsupported archive version '", v, "'");
    }
    if (zip.contains(prefix + "byteorder")) {
        const std::string order = zip.read(prefix + "byteorder", 16);
        if (order != "little")
            fail<io_error>("load: ", file, ": byte order '", order, "' (only little-endian files are supported)");
    }
    const std::string pickle = zip.read(prefix + "data.pkl", kMaxPickleBytes);
    auto loader = [&](const std::string& key, DType dtype, int64_t numel, const std::string& location) {
        if (!(location == "cpu" || location.rfind("cuda", 0) == 0))
            fail<io_error>("load: ", file, ": storage '", key, "' is on '", location,
                           "' (only cpu and cuda storages are read)");
        const std::string entry = prefix + "data/" + key;
        if (!zip.contains(entry)) fail<io_error>("load: ", file, ": storage '", key, "' has no record ", entry);
        int64_t nbytes = 0;
        if (__builtin_mul_overflow(numel, int64_t(dtype.itemsize()), &nbytes))
            fail<io_error>("load: ", file, ": storage '", key, "' of ", numel, " elements is too large");
        const uint64_t real = zip.size(entry);  // checked against the archive's real length
        if (real != uint64_t(nbytes))
            fail<io_error>("load: ", file, ": storage '", key, "' (", pickle::storage_class(dtype), " of ", numel,
                           " elements, ", nbytes, " bytes) but its record ", entry, " holds ", real, " bytes");
        auto storage = detail::make_pooled<StorageImpl>(size_t(nbytes), Device(DeviceType::CPU));
        zip.read_stored_into(entry, storage->data(), uint64_t(nbytes));  // no CRC: as torch.load
        if (dtype.scalar_type() == ScalarType::Bool) {
            // A bool is the byte 0 or 1; any other byte would be undefined behaviour when read.
            const auto* b = static_cast<const unsigned char*>(storage->data());
            for (int64_t i = 0; i < nbytes; ++i)
                if (b[i] > 1)
                    fail<io_error>("load: ", file, ": storage '", key, "' (BoolStorage) holds the byte ", int(b[i]),
                                   " at element ", i, " (a bool must be 0 or 1)");
        }
        return storage;
    };
    return pickle::Unpickler(pickle, "load: " + file + ": " + prefix + "data.pkl", loader).parse();
}

/// The archive's folder name for `path`: its file name without extension, as torch.save.
inline std::string archive_name(const std::string& path) {
    std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const size_t dot = base.find_last_of('.');
    if (dot != std::string::npos && dot > 0) base.resize(dot);
    return base.empty() || base == "." || base == ".." ? std::string("archive") : base;
}

/// Writes `value` to `path` as torch.save does.
inline void save(const IValue& value, const std::string& path) {
    struct Record {
        StoragePtr storage;
        DType dtype;
        std::string key;
        std::unique_ptr<unsigned char[]> host;  // a device storage's bytes, copied
    };
    std::vector<Record> records;
    std::unordered_map<const StorageImpl*, size_t> by_storage;
    auto storage_of = [&](const TensorBase& t) {
        const StoragePtr& s = t.impl().storage;
        const DType dtype = t.dtype();
        auto [it, fresh] = by_storage.try_emplace(s.get(), records.size());
        if (!fresh) {
            const Record& r = records[it->second];
            if (r.dtype != dtype)
                fail<dtype_error>("save: ", path, ": two tensors view one storage as ", r.dtype, " and ", dtype,
                                  " (torch.save refuses this too)");
        } else {
            if (s->nbytes() % size_t(dtype.itemsize()) != 0)
                fail<dtype_error>("save: ", path, ": a ", dtype, " tensor whose storage of ", s->nbytes(),
                                  " bytes is not a whole number of elements");
            Record r{s, dtype, std::to_string(records.size()), nullptr};
            if (!s->device().is_cpu()) {
                r.host = std::make_unique<unsigned char[]>(s->nbytes());
                detail::device_backend(s->device(), "save")
                    .copy_bytes(r.host.get(), Device(DeviceType::CPU), s->data(), s->device(), s->nbytes());
            }
            records.push_back(std::move(r));
        }
        const Record& r = records[it->second];
        const Device dev = r.storage->device();
        return pickle::PickledStorage{r.key, dev.is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(dev.index()),
                                      int64_t(r.storage->nbytes() / size_t(dtype.itemsize()))};
    };
    std::string pkl = pickle::Pickler(storage_of).dump(value);
    const std::string prefix = archive_name(path) + "/";
    ZipWriter zip(path);
    zip.add_copy(prefix + "data.pkl", std::move(pkl), false);
    zip.add_copy(prefix + "byteorder", "little", false);
    for (const Record& r : records) {
        const void* bytes = r.host ? static_cast<const void*>(r.host.get()) : r.storage->data();
        zip.add(prefix + "data/" + r.key, bytes, r.storage->nbytes(), false);  // not copied
    }
    zip.add_copy(prefix + "version", "3\n", false);
    zip.close();  // the records (and the storages they hold) live until here
}

}  // namespace detail::pt

/// Reads a file written by torch.save (PyTorch's zip format): a tensor, a list, tuple or dict of
/// them (a state_dict's OrderedDict included), nested, with Python scalars, strings and None.
/// Views of one storage load as views of one tenet storage. Every storage is put in host memory
/// (torch.load(path, map_location='cpu')). io_error on anything else (a Python object, a global
/// off the allow-list, a corrupt or truncated file), naming the file and the fault.
inline IValue load(const std::string& path) {
    detail::ZipReader zip(path);
    return detail::pt::load(zip);
}

/// Reads a file holding one tensor of element type T (torch.load). dtype_error naming both
/// dtypes when it holds another type (convert with `load(path).toTensor().to<T>()`), io_error
/// when it holds no tensor.
template <class T>
Tensor<T> load(const std::string& path) {
    const IValue v = load(path);
    if (!v.isTensor()) detail::fail<io_error>("load: ", path, ": holds a ", v.tagKind(), ", not a tensor");
    const TensorBase& t = v.toTensor();
    if (t.dtype() != dtype_of<T>)
        detail::fail<dtype_error>("load: ", path, ": the tensor is ", t.dtype(), ", not ", DType(dtype_of<T>),
                                  " (convert with load(path).toTensor().to<T>())");
    return t.as<T>();
}

/// Reads a state_dict (`torch.load(path)` of `module.state_dict()`): the names and tensors of a
/// dict of tensors, in order. io_error when the file holds anything else, naming the offending key.
inline std::vector<std::pair<std::string, TensorBase>> load_state_dict(const std::string& path) {
    const IValue v = load(path);
    if (!v.isGenericDict()) detail::fail<io_error>("load_state_dict: ", path, ": holds a ", v.tagKind(), ", not a dict");
    std::vector<std::pair<std::string, TensorBase>> out;
    out.reserve(v.toGenericDict().size());
    for (const auto& [k, x] : v.toGenericDict().items()) {
        if (!k.isString()) detail::fail<io_error>("load_state_dict: ", path, ": a key of type ", k.tagKind());
        if (!x.isTensor())
            detail::fail<io_error>("load_state_dict: ", path, ": key '", k.toStringRef(), "' holds a ", x.tagKind(),
                                   ", not a tensor");
        out.emplace_back(k.toStringRef(), x.toTensor());
    }
    return out;
}

/// Writes `value` (tensors, lists, tuples, dicts, scalars, strings, None) as torch.save does.
inline void save(const IValue& value, const std::string& path) { detail::pt::save(value, path); }

/// Writes one tensor as torch.save(tensor, path). Its strides and storage offset are kept, and
/// its whole storage is written (as torch.save). A device tensor is copied to the host first.
inline void save(const TensorBase& tensor, const std::string& path) { detail::pt::save(IValue(tensor), path); }

/// Writes a state_dict as torch.save(module.state_dict(), path): an OrderedDict of the names and
/// tensors in order, so that `module.load_state_dict(torch.load(path))` works. Views of one
/// storage are written as views of one storage.
inline void save(const std::vector<std::pair<std::string, TensorBase>>& state_dict, const std::string& path) {
    GenericDict d;
    d.ordered = true;
    for (const auto& [name, t] : state_dict) {
        if (d.find(IValue(name))) detail::fail<value_error>("save: ", path, ": the name '", name, "' appears twice");
        d.insert_or_assign(IValue(name), IValue(t));
    }
    detail::pt::save(IValue(std::move(d)), path);
}

/// Writes a list of tensors as torch.save([t0, t1, ...], path).
inline void save(const std::vector<TensorBase>& tensors, const std::string& path) {
    std::vector<IValue> items(tensors.begin(), tensors.end());
    detail::pt::save(IValue(std::move(items)), path);
}

}  // namespace tenet
