// Logistic regression on generated data, trained with tenet's autograd: the loss is one
// fused expression (one tape node) and its backward one fused pass per parameter.
//
// Two Gaussian blobs in 2-D; the model is p = sigmoid(x . w + b); the loss is the mean
// binary cross-entropy; plain gradient descent. The printed loss falls.

#include <tenet/tenet.hpp>

#include <cstdio>

using namespace tenet;

int main() {
    manual_seed(0);
    const int64_t n = 256;
    // Class 0 around (-1, -1), class 1 around (+1, +1).
    auto labels = (rand({n, 1}) > 0.5f).eval().to<float>();
    Tensor<float> x = randn({n, 2}) * 0.8f + (labels * 2.0f - 1.0f);

    auto w = zeros({1, 2}).requires_grad_();
    auto b = zeros({1}).requires_grad_();
    const float lr = 0.5f;
    for (int step = 0; step <= 100; ++step) {
        // p = sigmoid(sum_j x_j w_j + b): the dot product is a reduction along dim 1.
        Tensor<float> logits = (x * w).sum(1, true) + b;
        auto p = sigmoid(logits);
        auto loss = (-(labels * log(p) + (1.0f - labels) * log(1.0f - p))).mean();
        loss.backward();
        {
            NoGradGuard no_grad;  // the update itself is not recorded
            w.detach().sub_(w.grad() * lr);
            b.detach().sub_(b.grad() * lr);
        }
        w.reset_grad();
        b.reset_grad();
        if (step % 20 == 0) std::printf("step %3d  loss %.4f\n", step, static_cast<double>(loss.item()));
    }
    Tensor<float> predictions = (sigmoid((x * w).sum(1, true) + b) > 0.5f).eval().to<float>();
    const double accuracy = (predictions == labels).eval().to<float>().mean().item();
    std::printf("w = [%.3f, %.3f], b = %.3f, training accuracy %.1f%%\n", static_cast<double>(w[0][0].item()),
                static_cast<double>(w[0][1].item()), static_cast<double>(b.item()), 100 * accuracy);
    return accuracy > 0.8 ? 0 : 1;
}
