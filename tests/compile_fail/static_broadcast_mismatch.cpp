// Must not compile: Shape<2, 3> and Shape<3, 2> cannot be broadcast together; the error names both.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> a = tenet::ones({2, 3});
    tenet::StaticTensor<float, tenet::Shape<3, 2>> b = tenet::ones({3, 2});
    auto c = a + b;
    (void)c;
}
