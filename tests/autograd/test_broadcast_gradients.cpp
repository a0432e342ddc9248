// Gradients of inputs broadcast along leading dims (a weight or bias [n] used with an input
// [m, n]), which the backward pass sums per column as it goes (autograd/gradient_pass.hpp,
// PeriodicSums). The shapes make the pass's blocks of 256 elements wrap around the leaf (n = 300,
// 7, 30) or not (256), with leading size-1 dims, for every node that runs the pass: FusedNode
// (y.backward(g)), the fused sum and mean (EagerSumNode) and a reduction of an expression.
// Expected values follow from calculus with integer-valued inputs, so every sum is exact:
//   d/dw sum(g * (x * w + b)) = sum over rows of g * x,  d/db = sum over rows of g.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

/// x[i, j] = (i + 2 j) % 5 - 2 and g[i, j] = 1 + (i % 3): small integers.
template <class T>
Tensor<T> x_values(int64_t m, int64_t n) {
    std::vector<T> v(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) v[static_cast<size_t>(i * n + j)] = static_cast<T>((i + 2 * j) % 5 - 2);
    return tensor(v, {m, n});
}
template <class T>
Tensor<T> g_values(int64_t m, int64_t n) {
    std::vector<T> v(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) v[static_cast<size_t>(i * n + j)] = static_cast<T>(1 + i % 3);
    return tensor(v, {m, n});
}

/// The expected gradients of w and b for weights g (all ones when `ones`).
struct Expected {
    std::vector<double> w, b;
};
Expected expected(int64_t m, int64_t n, bool ones) {
    Expected e{std::vector<double>(static_cast<size_t>(n), 0.0), std::vector<double>(static_cast<size_t>(n), 0.0)};
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const double g = ones ? 1.0 : static_cast<double>(1 + i % 3);
            e.w[static_cast<size_t>(j)] += g * static_cast<double>((i + 2 * j) % 5 - 2);
            e.b[static_cast<size_t>(j)] += g;
        }
    return e;
}

template <class T>
void check_values(const Tensor<T>& grad, const IntArray& shape, const std::vector<double>& want) {
    REQUIRE(grad.defined());
    CHECK(grad.sizes() == shape);
    const std::vector<T> got = grad.contiguous().to_vector();
    REQUIRE(got.size() == want.size());
    for (size_t j = 0; j < want.size(); ++j) {
        INFO("element " << j);
        CHECK(static_cast<double>(got[j]) == want[j]);
    }
}

}  // namespace

TEMPLATE_TEST_CASE("broadcast gradients: weight and bias over the rows, summed in the pass", "", float, double) {
    using T = TestType;
    const auto [m, n] = GENERATE(std::pair<int64_t, int64_t>{37, 300}, std::pair<int64_t, int64_t>{700, 7},
                                 std::pair<int64_t, int64_t>{64, 256}, std::pair<int64_t, int64_t>{20, 30});
    INFO("x [" << m << ", " << n << "]");
    const Tensor<T> x = x_values<T>(m, n);
    Tensor<T> w = ones<T>({n}).requires_grad_();
    Tensor<T> b = zeros<T>({1, n}).requires_grad_();  // a leading size-1 dim

    SECTION("FusedNode: y.backward(g)") {
        Tensor<T> y = x * w + b;
        y.backward(g_values<T>(m, n));
        const Expected e = expected(m, n, false);
        check_values(w.grad(), {n}, e.w);
        check_values(b.grad(), {1, n}, e.b);
    }
    SECTION("the fused sum") {
        auto loss = (x * w + b).sum();
        loss.backward();
        const Expected e = expected(m, n, true);
        check_values(w.grad(), {n}, e.w);
        check_values(b.grad(), {1, n}, e.b);
    }
    SECTION("the fused mean, with a weight expression") {
        auto loss = ((x * w + b) * g_values<T>(m, n)).mean();
        loss.backward();
        // d/dw = sum(g x) / (m n): exact in binary only after the division, so compared scaled.
        const Expected e = expected(m, n, false);
        const double scale = static_cast<double>(m * n);
        const std::vector<T> gw = w.grad().to_vector(), gb = b.grad().to_vector();
        for (int64_t j = 0; j < n; ++j) {
            CHECK(static_cast<double>(gw[static_cast<size_t>(j)]) * scale ==
                  Approx(e.w[static_cast<size_t>(j)]).epsilon(1e-6));
            CHECK(static_cast<double>(gb[static_cast<size_t>(j)]) * scale ==
                  Approx(e.b[static_cast<size_t>(j)]).epsilon(1e-6));
        }
    }
}

TEST_CASE("broadcast gradients: a leaf over the last two dims of a 3-d input") {
    // x [3, 4, 5] with w [4, 5]: d/dw sum(x * w) = sum over the first dim of x.
    std::vector<float> v(60);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
    const Tensor<float> x = tensor(v, {3, 4, 5});
    Tensor<float> w = ones<float>({4, 5}).requires_grad_();
    (x * w).sum().backward();
    std::vector<double> want(20, 0.0);
    for (size_t i = 0; i < 60; ++i) want[i % 20] += static_cast<double>(v[i]);
    check_values(w.grad(), {4, 5}, want);
}

TEST_CASE("broadcast gradients: a leaf broadcast along an inner dim still sums correctly") {
    // w [4, 1] against x [4, 5] is not over the trailing dims: the pass expands it (sum_to after).
    std::vector<float> v(20);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 3);
    const Tensor<float> x = tensor(v, {4, 5});
    Tensor<float> w = ones<float>({4, 1}).requires_grad_();
    (x * w).sum().backward();
    std::vector<double> want(4, 0.0);
    for (size_t i = 0; i < 20; ++i) want[i / 5] += static_cast<double>(v[i]);
    check_values(w.grad(), {4, 1}, want);
}

}}  // namespace TENET_TEST_FILE
