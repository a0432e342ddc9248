#pragma once
// The GEMM kernel behind every matrix product: C = alpha * A B + beta * C on strided
// operands. A and B are read in place when one of their strides is 1 (row-major, or a
// transposed view, with any leading dimension): the layout is passed to the BLAS or to an
// Eigen::Map instead of copying. Other layouts (two non-unit strides, broadcast rows) are
// copied once into a contiguous buffer.
//
// Backends: float/double/complex64/complex128 go to OpenBLAS's cblas_sgemm/dgemm/cgemm/zgemm
// when tenet was configured with it (TENET_HAVE_CBLAS), except tiny products, where Eigen's inlined code beats a library
// call, and when OpenBLAS was forced onto narrower kernels than this build's Eigen uses.
// Builds without a BLAS use Eigen; integer products (exact, wrapping as PyTorch's) use a plain
// loop in uint64_t, where the wrap is well-defined.
// Both run on tenet::get_num_threads() threads.

#include "tenet/config.hpp"
#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/core/complex.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/backend/host/parallel.hpp"
#include "tenet/backend/device/device_dispatch.hpp"
#include "tenet/core/tensor.hpp"

#ifdef TENET_HAVE_CBLAS
#include <cblas.h>
#endif

namespace tenet::inline TENET_ABI {
namespace detail {

/// Element types the matrix products accept (PyTorch's CPU matmul: no bool, no 16-bit floats;
/// complex64 and complex128).
template <class T>
inline constexpr bool is_gemm_element = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || is_complex_v<T>;

/// The scalar type Eigen computes T in: std::complex<R> for tenet::complex<R> (layout-compatible,
/// core/complex.hpp), T itself otherwise.
template <class T>
struct eigen_scalar {
    using type = T;
};
template <class R>
struct eigen_scalar<complex<R>> {
    using type = std::complex<R>;
};
template <class T>
using eigen_scalar_t = typename eigen_scalar<T>::type;
template <class T>
eigen_scalar_t<T>* eigen_ptr(T* p) {
    return reinterpret_cast<eigen_scalar_t<T>*>(p);
}
template <class T>
const eigen_scalar_t<T>* eigen_ptr(const T* p) {
    return reinterpret_cast<const eigen_scalar_t<T>*>(p);
}

/// A strided matrix: element (i, j) is data[i * rs + j * cs].
template <class T>
struct MatRef {
    const T* data;
    int64_t rows, cols, rs, cs;
};

/// How a GEMM can read a MatRef in place: row-major (cs == 1) or column-major (rs == 1),
/// with leading dimension ld. Size-1 dims may have any stride, so they never force a copy.
struct BlasLayout {
    bool ok = false;
    bool col_major = false;
    int64_t ld = 1;
};
template <class T>
BlasLayout blas_layout(const MatRef<T>& m) {
    const bool row_ok = (m.cols <= 1 || m.cs == 1) && (m.rows <= 1 || m.rs >= std::max<int64_t>(m.cols, 1));
    if (row_ok) return {true, false, m.rows <= 1 ? std::max<int64_t>(m.cols, 1) : m.rs};
    const bool col_ok = (m.rows <= 1 || m.rs == 1) && (m.cols <= 1 || m.cs >= std::max<int64_t>(m.rows, 1));
    if (col_ok) return {true, true, m.cols <= 1 ? std::max<int64_t>(m.rows, 1) : m.cs};
    return {};
}

/// Copies a MatRef into `buf` (row-major, ld = cols) and returns the dense view of it.
template <class T>
MatRef<T> pack_rows(const MatRef<T>& m, std::vector<T>& buf) {
    buf.resize(static_cast<size_t>(m.rows * m.cols));
    for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = 0; j < m.cols; ++j) buf[static_cast<size_t>(i * m.cols + j)] = m.data[i * m.rs + j * m.cs];
    return {buf.data(), m.rows, m.cols, m.cols, 1};
}

template <class T, int Order>
using EigenMat = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Order>, Eigen::Unaligned,
                            Eigen::OuterStride<>>;

/// Eigen's GEMM on maps of the operands' own memory (C is row-major, ld = ldc).
template <class T, int OrderA, int OrderB>
void eigen_gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
                T* c, int64_t ldc) {
    using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<RowMat, Eigen::Unaligned, Eigen::OuterStride<>> C(c, m, n, Eigen::OuterStride<>(ldc));
    EigenMat<T, OrderA> A(a, m, k, Eigen::OuterStride<>(lda));
    EigenMat<T, OrderB> B(b, k, n, Eigen::OuterStride<>(ldb));
    if (beta == T(0)) C.setZero();  // beta = 0 ignores C's old contents, NaN included (BLAS)
    else if (beta != T(1)) C *= beta;
    if (k == 0) return;
    if (alpha == T(1)) C.noalias() += A * B;
    else C.noalias() += alpha * (A * B);
}

/// Integer GEMM. Products wrap modulo 2^bits as PyTorch's integer matmul does; computing in
/// uint64_t makes that wrap well-defined (Eigen's int64 kernel would overflow a signed type).
template <class T>
void integer_gemm(int64_t m, int64_t n, int64_t k, T alpha, const MatRef<T>& A, const MatRef<T>& B, T beta, T* c,
                  int64_t ldc) {
    using U = uint64_t;
    std::vector<U> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), U(0));
        for (int64_t q = 0; q < k; ++q) {
            const U a = static_cast<U>(A.data[i * A.rs + q * A.cs]);
            const T* b = B.data + q * B.rs;
            for (int64_t j = 0; j < n; ++j) row[static_cast<size_t>(j)] += a * static_cast<U>(b[j * B.cs]);
        }
        T* out = c + i * ldc;
        for (int64_t j = 0; j < n; ++j) {
            U v = static_cast<U>(alpha) * row[static_cast<size_t>(j)];
            if (beta != T(0)) v += static_cast<U>(beta) * static_cast<U>(out[j]);
            out[j] = static_cast<T>(v);  // modulo 2^bits (C++20)
        }
    }
}

#ifdef TENET_HAVE_CBLAS
/// Whether OpenBLAS runs kernels at least as wide as the SIMD this build gave Eigen. It is not
/// when OPENBLAS_CORETYPE pins it to AVX2 (Haswell) kernels on an AVX-512 machine while Eigen
/// was compiled for AVX-512: then Eigen's GEMM is the faster of the two.
inline bool openblas_is_full_width() {
    static const bool full = [] {
#if defined(EIGEN_VECTORIZE_AVX512) && defined(TENET_HAVE_OPENBLAS)
        const std::string_view core = openblas_get_corename();
        const bool avx512_core = core.find("kylakex") != std::string_view::npos ||
                                 core.find("ooperlake") != std::string_view::npos ||
                                 core.find("apphire") != std::string_view::npos;
        return avx512_core;
#else
        return true;
#endif
    }();
    return full;
}

/// Below this many multiply-adds a library call costs more than Eigen's inlined product.
inline constexpr int64_t kBlasMinFlops = 16 * 16 * 16;

inline void sync_blas_threads() {
#ifdef TENET_HAVE_OPENBLAS
    const int want = get_num_threads();
    if (openblas_get_num_threads() != want) openblas_set_num_threads(want);
#endif
}
#endif

inline void sync_eigen_threads() {
    if (Eigen::nbThreads() != get_num_threads()) Eigen::setNbThreads(get_num_threads());
}

template <class T>
void floating_gemm(int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c, int64_t ldc);

/// C (m x n, row-major, leading dimension ldc) = alpha * A B + beta * C. When beta is 0, C's
/// old contents are ignored. A is m x k, B is k x n, both strided.
template <class T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c, int64_t ldc) {
    static_assert(is_gemm_element<T>);
    if (m == 0 || n == 0) return;
    if constexpr (std::is_integral_v<T>) {
        integer_gemm(m, n, k, alpha, A, B, beta, c, ldc);
    } else {
        floating_gemm(m, n, k, alpha, A, B, beta, c, ldc);
    }
}

template <class T>
void floating_gemm(int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c, int64_t ldc) {
    std::vector<T> abuf, bbuf;
    BlasLayout la = blas_layout(A), lb = blas_layout(B);
    if (!la.ok) {
        A = pack_rows(A, abuf);
        la = blas_layout(A);
    }
    if (!lb.ok) {
        B = pack_rows(B, bbuf);
        lb = blas_layout(B);
    }
#ifdef TENET_HAVE_CBLAS
    if (m * n * k >= kBlasMinFlops && openblas_is_full_width()) {
        sync_blas_threads();
        const auto ta = la.col_major ? CblasTrans : CblasNoTrans;
        const auto tb = lb.col_major ? CblasTrans : CblasNoTrans;
        const auto I = [](int64_t v) { return static_cast<int>(v); };
        // k == 0 still scales C by beta, as the BLAS does.
        if constexpr (std::is_same_v<T, float>)
            cblas_sgemm(CblasRowMajor, ta, tb, I(m), I(n), I(k), alpha, A.data, I(la.ld), B.data, I(lb.ld), beta, c,
                        I(ldc));
        else if constexpr (std::is_same_v<T, double>)
            cblas_dgemm(CblasRowMajor, ta, tb, I(m), I(n), I(k), alpha, A.data, I(la.ld), B.data, I(lb.ld), beta, c,
                        I(ldc));
        else if constexpr (std::is_same_v<T, complex<float>>)  // scalars and arrays by address, interleaved (re, im)
            cblas_cgemm(CblasRowMajor, ta, tb, I(m), I(n), I(k), eigen_ptr(&alpha), eigen_ptr(A.data), I(la.ld),
                        eigen_ptr(B.data), I(lb.ld), eigen_ptr(&beta), eigen_ptr(c), I(ldc));
        else
            cblas_zgemm(CblasRowMajor, ta, tb, I(m), I(n), I(k), eigen_ptr(&alpha), eigen_ptr(A.data), I(la.ld),
                        eigen_ptr(B.data), I(lb.ld), eigen_ptr(&beta), eigen_ptr(c), I(ldc));
        return;
    }
#endif
    sync_eigen_threads();
    using E = eigen_scalar_t<T>;
    const E* a = eigen_ptr(A.data);
    const E* b = eigen_ptr(B.data);
    const E ea = alpha, eb = beta;
    if (!la.col_major && !lb.col_major)
        eigen_gemm<E, Eigen::RowMajor, Eigen::RowMajor>(m, n, k, ea, a, la.ld, b, lb.ld, eb, eigen_ptr(c), ldc);
    else if (!la.col_major)
        eigen_gemm<E, Eigen::RowMajor, Eigen::ColMajor>(m, n, k, ea, a, la.ld, b, lb.ld, eb, eigen_ptr(c), ldc);
    else if (!lb.col_major)
        eigen_gemm<E, Eigen::ColMajor, Eigen::RowMajor>(m, n, k, ea, a, la.ld, b, lb.ld, eb, eigen_ptr(c), ldc);
    else
        eigen_gemm<E, Eigen::ColMajor, Eigen::ColMajor>(m, n, k, ea, a, la.ld, b, lb.ld, eb, eigen_ptr(c), ldc);
}

#if TENET_DEVICE_EVALUATOR
/// gemm on the current device (kernels/tenet/cuda/blas.cuh): cuBLAS for float and double under
/// CUDA, an exact Thrust kernel otherwise (integers, and the host emulation).
template <class T>
void device_gemm(int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c, int64_t ldc);
#endif

/// gemm where the operands live: `device` is the device of A, B and c.
template <class T>
void gemm_on(Device device, int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c,
             int64_t ldc) {
    if (device.is_cpu()) return gemm<T>(m, n, k, alpha, A, B, beta, c, ldc);
#if TENET_DEVICE_EVALUATOR
    DeviceGuard guard(device);
    device_gemm<T>(m, n, k, alpha, A, B, beta, c, ldc);
#else
    no_device_evaluator("matmul", device);
#endif
}

/// The matrix formed by dims (d0, d1) of t, at element offset `offset` into its storage.
template <class T>
MatRef<T> mat_ref(const Tensor<T>& t, int64_t offset, int64_t d0, int64_t d1) {
    const T* base = static_cast<const T*>(t.impl().storage->data());
    return {base + offset, t.sizes()[d0], t.sizes()[d1], t.strides()[d0], t.strides()[d1]};
}

}  // namespace detail
}  // namespace tenet
