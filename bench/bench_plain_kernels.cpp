// Plain C++ reference loops that need different flags from the rest of tenet_bench: this TU
// alone is compiled with -ffast-math (see bench/CMakeLists.txt), which lets GCC vectorise
// std::exp through glibc's libmvec (_ZGV*_expf). It includes nothing from tenet or Eigen,
// so no inline function compiled under -ffast-math can leak into the other TUs.
//
// No benchmarks are registered here; bench_pointwise.cpp times these functions.

#include "bench_plain_kernels.hpp"

#include <cmath>

namespace tenet_bench {

void w2_fastmath(const float* __restrict a, const float* __restrict b, const float* __restrict c,
                 const float* __restrict d, float* __restrict y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const float t = a[i] * b[i] + c[i];
        y[i] = 1.0f / (1.0f + std::exp(-t)) * d[i] - 0.5f * a[i];
    }
}

float w8_fastmath(const float* __restrict x, const float* __restrict w, const float* __restrict b,
                  const float* __restrict y, float* __restrict gw, float* __restrict gb, int64_t n) {
    float loss = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
        const float s = 1.0f / (1.0f + std::exp(-(x[i] * w[i] + b[i])));
        const float r = s - y[i];
        loss += r * r;
        const float dz = 2.0f * r * s * (1.0f - s);  // d(r^2)/dz
        gw[i] = dz * x[i];
        gb[i] = dz;
    }
    return loss;
}

float bias_sigmoid_fastmath(const float* __restrict x, const float* __restrict w, const float* __restrict b,
                            float* __restrict gw, float* __restrict gb, int64_t m, int64_t n) {
    float total = 0.0f;
    for (int64_t j = 0; j < n; ++j) gw[j] = gb[j] = 0.0f;
    for (int64_t i = 0; i < m; ++i) {
        const float* xi = x + i * n;
        for (int64_t j = 0; j < n; ++j) {
            const float s = 1.0f / (1.0f + std::exp(-(xi[j] * w[j] + b[j])));
            total += s;
            const float dz = s * (1.0f - s);
            gw[j] += dz * xi[j];
            gb[j] += dz;
        }
    }
    return total;
}

void softmax_rows_fastmath(const float* __restrict x, float* __restrict y, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float m = xr[0];
        for (int64_t j = 1; j < cols; ++j) m = xr[j] > m ? xr[j] : m;
        float total = 0.0f;
        for (int64_t j = 0; j < cols; ++j) {
            yr[j] = std::exp(xr[j] - m);
            total += yr[j];
        }
        const float scale = 1.0f / total;
        for (int64_t j = 0; j < cols; ++j) yr[j] *= scale;
    }
}

float cross_entropy_fastmath(const float* __restrict logits, const int64_t* __restrict target, float* __restrict grad,
                             int64_t rows, int64_t cols) {
    double loss = 0.0;
    const float inv_rows = 1.0f / static_cast<float>(rows);
    for (int64_t r = 0; r < rows; ++r) {
        const float* xr = logits + r * cols;
        float* gr = grad + r * cols;
        float m = xr[0];
        for (int64_t j = 1; j < cols; ++j) m = xr[j] > m ? xr[j] : m;
        float total = 0.0f;
        for (int64_t j = 0; j < cols; ++j) {
            gr[j] = std::exp(xr[j] - m);
            total += gr[j];
        }
        const float log_total = std::log(total);
        loss += static_cast<double>(m + log_total - xr[target[r]]);
        const float scale = inv_rows / total;
        for (int64_t j = 0; j < cols; ++j) gr[j] *= scale;
        gr[target[r]] -= inv_rows;
    }
    return static_cast<float>(loss / static_cast<double>(rows));
}

}  // namespace tenet_bench
