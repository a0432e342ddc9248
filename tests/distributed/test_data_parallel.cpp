// Data-parallel training: each rank trains on its share of a global batch, and after every step
// its parameters equal (to float tolerance) those of one process trained on the whole batch —
// the reference, computed here in each process. Also the sampler's partition of a dataset.
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include <tenet/distributed.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace dist = tenet::distributed;

namespace {

struct Mlp {
    Tensor<float> w1, b1, w2, b2;

    /// Weights drawn from a generator seeded `seed`.
    explicit Mlp(uint64_t seed) {
        manual_seed(seed);
        w1 = (randn({5, 8}) * 0.5f).eval().requires_grad_();
        b1 = (randn({8}) * 0.1f).eval().requires_grad_();
        w2 = (randn({8, 1}) * 0.5f).eval().requires_grad_();
        b2 = zeros({1}).requires_grad_();
    }
    std::vector<Tensor<float>> parameters() const { return {w1, b1, w2, b2}; }

    /// The mean squared error of the model on (x, y), backward, and one gradient-descent step.
    float step(const Tensor<float>& x, const Tensor<float>& y, float lr) {
        Tensor<float> hidden = tanh(matmul(x, w1) + b1);
        Tensor<float> out = matmul(hidden, w2) + b2;
        Tensor<float> loss = (out - y).pow(2).mean();
        loss.backward();
        NoGradGuard no_grad;
        for (Tensor<float> p : parameters()) {
            p.detach().sub_(p.grad() * lr);
            p.reset_grad();
        }
        return loss.item();
    }
};

}  // namespace

TEST_CASE("DistributedDataParallel trains as one process on the whole batch", "[distributed]") {
    const int rank = dist::get_rank(), world = dist::get_world_size();
    const int64_t per_rank = 16, n = per_rank * world;
    manual_seed(1234);  // the same global batch on every rank
    const Tensor<float> x = randn({n, 5});
    const Tensor<float> y = sin(x.sum(1, true)).eval();

    // Each rank starts from its own weights: DDP's broadcast makes them rank 0's.
    Mlp model(100 + static_cast<uint64_t>(rank));
    Mlp reference(100);
    const std::vector<Tensor<float>> params = model.parameters();
    // Buckets close once they reach 30 bytes (PyTorch's rule), filled in reverse order: b2 (4 bytes)
    // and w2 (32) share one, b1 (32) and w1 (160) get their own.
    dist::DistributedDataParallel ddp({params.begin(), params.end()}, {.bucket_cap_mb = 30.0 / (1 << 20)});
    CHECK(ddp.buckets() == std::vector<std::vector<size_t>>{{3, 2}, {1}, {0}});
    for (size_t k = 0; k < params.size(); ++k)
        CHECK(params[k].to_vector() == reference.parameters()[k].to_vector());

    const Tensor<float> x_mine = x.narrow(0, rank * per_rank, per_rank), y_mine = y.narrow(0, rank * per_rank, per_rank);
    for (int step = 0; step < 5; ++step) {
        const float local_loss = model.step(x_mine, y_mine, 0.1f);
        const float full_loss = reference.step(x, y, 0.1f);
        // The global loss is the mean of the ranks' losses (equal shares).
        Tensor<float> mean_loss = full<float>({1}, local_loss);
        dist::all_reduce(mean_loss, dist::ReduceOp::AVG);
        CHECK(mean_loss.item() == Approx(full_loss).epsilon(1e-5));
        for (size_t k = 0; k < params.size(); ++k) {
            const std::vector<float> got = params[k].to_vector(), want = reference.parameters()[k].to_vector();
            for (size_t e = 0; e < got.size(); ++e) CHECK(got[e] == Approx(want[e]).epsilon(1e-5).margin(1e-6));
        }
    }
    const std::vector<dist::BucketTiming> timings = ddp.last_timings();
    REQUIRE(timings.size() == 3);
    for (const dist::BucketTiming& t : timings) CHECK(t.finished >= t.ready);
}

TEST_CASE("DistributedDataParallel refuses parameters that cannot have gradients", "[distributed]") {
    Tensor<float> frozen = zeros({2});
    try {
        dist::DistributedDataParallel ddp({TensorBase(frozen)});
        FAIL("no error");
    } catch (const value_error& e) {
        CHECK(std::string(e.what()).find("DistributedDataParallel: parameter 0 does not require grad") == 0);
    }
}

TEST_CASE("DistributedSampler splits a dataset across the ranks", "[distributed]") {
    for (bool shuffle : {false, true})
        for (int64_t size : {0, 1, 10, 11}) {
            CAPTURE(shuffle, size);
            const int replicas = 4;
            std::multiset<int64_t> seen;
            int64_t per_rank = -1;
            for (int r = 0; r < replicas; ++r) {
                dist::DistributedSampler sampler(size, {.num_replicas = replicas, .rank = r, .shuffle = shuffle, .seed = 3});
                const std::vector<int64_t> mine = sampler.indices();
                CHECK(static_cast<int64_t>(mine.size()) == sampler.num_samples());
                per_rank = sampler.num_samples();
                seen.insert(mine.begin(), mine.end());
            }
            CHECK(per_rank == (size + replicas - 1) / replicas);
            // Every index appears, and only padding repeats some.
            for (int64_t i = 0; i < size; ++i) CHECK(seen.count(i) >= 1);
            CHECK(static_cast<int64_t>(seen.size()) == (size == 0 ? 0 : per_rank * replicas));
            dist::DistributedSampler dropping(
                size, {.num_replicas = replicas, .rank = 0, .shuffle = shuffle, .seed = 3, .drop_last = true});
            CHECK(dropping.num_samples() == size / replicas);
        }
    const dist::SamplerOptions options{.num_replicas = 2, .rank = 0, .seed = 7};
    dist::DistributedSampler a(100, options), b(100, options);
    b.set_epoch(1);
    CHECK(a.indices() != b.indices());  // another epoch, another order
    CHECK(a.indices() == dist::DistributedSampler(100, options).indices());
    CHECK(dist::DistributedSampler(10, {.shuffle = false}).num_samples() == (10 + dist::get_world_size() - 1) / dist::get_world_size());
}

}}  // namespace TENET_TEST_FILE
