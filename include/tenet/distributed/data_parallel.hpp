#pragma once
// Data-parallel training (PyTorch's DistributedDataParallel and DistributedSampler): every rank
// holds the same parameters and trains on its own share of each batch; during backward the
// gradients are averaged across the ranks, so that every rank then takes the same optimizer
// step as one process training on the whole batch.
//
// The gradients are reduced in buckets of parameters, in the reverse of their order (roughly
// the order backward produces them). A post-accumulate-grad hook on each parameter marks it
// ready; when a bucket's last parameter is ready, the bucket's all-reduce starts, and runs on
// the MPI thread while backward goes on. The last bucket waits for all of them and writes the
// averages into the parameters' .grad(), before backward returns.

#include "tenet/config.hpp"
#if !TENET_AUTOGRAD
#error "<tenet/distributed/data_parallel.hpp> needs autograd (tenet built with TENET_AUTOGRAD=ON)"
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "tenet/autograd/accumulate_hooks.hpp"
#include "tenet/autograd/engine.hpp"
#include "tenet/distributed/collectives.hpp"

namespace tenet::inline TENET_ABI::distributed {

/// DistributedDataParallel's arguments (PyTorch's keyword arguments).
struct DataParallelOptions {
    /// A bucket's size in MiB (PyTorch's bucket_cap_mb); the first bucket, reduced first, is
    /// capped at 1 MiB as PyTorch's, so that communication starts early.
    double bucket_cap_mb = 25;
    /// The group whose ranks train together (the default group when empty).
    Group process_group = {};
    /// Copy rank 0's parameters to every rank at construction (PyTorch always does).
    bool broadcast_parameters = true;
};

/// When a bucket's reduction ran in the last backward pass: for timelines of the overlap of
/// communication and backward.
struct BucketTiming {
    size_t bucket = 0;
    int64_t bytes = 0;
    std::chrono::steady_clock::time_point ready;     ///< its last gradient was accumulated: its all-reduce started
    std::chrono::steady_clock::time_point finished;  ///< its all-reduce completed (on the MPI thread)
};

/// Averages the gradients of `parameters` across the group's ranks during every backward pass.
/// Every parameter (a leaf that requires grad) must receive a gradient in each backward pass,
/// as PyTorch's default (find_unused_parameters=false) requires.
class DistributedDataParallel {
public:
    explicit DistributedDataParallel(std::vector<TensorBase> parameters, DataParallelOptions options = {})
        : state_(std::make_shared<State>()) {
        State& s = *state_;
        s.group = resolve_group(options.process_group, "DistributedDataParallel");
        s.parameters = std::move(parameters);
        if (s.parameters.empty())
            tenet::detail::fail<value_error>("DistributedDataParallel: the list of parameters is empty");
        if (!(options.bucket_cap_mb > 0))
            tenet::detail::fail<value_error>("DistributedDataParallel: bucket_cap_mb must be positive, got ",
                                             options.bucket_cap_mb);
        for (size_t i = 0; i < s.parameters.size(); ++i) {
            const TensorBase& p = s.parameters[i];
            detail::check_host(p, "DistributedDataParallel");
            if (!autograd::requires_grad(p) || !p.is_floating_point())
                tenet::detail::fail<value_error>("DistributedDataParallel: parameter ", i,
                                                 " does not require grad (every parameter must be a floating point "
                                                 "leaf with requires_grad)");
            for (size_t j = 0; j < i; ++j)
                if (s.parameters[j].is_same(p))
                    tenet::detail::fail<value_error>("DistributedDataParallel: parameter ", i,
                                                     " is listed twice (also as parameter ", j, ")");
        }
        if (!s.group->is_member()) return;
        if (options.broadcast_parameters) {
            NoGradGuard no_grad;
            for (const TensorBase& p : s.parameters) broadcast(p, s.group->world_ranks()[0], s.group);
        }
        make_buckets(options.bucket_cap_mb);
        for (size_t i = 0; i < s.parameters.size(); ++i) {
            std::weak_ptr<State> weak = state_;
            hooks_.push_back(autograd::register_post_accumulate_grad_hook(s.parameters[i], [weak, i](const TensorBase&) {
                if (auto state = weak.lock()) state->ready(i);
            }));
        }
    }
    DistributedDataParallel(const DistributedDataParallel&) = delete;
    DistributedDataParallel& operator=(const DistributedDataParallel&) = delete;

    ~DistributedDataParallel() {
        for (auto& h : hooks_) h.remove();
    }

    /// The parameters' indices in each bucket, in the order the buckets are reduced.
    std::vector<std::vector<size_t>> buckets() const {
        std::vector<std::vector<size_t>> out;
        for (const Bucket& b : state_->buckets) out.push_back(b.members);
        return out;
    }
    /// The buckets' timings in the last backward pass.
    std::vector<BucketTiming> last_timings() const {
        std::lock_guard lock(state_->mutex);
        return state_->timings;
    }
    const Group& process_group() const { return state_->group; }

private:
    struct Bucket {
        std::vector<size_t> members;  ///< parameter indices
        std::vector<int64_t> offsets;  ///< each member's first element in `flat`
        TensorBase flat;               ///< the gradients, one after another
        size_t ready = 0;
        Work work;
    };

    struct State {
        Group group;
        std::vector<TensorBase> parameters;
        std::vector<Bucket> buckets;
        std::vector<size_t> bucket_of;
        std::vector<bool> is_ready;
        size_t buckets_started = 0;
        std::mutex mutex;
        std::vector<BucketTiming> timings, pending_timings;

        /// Parameter i's gradient has been accumulated (the backward thread).
        void ready(size_t i) {
            std::lock_guard lock(mutex);
            if (is_ready[i])
                tenet::detail::fail<distributed_error>(
                    "DistributedDataParallel: parameter ", i,
                    " received a gradient twice before its bucket was reduced: every backward pass must reach every "
                    "parameter once (a backward pass that skipped some parameters leaves their buckets incomplete)");
            is_ready[i] = true;
            const size_t b = bucket_of[i];
            if (++buckets[b].ready == buckets[b].members.size()) start(b);
            if (buckets_started == buckets.size()) finish();
        }

        /// Packs bucket b's gradients, divided by the world size, and starts their all-reduce.
        void start(size_t b) {
            Bucket& bucket = buckets[b];
            const int world = group->size();
            visit_dtype(bucket.flat.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                if constexpr (FloatingElement<T>) {
                    T* flat = static_cast<T*>(detail::bytes(bucket.flat));
                    for (size_t k = 0; k < bucket.members.size(); ++k) {
                        const TensorBase grad = detail::contiguous_buffer(meta_grad(parameters[bucket.members[k]]));
                        const T* g = static_cast<const T*>(detail::bytes(grad));
                        T* out = flat + bucket.offsets[k];
                        for (int64_t e = 0; e < grad.numel(); ++e) out[e] = T(static_cast<float>(g[e]) / world);
                    }
                }
            });
            // Stamped before the all-reduce is queued: a small one may finish before it returns.
            pending_timings.push_back({b, bucket.flat.nbytes(), std::chrono::steady_clock::now(), {}});
            bucket.work = all_reduce(bucket.flat, ReduceOp::SUM, group, /*async_op=*/true);
            ++buckets_started;
        }

        /// Waits for every bucket, writes the averages into the gradients, and resets for the
        /// next backward pass.
        void finish() {
            for (size_t b = 0; b < buckets.size(); ++b) {
                Bucket& bucket = buckets[b];
                bucket.work.wait();
                for (BucketTiming& t : pending_timings)
                    if (t.bucket == b) t.finished = bucket.work.finished_at();
                for (size_t k = 0; k < bucket.members.size(); ++k) {
                    detail::copy_values(meta_grad(parameters[bucket.members[k]]), slice(bucket, k));
                }
                bucket.ready = 0;
            }
            std::fill(is_ready.begin(), is_ready.end(), false);
            buckets_started = 0;
            timings = std::move(pending_timings);
            pending_timings.clear();
        }

        /// Member k's gradient inside bucket's flat buffer, shaped as its parameter.
        TensorBase slice(const Bucket& bucket, size_t k) const {
            return detail::view_at(bucket.flat, parameters[bucket.members[k]].sizes(), bucket.offsets[k]);
        }

        static TensorBase meta_grad(const TensorBase& p) {
            const autograd::AutogradMeta& m = autograd::meta_of(p);
            std::lock_guard lock(m.mutex);
            return m.grad;
        }
    };

    /// Buckets of consecutive parameters in reverse order, one dtype each, up to the cap.
    void make_buckets(double bucket_cap_mb) {
        State& s = *state_;
        const size_t n = s.parameters.size();
        s.bucket_of.assign(n, 0);
        s.is_ready.assign(n, false);
        const int64_t cap = static_cast<int64_t>(bucket_cap_mb * (1 << 20)), first_cap = std::min<int64_t>(1 << 20, cap);
        int64_t bytes = 0;
        for (size_t j = n; j-- > 0;) {
            const TensorBase& p = s.parameters[j];
            const bool fresh = s.buckets.empty() || bytes >= (s.buckets.size() == 1 ? first_cap : cap) ||
                               !(s.parameters[s.buckets.back().members[0]].dtype() == p.dtype());
            if (fresh) {
                s.buckets.emplace_back();
                bytes = 0;
            }
            Bucket& b = s.buckets.back();
            b.offsets.push_back(b.members.empty() ? 0 : b.offsets.back() + s.parameters[b.members.back()].numel());
            b.members.push_back(j);
            s.bucket_of[j] = s.buckets.size() - 1;
            bytes += p.nbytes();
        }
        for (Bucket& b : s.buckets) {
            const TensorBase& last = s.parameters[b.members.back()];
            IntArray sizes{b.offsets.back() + last.numel()};
            b.flat = detail::empty_buffer(sizes, last.dtype());
        }
    }

    std::shared_ptr<State> state_;
    std::vector<autograd::RemovableHandle> hooks_;
};

/// DistributedSampler's arguments (PyTorch's keyword arguments).
struct SamplerOptions {
    /// The number of ranks sharing the data and this one's rank: `group`'s when -1.
    int num_replicas = -1;
    int rank = -1;
    bool shuffle = true;
    uint64_t seed = 0;
    bool drop_last = false;
    Group group = {};
};

/// The share of a dataset of `size` samples that rank `rank` of `num_replicas` trains on
/// (PyTorch's DistributedSampler): the indices, shuffled by `seed` + epoch when `shuffle`,
/// padded by repeating the first ones to a multiple of num_replicas (or cut to one when
/// drop_last), then every num_replicas-th from rank. The shuffled order is tenet's own
/// permutation (the same on every rank for one seed and epoch), not PyTorch's.
class DistributedSampler {
public:
    explicit DistributedSampler(int64_t size, const SamplerOptions& options = {})
        : size_(size),
          replicas_(options.num_replicas >= 0 ? options.num_replicas : get_world_size(options.group)),
          rank_(options.rank >= 0 ? options.rank : get_rank(options.group)),
          shuffle_(options.shuffle),
          seed_(options.seed),
          drop_last_(options.drop_last) {
        if (size < 0) tenet::detail::fail<value_error>("DistributedSampler: negative dataset size ", size);
        if (replicas_ <= 0)
            tenet::detail::fail<value_error>("DistributedSampler: num_replicas must be positive, got ", replicas_);
        if (rank_ < 0 || rank_ >= replicas_)
            tenet::detail::fail<value_error>("DistributedSampler: Invalid rank ", rank_,
                                             ", rank should be in the interval [0, ", replicas_ - 1, "]");
    }

    /// Samples per rank.
    int64_t num_samples() const {
        return drop_last_ && size_ % replicas_ != 0 ? size_ / replicas_ : (size_ + replicas_ - 1) / replicas_;
    }
    /// Reshuffles for another epoch (PyTorch's set_epoch).
    void set_epoch(int64_t epoch) { epoch_ = epoch; }

    /// This rank's sample indices for the current epoch.
    std::vector<int64_t> indices() const {
        std::vector<int64_t> order(static_cast<size_t>(size_));
        for (int64_t i = 0; i < size_; ++i) order[static_cast<size_t>(i)] = i;
        if (shuffle_) {
            // A splitmix64-driven Fisher-Yates: the same order on every rank for one seed + epoch.
            uint64_t state = seed_ + static_cast<uint64_t>(epoch_);
            auto next = [&] {
                uint64_t z = (state += 0x9E3779B97F4A7C15ull);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
                return z ^ (z >> 31);
            };
            for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[next() % i]);
        }
        const int64_t total = num_samples() * replicas_;
        if (order.empty() && total > 0) return {};
        for (size_t i = 0; static_cast<int64_t>(order.size()) < total; ++i) order.push_back(order[i]);
        order.resize(static_cast<size_t>(total));
        std::vector<int64_t> mine;
        for (int64_t i = rank_; i < total; i += replicas_) mine.push_back(order[static_cast<size_t>(i)]);
        return mine;
    }

private:
    int64_t size_;
    int replicas_, rank_;
    bool shuffle_;
    uint64_t seed_;
    bool drop_last_;
    int64_t epoch_ = 0;
};

}  // namespace tenet::distributed
