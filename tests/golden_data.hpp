#pragma once
// Golden cases as data: the text files that the generators in tests/golden/ write (the format is
// described in tests/golden/gen_stats.py) and the checks that compare tenet's results with them.
// A test reads its file at run time, so a file of any size compiles once.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "placement.hpp"

namespace golden {

using namespace tenet;

struct Golden {
    std::string dtype;
    IntArray sizes;
    std::vector<double> values;
};

inline Golden parse_tensor(std::istringstream& in) {
    Golden g;
    int64_t nd = 0, numel = 0;
    in >> g.dtype >> nd;
    g.sizes.resize(static_cast<size_t>(nd));
    for (auto& s : g.sizes) in >> s;
    in >> numel;
    g.values.resize(static_cast<size_t>(numel));
    for (auto& v : g.values) {
        std::string word;
        in >> word;
        v = std::strtod(word.c_str(), nullptr);  // hex floats, nan, inf
    }
    REQUIRE(in);
    return g;
}

struct Case {
    std::string line, kind, op;
    std::map<std::string, std::string> args;
    std::vector<std::string> parts;  // after the first '|'

    bool has(const std::string& k) const { return args.count(k) > 0; }
    const std::string& arg(const std::string& k) const {
        const auto it = args.find(k);
        REQUIRE(it != args.end());
        return it->second;
    }
    std::optional<IntArray> dims() const {
        if (!has("dim") || arg("dim") == "none") return std::nullopt;
        IntArray d;
        if (arg("dim") == "empty") return d;
        std::istringstream in(arg("dim"));
        for (std::string w; std::getline(in, w, ',');) d.push_back(std::stoll(w));
        return d;
    }
    int64_t dim() const { return std::stoll(arg("dim")); }
    bool flag(const std::string& k) const { return has(k) && arg(k) == "1"; }
    int64_t integer(const std::string& k, int64_t otherwise) const { return has(k) ? std::stoll(arg(k)) : otherwise; }
    double number(const std::string& k, double otherwise) const { return has(k) ? std::stod(arg(k)) : otherwise; }
};

/// The inputs and the cases of one file.
struct GoldenFile {
    std::map<std::string, Golden> inputs;
    std::vector<Case> cases;
};

/// Where the data file `name` beside the test source `source` (its __FILE__) is. __FILE__ is
/// relative to the build directory when the build passes relative paths (ccache's base_dir, as
/// CI sets it): then the file is looked for from the current directory and up to three above,
/// by its path from `tests/` on, so a binary finds it whether it runs in the build tree or at
/// the repository root.
inline std::filesystem::path golden_path(const char* source, const char* name) {
    namespace fs = std::filesystem;
    const fs::path beside = fs::path(source).parent_path() / name;
    if (fs::exists(beside)) return beside;
    fs::path from_tests;  // beside, from its "tests" component on
    bool seen = false;
    for (const fs::path& part : beside) {
        if (part == "tests") seen = true;
        if (seen) from_tests /= part;
    }
    fs::path up;
    for (int level = 0; level <= 3 && !from_tests.empty(); ++level, up /= "..")
        if (fs::exists(up / from_tests)) return up / from_tests;
    return beside;  // not found: read_golden says where it looked
}

/// Reads a golden file (golden_path finds it).
inline GoldenFile read_golden(const std::filesystem::path& path);

/// The golden file `name` beside the test file `source` (pass __FILE__), read once per program:
/// every test case, and every test file that reads the same data, shares one parse.
inline const GoldenFile& cached(const char* source, const char* name) {
    static std::mutex mutex;
    static std::map<std::filesystem::path, std::unique_ptr<const GoldenFile>> files;
    const std::filesystem::path path = golden_path(source, name);
    std::lock_guard lock(mutex);
    std::unique_ptr<const GoldenFile>& file = files[std::filesystem::weakly_canonical(path)];
    if (!file) file = std::make_unique<const GoldenFile>(read_golden(path));
    return *file;
}

inline GoldenFile read_golden(const std::filesystem::path& path) {
    GoldenFile c;
    std::ifstream file(path);
    INFO("golden data file " << path << " (from the current directory " << std::filesystem::current_path() << ")");
    REQUIRE(file);
    for (std::string line; std::getline(file, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        std::string kind;
        in >> kind;
        if (kind == "input") {
            std::string name;
            in >> name;
            c.inputs[name] = parse_tensor(in);
            continue;
        }
        Case k;
        k.line = line;
        k.kind = kind;
        in >> k.op;
        for (std::string w; in >> w && w != "|";) {
            const auto eq = w.find('=');
            k.args[w.substr(0, eq)] = w.substr(eq + 1);
        }
        std::string rest;
        std::getline(in, rest);
        std::istringstream parts(rest);
        for (std::string part; std::getline(parts, part, '|');) k.parts.push_back(part);
        c.cases.push_back(std::move(k));
    }
    return c;
}

/// The tensor written in a case's part (after a '|').
inline Golden parse_part(const std::string& part) {
    std::istringstream in(part);
    return parse_tensor(in);
}

/// The tensor on the host (a complex one from its (re, im) pairs).
template <class T>
Tensor<T> host_tensor(const Golden& g) {
    Tensor<T> t = empty<T>(g.sizes);
    T* p = t.data_ptr();
    if constexpr (is_complex_v<T>) {
        REQUIRE(g.values.size() == 2 * static_cast<size_t>(t.numel()));
        for (size_t i = 0; i < g.values.size(); i += 2)
            *p++ = T(static_cast<real_t<T>>(g.values[i]), static_cast<real_t<T>>(g.values[i + 1]));
    } else {
        for (double v : g.values) *p++ = convert<T>(v);
    }
    return t;
}

/// The tensor on the test device (placement.hpp).
template <class T>
Tensor<T> make(const Golden& g) {
    return placement::place(host_tensor<T>(g));
}

/// The input a case names under `key` (`y=NAME`), as a tensor of T on the test device.
template <class T>
Tensor<T> input(const GoldenFile& file, const Case& c, const std::string& key) {
    return make<T>(file.inputs.at(c.arg(key)));
}

/// Compares a result with PyTorch's: dtype and sizes exactly; integers and bools exactly; floats
/// NaN-for-NaN, infinities exactly, otherwise within rtol * max(1, |expected|) (rtol 0: exactly).
template <class R>
void compare(const Golden& expected, const Tensor<R>& actual, double rtol) {
    placement::check_device(actual);
    CHECK(std::string(actual.dtype().name()) == expected.dtype);
    CHECK(actual.sizes() == expected.sizes);
    const auto got = actual.cpu().contiguous().to_vector();
    REQUIRE(got.size() == expected.values.size());
    for (size_t i = 0; i < got.size(); ++i) {
        const double a = static_cast<double>(got[i]), e = expected.values[i];
        INFO("element " << i << ": tenet " << a << ", PyTorch " << e);
        if constexpr (FloatingElement<R>) {
            if (std::isnan(e)) CHECK(std::isnan(a));
            else if (std::isinf(e) || rtol == 0) CHECK(a == e);
            else CHECK(std::abs(a - e) <= rtol * std::max(1.0, std::abs(e)));
        } else {
            CHECK(a == e);
        }
    }
}

/// Calls f.template operator()<T>() with T the element type PyTorch's dtype name stands for.
template <class F>
void with_dtype(const std::string& dtype, F&& f) {
    if (dtype == "float32") f.template operator()<float>();
    else if (dtype == "float64") f.template operator()<double>();
    else if (dtype == "int64") f.template operator()<int64_t>();
    else if (dtype == "bool") f.template operator()<bool>();
    else FAIL("unknown dtype " << dtype);
}

/// with_dtype, and the complex dtypes too (a separate function: with_dtype's callers need not
/// compile their cases for complex).
template <class F>
void with_dtype_or_complex(const std::string& dtype, F&& f) {
    if (dtype == "complex64") f.template operator()<complex<float>>();
    else if (dtype == "complex128") f.template operator()<complex<double>>();
    else with_dtype(dtype, std::forward<F>(f));
}

/// PyTorch's values within 2e-5 (float32 values: PyTorch accumulates float32 in float, tenet in
/// double), 1e-4 (float32 gradients), 1e-10 (float64); other types exactly.
template <class R>
void compare_result(const Golden& expected, const Tensor<R>& actual, bool gradient) {
    const double rtol = sizeof(R) == 8 ? 1e-10 : (gradient ? 1e-4 : 2e-5);
    compare(expected, actual, FloatingElement<R> ? rtol : 0.0);
}

/// Runs one case of `file`: `call_op(c, x, k)` runs the case's op on x (its input `x=NAME`, of
/// the dtype the file gives it) and hands the result(s) to k.
///   case:   each result is compared with PyTorch's;
///   throws: the call must throw the error named (index_error, value_error, dtype_error, or any
///           tenet::error);
///   grad:   the gradient of sum(first result * weights) with respect to x is compared, and the
///           result's grad_fn name for the ops in `named_nodes`.
template <class CallOp>
void run_case(const GoldenFile& file, const Case& c, const std::set<std::string>& named_nodes, CallOp&& call_op) {
    INFO(c.line.substr(0, 300));
    const Golden& xg = file.inputs.at(c.arg("x"));
    with_dtype(xg.dtype, [&]<class T>() {
        if (c.kind == "throws") {
            const std::string& error = c.parts.at(0);
            auto call = [&] { call_op(c, make<T>(xg), [](const auto&...) {}); };
            if (error.find("index_error") != std::string::npos) CHECK_THROWS_AS(call(), index_error);
            else if (error.find("value_error") != std::string::npos) CHECK_THROWS_AS(call(), value_error);
            else if (error.find("dtype_error") != std::string::npos) CHECK_THROWS_AS(call(), dtype_error);
            else CHECK_THROWS_AS(call(), tenet::error);
            return;
        }
        if (c.kind == "case") {
            call_op(c, make<T>(xg), [&](const auto&... results) {
                REQUIRE(sizeof...(results) == c.parts.size());
                size_t i = 0;
                ((compare_result(parse_part(c.parts[i++]), results, false)), ...);
            });
            return;
        }
        if constexpr (FloatingElement<T> && TENET_AUTOGRAD) {  // built without autograd: no gradients
            REQUIRE(c.kind == "grad");
            REQUIRE(c.parts.size() == 3);
            const Golden weights = parse_part(c.parts[0]), expected = parse_part(c.parts[1]);
            std::istringstream name_in(c.parts[2]);
            std::string name;
            name_in >> name;
            Tensor<T> x = make<T>(xg).requires_grad_();
            call_op(c, x, [&](const auto& result, const auto&...) {
                using R = typename std::remove_cvref_t<decltype(result)>::value_type;
                if constexpr (std::is_same_v<R, T>) {
                    if (named_nodes.count(c.op) && name != "ViewBackward0") {  // PyTorch's reshape last
                        REQUIRE(result.grad_fn());
                        CHECK(result.grad_fn()->name() == name);
                    }
                    Tensor<T> loss = (result * make<T>(weights)).sum();
                    loss.backward();
                    REQUIRE(x.grad().defined());
                    compare_result(expected, x.grad(), true);
                } else {
                    FAIL("a gradient case whose result type differs from its input's");
                }
            });
        }
    });
}

/// Runs the cases of `file` whose op is in `ops` (on a device, but for those in `host_only`);
/// at least one must run on the host.
template <class CallOp>
void run_ops(const GoldenFile& file, const std::set<std::string>& ops, const std::set<std::string>& named_nodes,
             const std::set<std::string>& host_only, CallOp&& call_op) {
    size_t ran = 0;
    for (const Case& c : file.cases)
        if (ops.count(c.op) && (placement::device().is_cpu() || !host_only.count(c.op))) {
            run_case(file, c, named_nodes, call_op);
            ++ran;
        }
    CHECK((ran > 0 || !placement::device().is_cpu()));
}

}  // namespace golden
