// Must not compile: batch dims 2 and 3 of static-shape operands cannot broadcast.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 4, 3>> a = tenet::ones({2, 4, 3});
    tenet::StaticTensor<float, tenet::Shape<3, 3, 5>> b = tenet::ones({3, 3, 5});
    auto c = tenet::matmul(a, b);
    (void)c;
}
