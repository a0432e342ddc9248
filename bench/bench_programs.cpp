// Public PyTorch programs ported to tenet line for line, as a PyTorch user writes them
// (issue 26), at the sizes bench/programs_torch.py runs them in PyTorch eager:
//
// - kmeans: the KeOps tutorial "K-means clustering" (its plain-PyTorch version), float64,
//   N = 100,000 points (10x the tutorial's), D = 2, K = 50, 10 iterations.
// - regression: pytorch/examples regression/main.py, Linear(4, 1) and smooth_l1_loss, a batch
//   of 960 (30x the example's), 1000 steps.
// - mandelbrot: the UQ COMP3710 lab's Mandelbrot set, 200 iterations over 1161 x 1340 points
//   (5x the lab's grid); the complex numbers as real pairs (tenet has no complex dtype yet).
// - two_layer: "Learning PyTorch with Examples", the two-layer net with autograd, 500 steps.
// The fifth, the same tutorial's polynomial fit with gradients by hand, is bench_polyfit.cpp's
// BM_polyfit_tensors.
//
// Each benchmark iteration is one whole program. One thread. The "value" counter is a number
// from the result, to compare with programs_torch.py's.

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <cmath>

namespace {

using tenet::Tensor;
using namespace tenet::indexing;

// ---- K-means (KeOps tutorial, plain PyTorch) ------------------------------------------------

constexpr int64_t kMeansN = 100000, kMeansD = 2, kMeansK = 50;
constexpr int kMeansIters = 10;

double kmeans() {
    tenet::manual_seed(0);
    Tensor<double> x = 0.7 * tenet::randn<double>({kMeansN, kMeansD}) + 0.3;
    const int64_t N = x.size(0), D = x.size(1);
    Tensor<double> c = x.index({Slice(None, kMeansK), Slice()}).clone();
    auto x_i = x.view({N, 1, D});
    auto c_j = c.view({1, kMeansK, D});
    for (int i = 0; i < kMeansIters; ++i) {
        Tensor<double> D_ij = (x_i - c_j).pow(2).sum(-1);
        Tensor<int64_t> cl = D_ij.argmin(1).view({-1});
        c.zero_();
        c.scatter_add_(0, cl.index({Slice(), None}).repeat({1, D}), x);
        Tensor<double> Ncl = tenet::bincount(cl, std::nullopt, kMeansK).to<double>().view({kMeansK, 1});
        c /= Ncl;
    }
    return c.sum().item();
}

// ---- Regression (pytorch/examples regression/main.py) --------------------------------------

constexpr int64_t kPolyDegree = 4, kRegressionBatch = 960;
constexpr int kRegressionSteps = 1000;

double regression() {
    tenet::manual_seed(0);
    Tensor<float> W_target = tenet::randn({kPolyDegree, 1}) * 5;
    Tensor<float> b_target = tenet::randn({1}) * 5;
    auto make_features = [](const Tensor<float>& x0) {
        Tensor<float> x = x0.unsqueeze(1);
        return tenet::cat<float>({x, x.pow(2), x.pow(3), x.pow(4)}, 1);
    };
    auto f = [&](const Tensor<float>& x) -> Tensor<float> { return x.mm(W_target) + b_target.item(); };
    // torch.nn.Linear(4, 1): weight [1, 4] and bias [1], uniform in +-1/sqrt(4).
    const float bound = 1.0f / std::sqrt(static_cast<float>(kPolyDegree));
    Tensor<float> weight = ((tenet::rand({1, kPolyDegree}) * 2 - 1) * bound).eval().requires_grad_();
    Tensor<float> bias = ((tenet::rand({1}) * 2 - 1) * bound).eval().requires_grad_();
    double loss = 0;
    for (int step = 0; step < kRegressionSteps; ++step) {
        Tensor<float> batch_x = make_features(tenet::randn({kRegressionBatch}));
        Tensor<float> batch_y = f(batch_x);
        weight.reset_grad();
        bias.reset_grad();
        Tensor<float> output = tenet::nn::functional::smooth_l1_loss(
            tenet::nn::functional::linear(batch_x, weight, bias), batch_y);
        loss = output.item();
        output.backward();
        for (Tensor<float>* param : {&weight, &bias}) param->detach().add_(-0.1 * param->grad());
    }
    return loss;
}

// ---- Mandelbrot set (UQ COMP3710 lab), complex numbers as real pairs ----------------------

constexpr double kMandelStep = 0.00224;
constexpr int kMandelIters = 200;

double mandelbrot() {
    Tensor<float> ys = tenet::arange(-1.3, 1.3, kMandelStep, tenet::kFloat64).to<float>();
    Tensor<float> xs = tenet::arange(-2.0, 1.0, kMandelStep, tenet::kFloat64).to<float>();
    auto grids = tenet::meshgrid({ys, xs}, "ij");
    Tensor<float> y = grids[0].contiguous(), x = grids[1].contiguous();
    Tensor<float> zr = x.clone(), zi = y.clone();
    Tensor<float> ns = tenet::zeros_like(x);
    for (int i = 0; i < kMandelIters; ++i) {
        Tensor<float> zr_ = zr * zr - zi * zi + x;
        Tensor<float> zi_ = 2 * zr * zi + y;
        auto not_diverged = tenet::sqrt(zr_ * zr_ + zi_ * zi_) < 4.0;
        ns += not_diverged;
        zr = zr_;
        zi = zi_;
    }
    return ns.sum().item();
}

// ---- Two-layer net with autograd ("Learning PyTorch with Examples") -----------------------

constexpr int64_t kNetN = 64, kNetIn = 1000, kNetH = 100, kNetOut = 10;
constexpr int kNetSteps = 500;

double two_layer() {
    tenet::manual_seed(0);
    Tensor<float> x = tenet::randn({kNetN, kNetIn});
    Tensor<float> y = tenet::randn({kNetN, kNetOut});
    Tensor<float> w1 = tenet::randn({kNetIn, kNetH}).requires_grad_();
    Tensor<float> w2 = tenet::randn({kNetH, kNetOut}).requires_grad_();
    const double learning_rate = 1e-6;
    double loss_value = 0;
    for (int t = 0; t < kNetSteps; ++t) {
        Tensor<float> y_pred = x.mm(w1).clamp(0).mm(w2);
        Tensor<float> loss = (y_pred - y).pow(2).sum();
        loss_value = loss.item();
        loss.backward();
        {
            tenet::NoGradGuard no_grad;
            w1 -= learning_rate * w1.grad();
            w2 -= learning_rate * w2.grad();
            w1.grad().zero_();
            w2.grad().zero_();
        }
    }
    return loss_value;
}

template <double (*Program)()>
void BM_program(benchmark::State& state) {
    tenet::set_num_threads(1);
    double value = 0;
    for (auto _ : state) value = Program();
    state.counters["value"] = value;
}

}  // namespace

BENCHMARK(BM_program<kmeans>)->Name("BM_program_kmeans")->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_program<regression>)->Name("BM_program_regression")->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_program<mandelbrot>)->Name("BM_program_mandelbrot")->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_program<two_layer>)->Name("BM_program_two_layer")->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
