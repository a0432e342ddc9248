// <tenet/interop.hpp> compiles, links and runs on its own: a tensor seen through Eigen, a span
// and (where DLPack's header is found) a DLPack round trip.
#include <tenet/interop.hpp>

#include <iostream>

using namespace tenet;

int main() {
    Tensor<float> x = arange<float>(6).reshape({2, 3});
    auto m = to_eigen(x);
    m(1, 2) = 50.0f;  // writes through to x
    bool ok = x[1][2].item() == 50.0f && span(x).size() == 6;
#if TENET_HAVE_DLPACK
    const Tensor<float> y = from_dlpack<float>(to_dlpack(x));
    ok = ok && y.data_ptr() == x.data_ptr();
#endif
    std::cout << (ok ? "ok" : "failed") << "\n";
    return ok ? 0 : 1;
}
