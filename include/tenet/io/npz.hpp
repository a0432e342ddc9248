#pragma once
// NumPy's .npz archives (np.savez, np.savez_compressed, np.load of an .npz): a zip archive of
// .npy files, one per array, named `<key>.npy`.
//
// Reading is guarded against zip bombs: an entry's declared size must be exactly what its .npy
// header needs (header plus shape * itemsize), checked on the header alone (read as a prefix of
// the entry) before anything is allocated for the data; the data is then inflated straight into
// the tensor's storage and must have exactly that length and a matching CRC (zip.hpp's read_into).

#include "tenet/config.hpp"

#if !TENET_HAVE_LIBZIP
#error "<tenet/io/npz.hpp> needs libzip (Debian libzip-dev); see cmake/tenetFiles.cmake"
#endif

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tenet/io/npy.hpp"
#include "tenet/io/zip.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::npz {

/// The key np.load gives an entry: its name without a trailing ".npy".
inline std::string key_of(const std::string& entry) {
    const std::string suffix = ".npy";
    if (entry.size() >= suffix.size() && entry.compare(entry.size() - suffix.size(), suffix.size(), suffix) == 0)
        return entry.substr(0, entry.size() - suffix.size());
    return entry;
}

/// Reads every entry of an archive.
inline std::vector<std::pair<std::string, TensorBase>> read_all(const ZipReader& zr, const std::string& archive) {
    const char* op = "load_npz";
    std::vector<std::pair<std::string, TensorBase>> out;
    std::set<std::string> keys;
    const auto& names = zr.names();
    for (const std::string& entry : names) {
        const std::string where = archive + ": entry '" + entry + "'";
        const std::string key = key_of(entry);
        if (!keys.insert(key).second) fail<io_error>(op, ": ", archive, ": two entries have the key '", key, "'");
        const uint64_t declared = zr.size(entry);
        // The header, from a prefix of the entry: its length fields, then the whole header.
        const std::string head = zr.read_prefix(entry, std::min<uint64_t>(declared, 12));
        const npy::Prefix p = npy::parse_prefix(reinterpret_cast<const unsigned char*>(head.data()), head.size(),
                                                declared, where, op);
        const std::string text = zr.read_prefix(entry, p.prefix_len + p.header_len);
        const npy::Header h =
            npy::parse_header(reinterpret_cast<const unsigned char*>(text.data()), text.size(), declared, where, op);
        npy::check_data_present(h, declared - h.data_offset, where, op);
        const uint64_t needed = h.data_offset + h.data_bytes;
        if (declared != needed)
            fail<io_error>(op, ": ", where, " declares ", declared, " bytes but its .npy header (shape ", h.shape,
                           ", descr '", h.descr, "') needs ", needed);
        // Header and data straight into one block (read_into checks the length and CRC), then
        // the data moved to the front. The storage covers the data alone (what a .pt save of the
        // tensor writes), and gives the whole block back to the allocator.
        void* block = host_allocator().allocate(static_cast<size_t>(needed));
        auto impl = TensorImplPtr::make();
        impl->storage = make_pooled<StorageImpl>(block, static_cast<size_t>(h.data_bytes), Device(DeviceType::CPU),
                                                 [needed](void* p) { host_allocator().deallocate(p, size_t(needed)); });
        auto* bytes = static_cast<unsigned char*>(block);
        zr.read_into(entry, bytes, needed);
        if (h.data_bytes) std::memmove(bytes, bytes + h.data_offset, h.data_bytes);
        impl->set_geometry(h.shape, npy::file_strides(h));
        impl->dtype = h.dtype;
        npy::fix_elements(h, bytes);
        out.emplace_back(key, TensorBase(std::move(impl)));
    }
    return out;
}

inline void write_all(const std::string& path, const std::vector<std::pair<std::string, TensorBase>>& arrays,
                      bool compress, const char* op) {
    std::set<std::string> keys;
    for (const auto& [key, t] : arrays) {
        if (!keys.insert(key).second) fail<value_error>(op, ": ", path, ": the key '", key, "' is given twice");
        if (!t.defined()) fail<value_error>(op, ": ", path, ": the tensor '", key, "' is undefined");
        (void)npy::descr_of(t.dtype(), op);  // bfloat16 refused before the archive is written
    }
    ZipWriter zw(path);
    for (const auto& [key, tensor] : arrays) {
        bool fortran = false;
        const TensorBase t = npy::prepare(tensor, fortran, op);
        const std::string header = npy::make_header(t.dtype(), fortran, t.sizes(), op);
        // One entry is one buffer (zip.hpp's add): the header and the data copied together.
        std::string entry;
        entry.reserve(header.size() + static_cast<size_t>(t.nbytes()));
        entry += header;
        entry.append(static_cast<const char*>(first_byte(t)), static_cast<size_t>(t.nbytes()));
        zw.add_copy(key + ".npy", std::move(entry), compress);
    }
    zw.close();
}

}  // namespace detail::npz

namespace detail {

/// Reads an .npz archive held in memory (`name` is used in messages): the from-memory reader
/// behind the fuzzer.
inline std::vector<std::pair<std::string, TensorBase>> parse_npz(const void* data, size_t size,
                                                                 const std::string& name) {
    const ZipReader zr(data, size, name);
    return npz::read_all(zr, name);
}

}  // namespace detail

/// Writes tensors to an .npz archive, as NumPy's np.savez(path, key=array, ...): one stored
/// (uncompressed) .npy entry per tensor, named `<key>.npy`. The tensors are written as save_npy
/// writes them (bfloat16 refused). Each entry's bytes are copied once, and all are held until the
/// archive is written.
inline void savez(const std::string& path, const std::vector<std::pair<std::string, TensorBase>>& arrays) {
    detail::npz::write_all(path, arrays, false, "savez");
}

/// As savez, with every entry deflated, as NumPy's np.savez_compressed.
inline void savez_compressed(const std::string& path, const std::vector<std::pair<std::string, TensorBase>>& arrays) {
    detail::npz::write_all(path, arrays, true, "savez_compressed");
}

/// Reads an .npz archive, as NumPy's np.load of an .npz: the (key, tensor) pairs in archive
/// order, each key the entry's name without its ".npy" (so `np.savez(f, a=x)` gives "a", and
/// np.savez's positional arrays "arr_0", "arr_1", ...). Every entry must be a .npy file (an
/// io_error naming it otherwise); the tensors are host tensors read as load_npy reads them.
inline std::vector<std::pair<std::string, TensorBase>> load_npz(const std::string& path) {
    const detail::ZipReader zr(path);
    return detail::npz::read_all(zr, path);
}

}  // namespace tenet
