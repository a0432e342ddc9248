#pragma once
// Matrix products on a device (linalg/gemm.hpp's device_gemm): C = alpha A B + beta C with A
// (m x k) and B (k x n) strided matrices and C row-major with leading dimension ldc.
//
//  - float, double, complex64 and complex128 under CUDA: cuBLAS's S/D/C/Zgemm (link CUDA::cublas;
//    define TENET_NO_CUBLAS to use the Thrust kernel below instead). Row-major C = A B is
//    column-major C^T = B^T A^T, so the operands are passed swapped; a matrix with unit column
//    stride is row-major (no transpose), one with unit row stride column-major (transposed),
//    anything else is packed first. One handle per device, created on first use.
//  - integers (cuBLAS has no integer GEMM; PyTorch's CUDA matmul refuses them, tenet keeps the
//    host's exact wrapping products) and every type under the host emulation: a Thrust kernel,
//    one result element per index, accumulating in uint64_t for integers (wrapping as the
//    host's integer_gemm) and in T for floating and complex types.

#include "tenet/config.hpp"
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <vector>

#include "tenet/backend/device/device_copy.hpp"
#include "tenet/cuda/config.cuh"
#include "tenet/linalg/gemm.hpp"

#if defined(__CUDACC__) && !defined(TENET_NO_CUBLAS)
#define TENET_USE_CUBLAS 1
#include <cublas_v2.h>
#endif

namespace tenet::inline TENET_ABI::kernels {

/// c[i, j] = alpha * sum_q A[i, q] B[q, j] + beta * c[i, j] (c not read when beta is 0).
template <class T>
struct GemmElement {
    detail::MatRef<T> A, B;
    T alpha, beta;
    T* c;
    int64_t n, k, ldc;
    TENET_HD void operator()(int64_t index) const {
        const int64_t i = index / n, j = index % n;
        T* out = c + i * ldc + j;
        if constexpr (std::is_integral_v<T>) {
            uint64_t acc = 0;
            for (int64_t q = 0; q < k; ++q)
                acc += static_cast<uint64_t>(A.data[i * A.rs + q * A.cs]) * static_cast<uint64_t>(B.data[q * B.rs + j * B.cs]);
            uint64_t v = static_cast<uint64_t>(alpha) * acc;
            if (beta != T(0)) v += static_cast<uint64_t>(beta) * static_cast<uint64_t>(*out);
            *out = static_cast<T>(v);
        } else {
            T acc = 0;
            for (int64_t q = 0; q < k; ++q) acc += A.data[i * A.rs + q * A.cs] * B.data[q * B.rs + j * B.cs];
            *out = beta == T(0) ? alpha * acc : alpha * acc + beta * *out;
        }
    }
};

#if defined(TENET_USE_CUBLAS)
inline void check_cublas(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS)
        detail::fail<device_error>(what, ": cuBLAS error ", static_cast<int>(status), " (",
                                   cublasGetStatusString(status), ")");
}

/// The cuBLAS handle of the current device (one per device, kept for the process).
inline cublasHandle_t cublas_handle() {
    static std::mutex mutex;
    static std::vector<cublasHandle_t> handles;
    int device = 0;
    check_cuda(cudaGetDevice(&device), "matmul");
    std::lock_guard lock(mutex);
    if (handles.size() <= static_cast<size_t>(device)) handles.resize(static_cast<size_t>(device) + 1, nullptr);
    if (!handles[static_cast<size_t>(device)]) check_cublas(cublasCreate(&handles[static_cast<size_t>(device)]), "matmul");
    return handles[static_cast<size_t>(device)];
}

/// A row-major copy of a matrix cuBLAS cannot read in place, in `scratch` (device memory).
template <class T>
detail::MatRef<T> packed_rows(const detail::MatRef<T>& m, TensorBase& scratch) {
    int device = 0;
    check_cuda(cudaGetDevice(&device), "matmul");
    const Device where(DeviceType::CUDA, device);
    scratch = TensorBase(detail::make_contiguous_impl(IntArray{m.rows, m.cols}, dtype_of<T>, where));
    const auto loop = detail::make_device_loop<2>(IntArray{m.rows, m.cols}, {IntArray{m.cols, 1}, IntArray{m.rs, m.cs}},
                                                  "matmul");
    detail::device_backend(where, "matmul")
        .copy_strided(device, detail::first_byte(scratch), m.data, loop, sizeof(T));
    return {static_cast<const T*>(detail::first_byte(scratch)), m.rows, m.cols, m.cols, 1};
}

/// T as cuBLAS names it: tenet::complex has cuComplex's and cuDoubleComplex's layout (two parts,
/// aligned to both).
template <class T>
struct CublasType {
    using type = T;
};
template <>
struct CublasType<complex<float>> {
    using type = cuComplex;
};
template <>
struct CublasType<complex<double>> {
    using type = cuDoubleComplex;
};

template <class T>
void cublas_gemm(int64_t m, int64_t n, int64_t k, T alpha, detail::MatRef<T> A, detail::MatRef<T> B, T beta, T* c,
                 int64_t ldc) {
    TensorBase scratch_a, scratch_b;
    detail::BlasLayout la = detail::blas_layout(A), lb = detail::blas_layout(B);
    if (!la.ok) {
        A = packed_rows(A, scratch_a);
        la = detail::blas_layout(A);
    }
    if (!lb.ok) {
        B = packed_rows(B, scratch_b);
        lb = detail::blas_layout(B);
    }
    // Column-major C^T (n x m) = op(B^T) op(A^T): a row-major operand is, read column-major,
    // already the transpose cuBLAS wants (OP_N); a column-major one needs OP_T.
    const cublasOperation_t op_b = lb.col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_a = la.col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
    const auto I = [](int64_t v) { return static_cast<int>(v); };
    using U = typename CublasType<T>::type;
    const U* a = reinterpret_cast<const U*>(A.data);
    const U* b = reinterpret_cast<const U*>(B.data);
    const auto gemm = [&](auto f) {
        check_cublas(f(cublas_handle(), op_b, op_a, I(n), I(m), I(k), reinterpret_cast<const U*>(&alpha), b, I(lb.ld),
                       a, I(la.ld), reinterpret_cast<const U*>(&beta), reinterpret_cast<U*>(c), I(ldc)),
                     "matmul");
    };
    if constexpr (std::is_same_v<T, float>) gemm(cublasSgemm);
    else if constexpr (std::is_same_v<T, double>) gemm(cublasDgemm);
    else if constexpr (std::is_same_v<T, complex<float>>) gemm(cublasCgemm);
    else gemm(cublasZgemm);
}
#endif

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class T>
void device_gemm(int64_t m, int64_t n, int64_t k, T alpha, MatRef<T> A, MatRef<T> B, T beta, T* c, int64_t ldc) {
    if (m == 0 || n == 0) return;
#if defined(TENET_USE_CUBLAS)
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, complex<float>> ||
                  std::is_same_v<T, complex<double>>) {
        constexpr int64_t kIntMax = 2147483647;
        if (m <= kIntMax && n <= kIntMax && k <= kIntMax && k > 0) {
            kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
            return kernels::cublas_gemm(m, n, k, alpha, A, B, beta, c, ldc);
        }
    }
#endif
    kernels::for_each_index(m * n, kernels::GemmElement<T>{A, B, alpha, beta, c, n, k, ldc}, "matmul");
}

}  // namespace tenet::detail
