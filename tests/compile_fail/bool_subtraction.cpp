// Must not compile: subtracting two bool tensors. PyTorch raises at the `-` ("Subtraction, the `-`
// operator, with two bool tensors is not supported"); tenet refuses it at the operator too, not
// later where the expression is assigned.
#include <tenet/tenet.hpp>

int main() {
    tenet::Tensor<bool> a = tenet::ones<bool>({3}), b = tenet::zeros<bool>({3});
    auto e = a - b;
    (void)e;
}
