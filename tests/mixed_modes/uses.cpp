// Built with autograd (tenet::ag1): calls a function that another TU defines without it.
#include <tenet/core.hpp>

void fill_with_ones(tenet::Tensor<float>& t);  // defined in defines_off.cpp

int main() {
    tenet::Tensor<float> t = tenet::zeros({3});
    fill_with_ones(t);
    return t.sum().item() == 3.0f ? 0 : 1;
}
