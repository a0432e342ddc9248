#pragma once
// Hand-written loops compiled in their own TU (bench_plain_kernels.cpp) with other flags.

#include <cstdint>
#include <cstdlib>

namespace tenet_bench {

/// Threads for tenet and LibTorch: $TENET_BENCH_THREADS, 1 when unset or invalid.
inline int bench_threads() {
    const char* s = std::getenv("TENET_BENCH_THREADS");
    const int n = s ? std::atoi(s) : 1;
    return n >= 1 ? n : 1;
}

/// W2 with -ffast-math: y = 1/(1+exp(-(a*b+c))) * d - 0.5*a, exp vectorised by libmvec.
void w2_fastmath(const float* a, const float* b, const float* c, const float* d, float* y, int64_t n);

/// W8 by hand with -ffast-math: loss = sum((sigmoid(x*w + b) - y)^2) and its gradients
/// with respect to w and b, in one loop. Returns the loss.
float w8_fastmath(const float* x, const float* w, const float* b, const float* y, float* gw, float* gb, int64_t n);

/// sum(sigmoid(x*w + b)) over x [m, n] with w, b [n], by hand with -ffast-math, and the
/// gradients of w and b (summed over the rows, into gw and gb, zeroed first). Returns the sum.
float bias_sigmoid_fastmath(const float* x, const float* w, const float* b, float* gw, float* gb, int64_t m,
                            int64_t n);

/// softmax over the rows of x [rows, cols] into y, by hand with -ffast-math: per row the maximum,
/// then exp(x - max) stored and summed, then scaled (the two-pass loop with a vectorised exp).
void softmax_rows_fastmath(const float* x, float* y, int64_t rows, int64_t cols);

/// cross_entropy (mean over the rows) of logits [rows, cols] and class indices, forward and
/// backward in one loop per row, by hand with -ffast-math: the loss, and grad = (softmax -
/// one_hot) / rows. Returns the loss.
float cross_entropy_fastmath(const float* logits, const int64_t* target, float* grad, int64_t rows, int64_t cols);

}  // namespace tenet_bench
