// Must not compile: ordering complex tensors. PyTorch raises ("lt_cpu" not implemented for
// 'ComplexFloat'); tenet refuses it at the `<` itself, naming the functor (fn::Lt).
#include <tenet/tenet.hpp>

int main() {
    tenet::Tensor<tenet::complex<float>> a = tenet::zeros({3}, tenet::kComplex64);
    auto e = a < a;
    (void)e;
}
