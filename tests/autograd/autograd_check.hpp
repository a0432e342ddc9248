#pragma once
// Helpers of the PyTorch-generated autograd cases (tests/golden/gen_autograd.py).

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <tenet/tenet.hpp>

#include "../placement.hpp"

namespace autograd_case {

using tenet::IntArray;
using tenet::Tensor;

/// A float64 leaf that requires grad, with the given values, on the test device.
inline Tensor<double> make_input(const IntArray& shape, const std::vector<double>& values) {
    return placement::place(tenet::tensor(values, shape)).requires_grad_();
}

/// Relative 1e-12 (scaled by the largest magnitude): float64 rounding differs between
/// PyTorch's kernels and tenet's fused loops by a few ulps, nothing more. Cases whose results go
/// through factorizations (Eigen here, LAPACK in PyTorch) pass a looser tolerance.
inline constexpr double kCaseTolerance = 1e-12;

inline void check_close(const Tensor<double>& got, const IntArray& shape, const std::vector<double>& want,
                        double tolerance = kCaseTolerance) {
    REQUIRE(got.sizes() == shape);
    const std::vector<double> g = got.contiguous().to_vector();
    double scale = 1e-300;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("element " << i << ": got " << g[i] << ", expected " << want[i]);
        CHECK(std::abs(g[i] - want[i]) <= tolerance * scale);
    }
}

inline void check_forward(const Tensor<double>& y, const IntArray& shape, const std::vector<double>& want,
                          double tolerance = kCaseTolerance) {
    placement::check_device(y);
    tenet::NoGradGuard no_grad;
    check_close(y.detach(), shape, want, tolerance);
}

inline void check_grad(const Tensor<double>& x, const std::vector<double>& want, double tolerance = kCaseTolerance) {
    REQUIRE(x.grad().defined());
    placement::check_device(x.grad());
    check_close(x.grad(), x.sizes(), want, tolerance);
}

}  // namespace autograd_case
