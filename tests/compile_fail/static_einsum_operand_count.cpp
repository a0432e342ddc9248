// Must not compile: the equation has two operands, the call one.
#include <tenet/tenet.hpp>

int main() {
    tenet::Tensor<float> a = tenet::ones({2, 3});
    auto c = tenet::einsum<"ij,jk->ik">(a);
    (void)c;
}
