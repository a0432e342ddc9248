#pragma once
// The activations of torch.nn.functional that take parameters: hardtanh, relu6, leaky_relu, elu,
// selu, celu and threshold. Each is a lazy expression composed of where, exp and arithmetic, so it
// fuses with the chain around it, and its gradient is derived from the composition: the branch
// conditions are PyTorch's (elu's `x <= 0`, leaky_relu's `x > 0`, hardtanh's closed bounds), so
// the gradient at a boundary and at NaN is PyTorch's too. Floating tensors, as in PyTorch.
// (The grad_fn of such an expression is its last operation's, WhereBackward0, not PyTorch's
// EluBackward0.)

#include "tenet/config.hpp"
#include <type_traits>

#include "tenet/expr/binary_ops.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {
template <class A>
constexpr void check_floating_activation() {
    static_assert(FloatingElement<typename expr::node_t<A>::value_type>,
                  "tenet: this activation is defined on floating tensors (as in PyTorch)");
}
} // namespace detail

/// torch.nn.functional.hardtanh(x, min_val = -1, max_val = 1): x clamped to [min_val, max_val];
/// the gradient is zero at and beyond the bounds. With min_val > max_val every element is
/// max_val, as torch.clamp gives.
template <expr::TensorOperand A>
auto hardtanh(const A& x, double min_val = -1.0, double max_val = 1.0) {
    detail::check_floating_activation<A>();
    const double lo = min_val < max_val ? min_val : max_val;
    return where(x <= lo, lo, where(x >= max_val, max_val, x));
}
/// torch.nn.functional.relu6(x): hardtanh(x, 0, 6).
template <expr::TensorOperand A>
auto relu6(const A& x) {
    return hardtanh(x, 0.0, 6.0);
}
/// torch.nn.functional.leaky_relu(x, negative_slope = 0.01): x where x > 0, else x * negative_slope.
template <expr::TensorOperand A>
auto leaky_relu(const A& x, double negative_slope = 0.01) {
    detail::check_floating_activation<A>();
    return where(x > 0, x, x * negative_slope);
}
/// torch.nn.functional.elu(x, alpha = 1, scale = 1, input_scale = 1): (exp(x * input_scale) - 1)
/// * alpha * scale where x <= 0, else x * scale (PyTorch's elu kernel's three coefficients).
template <expr::TensorOperand A>
auto elu(const A& x, double alpha = 1.0, double scale = 1.0, double input_scale = 1.0) {
    detail::check_floating_activation<A>();
    return where(x <= 0, (exp(x * input_scale) - 1) * (alpha * scale), x * scale);
}
/// torch.selu(x): elu with PyTorch's alpha and scale (Klambauer et al.'s constants).
template <expr::TensorOperand A>
auto selu(const A& x) {
    return elu(x, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946);
}
/// torch.celu(x, alpha = 1): max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), as elu with
/// input_scale 1 / alpha. value_error for alpha == 0.
template <expr::TensorOperand A>
auto celu(const A& x, double alpha = 1.0) {
    if (alpha == 0)
        detail::fail<value_error>("celu: ZeroDivisionError (alpha is 0)");
    return elu(x, alpha, 1.0, 1.0 / alpha);
}
/// torch.nn.functional.threshold(x, threshold, value): value where x <= threshold, else x (NaN stays).
template <expr::TensorOperand A>
auto threshold(const A& x, double threshold, double value) {
    detail::check_floating_activation<A>();
    return detail::composed_where(x <= threshold, value, x);
}

} // namespace tenet::inline TENET_ABI
