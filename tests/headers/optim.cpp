// <tenet/optim.hpp> compiles, links and runs on its own: two steps of Adam and of SGD.
#include <tenet/optim.hpp>

#include <iostream>

using namespace tenet;

int main() {
    Tensor<float> w = tensor({1.0, -2.0}).requires_grad_();
    optim::Adam adam({w}, optim::AdamOptions(0.1));
    optim::SGD sgd({w}, optim::SGDOptions(0.1).momentum(0.9));
    for (int step = 0; step < 2; ++step) {
        adam.zero_grad();
        Tensor<float> loss = (w * w).sum();
        loss.backward();
        adam.step();
        sgd.step();
    }
    std::cout << w << "\n";
    return w.abs().max().item() < 2.0f ? 0 : 1;
}
