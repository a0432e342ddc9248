// The Catch2 main of the distributed tests, run by an MPI launcher (`mpirun -np 2`, tests/CMakeLists.txt):
// every rank runs every test case, in the same order, so that the collectives meet. The world
// group's timeout is short, so that a rank that fails a check and leaves its peers waiting ends
// the run with timeout errors rather than a hang.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <chrono>
#include <tenet/distributed.hpp>

int main(int argc, char** argv) {
    namespace dist = tenet::distributed;
    dist::init_process_group("mpi", {.timeout = std::chrono::seconds(60)});
    const int failed = Catch::Session().run(argc, argv);
    dist::destroy_process_group();
    return failed;
}
