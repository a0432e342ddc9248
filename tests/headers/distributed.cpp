// <tenet/distributed.hpp> compiles, links and runs alone in its own TU: a process group of one
// (no launcher: world_size = 1), an all-reduce, and data-parallel training's gradient hook.
#include <tenet/distributed.hpp>

#include <iostream>

using namespace tenet;
namespace dist = tenet::distributed;

int main() {
    dist::init_process_group("mpi", {.world_size = 1});
    Tensor<float> t = arange<float>(4);
    dist::all_reduce(t, dist::ReduceOp::MAX);
    bool ok = t.to_vector() == std::vector<float>{0, 1, 2, 3} && dist::get_world_size() == 1;
#if TENET_AUTOGRAD
    Tensor<float> w = ones<float>({3}).requires_grad_();
    {
        dist::DistributedDataParallel ddp({w});
        (w * w).sum().backward();
    }
    ok = ok && w.grad().to_vector() == std::vector<float>{2, 2, 2};
#endif
    std::cout << t << "\n";
    dist::destroy_process_group();
    return ok ? 0 : 1;
}
