#pragma once
// A thin RAII layer over libzip, shared by the .npz reader/writer (io/npz.hpp) and PyTorch's .pt
// files (io/pt.hpp). Internal (namespace tenet::detail); its interface is kept stable for both.
//
// Reading: entries are read straight into the caller's buffer (no intermediate copy). Zip bombs:
// size() is the size the archive *declares*; callers compare it with what they expect before
// allocating, and read_into() never writes more than the n bytes it is given and fails when the
// entry's data turns out longer or shorter than n (or fails its CRC, or does not inflate).
// Writing: add() does not copy the bytes (they must live until close()); add_copy() keeps its own.

#include "tenet/config.hpp"

#if !TENET_HAVE_LIBZIP
#error "<tenet/io/zip.hpp> needs libzip (Debian libzip-dev); see cmake/tenetFiles.cmake"
#endif

#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <system_error>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// libzip's message for an error code (the code the open functions report).
inline std::string zip_message(int code) {
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    std::string s = zip_error_strerror(&e);
    zip_error_fini(&e);
    return s;
}

/// A zip archive opened for reading, from a file or from a memory buffer (not copied: it must
/// outlive the reader). Every error is an io_error naming the archive and libzip's message.
class ZipReader {
public:
    /// Opens the archive at `path`.
    explicit ZipReader(const std::string& path) : name_(path) {
        std::error_code ec;
        archive_bytes_ = std::filesystem::file_size(path, ec);
        if (ec) fail<io_error>(name_, ": cannot open: ", ec.message());
        int code = 0;
        za_ = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
        if (!za_) fail<io_error>(name_, ": cannot open as a zip archive: ", zip_message(code));
        index_or_discard();
    }
    /// Opens the archive held in `data[0, size)`; `name` is used in messages.
    ZipReader(const void* data, size_t size, std::string name)
        : name_(std::move(name)), archive_bytes_(size), buffer_(static_cast<const unsigned char*>(data)), in_memory_(true) {
        zip_error_t err;
        zip_error_init(&err);
        zip_source_t* src = zip_source_buffer_create(size ? data : "", size, 0, &err);
        if (!src) {
            std::string m = zip_error_strerror(&err);
            zip_error_fini(&err);
            fail<io_error>(name_, ": cannot open as a zip archive: ", m);
        }
        za_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
        if (!za_) {
            zip_source_free(src);  // not taken over on failure
            std::string m = zip_error_strerror(&err);
            zip_error_fini(&err);
            fail<io_error>(name_, ": cannot open as a zip archive: ", m);
        }
        zip_error_fini(&err);
        index_or_discard();
    }
    ZipReader(const ZipReader&) = delete;
    ZipReader& operator=(const ZipReader&) = delete;
    ~ZipReader() {
        if (za_) zip_discard(za_);
    }

    /// The archive's name (its path, or the name given for a buffer).
    const std::string& name() const { return name_; }
    /// Entry names in archive order.
    const std::vector<std::string>& names() const { return names_; }
    bool contains(const std::string& entry) const { return where_.count(entry) != 0; }

    /// The entry's declared uncompressed size (io_error if there is no such entry). Checked to
    /// be possible: its compressed data fits in the archive's real length, a stored entry's size
    /// is its compressed size, and a deflated one expands at most deflate's 1032:1. So a caller
    /// that allocates this many bytes allocates at most ~1000x the archive's size.
    uint64_t size(const std::string& entry) const {
        zip_stat_t st;
        zip_stat_init(&st);
        constexpr auto needed = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
        if (zip_stat_index(za_, locate(entry), 0, &st) != 0 || (st.valid & needed) != needed)
            fail<io_error>(name_, ": entry '", entry, "': cannot read its size: ",
                           zip_strerror(za_));
        const bool stored = st.comp_method == ZIP_CM_STORE;
        if (st.comp_size > archive_bytes_ || (stored && st.size != st.comp_size) ||
            (!stored && st.size / 1032 > st.comp_size + 1))
            fail<io_error>(name_, ": entry '", entry, "' declares ", st.size, " bytes from ",
                           st.comp_size, " compressed bytes in an archive of ", archive_bytes_,
                           " bytes (corrupt)");
        return st.size;
    }

    /// Reads the entry's data into `dst[0, n)`: exactly n bytes, or an io_error (declared size
    /// not n, data shorter or longer than n, CRC or inflate error). Never writes past dst + n.
    void read_into(const std::string& entry, void* dst, uint64_t n) const {
        const uint64_t declared = size(entry);
        if (declared != n)
            fail<io_error>(name_, ": entry '", entry, "' holds ", declared, " bytes, expected ",
                           n);
        charge(entry, n);
        zip_file_t* f = zip_fopen_index(za_, locate(entry), 0);
        if (!f) fail<io_error>(name_, ": entry '", entry, "': cannot open: ", zip_strerror(za_));
        struct Closer {
            zip_file_t* f;
            ~Closer() {
                if (f) zip_fclose(f);
            }
        } closer{f};
        auto* out = static_cast<unsigned char*>(dst);
        uint64_t done = 0;
        while (done < n) {
            // libzip returns at most INT64_MAX per call; 1 GiB chunks keep the count exact.
            const uint64_t want = std::min<uint64_t>(n - done, uint64_t(1) << 30);
            const zip_int64_t got = zip_fread(f, out + done, want);
            if (got < 0)
                fail<io_error>(name_, ": entry '", entry, "': read failed at byte ", done, ": ",
                               zip_file_strerror(f));
            if (got == 0)
                fail<io_error>(name_, ": entry '", entry, "' is truncated: ", done, " of ", n,
                               " bytes");
            done += uint64_t(got);
        }
        // The entry must end here: reading past the end also makes libzip check the CRC.
        unsigned char extra;
        const zip_int64_t more = zip_fread(f, &extra, 1);
        if (more < 0)
            fail<io_error>(name_, ": entry '", entry, "': ", zip_file_strerror(f));
        if (more > 0)
            fail<io_error>(name_, ": entry '", entry, "' holds more than its declared ", n,
                           " bytes");
        closer.f = nullptr;
        if (zip_fclose(f) != 0)
            fail<io_error>(name_, ": entry '", entry, "': error at close (CRC?)");
    }

    /// Up to `n` bytes from the start of the entry (fewer when its data is shorter), without
    /// reading the rest: a file's header before its size is trusted (an .npz entry's .npy
    /// header). Read in small chunks, so the memory used follows the bytes actually inflated,
    /// never `n`. The CRC is not checked (the entry is not read to its end).
    std::string read_prefix(const std::string& entry, uint64_t n) const {
        zip_file_t* f = zip_fopen_index(za_, locate(entry), 0);
        if (!f) fail<io_error>(name_, ": entry '", entry, "': cannot open: ", zip_strerror(za_));
        const std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> closer(f, &zip_fclose);
        std::string out;
        char chunk[4096];
        while (out.size() < n) {
            const auto want = static_cast<zip_uint64_t>(std::min<uint64_t>(n - out.size(), sizeof chunk));
            const zip_int64_t got = zip_fread(f, chunk, want);
            if (got < 0) fail<io_error>(name_, ": entry '", entry, "': read failed: ", zip_file_strerror(f));
            if (got == 0) break;
            out.append(chunk, static_cast<size_t>(got));
        }
        return out;
    }

    /// Reads a small entry (a header, a pickle) whole; io_error if it declares more than
    /// `max_bytes`.
    std::string read(const std::string& entry, uint64_t max_bytes) const {
        const uint64_t n = size(entry);
        if (n > max_bytes)
            fail<io_error>(name_, ": entry '", entry, "' is ", n, " bytes, more than the ",
                           max_bytes, " accepted");
        std::string s(size_t(n), '\0');
        read_into(entry, s.data(), n);
        return s;
    }

    /// Reads a stored (uncompressed) entry's data into `dst[0, n)` straight from the archive,
    /// without libzip's layers and WITHOUT checking its CRC (torch.load does not check it either;
    /// the CRC costs more than the read itself): for large records whose size the caller has
    /// checked. Sizes are checked as read_into() does. A compressed entry goes to read_into().
    void read_stored_into(const std::string& entry, void* dst, uint64_t n) const {
        zip_stat_t st;
        zip_stat_init(&st);
        const uint64_t declared = size(entry);  // also checks stored size == compressed size
        if (declared != n)
            fail<io_error>(name_, ": entry '", entry, "' holds ", declared, " bytes, expected ", n);
        if (zip_stat_index(za_, locate(entry), 0, &st) != 0 || st.comp_method != ZIP_CM_STORE ||
            (st.valid & ZIP_STAT_ENCRYPTION_METHOD && st.encryption_method != ZIP_EM_NONE))
            return read_into(entry, dst, n);
        uint64_t at = 0;
        if (!data_offset(entry, at)) return read_into(entry, dst, n);  // an unusual layout: libzip's way
        if (at > archive_bytes_ || n > archive_bytes_ - at)
            fail<io_error>(name_, ": entry '", entry, "' reaches past the archive's end");
        charge(entry, n);
        if (n == 0) return;  // dst may be null (an empty storage)
        if (in_memory_) {
            std::memcpy(dst, buffer_ + at, size_t(n));
            return;
        }
        std::FILE* f = std::fopen(name_.c_str(), "rb");
        if (!f) fail<io_error>(name_, ": cannot reopen to read entry '", entry, "'");
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
        std::setvbuf(f, nullptr, _IONBF, 0);  // large reads go straight into dst
        if (fseeko(f, off_t(at), SEEK_SET) != 0 || std::fread(dst, 1, size_t(n), f) != size_t(n))
            fail<io_error>(name_, ": entry '", entry, "' is truncated");
    }

private:
    // Little-endian fields of the archive's own bytes (read from the buffer or the file).
    bool raw_read(uint64_t at, void* dst, size_t n) const {
        if (at > archive_bytes_ || n > archive_bytes_ - at) return false;
        if (n == 0) return true;  // dst may be null (an empty vector's data())
        if (in_memory_) {
            std::memcpy(dst, buffer_ + at, n);
            return true;
        }
        std::FILE* f = std::fopen(name_.c_str(), "rb");
        if (!f) return false;
        const bool ok = fseeko(f, off_t(at), SEEK_SET) == 0 && std::fread(dst, 1, n, f) == n;
        std::fclose(f);
        return ok;
    }
    static uint64_t le(const unsigned char* p, int n) {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
        return v;
    }
    // Where an entry's data starts: the central directory (zip64 too) gives its local header,
    // whose name and extra lengths give the data. libzip has checked the archive's structure
    // (ZIP_CHECKCONS); every offset here is still checked against the archive's length.
    // False when the entry cannot be found that way (a name libzip converted from another
    // encoding, data before the archive): the caller then reads through libzip.
    bool data_offset(const std::string& entry, uint64_t& at) const {
        if (offsets_.empty() && !offsets_failed_) {
            try {
                index_offsets();
            } catch (const io_error&) {
                offsets_.clear();
                offsets_failed_ = true;
            }
        }
        auto it = offsets_.find(entry);
        if (it == offsets_.end()) return false;
        unsigned char h[30];
        if (!raw_read(it->second, h, 30) || le(h, 4) != 0x04034b50) return false;
        at = it->second + 30 + le(h + 26, 2) + le(h + 28, 2);
        return true;
    }
    void index_offsets() const {
        auto bad = [&]() { fail<io_error>(name_, ": cannot read the central directory"); };
        // The end record: in the last 22 + 65535 bytes.
        const uint64_t tail_len = std::min<uint64_t>(archive_bytes_, 22 + 65535);
        std::vector<unsigned char> tail(size_t(tail_len) + 1);
        if (tail_len < 22 || !raw_read(archive_bytes_ - tail_len, tail.data(), size_t(tail_len))) bad();
        size_t e = size_t(tail_len) - 22 + 1;
        do {
            --e;
        } while (e > 0 && le(&tail[e], 4) != 0x06054b50);
        if (le(&tail[e], 4) != 0x06054b50) bad();
        const uint64_t eocd = archive_bytes_ - tail_len + e;
        uint64_t count = le(&tail[e + 10], 2), cd_size = le(&tail[e + 12], 4), cd_at = le(&tail[e + 16], 4);
        if (count == 0xffff || cd_size == 0xffffffff || cd_at == 0xffffffff) {
            unsigned char loc[20], rec[56];  // zip64: the locator, then the zip64 end record
            if (eocd < 20 || !raw_read(eocd - 20, loc, 20) || le(loc, 4) != 0x07064b50) bad();
            if (!raw_read(le(loc + 8, 8), rec, 56) || le(rec, 4) != 0x06064b50) bad();
            count = le(rec + 32, 8), cd_size = le(rec + 40, 8), cd_at = le(rec + 48, 8);
        }
        if (cd_at > archive_bytes_ || cd_size > archive_bytes_ - cd_at || count > cd_size / 46) bad();
        std::vector<unsigned char> cd(static_cast<size_t>(cd_size));
        if (!raw_read(cd_at, cd.data(), cd.size())) bad();
        size_t p = 0;
        for (uint64_t i = 0; i < count; ++i) {
            if (cd.size() - p < 46 || le(&cd[p], 4) != 0x02014b50) bad();
            const size_t nl = size_t(le(&cd[p + 28], 2)), xl = size_t(le(&cd[p + 30], 2)), cl = size_t(le(&cd[p + 32], 2));
            if (cd.size() - p - 46 < nl + xl + cl) bad();
            std::string nm(reinterpret_cast<const char*>(&cd[p + 46]), nl);
            uint64_t at = le(&cd[p + 42], 4);
            if (at == 0xffffffff) {  // in the zip64 extra field, after the sizes that are also 0xffffffff
                size_t x = p + 46 + nl, x_end = x + xl;
                bool found = false;
                while (!found && x_end - x >= 4) {
                    const size_t id = size_t(le(&cd[x], 2)), len = size_t(le(&cd[x + 2], 2));
                    if (x_end - x - 4 < len) bad();
                    if (id == 1) {
                        size_t k = x + 4;
                        if (le(&cd[p + 24], 4) == 0xffffffff) k += 8;
                        if (le(&cd[p + 20], 4) == 0xffffffff) k += 8;
                        if (k + 8 > x + 4 + len) bad();
                        at = le(&cd[k], 8);
                        found = true;
                    }
                    x += 4 + len;
                }
                if (!found) bad();
            }
            offsets_.emplace(std::move(nm), at);  // first of duplicate names wins, as in index()
            p += 46 + nl + xl + cl;
        }
    }

    // The constructors' last step: a throw there (a bad name, no memory) must not leak za_.
    void index_or_discard() {
        try {
            index();
        } catch (...) {
            zip_discard(za_);
            za_ = nullptr;
            throw;
        }
    }
    void index() {
        const zip_int64_t count = zip_get_num_entries(za_, 0);
        if (count < 0) fail<io_error>(name_, ": cannot list the archive: ", zip_strerror(za_));
        // The count comes from the central directory that libzip has already read into memory,
        // so it is bounded by the archive's real size.
        names_.reserve(size_t(count));
        for (zip_int64_t i = 0; i < count; ++i) {
            const char* nm = zip_get_name(za_, zip_uint64_t(i), 0);
            if (!nm) fail<io_error>(name_, ": entry ", i, " has no name: ", zip_strerror(za_));
            names_.emplace_back(nm);
            where_.emplace(names_.back(), zip_uint64_t(i));  // first of duplicate names wins
        }
    }
    zip_uint64_t locate(const std::string& entry) const {
        auto it = where_.find(entry);
        if (it == where_.end()) fail<io_error>(name_, ": no entry '", entry, "' in the archive");
        return it->second;
    }

    std::string name_;
    uint64_t archive_bytes_ = 0;  // the archive's real length
    zip_t* za_ = nullptr;
    std::vector<std::string> names_;
    std::unordered_map<std::string, zip_uint64_t> where_;
    const unsigned char* buffer_ = nullptr;  // the archive's bytes, when read from memory
    bool in_memory_ = false;
    mutable std::unordered_map<std::string, uint64_t> offsets_;  // local header offsets, on first use
    mutable bool offsets_failed_ = false;
    mutable uint64_t stored_read_ = 0, inflated_read_ = 0;  // what charge() has let through

    /// Counts the bytes about to be read from an entry against what the archive can hold: the
    /// stored entries' data at most the archive's length, everything at most deflate's 1032:1 of
    /// it. Each entry passes size()'s check alone; entries whose data overlap (a stored entry
    /// inside another's data) would otherwise let a small file allocate many times its size.
    void charge(const std::string& entry, uint64_t n) const {
        zip_stat_t st;
        zip_stat_init(&st);
        const bool stored = zip_stat_index(za_, locate(entry), 0, &st) == 0 && (st.valid & ZIP_STAT_COMP_METHOD) &&
                            st.comp_method == ZIP_CM_STORE;
        uint64_t& total = stored ? stored_read_ : inflated_read_;
        const uint64_t limit = stored ? archive_bytes_ : (archive_bytes_ + 1) * 1032;
        if (n > limit || total > limit - n)
            fail<io_error>(name_, ": entry '", entry, "': the entries read hold more than an archive of ", archive_bytes_,
                           " bytes can (", stored ? "stored" : "deflated", " entries overlapping?)");
        total += n;
    }
};

/// A zip archive being written to `path` (created or truncated at close()). Entries are added
/// in order; nothing is written before close(), and the destructor discards an unclosed archive.
class ZipWriter {
public:
    /// Prepares `path`; io_error if it cannot be created.
    explicit ZipWriter(const std::string& path) : name_(path) {
        int code = 0;
        za_ = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
        if (!za_) fail<io_error>(name_, ": cannot create: ", zip_message(code));
    }
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;
    ~ZipWriter() {
        if (za_) zip_discard(za_);
    }

    /// Adds an entry whose bytes are NOT copied: `data[0, n)` must stay alive and unchanged
    /// until close(). `compress`: deflate (default level), else stored.
    void add(const std::string& entry, const void* data, uint64_t n, bool compress) {
        zip_source_t* src = zip_source_buffer(za_, n ? data : "", n, 0);
        if (!src) fail<io_error>(name_, ": entry '", entry, "': ", zip_strerror(za_));
        const zip_int64_t idx = zip_file_add(za_, entry.c_str(), src, ZIP_FL_ENC_UTF_8);
        if (idx < 0) {
            zip_source_free(src);  // not taken over on failure
            fail<io_error>(name_, ": cannot add entry '", entry, "': ", zip_strerror(za_));
        }
        if (zip_set_file_compression(za_, zip_uint64_t(idx),
                                     compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0)
            fail<io_error>(name_, ": entry '", entry, "': ", zip_strerror(za_));
    }
    /// Adds an entry whose bytes the writer keeps until close().
    void add_copy(const std::string& entry, std::string bytes, bool compress) {
        kept_.push_back(std::move(bytes));  // deque: earlier elements never move
        add(entry, kept_.back().data(), kept_.back().size(), compress);
    }

    /// Writes the archive; io_error on failure (the archive is then discarded).
    void close() {
        if (!za_) fail<io_error>(name_, ": archive already closed");
        if (zip_close(za_) != 0) {
            std::string m = zip_strerror(za_);
            zip_discard(za_);
            za_ = nullptr;
            fail<io_error>(name_, ": cannot write: ", m);
        }
        za_ = nullptr;
        kept_.clear();
    }

private:
    std::string name_;
    zip_t* za_ = nullptr;
    std::deque<std::string> kept_;
};

}  // namespace detail
}  // namespace tenet
