// Must not compile: the output names a subscript that no input has (checked for any operands).
#include <tenet/tenet.hpp>

int main() {
    tenet::Tensor<float> a = tenet::ones({2, 3});
    tenet::Tensor<float> b = tenet::ones({3, 4});
    auto c = tenet::einsum<"ij,jk->iz">(a, b);
    (void)c;
}
