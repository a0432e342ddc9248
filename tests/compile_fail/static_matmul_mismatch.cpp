// Must not compile: a (2 x 3) matrix cannot multiply a (4 x 5) one; the error names both shapes.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> a = tenet::ones({2, 3});
    tenet::StaticTensor<float, tenet::Shape<4, 5>> b = tenet::ones({4, 5});
    auto c = tenet::matmul(a, b);
    (void)c;
}
