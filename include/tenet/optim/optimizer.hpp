#pragma once
// The base of tenet::optim's update rules, as LibTorch's torch::optim::Optimizer: the parameters
// (tensors that require grad, of any floating dtype) and zero_grad. Each rule (optim/sgd.hpp,
// optim/adam.hpp) updates every parameter in ONE pass over its elements, with PyTorch 1.13's
// single-tensor rounding (each of its operations rounded to the parameter's type, its
// `add(alpha)` and `addcmul` as fused multiply-adds, as ATen computes them), so a tenet training
// loop follows PyTorch's bit for bit. Host tensors, contiguous parameters.

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::optim {

/// One option of a rule's options struct, as LibTorch's: the chained setter NAME(value), which
/// returns the struct, and the getter NAME(), over the member NAME_.
#define TENET_OPTIM_OPTION(OPTIONS, TYPE, NAME) \
    OPTIONS& NAME(TYPE v) {                     \
        NAME##_ = v;                            \
        return *this;                           \
    }                                           \
    TYPE NAME() const { return NAME##_; }

/// The parameters and zero_grad() of every rule (torch::optim::Optimizer).
class Optimizer {
public:
    /// params: the tensors to update (leaves that require grad; Tensor<T> of any floating T).
    explicit Optimizer(std::vector<TensorBase> params, const char* name) : params_(std::move(params)), name_(name) {
        for (size_t i = 0; i < params_.size(); ++i) {
            const TensorBase& p = params_[i];
            if (!p.defined()) tenet::detail::fail<value_error>(name_, ": parameter ", i, " is an undefined tensor");
            if (!p.dtype().is_floating_point())
                tenet::detail::fail<dtype_error>(name_, ": can only optimize floating tensors, but parameter ", i, " is ",
                                          p.dtype());
            if (!p.is_contiguous())
                tenet::detail::fail<value_error>(name_, ": parameter ", i, " of sizes ", p.sizes(),
                                          " is not contiguous (tenet's optimizers update contiguous tensors)");
            if (!p.device().is_cpu())
                tenet::detail::fail<device_error>(name_, ": parameter ", i, " is on ", p.device(),
                                           "; tenet's optimizers update host tensors");
        }
    }
    virtual ~Optimizer() = default;

    /// Zeroes every parameter's gradient in place (set_to_none: forgets it instead), as
    /// PyTorch 1.13's zero_grad.
    template <class = void>
    void zero_grad(bool set_to_none = false) {
        for (TensorBase& p : params_)
            autograd::visit_floating(p.dtype(), name_, [&](auto tag) {
                using T = typename decltype(tag)::type;
                const Tensor<T> t(p.impl_ptr());
                if (set_to_none) return t.reset_grad();
                Tensor<T> g = t.grad();
                if (g.defined()) g.detach().zero_();
            });
    }
    /// The parameters, in the order given.
    const std::vector<TensorBase>& parameters() const { return params_; }

protected:
    /// Calls f(i, param, grad, n) per parameter that has a gradient (typed pointers to T, n
    /// elements), then marks the parameter written (its version: saved copies see the change).
    template <class F>
    void for_each_parameter(F&& f) {
        for (size_t i = 0; i < params_.size(); ++i) {
            TensorBase& p = params_[i];
            autograd::visit_floating(p.dtype(), name_, [&](auto tag) {
                using T = typename decltype(tag)::type;
                const Tensor<T> param(p.impl_ptr());
                const Tensor<T> grad = param.grad();
                if (!grad.defined()) return;
                if (grad.sizes() != param.sizes())
                    tenet::detail::fail<shape_error>(name_, ": parameter ", i, "'s gradient has sizes ", grad.sizes(),
                                              ", the parameter ", param.sizes());
                const Tensor<T> g = grad.contiguous();
                f(i, param.data_ptr(), static_cast<const T*>(g.data_ptr()), param.numel());
                param.impl().storage->bump_version();
            });
        }
    }

    std::vector<TensorBase> params_;
    const char* name_;
};

namespace detail {

/// The type a rule computes in: T itself for float and double, float for the 16-bit floats.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, double>, T, float>;

/// a * b + c rounded once (ATen's vectorised add(alpha) and addcmul are fused multiply-adds).
template <class C>
C fma(C a, C b, C c) {
    return std::fma(a, b, c);
}

/// A tensor of the parameter's type and size kept across steps (momentum, moments), made on
/// first use, zero-filled (`started` tells a rule whether it holds values of its own yet).
struct StateBuffer {
    TensorBase tensor;
    bool started = false;

    template <class T>
    T* as(int64_t n) {
        if (!tensor.defined()) {
            Tensor<T> t(tenet::detail::make_contiguous_impl({n}, dtype_of<T>, Device(DeviceType::CPU)));
            tenet::detail::fill_contiguous(t.data_ptr(), n, T(0));  // the moments start at zero
            tensor = t;
        }
        return Tensor<T>(tensor.impl_ptr()).data_ptr();
    }
};

}  // namespace detail

}  // namespace tenet::optim
