#pragma once
// Helpers of the PyTorch-generated cases of tests/golden/gen_autograd_masks.py: typed inputs
// (float64 or float32) and comparisons in which nan equals nan and infinities must match.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <tenet/tenet.hpp>

#include "../placement.hpp"

namespace masks_case {

using tenet::IntArray;
using tenet::Tensor;

/// A leaf of element type T that requires grad, with the given values, on the test device.
template <class T>
Tensor<T> typed_input(const IntArray& shape, const std::vector<double>& values) {
    return placement::place(tenet::tensor(values, shape).template to<T>()).requires_grad_();
}

/// The grad_fn name of e assigned to a tensor.
template <class E>
std::string grad_fn_name(const E& e) {
    const auto t = e.eval();
    REQUIRE(t.grad_fn());
    return t.grad_fn()->name();
}

/// Relative 1e-12 for float64 results, 1e-6 for float32 (scaled by the largest magnitude);
/// nan where PyTorch has nan, the same infinity where it has one.
template <class T>
void check_values(const Tensor<T>& got, const std::vector<double>& want) {
    const std::vector<T> g = got.contiguous().to_vector();
    REQUIRE(g.size() == want.size());
    const double tolerance = sizeof(T) == 8 ? 1e-12 : 1e-6;
    double scale = 1e-300;
    for (double w : want)
        if (std::isfinite(w)) scale = std::max(scale, std::abs(w));
    for (size_t i = 0; i < want.size(); ++i) {
        const double v = static_cast<double>(g[i]);
        INFO("element " << i << ": got " << v << ", expected " << want[i]);
        if (std::isnan(want[i])) CHECK(std::isnan(v));
        else if (std::isinf(want[i])) CHECK(v == want[i]);
        else CHECK(std::abs(v - want[i]) <= tolerance * scale);
    }
}

template <class T>
void check_loss(const Tensor<T>& loss, const std::vector<double>& want) {
    placement::check_device(loss);
    tenet::NoGradGuard no_grad;
    REQUIRE(loss.dim() == 0);
    check_values(loss.detach().reshape({1}), want);
}

template <class T>
void check_typed_grad(const Tensor<T>& x, const std::vector<double>& want) {
    REQUIRE(x.grad().defined());
    placement::check_device(x.grad());
    REQUIRE(x.grad().sizes() == x.sizes());
    check_values(x.grad(), want);
}

}  // namespace masks_case
