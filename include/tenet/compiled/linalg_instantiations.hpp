#pragma once
// linalg's part of the compiled library's instantiations (compiled/instantiations.hpp says how
// they work), included last by <tenet/linalg.hpp>: the Eigen-backed kernels of the
// decompositions and solvers, their gradients, and the floating-point GEMM, per element type.
// They are what makes a TU that uses linalg slow to compile (Eigen's decompositions and GEMM,
// instantiated for each element type). Their definitions are compiled apart, one TU per
// element type (compiled/linalg.cpp, instantiating TENET_INSTANTIATE_LINALG_REAL or _COMPLEX), so
// that a parallel build compiles the four at once.
//
// Some of these evaluate tenet expressions (the gradients' products, matrix_norm's reductions),
// which a TU with the device evaluator compiles with device paths as well. They only ever see
// host tensors (linalg refuses others first), and where one program holds both copies (the
// emulated device tests link the library too) the device TUs' objects come first in the link,
// so either copy computes the same.
#include "tenet/config.hpp"

#if TENET_COMPILED && (defined(TENET_LIBRARY_SOURCE) || !TENET_DEVICE_EVALUATOR)
namespace tenet::inline TENET_ABI {

// float, double, complex64 and complex128: the kernels that take complex inputs, and the GEMM
// behind the matrix products (the BLAS call or Eigen's product).
#define TENET_COMPILED_LINALG_ANY(PREFIX, T)                                                             \
    PREFIX template linalg::EighResult<T> detail::eigh_impl<T>(const Tensor<T>&, std::string_view);      \
    PREFIX template linalg::EigResult<T> detail::eig_impl<T>(const Tensor<T>&, bool, const char*);       \
    PREFIX template linalg::SVDResult<T> detail::svd_impl<T>(const Tensor<T>&, bool);                    \
    PREFIX template Tensor<real_t<T>> detail::svdvals_impl<T>(const Tensor<T>&);                         \
    PREFIX template linalg::QRResult<T> detail::qr_impl<T>(const Tensor<T>&, std::string_view);          \
    PREFIX template Tensor<T> detail::inv_impl<T>(const Tensor<T>&);                                     \
    PREFIX template Tensor<T> detail::det_impl<T>(const Tensor<T>&);                                     \
    PREFIX template Tensor<T> detail::solve_impl<T>(const Tensor<T>&, const Tensor<T>&, bool, const char*); \
    PREFIX template Tensor<T> detail::cholesky_impl<T>(const Tensor<T>&, bool);                          \
    PREFIX template linalg::SlogdetResult<T> detail::slogdet_impl<T>(const Tensor<T>&);                  \
    PREFIX template linalg::LstsqResult<T> detail::lstsq_impl<T>(const Tensor<T>&, const Tensor<T>&,     \
                                                                 std::optional<double>);                 \
    PREFIX template Tensor<real_t<T>> detail::matrix_norm_impl<T>(const Tensor<T>&, std::string_view,   \
                                                                  double, const IntArray&, bool);        \
    PREFIX template void detail::floating_gemm<T>(int64_t, int64_t, int64_t, T, detail::MatRef<T>,       \
                                                  detail::MatRef<T>, T, T*, int64_t);

// float and double only: the gradients (complex tensors are never recorded).
#if TENET_AUTOGRAD
#define TENET_COMPILED_LINALG_GRADIENTS(PREFIX, T)                                                       \
    PREFIX template void detail::record_inv<T>(const Tensor<T>&, const Tensor<T>&);                      \
    PREFIX template void detail::record_det<T>(const Tensor<T>&, const Tensor<T>&);                      \
    PREFIX template void detail::record_slogdet<T>(const Tensor<T>&, const Tensor<T>&);                  \
    PREFIX template void detail::record_solve<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, bool); \
    PREFIX template void detail::record_eigh<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&);   \
    PREFIX template void detail::record_svd<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&,     \
                                               const Tensor<T>&);                                        \
    PREFIX template void detail::record_svdvals<T>(const Tensor<T>&, const Tensor<T>&);                  \
    PREFIX template void detail::record_cholesky<T>(const Tensor<T>&, const Tensor<T>&, bool);
#else
#define TENET_COMPILED_LINALG_GRADIENTS(PREFIX, T)
#endif
#define TENET_COMPILED_LINALG_REAL(PREFIX, T)                                                            \
    TENET_COMPILED_LINALG_ANY(PREFIX, T)                                                                 \
    TENET_COMPILED_LINALG_GRADIENTS(PREFIX, T)

/// linalg's definitions for a real (float, double) or complex element type T (compiled/linalg.cpp).
#define TENET_INSTANTIATE_LINALG_REAL(T) TENET_COMPILED_LINALG_REAL(, T)
#define TENET_INSTANTIATE_LINALG_COMPLEX(T) TENET_COMPILED_LINALG_ANY(, T)

TENET_COMPILED_LINALG_REAL(extern, float)
TENET_COMPILED_LINALG_REAL(extern, double)
TENET_COMPILED_LINALG_ANY(extern, complex<float>)
TENET_COMPILED_LINALG_ANY(extern, complex<double>)

}  // namespace tenet
#endif
