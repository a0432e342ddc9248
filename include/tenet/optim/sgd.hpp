#pragma once
// torch::optim::SGD: stochastic gradient descent with momentum, dampening, weight decay and
// Nesterov momentum, as PyTorch 1.13's single-tensor step (see optim/optimizer.hpp).

#include "tenet/config.hpp"
#include <cmath>
#include <vector>

#include "tenet/optim/optimizer.hpp"

namespace tenet::inline TENET_ABI::optim {

/// SGD's options, set as LibTorch's: SGDOptions(0.1).momentum(0.9).nesterov(true).
struct SGDOptions {
    explicit SGDOptions(double lr) : lr_(lr) {}
    TENET_OPTIM_OPTION(SGDOptions, double, lr)
    TENET_OPTIM_OPTION(SGDOptions, double, momentum)
    TENET_OPTIM_OPTION(SGDOptions, double, dampening)
    TENET_OPTIM_OPTION(SGDOptions, double, weight_decay)
    TENET_OPTIM_OPTION(SGDOptions, bool, nesterov)
    TENET_OPTIM_OPTION(SGDOptions, bool, maximize)
    double lr_, momentum_ = 0, dampening_ = 0, weight_decay_ = 0;
    bool nesterov_ = false, maximize_ = false;
};

/// torch::optim::SGD(params, SGDOptions(lr).momentum(m).dampening(d).weight_decay(w).nesterov(n)).
class SGD : public Optimizer {
public:
    SGD(std::vector<TensorBase> params, SGDOptions options)
        : Optimizer(std::move(params), "SGD"), options_(options), momentum_buffers_(params_.size()) {
        if (options.lr() < 0) tenet::detail::fail<value_error>("SGD: Invalid learning rate: ", options.lr());
        if (options.momentum() < 0) tenet::detail::fail<value_error>("SGD: Invalid momentum value: ", options.momentum());
        if (options.weight_decay() < 0)
            tenet::detail::fail<value_error>("SGD: Invalid weight_decay value: ", options.weight_decay());
        if (options.nesterov() && (options.momentum() <= 0 || options.dampening() != 0))
            tenet::detail::fail<value_error>("SGD: Nesterov momentum requires a momentum and zero dampening");
    }

    /// One update of every parameter that has a gradient. (A template, so that a translation unit
    /// that never steps does not compile the update.)
    template <class = void>
    void step() {
        for_each_parameter([&](size_t i, auto* param, const auto* grad, int64_t n) {
            using T = std::remove_pointer_t<decltype(param)>;
            using C = detail::compute_t<T>;
            const SGDOptions& o = options_;
            const C wd = static_cast<C>(o.weight_decay()), mom = static_cast<C>(o.momentum());
            const C keep = static_cast<C>(1 - o.dampening()), neg_lr = static_cast<C>(-o.lr());
            detail::StateBuffer& state = momentum_buffers_[i];
            T* buf = o.momentum() != 0 ? state.template as<T>(n) : nullptr;
            const bool first = !state.started;
            for (int64_t j = 0; j < n; ++j) {
                const C p = convert<C>(param[j]), g = convert<C>(grad[j]);
                C d = o.maximize() ? -g : g;
                if (o.weight_decay() != 0) d = convert<C>(convert<T>(detail::fma(wd, p, d)));  // d.add(param, alpha=wd)
                if (buf) {
                    // buf.mul_(momentum).add_(d, alpha=1 - dampening); a clone of d at first
                    const C b = first ? d : detail::fma(keep, d, convert<C>(convert<T>(convert<C>(buf[j]) * mom)));
                    buf[j] = convert<T>(b);
                    d = o.nesterov() ? convert<C>(convert<T>(detail::fma(mom, convert<C>(buf[j]), d))) : convert<C>(buf[j]);
                }
                param[j] = convert<T>(detail::fma(neg_lr, d, p));  // param.add_(d, alpha=-lr)
            }
            state.started = true;
        });
    }

    const SGDOptions& options() const { return options_; }

private:
    SGDOptions options_;
    std::vector<detail::StateBuffer> momentum_buffers_;
};

}  // namespace tenet::optim
