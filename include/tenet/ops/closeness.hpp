#pragma once
// Closeness and equality of whole tensors, as PyTorch's: isclose (element-wise, lazy), allclose
// and equal (one bool).
//
// isclose(a, b) is |a - b| <= atol + |rtol * b| where that error is finite, or a == b (so equal
// infinities are close), or both NaN with equal_nan; integer operands are compared as float32,
// as PyTorch casts them.

#include "tenet/config.hpp"
#include <type_traits>

#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {
template <class A, class B>
void check_closeness_arguments(const A& a, const B& b, double rtol, double atol, const char* op) {
    using TA = typename expr::node_t<A>::value_type;
    using TB = typename expr::node_t<B>::value_type;
    if constexpr (!std::is_same_v<TA, TB>)
        fail<dtype_error>(op, "(): ", dtype_of<TA>, " did not match ", dtype_of<TB>);
    if (rtol < 0) fail<value_error>(op, "(): rtol must be greater than or equal to zero, but got ", rtol);
    if (atol < 0) fail<value_error>(op, "(): atol must be greater than or equal to zero, but got ", atol);
    (void)a, (void)b;
}
}  // namespace detail

/// torch.isclose(a, b, rtol, atol, equal_nan): a lazy bool expression (a and b of one dtype;
/// dtype_error otherwise, value_error for a negative tolerance).
template <expr::TensorOperand A, expr::TensorOperand B>
auto isclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) {
    detail::check_closeness_arguments(a, b, rtol, atol, "isclose");
    using V = typename expr::node_t<A>::value_type;
    using F = std::conditional_t<FloatingElement<V>, V, float>;  // integers compare as float32
    const auto ca = cast<F>(a);
    const auto cb = cast<F>(b);
    const auto error = abs(ca - cb);
    const auto close = (a == b) | (isfinite(error) & (error <= atol + abs(rtol * cb)));
    return close | (equal_nan & isnan(ca) & isnan(cb));
}

/// torch.allclose: whether every element is close (isclose's arguments).
template <expr::TensorOperand A, expr::TensorOperand B>
bool allclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) {
    return all(isclose(a, b, rtol, atol, equal_nan)).item();
}

/// torch.equal: the same sizes and the same values (NaN is not equal to itself).
template <expr::TensorOperand A, expr::TensorOperand B>
bool equal(const A& a, const B& b) {
    if (a.sizes() != b.sizes()) return false;
    return all(a == b).item();
}

}  // namespace tenet
