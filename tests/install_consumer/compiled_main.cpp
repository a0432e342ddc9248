// Links tenet::compiled (find_package(tenet COMPONENTS Compiled)): compiled mode, with the
// fixed machinery built in this project from the installed library.cpp. Returns 0 when a
// forward and backward pass through it is right.
#include <tenet/tenet.hpp>

#include <iostream>

static_assert(TENET_COMPILED == 1, "tenet::compiled must build its users in compiled mode");

int main() {
    // y = sum(x * x + 3 x): dy/dx = 2 x + 3.
    auto x = tenet::arange(4, tenet::kFloat32).requires_grad_(true);
    auto y = (x * x + 3.0f * x).sum();
    y.backward();
    const auto g = x.grad();
    for (int64_t i = 0; i < 4; ++i) {
        if (g[i].item() != 2.0f * static_cast<float>(i) + 3.0f) {
            std::cerr << "compiled mode: the gradient is " << g << "\n";
            return 1;
        }
    }
    std::cout << "tenet::compiled found and usable: y = " << y.item() << "\n";
    return 0;
}
