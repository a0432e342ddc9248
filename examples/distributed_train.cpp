// Data-parallel logistic regression over MPI: every rank trains on its share of the samples, and
// DistributedDataParallel averages the gradients during backward, so all ranks take the same
// steps as one process on the whole data set would.
//
//   mpirun -np 2 build/examples/distributed_train
//
// Each rank prints its own loss (on its share) every 20 steps, then the final weights, which
// agree on every rank.

#include <tenet/distributed.hpp>

#include <cstdio>
#include <vector>

using namespace tenet;
namespace dist = tenet::distributed;

int train() {
    dist::init_process_group("mpi");
    const int rank = dist::get_rank(), world = dist::get_world_size();

    // The same data set on every rank (one seed): two Gaussian blobs in 16 dimensions.
    manual_seed(0);
    const int64_t n = 4096, features = 16;
    const Tensor<float> labels = (rand({n, 1}) > 0.5f).eval().to<float>();
    const Tensor<float> x = randn({n, features}) + (labels * 2.0f - 1.0f) * 0.5f;

    // This rank's samples.
    const std::vector<int64_t> mine = dist::DistributedSampler(n, {.shuffle = false}).indices();
    const Tensor<int64_t> index = tensor(mine);
    const Tensor<float> x_mine = x.index_select(0, index), y_mine = labels.index_select(0, index);

    manual_seed(static_cast<uint64_t>(rank));  // different on each rank: DDP broadcasts rank 0's
    Tensor<float> w = (randn({features, 1}) * 0.01f).eval().requires_grad_();
    Tensor<float> b = zeros({1}).requires_grad_();
    dist::DistributedDataParallel ddp({w, b});

    const float lr = 0.5f;
    float first = 0, last = 0;
    for (int step = 0; step <= 100; ++step) {
        const Tensor<float> p = sigmoid(matmul(x_mine, w) + b);
        const Tensor<float> loss = (-(y_mine * log(p) + (1.0f - y_mine) * log(1.0f - p))).mean();
        loss.backward();  // w.grad() and b.grad() are now the mean over the ranks
        {
            NoGradGuard no_grad;
            w.detach().sub_(w.grad() * lr);
            b.detach().sub_(b.grad() * lr);
        }
        w.reset_grad();
        b.reset_grad();
        last = loss.item();
        if (step == 0) first = last;
        if (step % 20 == 0) std::printf("rank %d/%d  step %3d  loss %.4f\n", rank, world, step, static_cast<double>(last));
    }
    std::printf("rank %d: b = %.6f, w[0] = %.6f\n", rank, static_cast<double>(b.item()),
                static_cast<double>(w[0][0].item()));
    dist::destroy_process_group();
    return last < first ? 0 : 1;
}

int main() {
    try {
        return train();
    } catch (const tenet::error& e) {  // started without mpirun, a rank that timed out, ...
        std::fprintf(stderr, "distributed_train: %s\n", e.what());
        return 1;
    }
}
