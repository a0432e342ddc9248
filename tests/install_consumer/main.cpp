// Compiled against the installed headers only; returns 0 when the library is usable.
#include <tenet/tenet.hpp>

#include <iostream>
#include <string>

int main() {
    const std::string version{tenet::version()};
    if (version.empty()) {
        std::cerr << "tenet::version() is empty\n";
        return 1;
    }
    // A float matmul goes through cblas_sgemm when the package found OpenBLAS (TENET_HAVE_CBLAS),
    // else through Eigen: either way it must link and be right.
    auto a = tenet::arange(6, tenet::kFloat32).view({2, 3});
    auto b = tenet::arange(6, tenet::kFloat32).view({3, 2});
    auto c = tenet::matmul(a, b);  // [[10, 13], [28, 40]]
    if (c.sizes() != tenet::IntArray{2, 2} || c[0][0].item() != 10.0f || c[0][1].item() != 13.0f ||
        c[1][0].item() != 28.0f || c[1][1].item() != 40.0f) {
        std::cerr << "matmul gave " << c << "\n";
        return 1;
    }
#ifdef TENET_HAVE_CBLAS
    const char* gemm = "OpenBLAS";
#else
    const char* gemm = "Eigen";
#endif
    std::cout << "tenet " << version << " found and usable (matmul: " << gemm << ")\n";
    return 0;
}
