// Must not compile: a braced list whose elements differ in type (an expression and a tensor) gives
// C++ nothing to deduce cat's result type from. It is one static_assert naming the two forms that
// work: cat<float>({...}) and cat(std::tuple{...}).
#include <tenet/tenet.hpp>

int main() {
    auto a = tenet::ones({2, 3});
    auto b = tenet::zeros({2, 3});
    auto c = tenet::cat({a + b, b});
    (void)c;
}
