// The matmul family on the device (cuBLAS on a GPU; a Thrust kernel for integers and on the host
// emulation) against PyTorch: values of mm, matmul (batched, broadcast, vector forms), mv, dot,
// bmm, with transposed (strided) operands and expressions as operands, and the gradients of the
// float64 cases (tests/golden/gen_device_matmul.py -> device_matmul_cases.inc).
//
// Tolerance: float32 1e-4 and float64 1e-10 of the largest expected magnitude (the products are
// summed in another order than PyTorch's BLAS); integers exactly.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include "../complex/complex_golden.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

template <class T>
Tensor<T> on_device(const IntArray& shape, std::initializer_list<double> values) {
    std::vector<T> v;
    for (double x : values) v.push_back(static_cast<T>(x));
    return tensor(v, shape).to(Device("cuda"));
}

template <class T>
void check_result(const Tensor<T>& r, const IntArray& shape, std::initializer_list<double> expected) {
    REQUIRE(r.defined());
    CHECK(r.is_cuda());
    REQUIRE(r.sizes() == shape);
    const std::vector<T> got = r.to_vector();
    double scale = 1.0;
    for (double e : expected) scale = std::max(scale, std::abs(e));
    const double tol = std::is_integral_v<T> ? 0.0 : (sizeof(T) == 4 ? 1e-4 : 1e-10) * scale;
    size_t i = 0;
    for (double e : expected) {
        INFO("element " << i << ": got " << static_cast<double>(got[i]) << ", PyTorch " << e);
        CHECK(std::abs(static_cast<double>(got[i]) - e) <= tol);
        ++i;
    }
}

}  // namespace

#include "device_matmul_cases.inc"

TEST_CASE("device matmul: operands on different devices and host-only linear algebra are refused") {
    auto a = ones({2, 2}, "cuda");
    CHECK_THROWS_AS(matmul(a, ones({2, 2})), device_error);
    CHECK_THROWS_WITH(matmul(a, ones({2, 2})), Catch::Contains("cuda:0") && Catch::Contains("cpu"));
    CHECK_THROWS_AS(linalg::inv(a), device_error);
    CHECK_THROWS_WITH(linalg::inv(a), Catch::Contains("linalg.inv") && Catch::Contains("cuda:0"));
    CHECK_THROWS_AS(einsum("ij,jk->ik", {a, a}), device_error);
    // Shape errors come first, as on the host.
    CHECK_THROWS_AS(mm(a, ones({3, 2}, "cuda")), shape_error);
}

TEST_CASE("device matmul: complex mm, bmm, matmul, mv, dot and vdot as PyTorch (cuBLAS's C/Zgemm on a GPU)") {
    // The host's product cases (tests/complex/test_complex_linalg.cpp), their operands on the device.
    const golden::GoldenFile& file = golden::cached(__FILE__, "../complex/complex_linalg_cases.txt");
    CHECK(complex_golden::check_products(file, Device("cuda")) == 34);
}

}}  // namespace TENET_TEST_FILE
