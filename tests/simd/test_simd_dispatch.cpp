// The host loops' AVX2 copies (backend/host/simd_dispatch.hpp) against the baseline loops. They exist only
// in optimised builds, so this binary is built at -O2 (tests/CMakeLists.txt), unlike the rest of
// the suite. The property: every result is the same bit for bit whichever copy runs (the
// baseline loops are the ones the rest of the suite checks against PyTorch).
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string_view>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

/// Runs f() with the AVX2 copies (where the CPU has them) and with the baseline loops.
template <class F>
auto both(F f) {
#if TENET_SIMD_DISPATCH
    const bool before = detail::set_avx2_loops(true);
    auto wide = f();
    detail::set_avx2_loops(false);
    auto base = f();
    detail::set_avx2_loops(before);
    return std::pair{wide, base};
#else
    return std::pair{f(), f()};
#endif
}

template <class T>
bool same_bits(const Tensor<T>& a, const Tensor<T>& b) {
    if (a.sizes() != b.sizes()) return false;
    const std::vector<T> x = a.to_vector(), y = b.to_vector();
    return std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

template <class T>
void require_same(const std::pair<Tensor<T>, Tensor<T>>& r) {
    REQUIRE(same_bits(r.first, r.second));
}

// Odd lengths: the vector loops' remainders run too; above 2^18 elements the loops also split
// across threads.
constexpr int64_t kOdd = 100003;

}  // namespace

TEST_CASE("simd dispatch: the build and the CPU decide which loops run") {
#if TENET_SIMD_DISPATCH
    const bool cpu = __builtin_cpu_supports("avx2");
    const bool before = detail::set_avx2_loops(true);
    CHECK(cpu_capability() == (cpu ? "AVX2" : "DEFAULT"));
    detail::set_avx2_loops(false);
    CHECK(cpu_capability() == "DEFAULT");
    detail::set_avx2_loops(before);
    // TENET_CPU_CAPABILITY=default keeps the baseline loops (read once, at the first loop).
    const char* saved = std::getenv("TENET_CPU_CAPABILITY");
    const std::string old = saved ? saved : "";
    ::setenv("TENET_CPU_CAPABILITY", "default", 1);
    CHECK(!detail::initial_avx2_loops());
    ::setenv("TENET_CPU_CAPABILITY", "avx2", 1);
    CHECK(detail::initial_avx2_loops() == cpu);
    ::setenv("TENET_CPU_CAPABILITY", "sse9", 1);  // not a capability: a warning, and the CPU's best
    CHECK(detail::initial_avx2_loops() == cpu);
    if (saved) ::setenv("TENET_CPU_CAPABILITY", old.c_str(), 1);
    else ::unsetenv("TENET_CPU_CAPABILITY");
    if (!cpu) WARN("this CPU has no AVX2: both runs below use the baseline loops");
#else
    WARN("built without the AVX2 copies (TENET_SIMD_DISPATCH=0): nothing to compare");
    CHECK((cpu_capability() == "AVX2" || cpu_capability() == "DEFAULT"));
#endif
}

TEST_CASE("simd dispatch: pointwise expressions give the same bits") {
    manual_seed(1);
    const Tensor<float> a = randn({kOdd}), b = randn({kOdd}), c = rand({kOdd});
    const Tensor<double> d = randn({kOdd}, kFloat64);
    const Tensor<float> s = randn({}), m = randn({331, 1}), rows = randn({331, 303}), big = randn({2, 300007});
    // The flat loop: transcendental functions, division, small integer powers.
    require_same(both([&] { return Tensor<float>(sigmoid(a * b + c) * exp(b) - 0.5 * a / (c + 1)); }));
    require_same(both([&] { return Tensor<float>(a.pow(3) + sqrt(c) * tanh(a) + b.pow(2)); }));
    require_same(both([&] { return Tensor<double>(log1p(abs(d)) * d.pow(-2) + sin(d)); }));
    // A 0-d operand and a broadcast column (the chunked loop with a buffered operand).
    require_same(both([&] { return Tensor<float>(s + a * s - s * a.pow(3)); }));
    require_same(both([&] { return Tensor<float>(m * rows + m); }));
    require_same(both([&] { return Tensor<float>(m * rows.narrow(1, 1, 301) - 2); }));
    // A transposed operand (the tiled walk), and a result split across threads.
    const Tensor<float> sq = randn({517, 517});
    require_same(both([&] { return Tensor<float>(sq + sq.t() * 2); }));
    require_same(both([&] { return Tensor<float>(relu(big) * big + 1); }));
    // Integers and a type conversion.
    const Tensor<int64_t> i = randint(-100, 100, {kOdd});
    require_same(both([&] { return Tensor<int64_t>(i * i - 3 * i); }));
    require_same(both([&] { return Tensor<double>(cast<double>(a) * d); }));
}

TEST_CASE("simd dispatch: reductions give the same bits") {
    manual_seed(2);
    const Tensor<float> a = randn({kOdd}), b = randn({301, 333});
    const Tensor<double> d = randn({kOdd}, kFloat64);
    require_same(both([&] { return Tensor<float>(a.sum()); }));
    require_same(both([&] { return Tensor<float>((a * a - 1).sum()); }));
    require_same(both([&] { return Tensor<float>(exp(a).mean()); }));
    require_same(both([&] { return Tensor<double>((d * 3).sum()); }));
    require_same(both([&] { return Tensor<float>(b.sum(1)); }));
    require_same(both([&] { return Tensor<float>(b.sum(0)); }));
    require_same(both([&] { return Tensor<float>(b.amax(1)); }));
    require_same(both([&] { return Tensor<int64_t>(b.argmax(0)); }));
    require_same(both([&] { return Tensor<float>(b.norm(2, 1)); }));
    require_same(both([&] { return Tensor<float>(b.prod(0)); }));
}

#if TENET_AUTOGRAD
TEST_CASE("simd dispatch: fused backward passes give the same bits") {
    // The polynomial fit (bench/bench_polyfit.cpp): 0-d parameters whose gradients are summed in
    // the pass, the loss's sum and its local gradients in one pass, and a second backward that
    // adds into the existing gradients.
    const Tensor<float> x = linspace<float>(-std::numbers::pi, std::numbers::pi, kOdd);
    const Tensor<float> y = sin(x);
    auto fit = [&] {
        manual_seed(3);
        Tensor<float> p = randn({4});
        Tensor<float> a = p[0].clone().requires_grad_(), b = p[1].clone().requires_grad_(),
                      c = p[2].clone().requires_grad_(), d = p[3].clone().requires_grad_();
        Tensor<float> loss;
        for (int step = 0; step < 2; ++step) {  // the second backward adds into the gradients
            Tensor<float> y_pred = a + b * x + c * x.pow(2) + d * x.pow(3);
            loss = (y_pred - y).pow(2).sum();
            loss.backward();
        }
        return Tensor<float>(cat({loss.detach().view({1}), a.grad().view({1}), b.grad().view({1}),
                                  c.grad().view({1}), d.grad().view({1})}));
    };
    require_same(both(fit));
    // Gradients of root's shape, for full-size leaves (W8's logistic regression step).
    manual_seed(4);
    const Tensor<float> in = randn({kOdd}), target = rand({kOdd});
    auto logistic = [&] {
        Tensor<float> w = full({kOdd}, 0.25f).requires_grad_();
        Tensor<float> bias = zeros({}).requires_grad_();
        Tensor<float> p = sigmoid(in * w + bias);
        Tensor<float> loss = (-(target * log(p) + (1 - target) * log(1 - p))).mean();
        loss.backward();
        return Tensor<float>(cat({w.grad(), bias.grad().view({1}), loss.detach().view({1})}));
    };
    require_same(both(logistic));
}
#endif

}}  // namespace TENET_TEST_FILE
