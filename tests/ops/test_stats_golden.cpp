// PyTorch's statistics, scans, softmax and losses, read as data at run time from stats_cases.txt
// (tests/golden/gen_stats.py writes it; the format is described there). Each op is compiled once
// per dtype here, however many cases the file holds.
//
// Comparison: dtype and sizes exactly; integers and bools exactly; floats NaN-for-NaN,
// infinities exactly, otherwise within rtol * max(1, |expected|): rtol 2e-5 for float32 values
// (PyTorch accumulates float32 in float, tenet in double), 1e-4 for float32 gradients, 1e-10 for
// float64. grad_fn names are compared for the ops whose node PyTorch names the same way (the
// composed ones, such as mse_loss, end in the name of their last operation).
// A placed file (tests/CMakeLists.txt): its inputs go where tests/placement.hpp puts them, the
// host or a device; every op here runs on both (sorting, selection and the scans through
// backend/device/device_order.hpp). The statistics' other checks are in test_stats.cpp.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_data.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace F = tenet::nn::functional;

namespace {

const golden::GoldenFile& cases() { return golden::cached(__FILE__, "stats_cases.txt"); }

using golden::Case;
using golden::Golden;
using golden::make;
using golden::parse_tensor;


/// Runs the case's op on x and hands its result(s) to k.
template <class T, class K>
void call_op(const Case& c, const Tensor<T>& x, K&& k) {
    const std::string& op = c.op;
    const auto dims = c.dims();
    const bool keepdim = c.flag("keepdim");
    const int64_t correction = c.integer("correction", 1);
    if (op == "nansum") return dims ? k(nansum(x, *dims, keepdim)) : k(nansum(x));
    if (op == "nanmean") return dims ? k(nanmean(x, *dims, keepdim)) : k(x.nanmean());
    if (op == "logsumexp") return k(logsumexp(x, *dims, keepdim));
    if (op == "var") return dims ? k(var(x, *dims, correction, keepdim)) : k(var(x, std::nullopt, correction));
    if (op == "std") return dims ? k(x.std(*dims, correction, keepdim)) : k(x.std());
    if (op == "var_mean") {
        auto [v, m] = dims ? var_mean(x, *dims, correction, keepdim) : var_mean(x, std::nullopt, correction);
        return k(v, m);
    }
    if (op == "std_mean") {
        auto [s, m] = dims ? std_mean(x, *dims, correction, keepdim) : std_mean(x);
        return k(s, m);
    }
    const auto pair = [&](const auto& r) { return k(r.values, r.indices); };
    if (op == "sort") return pair(sort(x, /*stable=*/true, c.dim(), c.flag("descending")));
    if (op == "argsort") return k(argsort(x, c.dim(), c.flag("descending")));
    if (op == "msort") return k(msort(x));
    if (op == "topk") return pair(topk(x, c.integer("k", 1), c.dim(), c.flag("largest")));
    if (op == "kthvalue") return pair(kthvalue(x, c.integer("k", 1), c.dim(), keepdim));
    if (op == "median") return c.has("dim") ? pair(median(x, c.dim(), keepdim)) : k(median(x));
    if (op == "nanmedian") return c.has("dim") ? pair(nanmedian(x, c.dim(), keepdim)) : k(nanmedian(x));
    if (op == "isclose")
        return k(Tensor<bool>(isclose(x, golden::input<T>(cases(), c, "y"), c.number("rtol", 1e-5),
                                      c.number("atol", 1e-8), c.flag("equal_nan"))));
    if (op == "signbit") return k(Tensor<bool>(signbit(x)));
    if constexpr (!std::is_same_v<T, bool>) if (op == "clamp_t") {  // tensor bounds, broadcast, of x's dtype
        auto bound = [&](const char* key) { return golden::input<T>(cases(), c, key); };
        if (!c.has("cmax")) return k(Tensor<T>(clamp(x, bound("cmin"))));
        if (!c.has("cmin")) return k(Tensor<T>(x.clamp(std::nullopt, bound("cmax"))));
        return k(Tensor<T>(clamp(x, bound("cmin"), bound("cmax"))));
    }
    if (op == "cummax") return pair(cummax(x, c.dim()));
    if (op == "cummin") return pair(cummin(x, c.dim()));
    if (op == "diff") {
        auto side = [&](const char* key) { return c.has(key) ? golden::input<T>(cases(), c, key) : Tensor<T>(); };
        return k(diff(x, c.integer("n", 1), c.dim(), side("prepend"), side("append")));
    }
    if constexpr (FloatingElement<T>)
        if (op == "logcumsumexp") return k(logcumsumexp(x, c.dim()));
    if (op == "cumsum") return k(cumsum(x, c.dim()));
    if (op == "cumprod") return k(cumprod(x, c.dim()));
    if constexpr (FloatingElement<T>) {
        if (op == "softmax") return k(softmax(x, c.dim()));
        if (op == "log_softmax") return k(log_softmax(x, c.dim()));
        if (op == "softmin") return k(softmin(x, c.dim()));
        if (op == "log_sigmoid") return k(Tensor<T>(log_sigmoid(x)));
        if (op == "hardsigmoid") return k(Tensor<T>(x.hardsigmoid()));
        if (op == "hardswish") return k(Tensor<T>(hardswish(x)));
        if (op == "mish") return k(Tensor<T>(mish(x)));
        if (op == "hardtanh") return k(Tensor<T>(hardtanh(x, c.number("min_val", -1), c.number("max_val", 1))));
        if (op == "relu6") return k(Tensor<T>(relu6(x)));
        if (op == "leaky_relu") return k(Tensor<T>(leaky_relu(x, c.number("negative_slope", 0.01))));
        if (op == "elu") return k(Tensor<T>(elu(x, c.number("alpha", 1))));
        if (op == "celu") return k(Tensor<T>(celu(x, c.number("alpha", 1))));
        if (op == "selu") return k(Tensor<T>(selu(x)));
        if (op == "threshold") return k(Tensor<T>(threshold(x, c.number("threshold", 0), c.number("value", 0))));
        const std::string reduction = c.has("reduction") ? c.arg("reduction") : "mean";
        auto input = [&](const std::string& key) { return golden::input<T>(cases(), c, key); };
        const Tensor<T> weight = c.has("weight") ? input("weight") : Tensor<T>();
        if (op == "mse_loss") return k(F::mse_loss(x, input("target"), reduction));
        if (op == "l1_loss") return k(F::l1_loss(x, input("target"), reduction));
        if (op == "binary_cross_entropy") return k(F::binary_cross_entropy(x, input("target"), {}, reduction));
        if (op == "binary_cross_entropy_with_logits")
            return k(F::binary_cross_entropy_with_logits(x, input("target"), {}, reduction));
        const Golden& target = cases().inputs.at(c.arg("target"));
        const double smoothing = c.number("label_smoothing", 0.0);
        if (target.dtype == "int64") {
            const Tensor<int64_t> classes = make<int64_t>(target);
            if (op == "nll_loss") return k(F::nll_loss(log_softmax(x, 1), classes, weight, -100, reduction));
            if (op == "cross_entropy") return k(F::cross_entropy(x, classes, weight, -100, reduction, smoothing));
        } else if (op == "cross_entropy") {
            return k(F::cross_entropy(x, make<T>(target), weight, -100, reduction, smoothing));
        }
    }
    FAIL("no tenet call for " << c.line);
}

/// The ops whose grad_fn PyTorch names as tenet does.
const std::set<std::string> kNamedNodes = {"nansum",   "logsumexp", "var",  "std",   "softmax", "log_softmax",
                                           "softmin",  "cumsum",    "cumprod", "nll_loss", "sort", "msort",
                                           "topk",     "kthvalue",  "median", "nanmedian", "log_sigmoid",
                                           "hardsigmoid", "hardswish", "mish", "cummax", "cummin",
                                           "logcumsumexp", "clamp_t"};

void run_ops(const std::set<std::string>& ops) {
    golden::run_ops(cases(), ops, kNamedNodes, {},
                    [](const Case& c, const auto& x, auto&& k) { call_op(c, x, k); });
}

}  // namespace

TEST_CASE("golden statistics: nansum, nanmean, logsumexp", "[stats][golden]") {
    run_ops({"nansum", "nanmean", "logsumexp"});
}

TEST_CASE("golden statistics: var, std, var_mean, std_mean", "[stats][golden]") {
    run_ops({"var", "std", "var_mean", "std_mean"});
}

TEST_CASE("golden softmax, log_softmax, softmin", "[stats][golden]") { run_ops({"softmax", "log_softmax", "softmin"}); }

TEST_CASE("golden scans: cumsum, cumprod, cummax, cummin, logcumsumexp, diff", "[stats][golden]") {
    run_ops({"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "diff"});
}

TEST_CASE("golden closeness: isclose, signbit", "[stats][golden]") { run_ops({"isclose", "signbit"}); }

TEST_CASE("golden activations: log_sigmoid, hardsigmoid, hardswish, mish", "[stats][golden]") {
    run_ops({"log_sigmoid", "hardsigmoid", "hardswish", "mish"});
}

TEST_CASE("golden activations with parameters: hardtanh, relu6, leaky_relu, elu, celu, selu, threshold",
          "[stats][golden]") {
    run_ops({"hardtanh", "relu6", "leaky_relu", "elu", "celu", "selu", "threshold"});
}

TEST_CASE("golden clamp with tensor bounds", "[stats][golden]") { run_ops({"clamp_t"}); }

TEST_CASE("golden sorting: sort, argsort, msort", "[stats][golden][sort]") { run_ops({"sort", "argsort", "msort"}); }

TEST_CASE("golden order statistics: topk, kthvalue, median, nanmedian", "[stats][golden][sort]") {
    run_ops({"topk", "kthvalue", "median", "nanmedian"});
}

TEST_CASE("golden losses", "[stats][golden][nn]") {
    run_ops({"mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "nll_loss",
             "cross_entropy"});
}

}}  // namespace TENET_TEST_FILE
