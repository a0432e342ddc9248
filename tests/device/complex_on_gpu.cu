// A check for a machine with a GPU (CI has none): complex products through cuBLAS's cgemm/zgemm
// (mm, mm of a transposed operand, bmm, broadcast matmul, mv, dot, vdot) and complex randn drawn
// on the device, against the same calls on the host, whose products the PyTorch-generated cases
// of tests/complex/complex_linalg_cases.txt pin. Both parts of every element within 1e-5 relative
// (complex64: another summation order) or 1e-12 (complex128); randn must match the host's stream
// bit for bit up to libm's last bits, so it gets the same tolerance. Not part of a test binary.
// Build and run from the repository root:
//   nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/complex_on_gpu.cu -lcublas
// Exit 0: every value within tolerance; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <cmath>
#include <vector>
using namespace tenet;

namespace {

/// A complex tensor of R's precision with smooth, distinct values.
template <class R>
Tensor<complex<R>> values(const IntArray& shape, double phase) {
    std::vector<complex<R>> v(static_cast<size_t>(product(shape)));
    for (size_t k = 0; k < v.size(); ++k)
        v[k] = complex<R>(static_cast<R>(std::sin(0.37 * k + phase)), static_cast<R>(std::cos(0.11 * k - phase)));
    return tensor(v, shape);
}

/// Both parts of a complex device result against the host's (gpu_check.hpp's compare).
template <class R>
void compare_complex(const char* what, const Tensor<complex<R>>& device, const Tensor<complex<R>>& host) {
    compare(what, Tensor<R>(view_as_real(device.contiguous())), Tensor<R>(view_as_real(host.contiguous())));
}

template <class R>
void check(const Device& cuda) {
    const Tensor<complex<R>> a = values<R>({70, 90}, 0.0), b = values<R>({90, 40}, 1.0);
    const Tensor<complex<R>> ad = a.to(cuda), bd = b.to(cuda);
    compare_complex("complex mm", mm(ad, bd), mm(a, b));
    compare_complex("complex mm, transposed operand", mm(bd.t(), ad.t()), mm(b.t(), a.t()));
    const Tensor<complex<R>> x = values<R>({5, 30, 20}, 2.0), y = values<R>({20, 10}, 3.0);
    compare_complex("complex matmul, batched by broadcast", matmul(x.to(cuda), y.to(cuda)), matmul(x, y));
    const Tensor<complex<R>> z = values<R>({5, 20, 10}, 4.0);
    compare_complex("complex bmm", bmm(x.to(cuda), z.to(cuda)), bmm(x, z));
    const Tensor<complex<R>> v = values<R>({90}, 5.0), w = values<R>({90}, 6.0);
    compare_complex("complex mv", mv(ad, v.to(cuda)), mv(a, v));
    compare_complex("complex dot", dot(v.to(cuda), w.to(cuda)), dot(v, w));
    compare_complex("complex vdot", vdot(v.to(cuda), w.to(cuda)), vdot(v, w));
    Generator gh(11), gd(11);
    const auto rh = randn<complex<R>>({1000}, gh);
    const auto rd = randn<complex<R>>({1000}, gd, TensorOptions().device(cuda));
    compare_complex("complex randn, same seed", rd, rh);
}

}  // namespace

int main() {
    return run_on_gpu([]<class R>(const Device& cuda) { check<R>(cuda); });
}
