// .npy and .npz files (io/npy.hpp, io/npz.hpp) against real NumPy: the files in data/npy/ and
// their manifest are written by tests/golden/gen_npy.py; the [python-check] case writes files
// that tests/files/check_npy.py reads back with NumPy.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>
#include <tenet/io/npy.hpp>
#include <tenet/io/npz.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_data.hpp"
#include "base_tensor.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    REQUIRE(f);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(f);
}

/// A fresh directory under the system's temporary directory.
fs::path temp_dir(const std::string& tag) {
    const fs::path d = fs::temp_directory_path() / ("tenet_npy_" + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

fs::path data_file(const std::string& name) { return golden::golden_path(__FILE__, ("data/npy/" + name).c_str()); }

/// The expected tensor of a manifest line: `dtype ndim size... numel value...` (values as text).
struct Expected {
    std::string dtype;
    IntArray sizes;
    std::vector<std::string> values;
};

Expected read_expected(std::istringstream& in) {
    Expected e;
    int64_t nd = 0, n = 0;
    in >> e.dtype >> nd;
    e.sizes.resize(static_cast<size_t>(nd));
    for (auto& s : e.sizes) in >> s;
    in >> n;
    e.values.resize(static_cast<size_t>(n));
    for (auto& v : e.values) in >> v;
    REQUIRE(in);
    return e;
}

/// A manifest line of one kind: `kind name detail expected...` (detail: the order of a .npy file,
/// the key of an .npz entry).
struct ManifestEntry {
    std::string name, detail;
    Expected expected;
};

std::vector<ManifestEntry> manifest_entries(const std::string& kind) {
    std::ifstream manifest(data_file("manifest.txt"));
    REQUIRE(manifest);
    std::vector<ManifestEntry> entries;
    for (std::string line; std::getline(manifest, line);) {
        std::istringstream in(line);
        std::string k;
        in >> k;
        if (k != kind) continue;
        ManifestEntry entry;
        in >> entry.name >> entry.detail;
        entry.expected = read_expected(in);
        entries.push_back(std::move(entry));
    }
    return entries;
}

/// Checks dtype, shape and every value (floats bit-exactly, -0.0 included; integers as int64).
void check_values(const TensorBase& t, const Expected& e) {
    REQUIRE(std::string(t.dtype().name()) == e.dtype);
    REQUIRE(t.sizes() == e.sizes);
    visit_dtype(t.dtype(), [&]<class U>(dtype_t<U>) {
        const std::vector<U> got = t.as<U>().to_vector();  // row-major, whatever the strides
        REQUIRE(got.size() == e.values.size());
        for (size_t i = 0; i < got.size(); ++i) {
            INFO("element " << i << " expected " << e.values[i]);
            if constexpr (std::is_same_v<U, float> || std::is_same_v<U, double> || std::is_same_v<U, Half>) {
                const double want = std::strtod(e.values[i].c_str(), nullptr);
                const double have = convert<double>(got[i]);
                CHECK(have == want);
                CHECK(std::signbit(have) == std::signbit(want));
            } else {
                CHECK(convert<int64_t>(got[i]) == std::strtoll(e.values[i].c_str(), nullptr, 10));
            }
        }
    });
}

/// Column-major strides of `sizes` (what a Fortran-order file loads as).
IntArray fortran_strides(const IntArray& sizes) {
    IntArray st(sizes.size());
    int64_t s = 1;
    for (size_t i = 0; i < sizes.size(); ++i) {
        st[i] = s;
        s *= std::max<int64_t>(sizes[i], 1);
    }
    return st;
}

template <class Error>
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    FAIL("no exception was thrown");
    return {};
}

/// A .npy file's bytes from a header dict and data bytes, padded as NumPy pads (version 1.0).
std::string npy_bytes(const std::string& dict, const std::string& data, int major = 1) {
    std::string h = dict;
    const size_t len_bytes = major == 1 ? 2 : 4;
    while ((6 + 2 + len_bytes + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    for (size_t k = 0; k < len_bytes; ++k) out += static_cast<char>((h.size() >> (8 * k)) & 0xff);
    return out + h + data;
}

std::string f4_bytes(std::initializer_list<float> v) {
    std::string s(v.size() * 4, '\0');
    std::memcpy(s.data(), v.begin(), s.size());
    return s;
}

using python_check::base_tensor;

const std::vector<DType> kNumpyDtypes = {kBool,  kUInt8,   kInt8,    kInt16,  kInt32,
                                         kInt64, kFloat16, kFloat32, kFloat64};

bool same_values(const TensorBase& a, const TensorBase& b) {
    if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
    return visit_dtype(a.dtype(), [&]<class U>(dtype_t<U>) {
        const auto x = a.as<U>().to_vector(), y = b.as<U>().to_vector();
        for (size_t i = 0; i < x.size(); ++i) {
            const double u = convert<double>(x[i]), v = convert<double>(y[i]);
            if (u != v || std::signbit(u) != std::signbit(v)) return false;
        }
        return true;
    });
}

}  // namespace

// ---- .npy files that NumPy wrote -------------------------------------------------------------

TEST_CASE("load_npy reads NumPy's files: every dtype, C and Fortran order, big-endian, versions 2.0 and 3.0, "
          "0-d and empty",
          "[files][npy]") {
    int files = 0;
    for (const ManifestEntry& entry : manifest_entries("npy")) {
        const std::string &name = entry.name, &order = entry.detail;
        const Expected& e = entry.expected;
        for (bool mmap : {false, true}) {
            INFO(name << (mmap ? " (mmap)" : ""));
            const TensorBase t = load_npy(data_file(name).string(), mmap);
            check_values(t, e);
            CHECK(t.is_cpu());
            CHECK(t.storage_offset() == 0);
            CHECK(t.strides() == (order == "F" ? fortran_strides(e.sizes) : detail::contiguous_strides(e.sizes)));
            const bool big_endian = name.rfind("be_", 0) == 0;
            // Mapped when asked, except big-endian data (swapped in a copy) and empty data.
            CHECK(t.impl().storage->is_external() == (mmap && !big_endian && t.numel() > 0));
        }
        ++files;
    }
    CHECK(files == 25);
}

TEST_CASE("load_npy<T> checks the dtype; converting is load_npy(path).to<T>()", "[files][npy]") {
    const std::string path = data_file("f8_2x3.npy").string();
    const Tensor<double> d = load_npy<double>(path);
    CHECK(d.sizes() == IntArray{2, 3});
    const std::string msg = message_of<dtype_error>([&] { (void)load_npy<float>(path); });
    CHECK_THAT(msg, Catch::Contains("f8_2x3.npy") && Catch::Contains("tenet.float64") &&
                        Catch::Contains("tenet.float32") && Catch::Contains(".to<T>()"));
    const Tensor<float> f = load_npy(path).to<float>();
    CHECK(f.to_vector() == std::vector<float>{-2.25f, -0.0f, -1.25f, -0.75f, -0.25f, 0.25f});
}

TEST_CASE("load_npy of a Fortran-order file shares one buffer in column-major order (no copy)", "[files][npy]") {
    for (bool mmap : {false, true}) {
        const auto t = load_npy<float>(data_file("f4_F_3x4.npy").string(), mmap);
        CHECK(t.strides() == IntArray{1, 3});
        CHECK(!t.is_contiguous());
        CHECK(t.t().is_contiguous());  // the transpose is the file's buffer in row-major order
        CHECK(t.impl().storage->nbytes() == 12 * sizeof(float));
    }
}

TEST_CASE("load_npy reads NumPy's complex files (<c8, <c16, big-endian, Fortran order, 0-d); save_npy writes "
          "NumPy's bytes for them",
          "[files][npy][complex]") {
    int files = 0;
    for (const ManifestEntry& entry : manifest_entries("cnpy")) {
        const std::string &name = entry.name, &order = entry.detail;
        const Expected& e = entry.expected;  // the (re, im) pairs: 2 * numel values
        for (bool mmap : {false, true}) {
            INFO(name << (mmap ? " (mmap)" : ""));
            const TensorBase t = load_npy(data_file(name).string(), mmap);
            REQUIRE(std::string(t.dtype().name()) == e.dtype);
            REQUIRE(t.sizes() == e.sizes);
            CHECK(t.strides() == (order == "F" ? fortran_strides(e.sizes) : detail::contiguous_strides(e.sizes)));
            visit_dtype_with_complex(t.dtype(), [&]<class U>(dtype_t<U>) {
                if constexpr (is_complex_v<U>) {
                    const std::vector<U> got = t.as<U>().to_vector();
                    REQUIRE(2 * got.size() == e.values.size());
                    for (size_t i = 0; i < got.size(); ++i) {
                        const double re = std::strtod(e.values[2 * i].c_str(), nullptr);
                        const double im = std::strtod(e.values[2 * i + 1].c_str(), nullptr);
                        CHECK(got[i].real() == re);
                        CHECK(got[i].imag() == im);
                        CHECK(std::signbit(got[i].imag()) == std::signbit(im));
                    }
                    // Round trip, transposed (Fortran order) and sliced too.
                    const std::string path = (temp_dir("complex") / "x.npy").string();
                    for (const Tensor<U>& v : {t.as<U>(), t.dim() == 2 ? t.as<U>().t() : t.as<U>()}) {
                        save_npy(path, v);
                        CHECK((load_npy(path).as<U>().to_vector() == v.to_vector()));
                    }
                } else {
                    FAIL("not a complex dtype");
                }
            });
        }
        ++files;
    }
    CHECK(files == 6);
    const fs::path dir = temp_dir("same_complex");
    const Tensor<complex<float>> x = arange(4, kFloat32).to<complex<float>>();
    const Tensor<complex<float>> c8 = (x - x * complex<float>(0, 1)).reshape({2, 2});
    const Tensor<complex<double>> c16 = arange(3, kFloat64).to<complex<double>>() + complex<double>(0, 0.5);
    save_npy((dir / "c8.npy").string(), c8);
    save_npy((dir / "c16.npy").string(), c16);
    CHECK(slurp(dir / "c8.npy") == slurp(data_file("same_c8_2x2.npy")));
    CHECK(slurp(dir / "c16.npy") == slurp(data_file("same_c16_3.npy")));
    fs::remove_all(dir);
}

// ---- Writing ---------------------------------------------------------------------------------

TEST_CASE("save_npy writes exactly NumPy's bytes (header, padding to 64, data)", "[files][npy]") {
    const fs::path dir = temp_dir("same");
    struct Case {
        const char* name;
        TensorBase t;
    };
    const std::vector<Case> cases = {
        {"same_f4_2x3", arange(6, kFloat32).reshape({2, 3})},
        {"same_i8_4", arange(4, kInt64)},
        {"same_f8_0d", full<double>({}, 2.5)},
        {"same_u1_0", empty<uint8_t>({0})},
        {"same_f4_F_2x3", arange(6, kFloat32).reshape({3, 2}).t()},
        {"same_b1_5", base_tensor(kBool, {5})  /* i % 2 == 1 */},
        {"same_f2_2x2x2", arange(8, kFloat16).reshape({2, 2, 2})},
        {"same_i2_1x1x3", arange(3, kInt16).reshape({1, 1, 3})},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        const fs::path mine = dir / (std::string(c.name) + ".npy");
        save_npy(mine.string(), c.t);
        CHECK(slurp(mine) == slurp(data_file(std::string(c.name) + ".npy")));
    }
    fs::remove_all(dir);
}

TEST_CASE("save_npy then load_npy round-trips every NumPy dtype, contiguous, transposed and sliced",
          "[files][npy]") {
    const fs::path dir = temp_dir("roundtrip");
    for (DType d : kNumpyDtypes) {
        INFO(d);
        const TensorBase base = base_tensor(d, {3, 4});
        const TensorBase views[] = {
            base,
            visit_dtype(d, [&]<class U>(dtype_t<U>) -> TensorBase { return base.as<U>().t(); }),
            visit_dtype(d, [&]<class U>(dtype_t<U>) -> TensorBase { return base.as<U>().slice(1, 0, 4, 2); }),
            visit_dtype(d, [&]<class U>(dtype_t<U>) -> TensorBase { return base.as<U>().reshape({12})[5]; }),
            base_tensor(d, {0, 3}),
        };
        for (const TensorBase& v : views) {
            INFO("sizes " << v.sizes() << " strides " << v.strides());
            const std::string path = (dir / "x.npy").string();
            save_npy(path, v);
            const std::string bytes = slurp(path);
            CHECK(bytes.size() % 64 == std::size_t(v.nbytes()) % 64);  // data starts at a multiple of 64
            const bool fortran = !v.is_contiguous() && detail::npy::is_fortran_contiguous(v);
            CHECK((bytes.find("'fortran_order': True") != std::string::npos) == fortran);
            for (bool mmap : {false, true}) {
                const TensorBase back = load_npy(path, mmap);
                CHECK(same_values(back, v));
                if (fortran) CHECK(back.strides() == v.strides());
            }
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("save_npy refuses bfloat16 (NumPy has no such dtype) and suggests to<float>()", "[files][npy]") {
    const fs::path dir = temp_dir("bf16");
    const std::string path = (dir / "b.npy").string();
    const std::string msg = message_of<dtype_error>([&] { save_npy(path, ones<BFloat16>({2})); });
    CHECK_THAT(msg, Catch::Contains("bfloat16") && Catch::Contains("to<float>()"));
    CHECK(!fs::exists(path));  // refused before the file is created
    save_npy(path, ones<BFloat16>({2}).to<float>());
    CHECK(load_npy<float>(path).to_vector() == std::vector<float>{1, 1});
    fs::remove_all(dir);
}

TEST_CASE("save_npy refuses more than 64 dims (NumPy: 32), so that it writes only what load_npy reads",
          "[files][npy]") {
    const fs::path dir = temp_dir("dims");
    const std::string path = (dir / "many_dims.npy").string();
    CHECK_THROWS_AS(save_npy(path, full<float>(IntArray(size_t{65}, 1), 1.5f)), shape_error);
    CHECK(!fs::exists(path));
    save_npy(path, full<float>(IntArray(size_t{64}, 1), 1.5f));
    const auto back = load_npy<float>(path);
    CHECK(back.dim() == 64);
    CHECK(back.item() == 1.5f);
    fs::remove_all(dir);
}

// ---- mmap ------------------------------------------------------------------------------------

TEST_CASE("load_npy(path, true) maps the file copy-on-write: writes never reach the file", "[files][npy]") {
    const fs::path dir = temp_dir("mmap");
    const std::string path = (dir / "m.npy").string();
    save_npy(path, arange(10, kFloat64));
    const std::string before = slurp(path);
    Tensor<double> view;
    {
        auto t = load_npy<double>(path, true);
        CHECK(t.impl().storage->is_external());
        t.fill_(-1.0);
        CHECK(t[3].item() == -1.0);
        view = t.slice(0, 2, 5);  // keeps the mapping alive after t goes
    }
    CHECK(view.to_vector() == std::vector<double>{-1, -1, -1});
    CHECK(slurp(path) == before);
    CHECK(load_npy<double>(path, true)[3].item() == 3.0);
    fs::remove_all(dir);
}

TEST_CASE("load_npy normalises bool bytes other than 0 and 1 to true, mapped or not", "[files][npy]") {
    const fs::path dir = temp_dir("bool");
    const std::string path = (dir / "b.npy").string();
    spit(path, npy_bytes("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", std::string("\0\1\2\xff", 4)));
    for (bool mmap : {false, true})
        CHECK(load_npy<bool>(path, mmap).to_vector() == std::vector<bool>{false, true, true, true});
    fs::remove_all(dir);
}

// ---- Headers ---------------------------------------------------------------------------------

TEST_CASE("The header parser takes the keys in any order, any spacing, quotes, trailing commas", "[files][npy]") {
    const std::string data = f4_bytes({1, 2, 3, 4, 5, 6});
    for (const char* dict : {
             "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
             "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
             "{ \"fortran_order\" :False,'shape':(2,3,),\"descr\":\"<f4\" , }",
             "{'descr':'f4','fortran_order':False,'shape':(2L, 3L)}",
             "\t{'descr': '=f4',\n 'fortran_order': False, 'shape': (2, 3)}  ",
         }) {
        INFO(dict);
        const TensorBase t = detail::parse_npy(npy_bytes(dict, data).data(), npy_bytes(dict, data).size(), "mem");
        CHECK(t.as<float>().to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6});
        CHECK(t.sizes() == IntArray{2, 3});
    }
    // Fortran order with the other key spellings; a 1-element and a 0-d shape.
    const auto f = detail::parse_npy(npy_bytes("{'fortran_order': True, 'descr': '<f4', 'shape': (2, 3)}", data).data(),
                                     npy_bytes("{'fortran_order': True, 'descr': '<f4', 'shape': (2, 3)}", data).size(),
                                     "mem");
    CHECK(f.as<float>().to_vector() == std::vector<float>{1, 3, 5, 2, 4, 6});
    const std::string one = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", f4_bytes({7}));
    CHECK(detail::parse_npy(one.data(), one.size(), "mem").sizes() == IntArray{1});
    const std::string zero_d = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': ()}", f4_bytes({7}));
    CHECK(detail::parse_npy(zero_d.data(), zero_d.size(), "mem").as<float>().item() == 7.0f);
}

TEST_CASE("Hostile or malformed .npy input is an io_error naming the file and the fault", "[files][npy]") {
    const std::string data = f4_bytes({1, 2, 3, 4, 5, 6});
    const auto parse = [](const std::string& bytes) { (void)detail::parse_npy(bytes.data(), bytes.size(), "in.npy"); };
    const auto header_error = [&](const std::string& dict, const char* expected) {
        INFO(dict);
        const std::string msg = message_of<io_error>([&] { parse(npy_bytes(dict, data)); });
        CHECK_THAT(msg, Catch::Contains("load_npy: in.npy") && Catch::Contains(expected));
        return msg;
    };
    // The header text is quoted in the message.
    CHECK_THAT(header_error("{'descr': '|V2', 'fortran_order': False, 'shape': (2,)}", "descr '|V2'"),
               Catch::Contains("\"{'descr': '|V2'"));
    header_error("{'descr': '|O', 'fortran_order': False, 'shape': (2,)}", "descr '|O'");
    header_error("{'descr': '<u4', 'fortran_order': False, 'shape': (2,)}", "descr '<u4'");
    header_error("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "structured");
    {
        std::string many = "(";  // 65 dims of 1: NumPy refuses more than 32, tenet more than 64
        for (int i = 0; i < 65; ++i) many += "1, ";
        header_error("{'descr': '<f4', 'fortran_order': False, 'shape': " + many + ")}", "more than 64 dimensions");
    }
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3)}", "negative dimension");
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (6)}", "trailing comma");
    header_error("{'descr': '<f4', 'fortran_order': 0, 'shape': (6,)}", "True or False");
    header_error("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (6,)}", "True or False");
    header_error("{'descr': '<f4', 'shape': (6,)}", "keys");
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1}", "unexpected key 'extra'");
    header_error("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}", "twice");
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} x", "after the closing");
    header_error("{'descr': '<f4', 'fortran_order': False 'shape': (6,)}", "expected ','");
    header_error("{'descr': '<f4, 'fortran_order': False, 'shape': (6,)}", "descr '<f4, '");
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", "int64");
    header_error("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", "overflows");
    header_error("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,)}", "8796093022208 bytes");
    // Empty, but the other dims' product (its strides) overflows: refused as NumPy refuses it.
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296)}", "overflows");
    // A shape that claims more elements than the bytes present: both counts are named.
    header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4)}", "needs 32 bytes of data but 24");
    // Bad magic, unknown versions, truncated prefixes and headers.
    const std::string good = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", data);
    CHECK_THAT(message_of<io_error>([&] { parse("PK\3\4 not numpy"); }), Catch::Contains("magic"));
    CHECK_THAT(message_of<io_error>([&] { parse(""); }), Catch::Contains("magic"));
    std::string v4 = good;
    v4[6] = 4;
    CHECK_THAT(message_of<io_error>([&] { parse(v4); }), Catch::Contains("version 4.0"));
    std::string v11 = good;
    v11[7] = 1;
    CHECK_THAT(message_of<io_error>([&] { parse(v11); }), Catch::Contains("version 1.1"));
    CHECK_THAT(message_of<io_error>([&] { parse(good.substr(0, 9)); }), Catch::Contains("truncated"));
    CHECK_THAT(message_of<io_error>([&] { parse(good.substr(0, 40)); }), Catch::Contains("truncated"));
    CHECK_THAT(message_of<io_error>([&] { parse(good.substr(0, good.size() - 1)); }),
               Catch::Contains("needs 24 bytes of data but 23"));
    std::string huge_len = good;  // a 2.0 header length of 4 GiB in a short file
    huge_len[6] = 2;
    huge_len[8] = huge_len[9] = huge_len[10] = huge_len[11] = '\xff';
    CHECK_THAT(message_of<io_error>([&] { parse(huge_len); }), Catch::Contains("4294967295"));
    // Files: a missing file, and a lying shape read from disk.
    CHECK_THAT(message_of<io_error>([&] { (void)load_npy("/nonexistent/x.npy"); }),
               Catch::Contains("/nonexistent/x.npy"));
    const fs::path dir = temp_dir("hostile");
    const std::string path = (dir / "lies.npy").string();
    spit(path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 1024, 1024)}", data));
    for (bool mmap : {false, true})
        CHECK_THAT(message_of<io_error>([&] { (void)load_npy(path, mmap); }),
                   Catch::Contains("lies.npy") && Catch::Contains("needs 4294967296 bytes of data but 24"));
    fs::remove_all(dir);
}

// ---- .npz ------------------------------------------------------------------------------------

TEST_CASE("load_npz reads np.savez, np.savez_compressed and default names in archive order", "[files][npz]") {
    std::map<std::string, std::vector<std::pair<std::string, Expected>>> archives;
    for (const ManifestEntry& entry : manifest_entries("npz"))
        archives[entry.name].emplace_back(entry.detail, entry.expected);
    REQUIRE(archives.size() == 3);
    CHECK(archives["default_names.npz"].front().first == "arr_0");
    for (const auto& [file, entries] : archives) {
        INFO(file);
        const auto loaded = load_npz(data_file(file).string());
        REQUIRE(loaded.size() == entries.size());
        for (size_t i = 0; i < loaded.size(); ++i) {
            INFO(entries[i].first);
            CHECK(loaded[i].first == entries[i].first);
            check_values(loaded[i].second, entries[i].second);
            CHECK(loaded[i].second.storage_offset() == 0);
        }
    }
    // The compressed archive's y is in Fortran order: it loads column-major.
    const auto c = load_npz(data_file("compressed.npz").string());
    for (const auto& [key, t] : c)
        if (key == "y") CHECK(t.strides() == IntArray{1, 3});
    // Each tensor's storage holds its data alone (no .npy header left behind it), so that a .pt
    // save of it writes its elements and nothing else.
    for (const auto& [file, entries] : archives)
        for (const auto& [key, t] : load_npz(data_file(file).string())) {
            INFO(file << " " << key);
            CHECK(t.impl().storage->nbytes() == size_t(t.nbytes()));
        }
}

TEST_CASE("savez and savez_compressed round-trip; keys get .npy as np.savez gives them", "[files][npz]") {
    const fs::path dir = temp_dir("npz");
    const auto m = base_tensor(kFloat32, {3, 4}).as<float>();
    const std::vector<std::pair<std::string, TensorBase>> arrays = {
        {"m", m}, {"mt", m.t()}, {"ms", m.slice(1, 1, 4, 2)}, {"i", base_tensor(kInt64, {5})},
        {"b", base_tensor(kBool, {2, 2})}, {"h", base_tensor(kFloat16, {})}, {"e", base_tensor(kUInt8, {0, 2})}};
    for (bool compressed : {false, true}) {
        const std::string path = (dir / (compressed ? "c.npz" : "s.npz")).string();
        if (compressed) savez_compressed(path, arrays);
        else savez(path, arrays);
        const detail::ZipReader zr(path);
        CHECK(zr.names() == std::vector<std::string>{"m.npy", "mt.npy", "ms.npy", "i.npy", "b.npy", "h.npy", "e.npy"});
        // Each entry is exactly what save_npy writes.
        save_npy((dir / "mt.npy").string(), m.t());
        CHECK(zr.read("mt.npy", 1 << 20) == slurp(dir / "mt.npy"));
        const auto back = load_npz(path);
        REQUIRE(back.size() == arrays.size());
        for (size_t i = 0; i < arrays.size(); ++i) {
            INFO(arrays[i].first);
            CHECK(back[i].first == arrays[i].first);
            CHECK(same_values(back[i].second, arrays[i].second));
        }
        CHECK(back[1].second.strides() == IntArray{1, 4});  // written in Fortran order, loaded so
    }
    CHECK(fs::file_size(dir / "c.npz") < fs::file_size(dir / "s.npz"));
    CHECK_THROWS_AS(savez((dir / "x.npz").string(), {{"a", m}, {"a", m}}), value_error);
    CHECK_THAT(message_of<dtype_error>([&] { savez((dir / "x.npz").string(), {{"a", m}, {"w", ones<BFloat16>({1})}}); }),
               Catch::Contains("bfloat16"));
    CHECK(!fs::exists(dir / "x.npz"));
    fs::remove_all(dir);
}

TEST_CASE("A zip archive yields at most its own length in stored data, whatever its entries claim",
          "[files][npz]") {
    // Entries whose stored data overlap would each pass the per-entry size check; the reader
    // counts what it hands out. Reading one stored entry twice stands in for two overlapping ones.
    const fs::path dir = temp_dir("zip_budget");
    const std::string path = (dir / "one.npz").string();
    savez(path, {{"x", full<float>({1000}, 2.0f)}});
    const detail::ZipReader zr(path);
    const uint64_t n = zr.size("x.npy");
    std::vector<char> buffer(static_cast<size_t>(n));
    zr.read_into("x.npy", buffer.data(), n);
    const std::string msg = message_of<io_error>([&] { zr.read_into("x.npy", buffer.data(), n); });
    CHECK_THAT(msg, Catch::Contains("one.npz") && Catch::Contains("overlapping"));
    fs::remove_all(dir);
}

TEST_CASE("Hostile .npz input: zip bombs, lying headers, non-.npy entries, corrupt data are io_errors",
          "[files][npz]") {
    const fs::path dir = temp_dir("npz_hostile");
    const std::string npy = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", f4_bytes({1, 2}));
    const auto archive = [&](const std::string& name, const std::vector<std::pair<std::string, std::string>>& entries,
                             bool compress) {
        const std::string path = (dir / name).string();
        detail::ZipWriter zw(path);
        for (const auto& [entry, bytes] : entries) zw.add_copy(entry, bytes, compress);
        zw.close();
        return path;
    };
    const auto error_of = [&](const std::string& path) {
        const std::string msg = message_of<io_error>([&] { (void)load_npz(path); });
        const std::string bytes = slurp(path);
        // The from-memory reader (the fuzzer's) says the same about the same bytes.
        CHECK_THROWS_AS(detail::parse_npz(bytes.data(), bytes.size(), "mem"), io_error);
        return msg;
    };
    // A bomb: 64 MiB of zeros after an 8-byte array, deflated to a few KB.
    const std::string bomb = archive("bomb.npz", {{"a.npy", npy + std::string(64 << 20, '\0')}}, true);
    CHECK(fs::file_size(bomb) < 200000);
    CHECK_THAT(error_of(bomb), Catch::Contains("bomb.npz: entry 'a.npy' declares 67109000 bytes") &&
                                   Catch::Contains("needs 136"));
    // A header that claims more data than the entry holds.
    const std::string big = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000,)}", f4_bytes({1}));
    CHECK_THAT(error_of(archive("lies.npz", {{"a.npy", big}}, true)),
               Catch::Contains("entry 'a.npy'") && Catch::Contains("needs 4000000000 bytes of data but 4"));
    CHECK_THAT(error_of(archive("text.npz", {{"a.npy", npy}, {"readme.txt", "hello"}}, false)),
               Catch::Contains("entry 'readme.txt'") && Catch::Contains("magic"));
    CHECK_THAT(error_of(archive("dup.npz", {{"a.npy", npy}, {"a", npy}}, false)), Catch::Contains("key 'a'"));
    CHECK_THAT(error_of(archive("short.npz", {{"a.npy", npy.substr(0, 7)}}, false)), Catch::Contains("magic"));
    // Corrupt data in a stored entry: the CRC check catches it.
    std::string bytes = slurp(archive("crc.npz", {{"a.npy", npy}}, false));
    const size_t at = bytes.find(f4_bytes({1, 2}));
    REQUIRE(at != std::string::npos);
    bytes[at] ^= 1;
    spit(dir / "crc.npz", bytes);
    (void)error_of((dir / "crc.npz").string());
    spit(dir / "not.npz", "not a zip archive");
    CHECK_THAT(error_of((dir / "not.npz").string()), Catch::Contains("not.npz"));
    CHECK_THROWS_AS(load_npz((dir / "missing.npz").string()), io_error);
    fs::remove_all(dir);
}

// ---- The reverse direction: NumPy reads what tenet wrote -------------------------------------

// Writes, for each NumPy dtype D (its descr code: b1 u1 i1 i2 i4 i8 f2 f4 f8), files whose values
// check_npy.py recomputes from the rule in base_tensor (element i of an n-element base):
//   D__c_2x3.npy     base(6).reshape(2, 3)
//   D__t_3x2.npy     base(6).reshape(2, 3).T          (written in Fortran order, no copy)
//   D__s_3x2.npy     base(12).reshape(3, 4)[:, ::2]   (a strided view: written in C order)
//   D__0d.npy        base(4)[3] (0-d)
//   D__empty_0x3.npy base(0).reshape(0, 3)
// Into $TENET_PYTHON_CHECK_DIR when set; else into a temporary directory, read back with tenet.
TEST_CASE("[python-check] tenet writes .npy and .npz files that NumPy reads back identically",
          "[files][npy][npz][python-check]") {
    const char* env = std::getenv("TENET_PYTHON_CHECK_DIR");
    const fs::path dir = env ? fs::path(env) : temp_dir("pycheck");
    fs::create_directories(dir);
    const char* codes[] = {"b1", "u1", "i1", "i2", "i4", "i8", "f2", "f4", "f8"};
    for (size_t k = 0; k < kNumpyDtypes.size(); ++k) {
        const DType d = kNumpyDtypes[k];
        visit_dtype(d, [&]<class U>(dtype_t<U>) {
            const std::string c = codes[k];
            const auto b6 = base_tensor(d, {2, 3}).as<U>(), b12 = base_tensor(d, {3, 4}).as<U>();
            const std::vector<std::pair<std::string, Tensor<U>>> files = {
                {c + "__c_2x3.npy", b6},
                {c + "__t_3x2.npy", b6.t()},
                {c + "__s_3x2.npy", b12.slice(1, 0, 4, 2)},
                {c + "__0d.npy", base_tensor(d, {4}).as<U>()[3]},
                {c + "__empty_0x3.npy", base_tensor(d, {0, 3}).as<U>()},
            };
            for (const auto& [name, t] : files) {
                INFO(name);
                save_npy((dir / name).string(), t);
                if (!env) CHECK(same_values(load_npy((dir / name).string()), t));
            }
        });
    }
    // arrays.npz and arrays_compressed.npz: c = f4's c_2x3, t = i2's t_3x2, s = f8's s_3x2,
    // z = b1's 0d, e = u1's empty_0x3 (the rule above), stored and deflated.
    const std::vector<std::pair<std::string, TensorBase>> arrays = {
        {"c", base_tensor(kFloat32, {2, 3})},
        {"t", base_tensor(kInt16, {2, 3}).as<int16_t>().t()},
        {"s", base_tensor(kFloat64, {3, 4}).as<double>().slice(1, 0, 4, 2)},
        {"z", base_tensor(kBool, {4}).as<bool>()[3]},
        {"e", base_tensor(kUInt8, {0, 3})}};
    savez((dir / "arrays.npz").string(), arrays);
    savez_compressed((dir / "arrays_compressed.npz").string(), arrays);
    if (!env) {
        for (const char* name : {"arrays.npz", "arrays_compressed.npz"}) {
            const auto back = load_npz((dir / name).string());
            REQUIRE(back.size() == arrays.size());
            for (size_t i = 0; i < back.size(); ++i) CHECK(same_values(back[i].second, arrays[i].second));
        }
        fs::remove_all(dir);
    }
}

}}  // namespace TENET_TEST_FILE
