#pragma once
// The complex tests' comparison with PyTorch's values (golden_data.hpp reads complex tensors:
// golden::host_tensor, golden::with_dtype_or_complex).
#include "../golden_data.hpp"

namespace complex_golden {
using namespace tenet;
using golden::Golden;

/// dtype and sizes exactly; each real number (both parts of a complex one) within rtol * max(1, |expected|)
/// (rtol 2e-5 for float32 and complex64, 1e-12 otherwise, times rtol_scale).
template <class R>
void check_close(const Golden& expected, const Tensor<R>& actual, double rtol_scale = 1.0) {
    CHECK(std::string(actual.dtype().name()) == expected.dtype);
    REQUIRE(actual.sizes() == expected.sizes);
    std::vector<double> got;
    for (const R& v : actual.contiguous().to_vector()) {
        if constexpr (is_complex_v<R>) {
            got.push_back(v.real());
            got.push_back(v.imag());
        } else {
            got.push_back(static_cast<double>(v));
        }
    }
    REQUIRE(got.size() == expected.values.size());
    const double rtol = (std::is_same_v<real_t<R>, float> ? 2e-5 : 1e-12) * rtol_scale;
    for (size_t i = 0; i < got.size(); ++i) {
        const double a = got[i], e = expected.values[i];
        INFO("number " << i << ": tenet " << a << ", PyTorch " << e);
        if (std::isnan(e)) CHECK(std::isnan(a));
        else if (std::isinf(e)) CHECK(a == e);
        else CHECK(std::abs(a - e) <= rtol * std::max(1.0, std::abs(e)));
    }
}

/// The product cases ("product" rows) of complex_linalg_cases.txt (tests/golden/gen_complex_linalg.py)
/// with their operands on `device`, each against PyTorch's values; how many ran.
inline int check_products(const golden::GoldenFile& file, Device device) {
    int n = 0;
    for (const golden::Case& c : file.cases) {
        if (c.kind != "case" || c.op != "product") continue;
        INFO(c.line.substr(0, 120));
        const auto run = [&]<class T>() {
            const std::string op = c.arg("op");
            Tensor<T> a = golden::host_tensor<T>(file.inputs.at(c.arg("a"))).to(device);
            const Tensor<T> b = golden::host_tensor<T>(file.inputs.at(c.arg("b"))).to(device);
            if (c.arg("ta") == "1") a = a.transpose(-2, -1);  // a strided view, read in place
            Tensor<T> r;
            if (op == "mm") r = mm(a, b);
            else if (op == "bmm") r = bmm(a, b);
            else if (op == "matmul") r = matmul(a, b);
            else if (op == "mv") r = mv(a, b);
            else if (op == "dot") r = dot(a, b);
            else if (op == "vdot") r = vdot(a, b);
            else FAIL("unknown op " << op);
            CHECK(r.device() == a.device());  // where the operands are
            check_close(golden::parse_part(c.parts.at(0)), r.cpu(), 10.0);
        };
        if (file.inputs.at(c.arg("a")).dtype == "complex64") run.template operator()<complex<float>>();
        else run.template operator()<complex<double>>();
        ++n;
    }
    return n;
}

}  // namespace complex_golden
