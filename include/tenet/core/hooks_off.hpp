#pragma once
// The definitions of the autograd seam (core/hooks.hpp) when tenet is built without autograd
// (TENET_AUTOGRAD=0): an assignment is an evaluation, and nothing is recorded. Grad-mode
// queries still work (core/grad_mode.hpp); asking for a gradient throws an error that names
// the switch.

#include "tenet/config.hpp"

#if TENET_AUTOGRAD
#error "tenet/core/hooks_off.hpp is the TENET_AUTOGRAD=0 definition of the hooks"
#endif

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/node.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

[[noreturn]] inline void autograd_disabled(const char* op) {
    fail<error>(op, ": tenet was built without autograd (TENET_AUTOGRAD=0; CMake option TENET_AUTOGRAD=OFF)");
}

template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode) {
    run_assign(dst, e, mode);
}
template <class T, class U>
void assign_tensor(Tensor<T>& dst, const Tensor<U>& src) {
    run_assign(dst, expr::Leaf<U>(src), AssignMode::Out);
}

template <class T>
void record_view(const Tensor<T>&, const Tensor<T>&, const char*) {}
template <class T, class U>
void record_copy(const Tensor<U>&, const Tensor<T>&) {}
template <class T, class U>
void record_copy_into(const Tensor<T>&, const Tensor<U>&) {}
template <class T>
void record_overwrite(const Tensor<T>&, const char*) {}
template <class T>
std::string autograd_repr(const Tensor<T>&) {
    return {};
}

template <class X, class R>
void record_reduction(const X&, const Tensor<R>&, const ReducePlan&, bool) {}
template <ReduceKind K, class X, class R>
void record_value_reduction(const X&, const Tensor<R>&, const ReducePlan&, double, const char*) {}
template <class X, class V>
void record_index_reduction(const X&, const Tensor<V>&, const Tensor<int64_t>&, int64_t, bool, const char*) {}
template <class V, class X>
std::optional<Tensor<V>> sum_with_gradients(const X&, bool) {
    return std::nullopt;
}

template <class T, class Backward, class... In>
void record_function(const char*, const Tensor<T>&, std::initializer_list<TensorBase>, Backward, const In&...) {}

template <class R, class L>
void record_join(const Tensor<R>&, const L&, const JoinPlan&, const char*) {}
template <class T>
void record_split(const Tensor<T>&, const std::vector<Tensor<T>>&, int64_t, const IntArray&, bool, const char*) {}
template <class T>
void record_flip(const Tensor<T>&, const Tensor<T>&, const IntArray&) {}

template <class T>
void record_product(const char*, ProductKind, const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, const Tensor<T>&,
                    double, double) {}
template <class T>
void record_inv(const Tensor<T>&, const Tensor<T>&) {}
template <class T>
void record_det(const Tensor<T>&, const Tensor<T>&) {}
template <class T>
void record_slogdet(const Tensor<T>&, const Tensor<T>&) {}
template <class T>
void record_solve(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, bool) {}
template <class T>
void record_eigh(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&) {}
template <class T>
void record_svd(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, const Tensor<T>&) {}
template <class T>
void record_svdvals(const Tensor<T>&, const Tensor<T>&) {}
template <bool Lower, class T>
void record_triangle(const Tensor<T>&, const Tensor<T>&, int64_t) {}
template <class T>
void record_cholesky(const Tensor<T>&, const Tensor<T>&, bool) {}

}  // namespace detail

// ---- Tensor's autograd methods: no tensor takes part in autograd ---------------------------

template <class T>
bool Tensor<T>::requires_grad() const {
    return false;
}

template <class T>
Tensor<T>& Tensor<T>::requires_grad_(bool requires_grad) {
    if (!requires_grad) return *this;
    detail::check_can_require_grad<T>(dtype());  // PyTorch's dtype_error comes first, as with autograd
    detail::autograd_disabled("requires_grad_");
    return *this;
}

template <class T>
Tensor<T> Tensor<T>::grad() const {
    return Tensor<T>();
}

template <class T>
void Tensor<T>::reset_grad() const {}

template <class T>
bool Tensor<T>::is_leaf() const {
    return true;
}

template <class T>
std::shared_ptr<autograd::Node> Tensor<T>::grad_fn() const {
    return nullptr;
}

template <class T>
void Tensor<T>::backward(const Tensor&, std::optional<bool>, bool) const {
    detail::autograd_disabled("backward");
}

}  // namespace tenet::inline TENET_ABI
