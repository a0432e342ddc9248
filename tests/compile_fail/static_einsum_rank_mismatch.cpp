// Must not compile: "ijk" names three dims of a 2-D static operand.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> a = tenet::ones({2, 3});
    auto c = tenet::einsum<"ijk->k">(a);
    (void)c;
}
