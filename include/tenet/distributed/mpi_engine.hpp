#pragma once
// The thread that owns MPI. Every MPI call of tenet::distributed runs on it (so MPI needs only
// MPI_THREAD_FUNNELED when tenet initializes it): operations are queued as tasks, started as
// nonblocking MPI calls, and polled until they complete or their deadline passes. Polling is
// what gives timeouts (MPI has none) and overlap: collectives progress while the caller
// computes.
//
// The collectives of one communicator are started in the order they were submitted, one after
// another (MPI requires every rank to start them in the same order); point-to-point tasks run
// on a communicator of their own, in any order (matched by rank and tag).

#include "tenet/config.hpp"
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1  // Open MPI's deprecated C++ bindings: tenet uses the C API
#endif
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tenet/distributed/work.hpp"

namespace tenet::inline TENET_ABI::distributed::detail {

using Clock = std::chrono::steady_clock;

/// Throws distributed_error naming `op` when an MPI call did not return MPI_SUCCESS (tenet
/// sets MPI_ERRORS_RETURN on its communicators, so errors come back as codes).
inline void check_mpi(int code, const std::string& op) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    tenet::detail::fail<distributed_error>(op, ": MPI error: ", std::string(text, static_cast<size_t>(length)));
}

/// A communicator's shared state: whether an operation on it timed out (then it is broken).
struct CommState {
    MPI_Comm comm = MPI_COMM_NULL;
    bool broken = false;
    std::string broken_by;  ///< the operation that timed out
};

/// One operation on the MPI thread: stages that run one after another. A stage posts MPI
/// requests (or sets `ready`, a poll such as a probe) and the next stage runs once they have
/// completed; a stage that posts nothing lets the next run at once. A stage that throws fails
/// the operation with its exception.
struct MpiTask {
    std::string op;
    std::shared_ptr<CommState> comm;
    bool ordered = true;  ///< a collective: starts after the communicator's earlier ones finish
    std::deque<std::function<void(MpiTask&)>> stages;
    std::function<void(MpiTask&)> current;  ///< the stage whose requests are pending
    std::vector<MPI_Request> requests;
    std::vector<MPI_Status> statuses;      ///< the completed requests' statuses
    std::function<bool(MpiTask&)> ready;   ///< when set: the current stage waits for this instead
    Clock::time_point deadline = Clock::time_point::max();
    std::chrono::milliseconds timeout{0};
    std::shared_ptr<WorkState> work;
    int source_rank = -1;
    /// The caller is blocked on it (async_op = false): the MPI thread then polls without pause.
    bool caller_waits = false;
};

/// The MPI thread. Started by init_process_group, stopped (MPI finalized, when tenet
/// initialized it) by destroy_process_group or at exit.
class MpiEngine {
public:
    /// Starts the thread and initializes MPI on it (or adopts the caller's MPI, which must
    /// provide MPI_THREAD_MULTIPLE since the caller keeps its own thread).
    MpiEngine() {
        std::promise<void> started;
        std::future<void> result = started.get_future();
        thread_ = std::thread([this, &started] {
            try {
                initialize();
            } catch (...) {
                started.set_exception(std::current_exception());
                return;
            }
            started.set_value();
            loop();
        });
        try {
            result.get();
        } catch (...) {
            thread_.join();
            throw;
        }
    }
    MpiEngine(const MpiEngine&) = delete;
    MpiEngine& operator=(const MpiEngine&) = delete;

    /// Stops the thread once its queued operations are done (a timed-out one is abandoned:
    /// its buffers stay allocated, MPI may still write them), then finalizes MPI.
    ~MpiEngine() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    int world_rank() const { return world_rank_; }
    int world_size() const { return world_size_; }

    /// Queues a task; its work handle completes when it finishes.
    void submit(std::unique_ptr<MpiTask> task) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) tenet::detail::fail<distributed_error>(task->op, ": the process group has been destroyed");
            incoming_.push_back(std::move(task));
        }
        wake_.notify_all();
    }

    /// Runs f on the MPI thread, ordered with the collectives of `comm`, and returns its result
    /// (communicator creation, which is itself a collective).
    template <class F>
    auto call(const std::string& op, const std::shared_ptr<CommState>& comm, F f) -> decltype(f()) {
        using R = decltype(f());
        auto result = std::make_shared<std::optional<R>>();
        auto task = std::make_unique<MpiTask>();
        task->op = op;
        task->comm = comm;
        task->work = std::make_shared<WorkState>();
        task->stages.push_back([result, f = std::move(f)](MpiTask&) { result->emplace(f()); });
        Work work(task->work);
        submit(std::move(task));
        work.wait();
        return std::move(**result);
    }

private:
    void initialize() {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (initialized) {
            int level = 0;
            MPI_Query_thread(&level);
            if (level < MPI_THREAD_MULTIPLE)
                tenet::detail::fail<distributed_error>(
                    "init_process_group(\"mpi\"): MPI was initialized by the program with a thread level below "
                    "MPI_THREAD_MULTIPLE; tenet drives MPI from a thread of its own, so initialize it with "
                    "MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...) or let init_process_group initialize it");
        } else {
#ifdef OPEN_MPI
            // Open MPI's nonblocking all-reduce (libnbc) reduces to one rank and broadcasts back
            // when there are fewer than 4 ranks or the call is in place, whatever the size:
            // more than twice MPI_Allreduce's time on large tensors (bench/RESULTS.md).
            // Rabenseifner's reduce-scatter + all-gather matches it. A choice made in the
            // environment (OMPI_MCA_coll_libnbc_iallreduce_algorithm) is kept.
            setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "3", /*overwrite=*/0);
#endif
            int provided = 0;
            check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "init_process_group");
            finalize_ = true;
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // the program's own is left alone
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
    }

    /// Runs stages until one posts requests (true: the task waits) or none is left (false).
    /// The running stage is kept (in t.current) until the next one starts: what it captured
    /// (buffers, count arrays) must live while MPI works on its requests.
    static bool run_stages(MpiTask& t) {
        while (!t.stages.empty()) {
            t.current = std::move(t.stages.front());
            t.stages.pop_front();
            t.requests.clear();
            t.ready = nullptr;
            t.current(t);
            if (!t.requests.empty() || t.ready) return true;
        }
        return false;
    }

    /// Whether the task's current stage has completed (its requests, or its poll).
    static bool stage_done(MpiTask& t) {
        if (t.ready) return t.ready(t);
        int done = 0;
        t.statuses.resize(t.requests.size());
        check_mpi(MPI_Testall(static_cast<int>(t.requests.size()), t.requests.data(), &done, t.statuses.data()),
                  t.op);
        return done != 0;
    }

    /// Advances t; true when it has finished (its work handle is then complete).
    bool advance(MpiTask& t) {
        try {
            if (t.comm && t.comm->broken)
                tenet::detail::fail<distributed_error>(t.op, ": the process group cannot be used after ",
                                                       t.comm->broken_by, " timed out");
            if (!t.requests.empty() || t.ready) {
                if (!stage_done(t)) {
                    if (Clock::now() < t.deadline) return false;
                    if (t.comm) {
                        t.comm->broken = true;
                        t.comm->broken_by = t.op;
                    }
                    tenet::detail::fail<timeout_error>(
                        t.op, ": timed out after ", t.timeout.count(),
                        " ms (the process group's timeout): a rank exited, failed or has not reached the same "
                        "operation; the group cannot be used again");
                }
                progressed_ = true;
                t.requests.clear();  // completed (MPI set them to MPI_REQUEST_NULL)
                t.ready = nullptr;
            }
            if (run_stages(t)) return false;
            t.work->finish(nullptr, t.source_rank);
        } catch (const timeout_error&) {
            t.work->finish(std::current_exception());
            return true;  // the caller abandons it: its requests may still complete
        } catch (...) {
            t.requests.clear();
            t.ready = nullptr;
            t.work->finish(std::current_exception());
        }
        return true;
    }

    void loop() {
        // Per communicator: its queued collectives, the first of which is active.
        std::map<CommState*, std::deque<std::unique_ptr<MpiTask>>> ordered;
        std::vector<std::unique_ptr<MpiTask>> unordered;
        int idle_polls = 0;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                if (ordered.empty() && unordered.empty())
                    wake_.wait(lock, [&] { return stopping_ || !incoming_.empty(); });
                for (auto& t : incoming_) {
                    if (t->ordered) ordered[t->comm.get()].push_back(std::move(t));
                    else unordered.push_back(std::move(t));
                }
                incoming_.clear();
                if (stopping_ && ordered.empty() && unordered.empty()) break;
            }
            progressed_ = false;
            bool someone_waits = false;
            for (const auto& [comm, queue] : ordered) someone_waits = someone_waits || queue.front()->caller_waits;
            for (const auto& t : unordered) someone_waits = someone_waits || t->caller_waits;
            for (auto it = ordered.begin(); it != ordered.end();) {
                auto& queue = it->second;
                while (!queue.empty() && advance(*queue.front())) {
                    abandon_if_pending(std::move(queue.front()));
                    queue.pop_front();
                    progressed_ = true;
                }
                it = queue.empty() ? ordered.erase(it) : std::next(it);
            }
            for (size_t i = 0; i < unordered.size();) {
                if (advance(*unordered[i])) {
                    abandon_if_pending(std::move(unordered[i]));
                    unordered.erase(unordered.begin() + static_cast<std::ptrdiff_t>(i));
                    progressed_ = true;
                } else {
                    ++i;
                }
            }
            // Poll without pause while a caller waits or operations move (MPI progresses only when
            // polled), else back off, so that a caller computing beside a pending collective
            // keeps its core.
            idle_polls = progressed_ || someone_waits ? 0 : idle_polls + 1;
            if (idle_polls > 256) std::this_thread::sleep_for(std::chrono::microseconds(std::min(idle_polls - 256, 200)));
            else if (idle_polls > 16) std::this_thread::yield();
        }
        // MPI may still write into the abandoned tasks' buffers: they are never freed, and stay
        // reachable (not leaks) from a list that outlives the process.
        static auto* graveyard = new std::vector<std::unique_ptr<MpiTask>>();
        for (auto& t : abandoned_) graveyard->push_back(std::move(t));
        if (finalize_) MPI_Finalize();
    }

    /// A task that finished with requests still pending (timed out) is kept, with its buffers.
    void abandon_if_pending(std::unique_ptr<MpiTask> t) {
        if (!t->requests.empty() || t->ready) abandoned_.push_back(std::move(t));
    }

    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<std::unique_ptr<MpiTask>> incoming_;
    std::vector<std::unique_ptr<MpiTask>> abandoned_;
    bool stopping_ = false;
    bool finalize_ = false;
    bool progressed_ = false;
    int world_rank_ = 0, world_size_ = 1;
};

}  // namespace tenet::distributed::detail
