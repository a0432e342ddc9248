// A softmax classifier on generated data, trained with cross_entropy and Adam: the loop a
// PyTorch tutorial writes, in tenet's words.
//
// Three Gaussian blobs in 2-D, one per class; the model is logits = x @ W + b; the loss is
// nn::functional::cross_entropy (log_softmax and nll_loss, with their own backward passes);
// optim::Adam updates W and b as torch.optim.Adam does. The printed loss falls and the
// training accuracy ends above 90%.

#include <tenet/tenet.hpp>

#include <cstdio>
#include <iostream>

using namespace tenet;
namespace F = tenet::nn::functional;

int main() {
    manual_seed(0);
    const int64_t n = 300, classes = 3;
    // Class c is centred at (2 cos(2 pi c / 3), 2 sin(2 pi c / 3)).
    const Tensor<int64_t> labels = randint(0, classes, {n});
    const Tensor<float> angle = labels.to<float>() * (2.0f * 3.14159265f / 3.0f);
    const Tensor<float> centres = stack<float>({cos(angle) * 2.0f, sin(angle) * 2.0f}, 1);
    const Tensor<float> x = randn({n, 2}) * 0.6f + centres;

    auto W = zeros({2, classes}).requires_grad_();
    auto b = zeros({classes}).requires_grad_();
    optim::Adam optimizer({W, b}, optim::AdamOptions(0.1));
    for (int step = 0; step <= 60; ++step) {
        optimizer.zero_grad();
        Tensor<float> logits = matmul(x, W) + b;
        Tensor<float> loss = F::cross_entropy(logits, labels);
        loss.backward();
        optimizer.step();
        if (step % 15 == 0) std::printf("step %2d  loss %.4f\n", step, static_cast<double>(loss.item()));
    }
    // The class of each point: the index of its largest logit (softmax keeps the order).
    const Tensor<float> probabilities = softmax(matmul(x, W) + b, 1);
    const Tensor<int64_t> predicted = argmax(probabilities, 1);
    const double accuracy = (predicted == labels).eval().to<float>().mean().item();
    std::printf("training accuracy %.1f%%; the first point's class probabilities:\n", 100 * accuracy);
    std::cout << probabilities.detach()[0] << "\n";
    return accuracy > 0.9 ? 0 : 1;
}
