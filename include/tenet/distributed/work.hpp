#pragma once
// What a distributed operation returns: a handle to wait on (PyTorch's Work), and the errors
// and reduction operators of tenet::distributed.

#include "tenet/config.hpp"
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI::distributed {

/// A distributed operation that failed: mismatched tensors across ranks, a broken process
/// group, an error the transport reported.
struct distributed_error : error {
    using error::error;
};
/// An operation that did not complete within its process group's timeout (a rank that exited
/// or never arrived). The group cannot be used again afterwards.
struct timeout_error : distributed_error {
    using distributed_error::distributed_error;
};

/// How all_reduce, reduce and reduce_scatter combine the ranks' values (PyTorch's ReduceOp).
/// AVG needs floating point tensors; BAND, BOR and BXOR integral or bool ones.
enum class ReduceOp { SUM, PRODUCT, MIN, MAX, AVG, BAND, BOR, BXOR };

inline const char* reduce_op_name(ReduceOp op) {
    constexpr const char* names[] = {"SUM", "PRODUCT", "MIN", "MAX", "AVG", "BAND", "BOR", "BXOR"};
    return names[static_cast<int>(op)];
}

namespace detail {

/// The completion of one operation, shared by the handle and the thread that runs it.
struct WorkState {
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::exception_ptr error;
    int source_rank = -1;  ///< recv/irecv: the rank the message came from
    std::chrono::steady_clock::time_point finished_at;

    void finish(std::exception_ptr e = nullptr, int source = -1) {
        {
            std::lock_guard lock(mutex);
            done = true;
            finished_at = std::chrono::steady_clock::now();
            error = std::move(e);
            if (source >= 0) source_rank = source;
        }
        finished.notify_all();
    }
};

}  // namespace detail

/// A handle to an operation started with async_op=true (every operation returns one; a
/// synchronous call's is already complete). wait() blocks until it completes and rethrows its
/// error; an operation that outlives its group's timeout fails with timeout_error.
class Work {
public:
    /// A completed, successful operation (a rank outside the group's, which takes no part).
    Work() = default;
    explicit Work(std::shared_ptr<detail::WorkState> state) : state_(std::move(state)) {}

    /// Whether the operation has finished, successfully or not (does not block).
    bool is_completed() const {
        if (!state_) return true;
        std::lock_guard lock(state_->mutex);
        return state_->done;
    }
    /// Whether it finished without an error (false while it runs).
    bool is_success() const {
        if (!state_) return true;
        std::lock_guard lock(state_->mutex);
        return state_->done && !state_->error;
    }
    /// Blocks until the operation finishes; rethrows its error. Returns true, as LibTorch's.
    bool wait() const {
        if (!state_) return true;
        std::unique_lock lock(state_->mutex);
        state_->finished.wait(lock, [&] { return state_->done; });
        if (state_->error) std::rethrow_exception(state_->error);
        return true;
    }
    /// The operation's error once it has failed, else null.
    std::exception_ptr exception() const {
        if (!state_) return nullptr;
        std::lock_guard lock(state_->mutex);
        return state_->error;
    }
    /// When the operation finished (the epoch before it has).
    std::chrono::steady_clock::time_point finished_at() const {
        if (!state_) return {};
        std::lock_guard lock(state_->mutex);
        return state_->finished_at;
    }
    /// irecv: the rank the message came from, once completed (-1 before).
    int source_rank() const {
        if (!state_) return -1;
        std::lock_guard lock(state_->mutex);
        return state_->source_rank;
    }

private:
    std::shared_ptr<detail::WorkState> state_;
};

}  // namespace tenet::distributed
