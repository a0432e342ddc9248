// Autograd from several threads (issue 34): threads whose graphs share a leaf record and run
// backward at the same time, as PyTorch allows (Hogwild-style training, data-parallel threads,
// a server evaluating one model for many requests). Every expected gradient follows from calculus
// by hand and is exact in its dtype: the sums are of small integers (stated per case).
//
// Catch2's assertions are not thread-safe: the workers only compute and record what they saw;
// the checks run on the test's thread. This file is also built alone under ThreadSanitizer
// (tenet_thread_tests, TENET_TESTS_TSAN), without OpenMP, which TSan cannot see into.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <tenet/tenet.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

/// Runs work(thread_index) on `threads` threads at once and rethrows the first exception any of
/// them threw. The threads start together, so their graphs really overlap.
template <class Work>
void run_threads(int threads, Work work) {
    std::atomic<int> waiting{threads};
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) std::this_thread::yield();
            try {
                work(t);
            } catch (...) {
                errors[static_cast<size_t>(t)] = std::current_exception();
            }
        });
    }
    for (auto& th : pool) th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

/// The indices k where got[k] != expected(k), at most a few (an empty list passes).
template <class T, class Expected>
std::vector<int64_t> mismatches(const Tensor<T>& got, Expected expected) {
    std::vector<int64_t> bad;
    const std::vector<T> v = got.contiguous().to_vector();
    for (size_t k = 0; k < v.size() && bad.size() < 4; ++k)
        if (v[k] != expected(static_cast<int64_t>(k))) bad.push_back(static_cast<int64_t>(k));
    return bad;
}

constexpr int kPasses = 1000;

}  // namespace

// The program, 20 times: d/dw sum(x * w) = x, summed over 2 threads x 2000 passes.
TEST_CASE("autograd threads: two threads backward into one leaf, the issue's program, 20 runs") {
    set_num_threads(1);
    for (int run = 0; run < 20; ++run) {
        auto w = ones({64}).requires_grad_();
        auto x = arange(64.0f);
        run_threads(2, [&](int) {
            for (int i = 0; i < 2000; ++i) {
                auto loss = (x * w).sum();
                loss.backward();
            }
        });
        INFO("run " << run);
        CHECK(mismatches(w.grad(), [](int64_t k) { return 2.0f * 2000.0f * static_cast<float>(k); }).empty());
    }
}

TEST_CASE("autograd threads: shared leaves through every kind of graph, 2, 4 and 8 threads") {
    set_num_threads(1);
    for (int threads : {2, 4, 8}) {
        const double passes = static_cast<double>(threads) * kPasses;
        INFO(threads << " threads x " << kPasses << " passes");

        {
            INFO("a fused expression assigned to a tensor, then summed");
            // d/dw sum(x * w + w) = x + 1
            auto w = ones({64}, kFloat64).requires_grad_();
            auto x = arange(64.0, kFloat64);
            run_threads(threads, [&](int) {
                for (int i = 0; i < kPasses; ++i) {
                    Tensor<double> y = x * w + w;
                    y.sum().backward();
                }
            });
            CHECK(mismatches(w.grad(), [&](int64_t k) { return passes * static_cast<double>(k + 1); }).empty());
        }
        {
            INFO("a sum that computes its gradients in the forward pass, two shared leaves");
            // d/dw sum(x * w) = x; d/dx = w = 1
            auto w = ones({64}, kFloat64).requires_grad_();
            auto x = arange(64.0, kFloat64).requires_grad_();
            run_threads(threads, [&](int) {
                for (int i = 0; i < kPasses; ++i) (x * w).sum().backward();
            });
            CHECK(mismatches(w.grad(), [&](int64_t k) { return passes * static_cast<double>(k); }).empty());
            CHECK(mismatches(x.grad(), [&](int64_t) { return passes; }).empty());
        }
        {
            INFO("a matmul");
            // d/dW sum(A W) [i, j] = sum_r A[r, i], A = [[0 1 2 3], [4 5 6 7]]: 2i + 4
            auto W = ones({4, 3}, kFloat64).requires_grad_();
            auto A = arange(8.0, kFloat64).view({2, 4});
            run_threads(threads, [&](int) {
                for (int i = 0; i < kPasses; ++i) A.mm(W).sum().backward();
            });
            CHECK(mismatches(W.grad(), [&](int64_t k) { return passes * static_cast<double>(2 * (k / 3) + 4); }).empty());
        }
        {
            INFO("a view of the leaf");
            // v = w[16:48] as 4 x 8; d/dw sum(v * v) = 2w = 2 inside the view, 0 outside
            auto w = ones({64}, kFloat64).requires_grad_();
            run_threads(threads, [&](int) {
                for (int i = 0; i < kPasses; ++i) {
                    auto v = w.narrow(0, 16, 32).view({4, 8});
                    (v * v).sum().backward();
                }
            });
            CHECK(mismatches(w.grad(), [&](int64_t k) { return k >= 16 && k < 48 ? 2.0 * passes : 0.0; }).empty());
        }
        {
            INFO("double backward");
            // g = d/dw sum(w^3) = 3 w^2 (recorded); d/dw sum(g) = 6 w, w = k
            auto w = arange(16.0, kFloat64).requires_grad_();
            run_threads(threads, [&](int) {
                for (int i = 0; i < kPasses; ++i) {
                    Tensor<double> y = (w * w * w).sum();
                    auto g = autograd::grad<double>({y}, {w}, {}, std::nullopt, /*create_graph=*/true)[0];
                    g.sum().backward();
                }
            });
            CHECK(mismatches(w.grad(), [&](int64_t k) { return passes * 6.0 * static_cast<double>(k); }).empty());
        }
        {
            INFO("backward with create_graph accumulates a recorded .grad()");
            // d/dw sum(w^2) = 2w, w = k; .grad() keeps its history: d/dw sum(.grad()) = 2 per pass
            auto w = arange(16.0, kFloat64).requires_grad_();
            run_threads(threads, [&](int) {
                for (int i = 0; i < 100; ++i) {
                    Tensor<double> y = (w * w).sum();
                    y.backward({}, std::nullopt, /*create_graph=*/true);
                }
            });
            const double runs = static_cast<double>(threads) * 100;
            Tensor<double> g = w.grad();
            CHECK(g.requires_grad());
            CHECK(mismatches(g, [&](int64_t k) { return runs * 2.0 * static_cast<double>(k); }).empty());
            auto again = autograd::grad<double>({Tensor<double>(g.sum())}, {w})[0];
            CHECK(mismatches(again, [&](int64_t) { return runs * 2.0; }).empty());
            w.reset_grad();  // .grad() refers back to w through its history: the cycle PyTorch has too
        }
    }
}

TEST_CASE("autograd threads: one retained graph walked by several threads at once") {
    set_num_threads(1);
    for (int threads : {2, 4, 8}) {
        INFO(threads << " threads");
        // loss = sum(h * h), h = x * w + b: d/dw = 2 h x, d/db = 2 h; with w = 1, b = 1: h = x + 1
        auto w = ones({32}, kFloat64).requires_grad_();
        auto b = ones({32}, kFloat64).requires_grad_();
        auto x = arange(32.0, kFloat64);
        Tensor<double> h = x * w + b;
        Tensor<double> loss = (h * h).sum();
        run_threads(threads, [&](int) {
            for (int i = 0; i < kPasses; ++i) loss.backward({}, /*retain_graph=*/true);
        });
        const double passes = static_cast<double>(threads) * kPasses;
        CHECK(mismatches(w.grad(), [&](int64_t k) {
                  const double xk = static_cast<double>(k);
                  return passes * 2.0 * (xk + 1) * xk;
              }).empty());
        CHECK(mismatches(b.grad(), [&](int64_t k) { return passes * 2.0 * static_cast<double>(k + 1); }).empty());
    }
}

// Without retain_graph the first walk frees the graph's saved tensors; a thread walking it at the
// same time gets PyTorch's error for a second backward, never freed memory.
TEST_CASE("autograd threads: a graph freed by one thread's backward is refused to the others") {
    set_num_threads(1);
    for (int attempt = 0; attempt < 50; ++attempt) {
        auto w = ones({32}, kFloat64).requires_grad_();
        auto x = arange(32.0, kFloat64);
        Tensor<double> h = x * w;
        Tensor<double> loss = (h * h).sum();  // d/dw = 2 x^2 w = 2 x^2
        std::atomic<int> succeeded{0}, refused{0}, other{0};
        run_threads(4, [&](int) {
            try {
                loss.backward();
                succeeded.fetch_add(1);
            } catch (const error& e) {
                const std::string what = e.what();
                (what.find("backward through the graph a second time") != std::string::npos ? refused : other)
                    .fetch_add(1);
            }
        });
        INFO("attempt " << attempt);
        REQUIRE(other.load() == 0);
        CHECK(succeeded.load() == 1);
        CHECK(refused.load() == 3);
        CHECK(mismatches(w.grad(), [](int64_t k) { return 2.0 * static_cast<double>(k * k); }).empty());
    }
}

// Nodes and tensors come from per-thread pools (core/allocator.hpp): a graph recorded on one
// thread may be walked and freed on another.
TEST_CASE("autograd threads: a graph recorded on one thread, walked and freed on another") {
    set_num_threads(1);
    auto w = ones({16}, kFloat64).requires_grad_();
    std::vector<Tensor<double>> losses(64);
    std::thread recorder([&] {
        auto x = arange(16.0, kFloat64);
        for (auto& l : losses) {
            Tensor<double> h = x * w;
            l = (h * 2.0).sum();  // d/dw = 2x
        }
    });
    recorder.join();
    for (auto& l : losses) l.backward();
    losses.clear();  // the nodes made on the ended thread are freed here
    CHECK(mismatches(w.grad(), [](int64_t k) { return 64 * 2.0 * static_cast<double>(k); }).empty());

    Tensor<double> here = (w * w).sum();  // d/dw = 2w = 2
    std::thread([&] {
        here.backward();
        here = Tensor<double>();  // freed on the worker
    }).join();
    CHECK(mismatches(w.grad(), [](int64_t k) { return 64 * 2.0 * static_cast<double>(k) + 2.0; }).empty());
}

// Grad mode is thread-local, as in PyTorch: a NoGradGuard on one thread does not stop another
// from recording, and a new thread starts with recording on.
TEST_CASE("autograd threads: grad mode is per thread") {
    auto w = ones({4}).requires_grad_();
    bool recorded_in_thread = false, enabled_in_thread = false;
    {
        NoGradGuard guard;
        std::thread([&] {
            enabled_in_thread = autograd::GradMode::is_enabled();
            Tensor<float> y = w * 2.0f;
            recorded_in_thread = y.requires_grad();
        }).join();
        Tensor<float> here = w * 2.0f;
        CHECK_FALSE(here.requires_grad());
    }
    CHECK(enabled_in_thread);
    CHECK(recorded_in_thread);

    std::atomic<bool> guard_held{false}, recorded_done{false};
    bool other_recorded = false;
    std::thread guarded([&] {
        NoGradGuard guard;
        guard_held = true;
        while (!recorded_done.load()) std::this_thread::yield();
    });
    while (!guard_held.load()) std::this_thread::yield();
    Tensor<float> y = w * 3.0f;  // recorded here while the other thread holds its guard
    other_recorded = y.requires_grad();
    recorded_done = true;
    guarded.join();
    CHECK(other_recorded);
}

// Reading .grad() and resetting it while other threads accumulate: each read is a whole tensor
// (never a torn handle), and what is accumulated after the last reset is exact.
TEST_CASE("autograd threads: .grad() read and reset while other threads accumulate") {
    set_num_threads(1);
    auto w = ones({8}, kFloat64).requires_grad_();
    auto x = arange(8.0, kFloat64);
    std::atomic<bool> stop{false};
    std::thread reader([&] {
        while (!stop.load()) {
            Tensor<double> g = w.grad();
            if (g.defined()) (void)g.sizes();
            w.reset_grad();
        }
    });
    run_threads(2, [&](int) {
        for (int i = 0; i < kPasses; ++i) (x * w).sum().backward();
    });
    stop = true;
    reader.join();
    w.reset_grad();
    run_threads(4, [&](int) {
        for (int i = 0; i < 10; ++i) (x * w).sum().backward();
    });
    CHECK(mismatches(w.grad(), [](int64_t k) { return 40.0 * static_cast<double>(k); }).empty());
}

}}  // namespace TENET_TEST_FILE
