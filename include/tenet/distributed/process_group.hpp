#pragma once
// Process groups (torch.distributed's init_process_group, new_group, get_rank, ...). The
// default group holds every process the launcher started; new_group(ranks) makes a smaller one.
// The "mpi" backend runs over the MPI library the program links (Open MPI, MPICH), started by
// its launcher: `mpirun -np 4 ./program`.

#include "tenet/config.hpp"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tenet/distributed/mpi_engine.hpp"

namespace tenet::inline TENET_ABI::distributed {

/// PyTorch's default timeout of a process group's operations.
inline constexpr std::chrono::milliseconds kDefaultTimeout = std::chrono::minutes(30);

/// A set of processes that take part in collectives together (PyTorch's ProcessGroup).
class ProcessGroup {
public:
    /// This process's rank in the group, or -1 when it is not a member.
    int rank() const { return rank_; }
    /// The number of processes in the group.
    int size() const { return size_; }
    std::string backend() const { return "mpi"; }
    std::chrono::milliseconds timeout() const { return timeout_; }
    /// The group's rank of each member, by world rank.
    const std::vector<int>& world_ranks() const { return world_ranks_; }
    bool is_member() const { return rank_ >= 0; }

    // The communicators (MPI_COMM_NULL where this process is not a member) and the thread
    // that drives them; for the collectives (collectives.hpp).
    std::shared_ptr<detail::CommState> collectives, point_to_point;
    std::shared_ptr<detail::MpiEngine> engine;

    ProcessGroup(std::shared_ptr<detail::MpiEngine> e, std::shared_ptr<detail::CommState> c,
                 std::shared_ptr<detail::CommState> p, int rank, int size, std::vector<int> world_ranks,
                 std::chrono::milliseconds timeout)
        : collectives(std::move(c)),
          point_to_point(std::move(p)),
          engine(std::move(e)),
          rank_(rank),
          size_(size),
          timeout_(timeout),
          world_ranks_(std::move(world_ranks)) {}

private:
    int rank_, size_;
    std::chrono::milliseconds timeout_;
    std::vector<int> world_ranks_;
};

/// A group handle: an empty one means the default group (PyTorch's group=None).
using Group = std::shared_ptr<ProcessGroup>;

/// init_process_group's arguments beyond the backend (PyTorch's keyword arguments).
struct InitOptions {
    /// How long an operation may wait for the other ranks before it fails with timeout_error.
    std::chrono::milliseconds timeout = kDefaultTimeout;
    /// Checked against the launcher's when given. world_size = 1 without a launcher runs this
    /// process alone.
    int world_size = -1;
    int rank = -1;
};

namespace detail {

struct DefaultGroup {
    std::mutex mutex;
    Group world;
};
inline DefaultGroup& default_group_state() {
    static DefaultGroup state;
    return state;
}

/// Whether an MPI launcher started this process (the variables Open MPI, MPICH/Hydra, PMIx
/// and Slurm set).
inline bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}

/// A duplicate of `comm` with errors returned as codes, owned by the returned state.
inline std::shared_ptr<CommState> duplicate(MPI_Comm comm, const std::string& op) {
    auto state = std::make_shared<CommState>();
    if (comm == MPI_COMM_NULL) return state;
    check_mpi(MPI_Comm_dup(comm, &state->comm), op);
    MPI_Comm_set_errhandler(state->comm, MPI_ERRORS_RETURN);
    return state;
}

}  // namespace detail

/// Whether this tenet was built with the "mpi" backend (always, where this header compiles).
inline bool is_mpi_available() { return true; }
/// Whether the "nccl" backend is available: not in this version of tenet.
inline bool is_nccl_available() { return false; }
/// Whether init_process_group has been called (and destroy_process_group not yet).
inline bool is_initialized() {
    auto& s = detail::default_group_state();
    std::lock_guard lock(s.mutex);
    return s.world != nullptr;
}

/// The group `group` names: the default group for an empty handle. `op` names the caller.
inline Group resolve_group(const Group& group, const std::string& op) {
    if (group) return group;
    auto& s = detail::default_group_state();
    std::lock_guard lock(s.mutex);
    if (!s.world)
        tenet::detail::fail<distributed_error>(op,
                                               ": Default process group has not been initialized, please make sure "
                                               "to call init_process_group.");
    return s.world;
}

/// Starts the default group over `backend` ("mpi"): rank and world size come from the launcher
/// (`mpirun -np N ./program`). Every process must call it.
inline void init_process_group(const std::string& backend, const InitOptions& options = {}) {
    if (backend == "nccl")
        tenet::detail::fail<distributed_error>(
            "init_process_group: the \"nccl\" backend is not available in this version of tenet; use \"mpi\" (host "
            "tensors)");
    if (backend != "mpi")
        tenet::detail::fail<value_error>("init_process_group: unknown backend \"", backend,
                                         "\"; the available backend is \"mpi\"");
    if (options.timeout.count() <= 0)
        tenet::detail::fail<value_error>("init_process_group: the timeout must be positive, got ",
                                         options.timeout.count(), " ms");
    auto& s = detail::default_group_state();
    std::lock_guard lock(s.mutex);
    if (s.world) tenet::detail::fail<distributed_error>("init_process_group: trying to initialize the default process "
                                                        "group twice!");
    if (!detail::launched_by_mpi() && options.world_size != 1)
        tenet::detail::fail<distributed_error>(
            "init_process_group(\"mpi\"): this process was not started by an MPI launcher (none of "
            "OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK is set). Launch it with `mpirun -np 2 ./program` on one host, "
            "`mpirun -np 8 --hostfile hosts ./program` across hosts, or pass world_size = 1 to run it alone");
    auto engine = std::make_shared<detail::MpiEngine>();
    const int rank = engine->world_rank(), size = engine->world_size();
    if ((options.world_size > 0 && options.world_size != size) || (options.rank >= 0 && options.rank != rank))
        tenet::detail::fail<distributed_error>("init_process_group: world_size ", options.world_size, " and rank ",
                                               options.rank, " were given, but the launcher started rank ", rank,
                                               " of ", size);
    auto world = std::make_shared<detail::CommState>();
    world->comm = MPI_COMM_WORLD;
    auto [collectives, point_to_point] = engine->call("init_process_group", world, [] {
        return std::pair{detail::duplicate(MPI_COMM_WORLD, "init_process_group"),
                         detail::duplicate(MPI_COMM_WORLD, "init_process_group")};
    });
    std::vector<int> ranks(static_cast<size_t>(size));
    for (int r = 0; r < size; ++r) ranks[static_cast<size_t>(r)] = r;
    s.world = std::make_shared<ProcessGroup>(engine, collectives, point_to_point, rank, size, std::move(ranks),
                                             options.timeout);
}

/// The rank of this process in `group` (-1 when it is not a member).
inline int get_rank(const Group& group = {}) { return resolve_group(group, "get_rank")->rank(); }
/// The number of processes in `group`.
inline int get_world_size(const Group& group = {}) {
    const Group g = resolve_group(group, "get_world_size");
    return g->is_member() ? g->size() : -1;
}
inline std::string get_backend(const Group& group = {}) { return resolve_group(group, "get_backend")->backend(); }

/// A group of the given world ranks (all of them when empty), ranked in world order as
/// PyTorch's. Every process of the default group must call it, members or not; on a
/// non-member the group's operations do nothing, as PyTorch's. `timeout`: the group's own
/// (the default group's when zero).
inline Group new_group(std::vector<int> ranks = {}, std::chrono::milliseconds timeout = {}) {
    const Group world = resolve_group({}, "new_group");
    if (ranks.empty())
        for (int r = 0; r < world->size(); ++r) ranks.push_back(r);
    std::sort(ranks.begin(), ranks.end());
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i] < 0 || ranks[i] >= world->size())
            tenet::detail::fail<value_error>("new_group: rank ", ranks[i], " is out of range for a world of ",
                                             world->size(), " processes");
        if (i > 0 && ranks[i] == ranks[i - 1])
            tenet::detail::fail<value_error>("new_group: rank ", ranks[i], " is listed twice");
    }
    if (timeout.count() < 0) tenet::detail::fail<value_error>("new_group: negative timeout ", timeout.count(), " ms");
    const auto member = std::find(ranks.begin(), ranks.end(), world->rank());
    const int rank = member == ranks.end() ? -1 : static_cast<int>(member - ranks.begin());
    auto [collectives, point_to_point] = world->engine->call("new_group", world->collectives, [&] {
        MPI_Comm comm = MPI_COMM_NULL;
        detail::check_mpi(MPI_Comm_split(world->collectives->comm, rank >= 0 ? 0 : MPI_UNDEFINED, world->rank(), &comm),
                          "new_group");
        auto c = std::make_shared<detail::CommState>(), p = std::make_shared<detail::CommState>();
        if (comm != MPI_COMM_NULL) {
            MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
            c->comm = comm;
            p = detail::duplicate(comm, "new_group");
        }
        return std::pair{c, p};
    });
    return std::make_shared<ProcessGroup>(world->engine, collectives, point_to_point, rank,
                                          static_cast<int>(ranks.size()), ranks,
                                          timeout.count() > 0 ? timeout : world->timeout());
}

/// Ends the default group (an empty handle) and with it tenet's use of MPI: every group's
/// queued operations finish first, then MPI is finalized (when tenet initialized it). A group
/// made by new_group is released with its last handle; destroying it explicitly is a no-op.
inline void destroy_process_group(const Group& group = {}) {
    if (group) return;
    auto& s = detail::default_group_state();
    Group world;
    {
        std::lock_guard lock(s.mutex);
        if (!s.world)
            tenet::detail::fail<distributed_error>("destroy_process_group: Default process group has not been "
                                                   "initialized, please make sure to call init_process_group.");
        world = std::move(s.world);
    }
    std::shared_ptr<detail::MpiEngine> engine = std::move(world->engine);
    world.reset();
    engine.reset();  // the last reference unless a group made by new_group is still held
}

}  // namespace tenet::distributed
