// PyTorch's searchsorted, bucketize, unique, bincount, histc, histogram, quantile, mode and aminmax,
// read as data at run time from stats_cases.txt (tests/golden/gen_stats.py writes it; the format is
// described there), compared as tests/golden_data.hpp compares. A placed file
// (tests/CMakeLists.txt): every op but histogram runs where tests/placement.hpp puts its inputs;
// histogram (host-only, as in PyTorch) runs on the host alone, and on a device must refuse by name.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <array>
#include <optional>
#include <set>
#include <string>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "stats_cases.txt"); }

using golden::Case;

template <class T>
Tensor<T> input(const Case& c, const std::string& key) {
    return golden::input<T>(cases(), c, key);
}

/// The optional dim of a case (`dim=none` or absent: none).
std::optional<int64_t> optional_dim(const Case& c) {
    if (!c.has("dim") || c.arg("dim") == "none")
        return std::nullopt;
    return c.dim();
}

/// Runs the case's op on x and hands its result(s) to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::string& op = c.op;
    const bool keepdim = c.flag("keepdim");
    if (op == "searchsorted") {
        const auto side = c.has("side") ? std::optional<std::string_view>(c.arg("side")) : std::nullopt;
        const Tensor<int64_t> sorter = c.has("sorter") ? input<int64_t>(c, "sorter") : Tensor<int64_t>();
        if (c.has("value"))
            return k(searchsorted(x, c.number("value", 0), c.flag("right"), side, sorter));
        return k(searchsorted(x, input<T>(c, "y"), c.flag("right"), side, sorter));
    }
    if (op == "bucketize")
        return k(bucketize(x, input<T>(c, "y"), c.flag("right")));
    if (op == "unique" || op == "unique_consecutive") {
        const bool inverse = c.flag("return_inverse"), counts = c.flag("return_counts");
        const auto r = op == "unique" ? unique(x, true, inverse, counts, optional_dim(c))
                                      : x.unique_consecutive(inverse, counts, optional_dim(c));
        if (inverse && counts)
            return k(r.output, r.inverse_indices, r.counts);
        if (inverse)
            return k(r.output, r.inverse_indices);
        if (counts)
            return k(r.output, r.counts);
        return k(r.output);
    }
    if (op == "bincount") {
        const int64_t minlength = c.integer("minlength", 0);
        if (!c.has("weight"))
            return k(bincount(x, std::nullopt, minlength));
        const golden::Golden& w = cases().inputs.at(c.arg("weight"));
        if (w.dtype == "float32")
            return k(bincount(x, golden::make<float>(w).to(x.device()), minlength));
        if (w.dtype == "float64")
            return k(x.bincount(golden::make<double>(w).to(x.device()), minlength));
        return k(bincount(x, golden::make<int64_t>(w).to(x.device()), minlength));
    }
    if (op == "histc")
        return k(x.histc(c.integer("bins", 100), c.number("min", 0), c.number("max", 0)));
    if (op == "histogram") {
        const Tensor<T> weight = c.has("weight") ? input<T>(c, "weight") : Tensor<T>();
        const auto pair = [&](const auto& r) { return k(r.hist, r.bin_edges); };
        if (c.has("bins_t"))
            return pair(histogram(x, input<T>(c, "bins_t"), weight, c.flag("density")));
        std::optional<std::array<double, 2>> range;
        if (c.has("range")) {
            const std::string& text = c.arg("range");
            const auto comma = text.find(',');
            range = std::array{std::stod(text.substr(0, comma)), std::stod(text.substr(comma + 1))};
        }
        return pair(histogram(x, c.integer("bins", 100), range, weight, c.flag("density")));
    }
    if (op == "quantile" || op == "nanquantile") {
        const std::string interpolation = c.has("interpolation") ? c.arg("interpolation") : "linear";
        const bool nan = op == "nanquantile";
        if (c.has("qt")) {
            const Tensor<T> q = input<T>(c, "qt");
            return k(nan ? nanquantile(x, q, optional_dim(c), keepdim, interpolation)
                         : x.quantile(q, optional_dim(c), keepdim, interpolation));
        }
        const double q = c.number("q", 0.5);
        return k(nan ? x.nanquantile(q, optional_dim(c), keepdim, interpolation)
                     : quantile(x, q, optional_dim(c), keepdim, interpolation));
    }
    if (op == "mode") {
        const auto r = mode(x, c.dim(), keepdim);
        return k(r.values, r.indices);
    }
    if (op == "aminmax") {
        const auto r = x.aminmax(optional_dim(c), keepdim);
        return k(r.min, r.max);
    }
    FAIL("no tenet call for " << c.line);
}

const std::set<std::string> kNamedNodes = {"mode"};

/// The ops that run on the host only (their kernels are host loops).
const std::set<std::string> kHostOnly = {"histogram"};

void run_ops(const std::set<std::string>& ops) {
    golden::run_ops(cases(), ops, kNamedNodes, kHostOnly,
                    [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

} // namespace

TEST_CASE("golden search: searchsorted, bucketize", "[stats][golden][search]") {
    run_ops({"searchsorted", "bucketize"});
}

TEST_CASE("golden unique, unique_consecutive", "[stats][golden][unique]") {
    run_ops({"unique", "unique_consecutive"});
}

TEST_CASE("golden counting: bincount, histc, histogram", "[stats][golden][histogram]") {
    run_ops({"bincount", "histc", "histogram"});
}

TEST_CASE("golden order statistics: quantile, nanquantile, mode", "[stats][golden][sort]") {
    run_ops({"quantile", "nanquantile", "mode"});
}

TEST_CASE("golden aminmax", "[stats][golden]") {
    run_ops({"aminmax"});
}

TEST_CASE("histogram refuses device tensors by name; bincount and histc check them", "[stats][errors]") {
    if (placement::device().is_cpu()) return;
    const Tensor<float> x = placement::place(tensor({3.0f, 1.0f, 2.0f, 1.0f}));
    const Tensor<int64_t> i = placement::place(tensor({3L, 1L, 2L}));
    // quantile's q must be on the input's device, as PyTorch's.
    CHECK_THROWS_WITH(quantile(x, tensor({0.5f})), Catch::Contains("same device"));
    CHECK_THROWS_AS(histogram(x, 4), device_error);
    // The host loop's messages, from the device's data.
    CHECK_THROWS_WITH(bincount(placement::place(tensor({1L, 3L, -2L, -5L}))),
                      "bincount: only supports non-negative inputs, got -2 at index 2");
    CHECK_THROWS_WITH(bincount(i, tensor({1.0f, 2.0f, 3.0f})), Catch::Contains("same device"));
    CHECK_THROWS_WITH(placement::place(tensor({1.0f, std::numeric_limits<float>::quiet_NaN()})).histc(4), Catch::Contains("is not finite"));
}

TEST_CASE("search, unique and counting refuse bad arguments by name", "[stats][errors]") {
    if (!placement::device().is_cpu()) return;  // host tensors below
    const auto seq = tensor({1.0, 2.0, 3.0});
    CHECK_THROWS_WITH(searchsorted(seq, tensor({2.0}), false, std::nullopt, tensor({0L, 1L, 3L})),
                      Catch::Contains("sorter index 3"));
    CHECK_THROWS_AS(searchsorted(seq, tensor({2.0}), false, "middle"), value_error);
    CHECK_THROWS_AS(bincount(tensor({1L, -2L})), value_error);
    CHECK_THROWS_WITH(quantile(seq, 1.5), Catch::Contains("[0, 1]"));
    CHECK_THROWS_AS(quantile(seq, 0.5, std::nullopt, false, "cubic"), value_error);
    CHECK_THROWS_AS(unique(tensor(1.0), true, false, false, 0), index_error);
    // int32 indices (PyTorch's out_int32)
    const Tensor<int32_t> at = searchsorted<int32_t>(seq, tensor({0.5, 2.0, 9.0}), true);
    CHECK(at.to_vector() == std::vector<int32_t>{0, 2, 3});
    CHECK(bucketize<int32_t>(2.0, seq).item() == 1);
}

}}  // namespace TENET_TEST_FILE
