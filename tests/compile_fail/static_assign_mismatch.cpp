// Must not compile: an expression of static shape Shape<2, 3> stored in a Shape<3, 3> tensor.
#include <tenet/tenet.hpp>

int main() {
    tenet::StaticTensor<float, tenet::Shape<2, 3>> a = tenet::ones({2, 3});
    tenet::StaticTensor<float, tenet::Shape<3, 3>> b = a * 2;
    (void)b;
}
