// PyTorch's .pt files (io/pt.hpp, io/pickle.hpp, io/zip.hpp) against real PyTorch 1.13: the files
// in data/pt/ and their manifest are written by tests/golden/gen_pt.py (torch.save, and broken
// copies of its files); the [python-check] case writes files that tests/files/check_pt.py reads
// back with torch.load.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>
#include <tenet/io/pt.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "../golden_data.hpp"
#include "base_tensor.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace fs = std::filesystem;

namespace {

fs::path pt_file(const std::string& name) {
    return golden::golden_path(__FILE__, ("data/pt/" + name).c_str());
}

/// A fresh directory under the system's temporary directory.
fs::path temp_dir(const std::string& tag) {
    const fs::path d = fs::temp_directory_path() / ("tenet_pt_" + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// The value at PATH (".", "./key", "./0/key", ...) of a loaded value.
const IValue& at(const IValue& root, const std::string& path) {
    const IValue* v = &root;
    std::istringstream parts(path.substr(1));
    for (std::string part; std::getline(parts, part, '/');) {
        if (part.empty()) continue;
        if (v->isGenericDict()) {
            const IValue* x = v->toGenericDict().find(IValue(part));
            if (!x && !part.empty() && std::isdigit(static_cast<unsigned char>(part[0])))
                x = v->toGenericDict().find(IValue(int64_t(std::stoll(part))));
            INFO(path << ": no key " << part);
            REQUIRE(x);
            v = x;
        } else {
            const auto& items = v->isList() ? v->toList() : v->toTupleRef();
            const size_t i = std::stoul(part);
            REQUIRE(i < items.size());
            v = &items[i];
        }
    }
    return *v;
}

std::string dtype_name(DType d) { return std::string(d.name()); }

/// A tensor's elements in row-major order of its sizes: doubles for floats, int64 otherwise.
std::vector<double> float_values(const TensorBase& t) { return t.to<double>().contiguous().to_vector(); }
std::vector<int64_t> int_values(const TensorBase& t) { return t.to<int64_t>().contiguous().to_vector(); }
/// A complex tensor's elements as (real, imaginary) pairs, in row-major order of its sizes.
std::vector<double> complex_parts(const TensorBase& t) {
    return visit_dtype_with_complex(t.dtype(), [&]<class U>(dtype_t<U>) -> std::vector<double> {
        if constexpr (is_complex_v<U>) return view_as_real(t.as<U>()).template to<double>().contiguous().to_vector();
        else FAIL("complex_parts of a " << t.dtype() << " tensor");
        return {};
    });
}

/// Checks one manifest line `T FILE PATH DTYPE STORAGE OFFSET NDIM SIZE... STRIDE... RG NUMEL VALUE...`.
void check_tensor(const TensorBase& t, std::istringstream& in, std::map<int, const StorageImpl*>& storages) {
    std::string dtype;
    int storage = 0;
    int64_t offset = 0, ndim = 0, numel = 0;
    int requires_grad = 0;
    in >> dtype >> storage >> offset >> ndim;
    IntArray sizes(static_cast<size_t>(ndim)), strides(static_cast<size_t>(ndim));
    for (auto& s : sizes) in >> s;
    for (auto& s : strides) in >> s;
    in >> requires_grad >> numel;
    REQUIRE(in);
    CHECK(dtype_name(t.dtype()) == dtype);
    CHECK(t.sizes() == sizes);
    CHECK(t.strides() == strides);
    CHECK(t.storage_offset() == offset);
    CHECK(t.is_cpu());
    // One storage number, one tenet storage; two numbers, two storages.
    const StorageImpl* s = t.impl().storage.get();
    auto [it, fresh] = storages.try_emplace(storage, s);
    CHECK(it->second == s);
    if (fresh)
        for (auto& [k, p] : storages) CHECK((k == storage) == (p == s));
#if TENET_AUTOGRAD
    if (!t.dtype().is_complex())  // (a complex tensor that requires grad is refused on load)
        visit_dtype(t.dtype(), [&]<class U>(dtype_t<U>) { CHECK(t.as<U>().requires_grad() == (requires_grad == 1)); });
#endif
    REQUIRE(t.numel() == numel);
    if (t.is_floating_point() || t.dtype().is_complex()) {
        const bool parts = t.dtype().is_complex();  // two words an element: real, imaginary
        const auto got = parts ? complex_parts(t) : float_values(t);
        for (int64_t i = 0; i < (parts ? 2 : 1) * numel; ++i) {
            std::string w;
            in >> w;
            const double want = std::strtod(w.c_str(), nullptr);
            INFO("element " << i);
            if (std::isnan(want)) CHECK(std::isnan(got[size_t(i)]));
            else CHECK((got[size_t(i)] == want && std::signbit(got[size_t(i)]) == std::signbit(want)));
        }
    } else {
        const auto got = int_values(t);
        for (int64_t i = 0; i < numel; ++i) {
            int64_t want = 0;
            in >> want;
            INFO("element " << i);
            CHECK(got[size_t(i)] == want);
        }
    }
    REQUIRE(in);
}

}  // namespace

TEST_CASE("load reads what torch.save wrote: values, dtypes, views, containers, scalars", "[files][pt]") {
    std::ifstream manifest(pt_file("expected.txt"));
    REQUIRE(manifest);
    std::map<std::string, IValue> loaded;
    std::map<std::string, std::map<int, const StorageImpl*>> storages;
    int checked = 0;
    for (std::string line; std::getline(manifest, line);) {
        std::istringstream in(line);
        std::string kind, file, path;
        in >> kind >> file;
        if (kind == "E") continue;  // the error cases: below
        in >> path;
        INFO(line.substr(0, 200));
        if (!loaded.count(file)) loaded[file] = load(pt_file(file).string());
        const IValue& v = at(loaded[file], path);
        if (kind == "T") {
            REQUIRE(v.isTensor());
            check_tensor(v.toTensor(), in, storages[file]);
        } else if (kind == "D") {
            size_t n = 0;
            in >> n;
            REQUIRE(v.isGenericDict());
            REQUIRE(v.toGenericDict().size() == n);
            for (const auto& [k, x] : v.toGenericDict().items()) {
                std::string want;
                in >> want;
                CHECK((k.isString() ? k.toStringRef() : std::to_string(k.toInt())) == want);
            }
        } else if (kind == "L") {
            std::string what;
            size_t n = 0;
            in >> what >> n;
            CHECK((what == "list" ? v.isList() : v.isTuple()));
            CHECK((v.isList() ? v.toList() : v.toTupleRef()).size() == n);
        } else if (kind == "S") {
            std::string type, value;
            in >> type >> value;
            if (type == "none") CHECK(v.isNone());
            if (type == "bool") CHECK((v.isBool() && v.toBool() == (value == "1")));
            if (type == "int") CHECK((v.isInt() && v.toInt() == std::stoll(value)));
            if (type == "float") CHECK((v.isDouble() && v.toDouble() == std::strtod(value.c_str(), nullptr)));
            if (type == "str") CHECK((v.isString() && v.toStringRef() == value));
        }
        ++checked;
    }
    CHECK(checked > 60);
    // The state_dict's OrderedDict (with _metadata set by BUILD) stays ordered, its metadata dropped.
    CHECK(loaded["state_dict.pt"].toGenericDict().ordered);
    CHECK_FALSE(loaded["nested.pt"].toGenericDict().ordered);
}

TEST_CASE("load: broken and hostile files are io_errors naming the file and the fault", "[files][pt]") {
    std::ifstream manifest(pt_file("expected.txt"));
    REQUIRE(manifest);
    int cases = 0;
    for (std::string line; std::getline(manifest, line);) {
        std::istringstream in(line);
        std::string kind, file;
        in >> kind >> file;
        if (kind != "E") continue;
        INFO(line);
        std::string message;
        try {
            load(pt_file(file).string());
        } catch (const io_error& e) {
            message = e.what();
        }
        REQUIRE_FALSE(message.empty());
        INFO(message);
        CHECK(message.find(file) != std::string::npos);
        for (std::string word; in >> word;) CHECK(message.find(word) != std::string::npos);
        ++cases;
    }
    CHECK(cases >= 6);
    CHECK_THROWS_AS(load("/nonexistent/x.pt"), io_error);
    CHECK_THROWS_AS(load(pt_file("expected.txt").string()), io_error);  // not a zip
}

TEST_CASE("load<T> is checked; load_state_dict names the offending key", "[files][pt]") {
    const Tensor<float> t = load<float>(pt_file("tensor.pt").string());
    CHECK(t.sizes() == IntArray{3, 4});
    CHECK(t(2, 3) == 1.75f);  // arange(12) / 4 - 1
    try {
        load<double>(pt_file("tensor.pt").string());
        FAIL("no dtype_error");
    } catch (const dtype_error& e) {
        CHECK(std::string(e.what()).find("float32") != std::string::npos);
        CHECK(std::string(e.what()).find("float64") != std::string::npos);
    }
    CHECK(load(pt_file("tensor.pt").string()).toTensor().to<double>().sizes() == IntArray{3, 4});
    CHECK_THROWS_AS(load<float>(pt_file("views.pt").string()), io_error);

    const auto sd = load_state_dict(pt_file("state_dict.pt").string());
    REQUIRE(sd.size() == 8);
    CHECK(sd[0].first == "0.weight");
    CHECK(sd[6].first == "1.num_batches_tracked");
    CHECK(sd[6].second.dtype() == DType(ScalarType::Int64));
    try {
        load_state_dict(pt_file("nested.pt").string());
        FAIL("no io_error");
    } catch (const io_error& e) {
        CHECK(std::string(e.what()).find("'hp'") != std::string::npos);
    }
    CHECK_THROWS_AS(load_state_dict(pt_file("list.pt").string()), io_error);
}

TEST_CASE("load reads complex64 and complex128 tensors torch.save wrote; complex ones that require grad are refused",
          "[files][pt]") {
    // Their values are checked against the manifest above; here: dtypes, views, typed loading.
    const IValue v = load(pt_file("complex.pt").string());
    const GenericDict& d = v.toGenericDict();
    const TensorBase c64 = d.find("c64")->toTensor();
    CHECK(c64.dtype() == kComplex64);
    CHECK(d.find("c128")->toTensor().dtype() == kComplex128);
    CHECK(d.find("t")->toTensor().is_alias_of(c64));
    CHECK(d.find("cols")->toTensor().is_alias_of(c64));
    CHECK(c64.as<complex<float>>()(2, 3) == complex<float>(3.5f, 0.25f));  // 11 * 0.5 - 2, 3 - 11 * 0.25
    // torch.save(torch.tensor([1 + 2j, -3j]).requires_grad_()): tenet has no complex autograd.
#if TENET_AUTOGRAD
    try {
        load(pt_file("complex_grad.pt").string());
        FAIL("no io_error");
    } catch (const io_error& e) {
        const std::string what = e.what();
        CHECK(what.find("complex_grad.pt") != std::string::npos);
        CHECK(what.find("complex64 tensor that requires grad") != std::string::npos);
    }
#else
    CHECK(load<complex<float>>(pt_file("complex_grad.pt").string())(1) == complex<float>(0, -3));
#endif
}

namespace {

using python_check::base_tensor;

const ScalarType kAll[] = {ScalarType::Bool,    ScalarType::UInt8,   ScalarType::Int8,
                           ScalarType::Int16,   ScalarType::Int32,   ScalarType::Int64,
                           ScalarType::Float16, ScalarType::BFloat16, ScalarType::Float32,
                           ScalarType::Float64};

bool same_tensor(const TensorBase& a, const TensorBase& b) {
    if (a.dtype() != b.dtype() || a.sizes() != b.sizes() || a.strides() != b.strides() ||
        a.storage_offset() != b.storage_offset())
        return false;
    return a.is_floating_point() ? float_values(a) == float_values(b) : int_values(a) == int_values(b);
}

}  // namespace

// Into $TENET_PYTHON_CHECK_DIR when set; else into a temporary directory, read back with tenet.
TEST_CASE("[python-check] tenet writes .pt files that torch.load reads back identically", "[files][pt][python-check]") {
    const char* env = std::getenv("TENET_PYTHON_CHECK_DIR");
    const fs::path dir = env ? fs::path(env) : temp_dir("pycheck");
    fs::create_directories(dir);

    // tensor_f32.pt: base float32 (3, 4). transposed_f64.pt: base float64 (3, 4), transposed.
    const TensorBase f32 = base_tensor(ScalarType::Float32, {3, 4});
    const Tensor<double> f64 = base_tensor(ScalarType::Float64, {3, 4}).as<double>();
    save(f32, (dir / "tensor_f32.pt").string());
    save(f64.t(), (dir / "transposed_f64.pt").string());
    // state_dict.pt: nn.Linear(3, 2)'s weight (base float32 (2, 3)) and bias (base float32 (2,)).
    const std::vector<std::pair<std::string, TensorBase>> linear = {
        {"weight", base_tensor(ScalarType::Float32, {2, 3})}, {"bias", base_tensor(ScalarType::Float32, {2})}};
    save(linear, (dir / "state_dict.pt").string());
    // dtypes.pt: a state_dict of base (2, 3) tensors named by dtype.
    std::vector<std::pair<std::string, TensorBase>> dtypes;
    for (ScalarType s : kAll) dtypes.emplace_back(dtype_name(DType(s)), base_tensor(DType(s), {2, 3}));
    save(dtypes, (dir / "dtypes.pt").string());
    // views.pt: [b, b.t(), b[1], b[:, 1::2], other] with b base int32 (3, 4), other base int64 (3,):
    // the first four share one storage.
    const Tensor<int32_t> b = base_tensor(ScalarType::Int32, {3, 4}).as<int32_t>();
    const std::vector<TensorBase> views = {b, b.t(), b[1], b.slice(1, 1, 4, 2), base_tensor(ScalarType::Int64, {3})};
    save(views, (dir / "views.pt").string());
    // shapes.pt: [base float32 of shape () plus 7 (= 4.5), base float32 (2, 0, 3), base float16 (1, 1, 5)].
    const std::vector<TensorBase> shapes = {
        Tensor<float>(base_tensor(ScalarType::Float32, {}).as<float>() + 7.0f), base_tensor(ScalarType::Float32, {2, 0, 3}),
        base_tensor(ScalarType::Float16, {1, 1, 5})};
    save(shapes, (dir / "shapes.pt").string());
    // values.pt: {'lr': 0.5, 'steps': 3, 'name': 'sgd', 'flag': True, 'none': None,
    //             'big': -2**40, 'pair': (b0, 2)} with b0 base float64 (2,).
    GenericDict hp;
    hp.insert_or_assign("lr", 0.5);
    hp.insert_or_assign("steps", 3);
    hp.insert_or_assign("name", "sgd");
    hp.insert_or_assign("flag", true);
    hp.insert_or_assign("none", IValue());
    hp.insert_or_assign("big", int64_t(-(int64_t(1) << 40)));
    hp.insert_or_assign("pair", IValue::tuple({base_tensor(ScalarType::Float64, {2}), 2}));
    save(IValue(hp), (dir / "values.pt").string());

    // Read back with tenet: the same values, and views of one storage stay views of one storage.
    CHECK(same_tensor(load(dir / "tensor_f32.pt").toTensor(), f32));
    const TensorBase tr = load(dir / "transposed_f64.pt").toTensor();
    CHECK(same_tensor(tr, f64.t()));
    CHECK(tr.strides() == IntArray{1, 4});
    const auto sd = load_state_dict((dir / "state_dict.pt").string());
    REQUIRE(sd.size() == 2);
    CHECK((sd[0].first == "weight" && same_tensor(sd[0].second, linear[0].second)));
    CHECK((sd[1].first == "bias" && same_tensor(sd[1].second, linear[1].second)));
    CHECK(load(dir / "state_dict.pt").toGenericDict().ordered);
    const auto dt = load_state_dict((dir / "dtypes.pt").string());
    REQUIRE(dt.size() == dtypes.size());
    for (size_t i = 0; i < dt.size(); ++i) CHECK((dt[i].first == dtypes[i].first && same_tensor(dt[i].second, dtypes[i].second)));
    const IValue v = load(dir / "views.pt");
    REQUIRE(v.toList().size() == 5);
    for (size_t i = 0; i < 5; ++i) CHECK(same_tensor(v.toList()[i].toTensor(), views[i]));
    for (size_t i = 1; i < 4; ++i) CHECK(v.toList()[i].toTensor().is_alias_of(v.toList()[0].toTensor()));
    CHECK_FALSE(v.toList()[4].toTensor().is_alias_of(v.toList()[0].toTensor()));
    const IValue s = load(dir / "shapes.pt");
    for (size_t i = 0; i < 3; ++i) CHECK(same_tensor(s.toList()[i].toTensor(), shapes[i]));
    const IValue h = load(dir / "values.pt");
    const GenericDict& hd = h.toGenericDict();
    CHECK_FALSE(hd.ordered);
    CHECK(hd.find("lr")->toDouble() == 0.5);
    CHECK(hd.find("steps")->toInt() == 3);
    CHECK(hd.find("name")->toStringRef() == "sgd");
    CHECK(hd.find("flag")->toBool());
    CHECK(hd.find("none")->isNone());
    CHECK(hd.find("big")->toInt() == -(int64_t(1) << 40));
    CHECK(same_tensor(hd.find("pair")->toTupleRef()[0].toTensor(), base_tensor(ScalarType::Float64, {2})));
    if (!env) fs::remove_all(dir);
}

namespace {
/// The complex python-check rule (also in check_pt.py): element i is ((i - 3) * 0.5) + (1 - i * 0.25)j.
template <class T>
Tensor<complex<T>> complex_base(const IntArray& sizes) {
    Tensor<complex<T>> t = empty<complex<T>>(sizes);
    complex<T>* p = t.data_ptr();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = complex<T>(T((double(i) - 3) * 0.5), T(1 - double(i) * 0.25));
    return t;
}
bool same_complex(const TensorBase& a, const TensorBase& b) {
    return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.strides() == b.strides() &&
           a.storage_offset() == b.storage_offset() && complex_parts(a) == complex_parts(b);
}
}  // namespace

// complex.pt: [c, c.t(), c[1:, ::2], w] with c complex64 (3, 4) and w complex128 (5,) by the
// complex rule; the first three share one storage. Checked by check_pt.py, as the case above.
TEST_CASE("[python-check] tenet writes complex .pt files that torch.load reads back identically",
          "[files][pt][python-check]") {
    const char* env = std::getenv("TENET_PYTHON_CHECK_DIR");
    const fs::path dir = env ? fs::path(env) : temp_dir("pycheck_complex");
    fs::create_directories(dir);
    const Tensor<complex<float>> c = complex_base<float>({3, 4});
    const std::vector<TensorBase> items = {c, c.t(), c.index({Slice(1, None), Slice(None, None, 2)}),
                                           complex_base<double>({5})};
    save(items, (dir / "complex.pt").string());
    const IValue v = load(dir / "complex.pt");
    REQUIRE(v.toList().size() == 4);
    for (size_t i = 0; i < 4; ++i) CHECK(same_complex(v.toList()[i].toTensor(), items[i]));
    for (size_t i = 1; i < 3; ++i) CHECK(v.toList()[i].toTensor().is_alias_of(v.toList()[0].toTensor()));
    save(c.t(), (dir / "complex_t.pt").string());  // one tensor, typed load
    const Tensor<complex<float>> back = load<complex<float>>((dir / "complex_t.pt").string());
    CHECK(back.strides() == IntArray{1, 4});
    CHECK(back(3, 2) == complex<float>(4, -1.75f));  // element 11
    CHECK_THROWS_AS(load<complex<double>>((dir / "complex_t.pt").string()), dtype_error);
    if (!env) fs::remove_all(dir);
}

namespace {
size_t data_records(const fs::path& p) {
    detail::ZipReader z(p.string());
    size_t n = 0;
    for (const auto& name : z.names()) n += name.find("/data/") != std::string::npos;
    return n;
}
}  // namespace

TEST_CASE("save writes one record per storage, the whole storage, and a torch archive's layout", "[files][pt]") {
    const fs::path dir = temp_dir("layout");
    const Tensor<float> a = base_tensor(ScalarType::Float32, {4, 5}).as<float>();
    const std::vector<TensorBase> views = {a.narrow(0, 1, 2), a.t(), a[3]};
    save(views, (dir / "model.v1.pt").string());
    CHECK(data_records(dir / "model.v1.pt") == 1);
    detail::ZipReader z((dir / "model.v1.pt").string());
    // As torch.save: the archive's folder is the file name without its extension.
    CHECK(z.names().front() == "model.v1/data.pkl");
    CHECK(z.read("model.v1/version", 8) == "3\n");
    CHECK(z.read("model.v1/byteorder", 8) == "little");
    CHECK(z.size("model.v1/data/0") == 20 * 4);  // the whole storage, as torch.save
    const IValue v = load(dir / "model.v1.pt");
    CHECK(v.toList()[0].toTensor().storage_offset() == 5);
    CHECK(v.toList()[2].toTensor().storage_offset() == 15);
    CHECK(v.toList()[0].toTensor().impl().storage->nbytes() == 80);
    // A loaded file saves again the same way.
    save(v, (dir / "again.pt").string());
    CHECK(data_records(dir / "again.pt") == 1);
    for (size_t i = 0; i < 3; ++i)
        CHECK(same_tensor(load(dir / "again.pt").toList()[i].toTensor(), views[i]));
    fs::remove_all(dir);
}

TEST_CASE("save: bad arguments and unwritable paths are clear errors", "[files][pt]") {
    const fs::path dir = temp_dir("errors");
    const TensorBase t = base_tensor(ScalarType::Float32, {2});
    CHECK_THROWS_AS(save(t, "/nonexistent_dir/x.pt"), io_error);
    CHECK_THROWS_AS(save(std::vector<std::pair<std::string, TensorBase>>{{"w", t}, {"w", t}}, (dir / "d.pt").string()),
                    value_error);
    CHECK_THROWS_AS(save(std::vector<std::pair<std::string, TensorBase>>{{"bad\xff", t}}, (dir / "u.pt").string()),
                    value_error);
    // Two dtypes over one storage: refused, as torch.save refuses it.
    auto impl = TensorImplPtr::make();
    impl->storage = t.impl().storage;
    impl->dtype = ScalarType::Int32;
    impl->set_geometry({2}, {1});
    CHECK_THROWS_AS(save(std::vector<TensorBase>{t, TensorBase(impl)}, (dir / "m.pt").string()), dtype_error);
    CHECK_FALSE(fs::exists(dir / "m.pt"));
    fs::remove_all(dir);
}

namespace {
/// Runs the unpickler on raw bytes; storages are zero-filled, up to 1 KiB.
IValue unpickle(const std::string& bytes) {
    auto loader = [](const std::string&, DType dtype, int64_t numel, const std::string&) {
        if (numel > 1024) detail::fail<io_error>("test loader: too large");
        auto s = std::make_shared<StorageImpl>(size_t(numel * dtype.itemsize()), Device(DeviceType::CPU));
        std::memset(s->data(), 0, s->nbytes());
        return s;
    };
    return detail::pickle::Unpickler(bytes, "bytes", loader).parse();
}
std::string unpickle_error(const std::string& bytes) {
    try {
        unpickle(bytes);
    } catch (const io_error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("the unpickler is a bounded interpreter: hostile pickles are io_errors", "[files][pt]") {
    using namespace std::string_literals;
    CHECK(unpickle("\x80\x02K\x05."s).toInt() == 5);
    // A list that contains itself (Python: l = []; l.append(l)).
    CHECK(unpickle_error("\x80\x02]q\x00h\x00" "a."s).find("contains itself") != std::string::npos);
    // A list put into another and then modified: refused (no cycles can form).
    CHECK(unpickle_error("\x80\x02]q\x00]h\x00" "a0h\x00K\x01" "a."s).find("already inside") != std::string::npos);
    // Nesting deeper than kMaxDepth.
    std::string deep = "\x80\x02"s;
    for (int i = 0; i < 200; ++i) deep += ']';
    for (int i = 0; i < 199; ++i) deep += 'a';
    CHECK(unpickle_error(deep + ".").find("nested") != std::string::npos);
    // Lengths that exceed the bytes left: never allocated.
    CHECK(unpickle_error("\x80\x02X\xff\xff\xff\x7f"s "abc."s).find("truncated") != std::string::npos);
    CHECK(unpickle_error("\x80\x02\x8b\xff\xff\xff\x7f."s).find("truncated") != std::string::npos);
    // An int beyond int64.
    CHECK(unpickle_error("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01."s).find("int64") != std::string::npos);
    CHECK(unpickle("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\xff."s).toInt() == INT64_MIN);
    // Unknown memo entries, stack underflow, missing MARK, missing STOP, trailing bytes.
    CHECK(unpickle_error("\x80\x02h\x07."s).find("memo") != std::string::npos);
    CHECK(unpickle_error("\x80\x02" "a."s).find("empty stack") != std::string::npos);
    CHECK(unpickle_error("\x80\x02t."s).find("MARK") != std::string::npos);
    CHECK(unpickle_error("\x80\x02K\x01"s).find("without STOP") != std::string::npos);
    CHECK(unpickle_error("\x80\x02K\x01.K"s).find("after STOP") != std::string::npos);
    // Globals off the allow-list, REDUCE of a non-callable, opcodes of later protocols.
    CHECK(unpickle_error("\x80\x02" "cos\nsystem\nX\x02\x00\x00\x00ls\x85R."s).find("os.system") != std::string::npos);
    CHECK(unpickle_error("\x80\x02K\x01)R."s).find("REDUCE") != std::string::npos);
    CHECK(unpickle_error("\x80\x02\x95\x00\x00\x00\x00\x00\x00\x00\x00."s).find("FRAME") != std::string::npos);
    CHECK(unpickle_error("\x80\x02\x81."s).find("NEWOBJ") != std::string::npos);
    // A dict key that is not str or int; BUILD of anything but a dict.
    CHECK(unpickle_error("\x80\x02}N\x89s."s).find("key") != std::string::npos);
    CHECK(unpickle_error("\x80\x02]}b."s).find("BUILD") != std::string::npos);
    // A tensor view reaching outside its storage, a negative stride, a storage used as two dtypes.
    const std::string head = "\x80\x02\x63torch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"
                             "\x63torch\nFloatStorage\nX\x01\x00\x00\x00" "0X\x03\x00\x00\x00" "cpuK\x04tQ"s;
    const std::string tail = "\x89\x63" "collections\nOrderedDict\n)RtR."s;
    CHECK(unpickle(head + "K\x00K\x04\x85K\x01\x85"s + tail).toTensor().numel() == 4);
    CHECK(unpickle_error(head + "K\x01K\x04\x85K\x01\x85"s + tail).find("outside") != std::string::npos);
    CHECK(unpickle_error(head + "K\x00K\x02K\x02\x86K\x03K\x01\x86"s + tail).find("outside") != std::string::npos);
    CHECK(unpickle_error(head + "K\x00K\x04\x85J\xff\xff\xff\xff\x85"s + tail).find("stride") != std::string::npos);
    CHECK(unpickle(head + "K\x04K\x00\x85K\x01\x85"s + tail).toTensor().numel() == 0);
    // An expanded view (stride 0) whose element count overflows int64.
    CHECK(unpickle_error(head + "K\x00\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40\x86K\x00K\x00\x86"s + tail)
              .find("outside") != std::string::npos);
    // An expanded view that fits: a valid tensor of 2^40 elements over one element.
    CHECK(unpickle(head + "K\x00\x8a\x06\x00\x00\x00\x00\x00\x01\x85K\x00\x85"s + tail).toTensor().numel() == (int64_t(1) << 40));
    CHECK(unpickle_error(head + "K\x05K\x00\x85K\x01\x85"s + tail).find("outside") != std::string::npos);
}

TEST_CASE("ZipReader: exact reads, implausible sizes and non-archives are io_errors", "[files][pt]") {
    const fs::path dir = temp_dir("zip");
    {
        detail::ZipWriter w((dir / "a.zip").string());
        const char bytes[] = "0123456789";
        w.add("stored", bytes, 10, false);
        w.add_copy("deflated", std::string(5000, 'x'), true);
        w.close();
    }
    detail::ZipReader r((dir / "a.zip").string());
    CHECK(r.names() == std::vector<std::string>{"stored", "deflated"});
    char buf[16] = {};
    r.read_into("stored", buf, 10);
    CHECK(std::string(buf, 10) == "0123456789");
    CHECK_THROWS_AS(r.read_into("stored", buf, 9), io_error);
    char direct[16] = {};
    r.read_stored_into("stored", direct, 10);  // straight from the file
    CHECK(std::string(direct, 10) == "0123456789");
    CHECK_THROWS_AS(r.read_stored_into("stored", direct, 11), io_error);
    std::string all(5000, '\0');
    r.read_stored_into("deflated", all.data(), 5000);  // compressed: through libzip
    CHECK(all == std::string(5000, 'x'));
    {
        std::ifstream f(dir / "a.zip", std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        detail::ZipReader m(bytes.data(), bytes.size(), "memory");
        char mem[16] = {};
        m.read_stored_into("stored", mem, 10);
        CHECK(std::string(mem, 10) == "0123456789");
    }
    CHECK(r.read("deflated", 5000) == std::string(5000, 'x'));
    CHECK_THROWS_AS(r.read("deflated", 4999), io_error);
    CHECK_THROWS_AS(r.size("missing"), io_error);
    const std::string junk = "PK\x03\x04 not really a zip";
    CHECK_THROWS_AS(detail::ZipReader(junk.data(), junk.size(), "junk"), io_error);
    fs::remove_all(dir);
}

}}  // namespace TENET_TEST_FILE
