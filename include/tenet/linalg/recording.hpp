#pragma once
// How linalg/ records its results: a kernel runs with recording off (its internal views and
// copies are not the operation's history); the public function then records its result as
// one node with PyTorch's name, through the hooks of core/hooks.hpp.

#include "tenet/config.hpp"
#include <utility>

#include "tenet/core/grad_mode.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Runs f with recording off and returns its result.
template <class F>
auto untracked(F&& f) {
    NoGradGuard no_grad;
    return f();
}

/// Whether a result computed from these operands is recorded: grad mode on, a floating
/// element type, and one operand that requires grad.
template <class T, class... Ts>
bool linalg_records(const Tensor<T>& t, const Tensor<Ts>&... rest) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        return autograd::GradMode::is_enabled() && (t.requires_grad() || (rest.requires_grad() || ...));
    else
        return false;
}

}  // namespace tenet::detail
