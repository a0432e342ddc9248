// Shapes in the type: StaticTensor<T, Shape<...>> is a Tensor<T> whose shape the compiler
// knows too. Expressions over static tensors deduce their result's static shape, and two
// static shapes that cannot broadcast do not compile (see tests/compile_fail/).

#include <tenet/tenet.hpp>

#include <iostream>
#include <type_traits>

using namespace tenet;

int main() {
    StaticTensor<float, Shape<2, 3>> x = arange(6.0).view({2, 3});
    StaticTensor<float, Shape<1, 3>> w = tensor({{0.5, 1.0, 2.0}});
    StaticTensor<float, Shape<2, 1>> b = tensor({{10.0}, {20.0}});

    // (2, 3) * (1, 3) + (2, 1): the result's static shape, Shape<2, 3>, is deduced.
    auto y = (x * w + b).eval();
    static_assert(std::is_same_v<decltype(y), StaticTensor<float, Shape<2, 3>>>);
    std::cout << "y = x * w + b, static shape " << decltype(y)::static_shape{} << ":\n" << y << "\n";

    // Fixed and run-time extents mix: a batch of any size with 3 features.
    StaticTensor<float, Shape<Dyn, 3>> batch = ones({4, 3});
    auto scaled = (batch * w).eval();
    std::cout << "batch * w has static shape " << decltype(scaled)::static_shape{} << " and sizes "
              << scaled.sizes() << "\n";

    // A static and a dynamic operand mix; the result is dynamic and checked at run time.
    Tensor<float> dynamic = ones({2, 3});
    Tensor<float> z = x + dynamic;
    std::cout << "x + dynamic:\n" << z << "\n";

    // Adopting a tensor of the wrong size is refused at run time.
    try {
        StaticTensor<float, Shape<3, 3>> wrong = ones({2, 3});
    } catch (const shape_error& e) {
        std::cout << "refused: " << e.what() << "\n";
    }

    // This line would not compile: Shape<2, 3> and Shape<3, 2> cannot be broadcast together.
    //   StaticTensor<float, Shape<3, 2>> t = ones({3, 2});  auto bad = x + t;
}
