#pragma once
// tenet's distributed module (torch.distributed): process groups, collectives and
// point-to-point operations on host tensors over MPI, and data-parallel training.
//
//   distributed::init_process_group("mpi");        // launched as `mpirun -np 4 ./program`
//   distributed::all_reduce(t);                     // t = the sum of every rank's t
//   distributed::DistributedDataParallel ddp({w, b});  // backward averages w's and b's gradients
//
// Needs an MPI library (Debian's libopenmpi-dev; CMake: find_package(tenet COMPONENTS
// Distributed), target tenet::distributed); not part of <tenet/tenet.hpp>.

#include "tenet/config.hpp"

#if !TENET_HAVE_MPI
#error "<tenet/distributed.hpp> needs MPI (Debian libopenmpi-dev); link the tenet::distributed target"
#endif

#include "tenet/core.hpp"
#include "tenet/distributed/collectives.hpp"
#include "tenet/distributed/process_group.hpp"
#include "tenet/distributed/work.hpp"
#if TENET_AUTOGRAD
#include "tenet/autograd.hpp"
#include "tenet/distributed/data_parallel.hpp"
#endif
