// Built in another mode than uses.cpp (without autograd: tenet::ag0; or header-only when
// uses.cpp is built in compiled mode: tenet::ag1): its Tensor is another type, so the program
// that declares fill_with_ones with uses.cpp's Tensor cannot link against this definition.
#include <tenet/core.hpp>

void fill_with_ones(tenet::Tensor<float>& t) { t.fill_(1.0f); }
