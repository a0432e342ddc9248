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

}  // namespace complex_golden
