// Built with TENET_AUTOGRAD=0 (tenet::ag0): its Tensor is another type, so the program that
// declares fill_with_ones with the autograd build's Tensor cannot link against this definition.
#include <tenet/core.hpp>

void fill_with_ones(tenet::Tensor<float>& t) { t.fill_(1.0f); }
