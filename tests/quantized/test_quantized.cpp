// Quantized tensors against PyTorch 1.13 (tests/golden/gen_quantized.py writes the cases), and
// tenet's own refusals (a scale that is not a positive finite number, which PyTorch accepts).
#include <tenet/quantized.hpp>

#include "../golden_data.hpp"
#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using golden::Case;
using golden::GoldenFile;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "quantized_cases.txt"); }

QDType qdtype(const std::string& name) {
    if (name == "quint8") return kQUInt8;
    if (name == "qint8") return kQInt8;
    REQUIRE(name == "qint32");
    return kQInt32;
}

Tensor<float> input_f(const Case& c, const std::string& key) {
    return golden::make<float>(cases().inputs.at(c.arg(key))).cpu();
}

/// int_repr compared with PyTorch's (written as int64), element for element.
void check_repr(const QuantizedTensor& q, const golden::Golden& expected) {
    const Tensor<int64_t> got = q.int_repr().to<int64_t>();
    CHECK(std::string(q.int_repr().dtype().name()) == std::string(q.dtype().underlying().name()));
    CHECK(got.sizes() == expected.sizes);
    const auto v = got.to_vector();
    REQUIRE(v.size() == expected.values.size());
    for (size_t i = 0; i < v.size(); ++i) {
        INFO("element " << i);
        CHECK(static_cast<double>(v[i]) == expected.values[i]);
    }
}

QuantizedTensor run_case(const Case& c) {
    if (c.op == "quantize")
        return quantize_per_tensor(input_f(c, "x"), c.number("scale", 0), c.integer("zp", 0), qdtype(c.arg("dtype")));
    REQUIRE(c.op == "quantize_per_channel");
    return quantize_per_channel(input_f(c, "x"), golden::make<double>(cases().inputs.at(c.arg("scales"))).cpu(),
                                golden::make<int64_t>(cases().inputs.at(c.arg("zps"))).cpu(), c.integer("axis", 0),
                                qdtype(c.arg("dtype")));
}

}  // namespace

TEST_CASE("quantized: quantize, int_repr and dequantize as PyTorch", "[quantized]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || (c.op != "quantize" && c.op != "quantize_per_channel")) continue;
        INFO(c.line.substr(0, 160));
        const QuantizedTensor q = run_case(c);
        check_repr(q, golden::parse_part(c.parts.at(0)));
        golden::compare(golden::parse_part(c.parts.at(1)), q.dequantize(), 0.0);
        CHECK(q.dtype() == qdtype(c.arg("dtype")));
        if (c.op == "quantize") {
            CHECK(q.qscheme() == kPerTensorAffine);
            CHECK(q.q_scale() == c.number("scale", 0));
            CHECK(q.q_zero_point() == c.integer("zp", 0));
            REQUIRE_THROWS_AS(q.q_per_channel_axis(), error);
        } else {
            CHECK(q.qscheme() == kPerChannelAffine);
            CHECK(q.q_per_channel_axis() == c.integer("axis", 0));
            CHECK(q.q_per_channel_scales().to_vector() ==
                  golden::make<double>(cases().inputs.at(c.arg("scales"))).cpu().to_vector());
            CHECK(q.q_per_channel_zero_points().to_vector() ==
                  golden::make<int64_t>(cases().inputs.at(c.arg("zps"))).cpu().to_vector());
            REQUIRE_THROWS_AS(q.q_scale(), error);
        }
        ++n;
    }
    CHECK(n > 100);
}

TEST_CASE("quantized: add and mul with an output scale and zero point, broadcasting, as PyTorch", "[quantized]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || (c.op != "add" && c.op != "mul")) continue;
        INFO(c.line.substr(0, 160));
        const QDType dt = qdtype(c.arg("dtype"));
        const auto a = quantize_per_tensor(input_f(c, "a"), c.number("sa", 0), c.integer("za", 0), dt);
        const auto b = quantize_per_tensor(input_f(c, "b"), c.number("sb", 0), c.integer("zb", 0), dt);
        const double scale = c.number("scale", 0);
        const int64_t zp = c.integer("zp", 0);
        const QuantizedTensor r = c.op == "add" ? quantized::add(a, b, scale, zp) : quantized::mul(a, b, scale, zp);
        check_repr(r, golden::parse_part(c.parts.at(0)));
        CHECK(r.q_scale() == scale);
        CHECK(r.q_zero_point() == zp);
        ++n;
    }
    CHECK(n == 80);  // 24 of one shape, 56 that broadcast
}

TEST_CASE("quantized: printing as PyTorch's repr", "[quantized]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "print") continue;
        INFO(c.line.substr(0, 160));
        std::string expected = c.parts.at(0).substr(1);
        for (size_t p; (p = expected.find("\\n")) != std::string::npos;) expected.replace(p, 2, "\n");
        CHECK(to_string(run_case(c)) == expected);
        ++n;
    }
    CHECK(n > 20);
}

TEST_CASE("quantized: the refusals PyTorch makes", "[quantized]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "throws") continue;
        INFO(c.line);
        const bool axis = c.has("axis") && (c.integer("axis", 0) < 0 || c.integer("axis", 0) >= 3);
        const bool zp = c.parts.at(0).find("bound") != std::string::npos;
        if (axis) CHECK_THROWS_AS(run_case(c), index_error);
        else if (zp) CHECK_THROWS_AS(run_case(c), value_error);
        else CHECK_THROWS_AS(run_case(c), shape_error);
        ++n;
    }
    CHECK(n == 9);
}

TEST_CASE("quantized: errors name the operation and the offending value", "[quantized]") {
    const auto x = tensor<float>({0.5f, -1.0f, 2.0f, 4.0f});
    // PyTorch accepts these scales (and quantizes to zeros); tenet refuses them.
    TENET_REQUIRE_THROWS(quantize_per_tensor(x, 0.0, 0, kQUInt8), value_error, "quantize_per_tensor: scale must be a positive finite number (as a float), got 0");
    TENET_REQUIRE_THROWS(quantize_per_tensor(x, -0.5, 0, kQInt8), value_error, "quantize_per_tensor: scale must be a positive finite number (as a float), got -0.5");
    CHECK_THROWS_AS(quantize_per_tensor(x, std::nan(""), 0, kQInt8), value_error);
    CHECK_THROWS_AS(quantize_per_tensor(x, 1e-50, 0, kQInt8), value_error);  // 0 as a float
    TENET_REQUIRE_THROWS(quantize_per_tensor(x, 0.1, 256, kQUInt8), value_error, "quantize_per_tensor: zero_point 256 is out of the range of tenet.quint8 [0, 255]");
    const auto m = x.reshape({2, 2});
    TENET_REQUIRE_THROWS(quantize_per_channel(m, tensor<double>({0.1, -0.2}), tensor<int64_t>({0, 0}), 1, kQInt8), value_error, "quantize_per_channel: scales[1] must be a positive finite number (as a float), got -0.2");
    TENET_REQUIRE_THROWS(quantize_per_channel(m, tensor<double>({0.1, 0.2}), tensor<int64_t>({0, 0}), 2, kQInt8), index_error, "quantize_per_channel: channel axis 2 is out of range for a tensor of 2 dims (expected [0, 2))");
    TENET_REQUIRE_THROWS(quantize_per_channel(m, tensor<double>({0.1, 0.2, 0.3}), tensor<int64_t>({0, 0, 0}), 0, kQInt8), shape_error, "quantize_per_channel: the number of scales (3) must equal the size of axis 0 (2)");
    const auto a = quantize_per_tensor(x, 0.1, 3, kQUInt8);
    const auto b = quantize_per_tensor(x, 0.1, 3, kQInt8);
    TENET_REQUIRE_THROWS(quantized::add(a, b, 0.1, 0), dtype_error, "quantized::add: both operands must have the same dtype (got tenet.quint8 and tenet.qint8)");
    TENET_REQUIRE_THROWS(quantized::mul(a, a, 0.0, 0), value_error, "quantized::mul: scale must be a positive finite number (as a float), got 0");
    TENET_REQUIRE_THROWS(quantized::add(a, quantize_per_tensor(m, 0.1, 3, kQUInt8), 0.1, 0), shape_error, "quantized::add: shapes [4] and [2, 2] cannot be broadcast together: the size of tensor a (4) must match the size of tensor b (2) at non-singleton dimension 1");
    CHECK_THROWS_AS(QuantizedTensor(tensor<int32_t>({1, 2}), kQUInt8, 0.1, 0), dtype_error);
}

TEST_CASE("quantized: layout, Python float reprs", "[quantized]") {
    const auto q = quantize_per_tensor(tensor<float>({1.0f}), 1e-5, 0, kQInt32);
    CHECK(q.layout() == kStrided);
    CHECK(tensor<float>({1.0f}).layout() == kStrided);
    CHECK(!q.is_sparse());
    using detail::print::py_float_repr;
    // Python 3: repr(0.1), repr(1e-05), repr(2.0), repr(1e16), repr(123456.789), repr(0.0001)
    CHECK(py_float_repr(0.1) == "0.1");
    CHECK(py_float_repr(1e-5) == "1e-05");
    CHECK(py_float_repr(2.0) == "2.0");
    CHECK(py_float_repr(1e16) == "1e+16");
    CHECK(py_float_repr(123456.789) == "123456.789");
    CHECK(py_float_repr(0.0001) == "0.0001");
    CHECK(py_float_repr(1.5e300) == "1.5e+300");
    CHECK(py_float_repr(-3.25) == "-3.25");
    CHECK(py_float_repr(1e15) == "1000000000000000.0");
}

}}  // namespace TENET_TEST_FILE
