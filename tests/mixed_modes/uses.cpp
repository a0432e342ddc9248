// Calls a function that another TU (defines_off.cpp) defines in another mode.
#include <tenet/core.hpp>

void fill_with_ones(tenet::Tensor<float>& t);  // defined in defines_off.cpp

int main() {
    tenet::Tensor<float> t = tenet::zeros({3});
    fill_with_ones(t);
    return t.sum().item() == 3.0f ? 0 : 1;
}
