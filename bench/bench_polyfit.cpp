// The "Learning PyTorch with Examples" polynomial fits (y = sin(x) by a + b x + c x^2 + d x^3),
// ported line for line as a PyTorch user writes them, at 100,000 points: the tensors version
// (gradients written by hand) and the autograd version (a, b, c, d 0-d tensors requiring
// grad, loss.backward(), .grad() reset each step). `x.pow(3)` as the tutorial writes it.
// bench/polyfit_torch.py runs the same programs in PyTorch eager. One thread.
//
// Each benchmark iteration is a whole program of kSteps steps (the tutorial's 2000).

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdlib>
#include <numbers>

namespace {

using tenet::Tensor;

constexpr int64_t kPoints = 100000;
const int kSteps = [] {  // TENET_POLYFIT_STEPS overrides it for quick looks
    const char* s = std::getenv("TENET_POLYFIT_STEPS");
    return s ? std::atoi(s) : 2000;
}();
// The tutorial's 1e-6 is for 2000 points; the summed gradients grow with the count.
constexpr double kLearningRate = 1e-6 * 2000.0 / static_cast<double>(kPoints);

struct Fit {
    double loss = 0;
    float a = 0, b = 0, c = 0, d = 0;
};

Fit polyfit_tensors(int64_t n, int steps) {
    tenet::manual_seed(0);
    Tensor<float> x = tenet::linspace<float>(-std::numbers::pi, std::numbers::pi, n);
    Tensor<float> y = tenet::sin(x);
    Tensor<float> a = tenet::randn({}), b = tenet::randn({}), c = tenet::randn({}), d = tenet::randn({});
    Fit fit;
    for (int t = 0; t < steps; ++t) {
        Tensor<float> y_pred = a + b * x + c * x.pow(2) + d * x.pow(3);
        fit.loss = (y_pred - y).pow(2).sum().item();
        Tensor<float> grad_y_pred = 2.0 * (y_pred - y);
        Tensor<float> grad_a = grad_y_pred.sum();
        Tensor<float> grad_b = (grad_y_pred * x).sum();
        Tensor<float> grad_c = (grad_y_pred * x.pow(2)).sum();
        Tensor<float> grad_d = (grad_y_pred * x.pow(3)).sum();
        a -= kLearningRate * grad_a;
        b -= kLearningRate * grad_b;
        c -= kLearningRate * grad_c;
        d -= kLearningRate * grad_d;
    }
    fit.a = a.item(), fit.b = b.item(), fit.c = c.item(), fit.d = d.item();
    return fit;
}

/// `reset`: .grad() reset after each step (the tutorial's `a.grad = None`); without it every
/// backward accumulates into the existing gradients (the update then uses the running sum).
/// `Lazy`: `auto y_pred = ...`, as a user may write it (y_pred stays an expression and the loss
/// sums it with the 0-d parameters as broadcast leaves), instead of `Tensor<float> y_pred = ...`.
template <bool Lazy = false>
Fit polyfit_autograd(int64_t n, int steps, bool reset = true) {
    tenet::manual_seed(0);
    Tensor<float> x = tenet::linspace<float>(-std::numbers::pi, std::numbers::pi, n);
    Tensor<float> y = tenet::sin(x);
    Tensor<float> a = tenet::randn({}).requires_grad_(), b = tenet::randn({}).requires_grad_(),
                  c = tenet::randn({}).requires_grad_(), d = tenet::randn({}).requires_grad_();
    Fit fit;
    for (int t = 0; t < steps; ++t) {
        Tensor<float> loss = [&] {
            if constexpr (Lazy) {
                auto y_pred = a + b * x + c * x.pow(2) + d * x.pow(3);
                return Tensor<float>((y_pred - y).pow(2).sum());
            } else {
                Tensor<float> y_pred = a + b * x + c * x.pow(2) + d * x.pow(3);
                return Tensor<float>((y_pred - y).pow(2).sum());
            }
        }();
        fit.loss = loss.item();
        loss.backward();
        {
            tenet::NoGradGuard no_grad;
            a -= kLearningRate * a.grad();
            b -= kLearningRate * b.grad();
            c -= kLearningRate * c.grad();
            d -= kLearningRate * d.grad();
        }
        if (reset) {
            a.reset_grad();
            b.reset_grad();
            c.reset_grad();
            d.reset_grad();
        }
    }
    fit.a = a.item(), fit.b = b.item(), fit.c = c.item(), fit.d = d.item();
    return fit;
}

void report(benchmark::State& state, const Fit& fit) {
    state.counters["loss"] = fit.loss;
    state.counters["d"] = fit.d;
}

void BM_polyfit_tensors(benchmark::State& state) {
    tenet::set_num_threads(1);
    Fit fit;
    for (auto _ : state) fit = polyfit_tensors(kPoints, kSteps);
    report(state, fit);
}

void BM_polyfit_autograd(benchmark::State& state) {
    tenet::set_num_threads(1);
    Fit fit;
    for (auto _ : state) fit = polyfit_autograd(kPoints, kSteps);
    report(state, fit);
}

/// The same with `auto y_pred = ...` (one fused pass for the loss and all four gradients).
void BM_polyfit_autograd_auto(benchmark::State& state) {
    tenet::set_num_threads(1);
    Fit fit;
    for (auto _ : state) fit = polyfit_autograd<true>(kPoints, kSteps);
    report(state, fit);
}

/// The same, with the gradients accumulated across steps (backward into an existing .grad()).
void BM_polyfit_autograd_accumulate(benchmark::State& state) {
    tenet::set_num_threads(1);
    Fit fit;
    for (auto _ : state) fit = polyfit_autograd(kPoints, kSteps, false);
    report(state, fit);
}

}  // namespace

BENCHMARK(BM_polyfit_tensors)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_polyfit_autograd)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_polyfit_autograd_auto)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_polyfit_autograd_accumulate)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
