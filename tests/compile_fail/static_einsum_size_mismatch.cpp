// Must not compile: subscript j is 3 in the first operand and 4 in the second.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> a = tenet::ones({2, 3});
    tenet::StaticTensor<float, tenet::Shape<4, 5>> b = tenet::ones({4, 5});
    auto c = tenet::einsum<"ij,jk->ik">(a, b);
    (void)c;
}
