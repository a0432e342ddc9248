#pragma once
// torch::optim::Adam and AdamW (decoupled weight decay), with amsgrad and maximize, as PyTorch
// 1.13's single-tensor step (see optim/optimizer.hpp).

#include "tenet/config.hpp"
#include <cmath>
#include <tuple>
#include <vector>

#include "tenet/optim/optimizer.hpp"

namespace tenet::inline TENET_ABI::optim {

/// Adam's and AdamW's options, set as LibTorch's: AdamOptions(1e-3).betas({0.9, 0.999}).
struct AdamOptions {
    explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}
    TENET_OPTIM_OPTION(AdamOptions, double, lr)
    TENET_OPTIM_OPTION(AdamOptions, double, eps)
    TENET_OPTIM_OPTION(AdamOptions, double, weight_decay)
    TENET_OPTIM_OPTION(AdamOptions, bool, amsgrad)
    TENET_OPTIM_OPTION(AdamOptions, bool, maximize)
    AdamOptions& betas(const std::tuple<double, double>& b) {
        betas_ = b;
        return *this;
    }
    const std::tuple<double, double>& betas() const { return betas_; }
    double lr_, eps_ = 1e-8, weight_decay_ = 0;
    std::tuple<double, double> betas_{0.9, 0.999};
    bool amsgrad_ = false, maximize_ = false;
};

/// AdamW's options: Adam's, with weight_decay 1e-2 by default (as PyTorch's).
struct AdamWOptions : AdamOptions {
    explicit AdamWOptions(double lr = 1e-3) : AdamOptions(lr) { weight_decay_ = 1e-2; }
};

namespace detail {

/// Adam (Decoupled: AdamW): the moments and step count of each parameter, and the update.
template <bool Decoupled>
class AdamRule : public Optimizer {
public:
    AdamRule(std::vector<TensorBase> params, AdamOptions options, const char* name)
        : Optimizer(std::move(params), name), options_(options), state_(params_.size()) {
        const auto [b1, b2] = options.betas();
        if (options.lr() < 0) tenet::detail::fail<value_error>(name, ": Invalid learning rate: ", options.lr());
        if (options.eps() < 0) tenet::detail::fail<value_error>(name, ": Invalid epsilon value: ", options.eps());
        if (b1 < 0 || b1 >= 1) tenet::detail::fail<value_error>(name, ": Invalid beta parameter at index 0: ", b1);
        if (b2 < 0 || b2 >= 1) tenet::detail::fail<value_error>(name, ": Invalid beta parameter at index 1: ", b2);
        if (options.weight_decay() < 0)
            tenet::detail::fail<value_error>(name, ": Invalid weight_decay value: ", options.weight_decay());
    }

    /// One update of every parameter that has a gradient. (A template, so that a translation unit
    /// that never steps does not compile the update.)
    template <class = void>
    void step() {
        for_each_parameter([&](size_t i, auto* param, const auto* grad, int64_t n) {
            using T = std::remove_pointer_t<decltype(param)>;
            using C = compute_t<T>;
            const AdamOptions& o = options_;
            const auto [beta1, beta2] = o.betas();
            State& s = state_[i];
            const double step = static_cast<double>(++s.step);
            const double step_size = o.lr() / (1 - std::pow(beta1, step));
            const C bias2_sqrt = static_cast<C>(std::sqrt(1 - std::pow(beta2, step)));
            const C b1 = static_cast<C>(beta1), b2 = static_cast<C>(beta2), one_b1 = static_cast<C>(1 - beta1),
                    one_b2 = static_cast<C>(1 - beta2), eps = static_cast<C>(o.eps()),
                    neg_step = static_cast<C>(-step_size), wd = static_cast<C>(o.weight_decay()),
                    decay = static_cast<C>(1 - o.lr() * o.weight_decay());
            T* m = s.exp_avg.template as<T>(n);
            T* v = s.exp_avg_sq.template as<T>(n);
            T* vmax = o.amsgrad() ? s.max_exp_avg_sq.template as<T>(n) : nullptr;
            auto r = [](C x) { return convert<C>(convert<T>(x)); };  // rounded to T, as each ATen op stores
            for (int64_t j = 0; j < n; ++j) {
                C p = convert<C>(param[j]), g = convert<C>(grad[j]);
                if (o.maximize()) g = -g;
                if constexpr (Decoupled) {
                    if (o.weight_decay() != 0) p = r(p * decay);  // param.mul_(1 - lr * wd)
                } else {
                    if (o.weight_decay() != 0) g = r(fma(wd, p, g));  // grad.add(param, alpha=wd)
                }
                const C mj = r(fma(one_b1, g, r(convert<C>(m[j]) * b1)));       // mul_(b1).add_(g, 1 - b1)
                const C vj = r(fma(r(one_b2 * g), g, r(convert<C>(v[j]) * b2)));  // mul_(b2).addcmul_(g, g, 1 - b2)
                m[j] = convert<T>(mj);
                v[j] = convert<T>(vj);
                C second = vj;
                if (vmax) {
                    second = std::max(convert<C>(vmax[j]), vj);  // torch.maximum(max_exp_avg_sq, exp_avg_sq)
                    vmax[j] = convert<T>(second);
                }
                const C denom = r(r(r(std::sqrt(second)) / bias2_sqrt) + eps);
                param[j] = convert<T>(p + r(r(neg_step * mj) / denom));  // addcdiv_(m, denom, -step_size)
            }
        });
    }

    const AdamOptions& options() const { return options_; }

private:
    struct State {
        int64_t step = 0;
        StateBuffer exp_avg, exp_avg_sq, max_exp_avg_sq;
    };
    AdamOptions options_;
    std::vector<State> state_;
};

}  // namespace detail

/// torch::optim::Adam(params, AdamOptions(lr).betas({b1, b2}).eps(e).weight_decay(w).amsgrad(a)).
class Adam : public detail::AdamRule<false> {
public:
    Adam(std::vector<TensorBase> params, AdamOptions options = AdamOptions())
        : AdamRule(std::move(params), options, "Adam") {}
};

/// torch::optim::AdamW: Adam with the weight decay applied to the parameter, not the gradient.
class AdamW : public detail::AdamRule<true> {
public:
    /// options: AdamWOptions (weight_decay 1e-2 unless set), chained setters included.
    AdamW(std::vector<TensorBase> params, AdamOptions options = AdamWOptions())
        : AdamRule(std::move(params), options, "AdamW") {}
};

}  // namespace tenet::optim
