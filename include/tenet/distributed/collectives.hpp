#pragma once
// torch.distributed's collectives and point-to-point operations over a process group, for
// host tensors of every dtype and layout (a non-contiguous tensor is packed and unpacked).
//
// Each call is made by every member of the group, in the same order. Before a collective
// moves data, the ranks exchange what they were called with (the collective, its op and root,
// the tensor's dtype and shape): a mismatch raises distributed_error on every rank, naming
// each rank's call, instead of exchanging garbage or hanging. Ranks (src, dst) are ranks of
// the default group, as in PyTorch, whatever the group. With async_op = true an operation
// returns at once and its Work completes later; the tensors must then be left alone until
// wait() returns. A rank outside `group` takes no part: its calls return a completed Work.

#include "tenet/config.hpp"
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tenet/backend/device/device_copy.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/distributed/mpi_types.hpp"
#include "tenet/distributed/process_group.hpp"

namespace tenet::inline TENET_ABI::distributed {

namespace detail {

/// The host tensors these operations take; `op` names the caller.
inline void check_host(const TensorBase& t, const std::string& op) {
    if (!t.defined()) tenet::detail::fail<value_error>(op, ": the tensor is undefined");
    if (!t.is_cpu())
        tenet::detail::fail<device_error>(op, ": the \"mpi\" backend moves host tensors, got one on ", t.device(),
                                          "; copy it with .cpu() first");
}

inline void* bytes(const TensorBase& t) { return tenet::detail::first_byte(t); }

/// A new contiguous host tensor of the given shape and dtype.
inline TensorBase empty_buffer(const IntArray& sizes, DType dtype) {
    return TensorBase(tenet::detail::make_contiguous_impl(sizes, dtype, Device(DeviceType::CPU)));
}

/// dst's elements = src's (one shape and dtype), whatever their layouts; not recorded.
inline void copy_values(const TensorBase& dst, const TensorBase& src) {
    if (dst.is_contiguous() && src.is_contiguous()) {
        if (bytes(dst) != bytes(src)) std::memcpy(bytes(dst), bytes(src), static_cast<size_t>(dst.nbytes()));
        return;
    }
    visit_dtype(dst.dtype(), [&](auto tag) {  // a strided loop: no expression, nothing recorded
        using T = typename decltype(tag)::type;
        Tensor<T> d = dst.as<T>();
        d.copy_data_(src.as<T>());
    });
}

/// t itself when contiguous, else a contiguous copy: the buffer MPI reads and writes.
inline TensorBase contiguous_buffer(const TensorBase& t) {
    if (t.is_contiguous()) return t;
    TensorBase b = empty_buffer(t.sizes(), t.dtype());
    copy_values(b, t);
    return b;
}

/// Writes the buffer back into t when they differ (t was not contiguous).
inline void unpack(const TensorBase& t, const TensorBase& buffer) {
    if (!buffer.is_same(t)) copy_values(t, buffer);
}

/// A contiguous view of `sizes` into a contiguous buffer, from its element `offset` on.
inline TensorBase view_at(const TensorBase& buffer, const IntArray& sizes, int64_t offset) {
    return TensorBase(tenet::detail::make_view(buffer.impl(), sizes, tenet::detail::contiguous_strides(sizes),
                                               buffer.storage_offset() + offset));
}

/// Element `index` of a contiguous buffer holding consecutive tensors of `sizes` (a view).
inline TensorBase chunk(const TensorBase& buffer, const IntArray& sizes, int64_t index) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return view_at(buffer, sizes, index * n);
}

/// t /= n, for AVG (floating dtypes only: check_reduce_op refuses the others).
inline void divide(const TensorBase& t, int n) {
    visit_dtype(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (FloatingElement<T>) {
            T* p = static_cast<T*>(bytes(t));
            for (int64_t i = 0; i < t.numel(); ++i) p[i] = T(static_cast<double>(p[i]) / n);
        }
    });
}

/// The collectives, as the signature check names them.
enum class Collective : int64_t {
    all_reduce = 1, broadcast, reduce, all_gather, gather, scatter, reduce_scatter, all_to_all, barrier
};
inline const char* collective_name(int64_t c) {
    constexpr const char* names[] = {"?",      "all_reduce", "broadcast",      "reduce",     "all_gather",
                                     "gather", "scatter",    "reduce_scatter", "all_to_all", "barrier"};
    return c >= 1 && c <= 9 ? names[c] : names[0];
}

/// What a rank called: the collective, its op and root, the tensor's dtype and shape (up to
/// kShapeDims dims; the rest folded into a hash).
struct Signature {
    static constexpr int kShapeDims = 6;
    std::array<int64_t, 6 + kShapeDims> fields{};

    Signature(Collective c, int op, int root, const TensorBase* t) {
        fields[0] = static_cast<int64_t>(c);
        fields[1] = op;
        fields[2] = root;
        if (!t) return;
        fields[3] = static_cast<int64_t>(t->dtype().scalar_type());
        fields[4] = t->dim();
        fields[5] = t->numel();
        for (int64_t d = 0; d < t->dim(); ++d) {
            const size_t slot = 6 + static_cast<size_t>(std::min<int64_t>(d, kShapeDims - 1));
            fields[slot] = d < kShapeDims - 1 ? t->size(d) : fields[slot] * 1000003 + t->size(d);
        }
    }
    std::string describe(const int64_t* f) const {
        std::ostringstream os;
        os << collective_name(f[0]);
        if (f[0] == static_cast<int64_t>(Collective::all_reduce) || f[0] == static_cast<int64_t>(Collective::reduce) ||
            f[0] == static_cast<int64_t>(Collective::reduce_scatter))
            os << "(" << reduce_op_name(static_cast<ReduceOp>(f[1])) << ")";
        if (f[2] >= 0) os << " with root " << f[2];
        if (f[0] == static_cast<int64_t>(Collective::barrier)) return os.str();
        os << " of " << DType(static_cast<ScalarType>(f[3])) << " [";
        for (int64_t d = 0; d < std::min<int64_t>(f[4], kShapeDims); ++d)
            os << (d ? ", " : "") << (d == kShapeDims - 1 && f[4] > kShapeDims ? "..." : std::to_string(f[6 + d]));
        os << "]";
        return os.str();
    }
};

/// A task on group g's collectives communicator.
inline std::unique_ptr<MpiTask> make_task(const Group& g, const std::string& op, bool ordered = true) {
    auto t = std::make_unique<MpiTask>();
    t->op = op;
    t->ordered = ordered;
    t->comm = ordered ? g->collectives : g->point_to_point;
    t->work = std::make_shared<WorkState>();
    t->timeout = g->timeout();
    t->deadline = Clock::now() + g->timeout();
    return t;
}

/// Queues the task on g's thread; waits for it unless async_op.
inline Work submit(const Group& g, std::unique_ptr<MpiTask> task, bool async_op) {
    task->caller_waits = !async_op;
    Work work(task->work);
    g->engine->submit(std::move(task));
    if (!async_op) work.wait();
    return work;
}

/// The first stages of a collective: the ranks exchange their signatures, and every rank
/// raises the same distributed_error when they differ.
inline void check_signatures(MpiTask& task, const Group& g, const Signature& mine) {
    constexpr int n = static_cast<int>(std::tuple_size_v<decltype(Signature::fields)>);
    auto all = std::make_shared<std::vector<int64_t>>(static_cast<size_t>(n * g->size()));
    auto own = std::make_shared<Signature>(mine);
    task.stages.push_back([all, own, comm = g->collectives->comm](MpiTask& t) {
        MPI_Request request;
        check_mpi(MPI_Iallgather(own->fields.data(), n, MPI_INT64_T, all->data(), n, MPI_INT64_T, comm, &request),
                  t.op);
        t.requests.push_back(request);
    });
    task.stages.push_back([all, own, size = g->size()](MpiTask& t) {
        bool same = true;
        for (int r = 1; r < size; ++r)
            same = same && std::equal(all->begin(), all->begin() + n, all->begin() + r * n);
        if (same) return;
        std::ostringstream os;
        os << t.op << ": the ranks' calls do not match:";
        for (int r = 0; r < size && r < 16; ++r) os << (r ? "; " : " ") << "rank " << r << ": "
                                                    << own->describe(all->data() + r * n);
        if (size > 16) os << "; ...";
        tenet::detail::fail<distributed_error>(os.str());
    });
}

/// The group rank of default-group rank `global` in g; `what` names the argument.
inline int group_rank(const Group& g, int global, const std::string& op, const char* what) {
    const auto& ranks = g->world_ranks();
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i] == global) return static_cast<int>(i);
    tenet::detail::fail<value_error>(op, ": ", what, " ", global, " is not a rank of the group");
}

/// Each tensor of a list must match `like`'s shape and dtype and be a host tensor.
inline void check_list(const std::vector<TensorBase>& list, const TensorBase& like, int expected_length,
                       const std::string& op, const char* what) {
    if (static_cast<int>(list.size()) != expected_length)
        tenet::detail::fail<value_error>(op, ": ", what, " must hold one tensor per rank of the group (",
                                         expected_length, "), got ", list.size());
    for (size_t i = 0; i < list.size(); ++i) {
        check_host(list[i], op);
        if (!(list[i].sizes() == like.sizes()) || !(list[i].dtype() == like.dtype()))
            tenet::detail::fail<shape_error>(op, ": ", what, "[", i, "] is ", list[i].dtype(), " ", list[i].sizes(),
                                             ", expected ", like.dtype(), " ", like.sizes());
    }
}

/// gather's and scatter's root (a group rank), once their list is checked: one tensor per rank,
/// each like `tensor`, on the root; empty on the others (PyTorch's message).
inline int root_of_list(const Group& g, int global_root, const std::vector<TensorBase>& list, const TensorBase& tensor,
                        const std::string& op, const char* root_name, const char* list_name, const char* role) {
    const int root = group_rank(g, global_root, op, root_name);
    if (root == g->rank()) check_list(list, tensor, g->size(), op, list_name);
    else if (!list.empty())
        tenet::detail::fail<value_error>(op, ": Argument ``", list_name, "`` must NOT be specified on non-", role,
                                         " ranks.");
    return root;
}

}  // namespace detail

/// Combines `tensor` across the group's ranks with `op`, in place on every rank.
inline Work all_reduce(const TensorBase& tensor, ReduceOp op = ReduceOp::SUM, const Group& group = {},
                       bool async_op = false) {
    const std::string name = "all_reduce";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    detail::check_reduce_op(op, tensor.dtype(), name);
    const int count = detail::mpi_count(tensor.numel(), name);
    const TensorBase buffer = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::all_reduce, static_cast<int>(op), -1, &tensor));
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        detail::check_mpi(MPI_Iallreduce(MPI_IN_PLACE, detail::bytes(buffer), count, detail::mpi_datatype(buffer.dtype()),
                                         detail::mpi_op(op, buffer.dtype()), comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=, size = g->size()](detail::MpiTask&) {
        if (op == ReduceOp::AVG) detail::divide(buffer, size);
        detail::unpack(tensor, buffer);
    });
    return detail::submit(g, std::move(task), async_op);
}

/// Copies `tensor` from rank `src` (a default-group rank) to every rank of the group.
inline Work broadcast(const TensorBase& tensor, int src, const Group& group = {}, bool async_op = false) {
    const std::string name = "broadcast";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    const int root = detail::group_rank(g, src, name, "src");
    const int count = detail::mpi_count(tensor.numel(), name);
    const TensorBase buffer = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::broadcast, 0, src, &tensor));
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        detail::check_mpi(MPI_Ibcast(detail::bytes(buffer), count, detail::mpi_datatype(buffer.dtype()), root, comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=](detail::MpiTask&) { detail::unpack(tensor, buffer); });
    return detail::submit(g, std::move(task), async_op);
}

/// Combines `tensor` across the ranks with `op` into rank `dst`'s tensor; the others' are left
/// as they were.
inline Work reduce(const TensorBase& tensor, int dst, ReduceOp op = ReduceOp::SUM, const Group& group = {},
                   bool async_op = false) {
    const std::string name = "reduce";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    detail::check_reduce_op(op, tensor.dtype(), name);
    const int root = detail::group_rank(g, dst, name, "dst");
    const bool is_root = root == g->rank();
    const int count = detail::mpi_count(tensor.numel(), name);
    const TensorBase buffer = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::reduce, static_cast<int>(op), dst, &tensor));
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        void* data = detail::bytes(buffer);
        detail::check_mpi(MPI_Ireduce(is_root ? MPI_IN_PLACE : data, is_root ? data : nullptr, count,
                                      detail::mpi_datatype(buffer.dtype()), detail::mpi_op(op, buffer.dtype()), root,
                                      comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=, size = g->size()](detail::MpiTask&) {
        if (!is_root) return;
        if (op == ReduceOp::AVG) detail::divide(buffer, size);
        detail::unpack(tensor, buffer);
    });
    return detail::submit(g, std::move(task), async_op);
}

namespace detail {

/// all_gather's and all_gather_into_tensor's shared part: every rank's `input` into
/// `gathered` (contiguous, size x input's elements), then `finish`.
template <class Finish>
Work all_gather_into(const Group& g, const std::string& name, const TensorBase& input, const TensorBase& gathered,
                     bool async_op, Finish finish) {
    const int count = mpi_count(input.numel(), name);
    mpi_count(gathered.numel(), name);
    const TensorBase send = contiguous_buffer(input);
    auto task = make_task(g, name);
    check_signatures(*task, g, Signature(Collective::all_gather, 0, -1, &input));
    task->stages.push_back([=, comm = g->collectives->comm](MpiTask& t) {
        MPI_Request request;
        const MPI_Datatype type = mpi_datatype(send.dtype());
        check_mpi(MPI_Iallgather(bytes(send), count, type, bytes(gathered), count, type, comm, &request), t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([finish](MpiTask&) { finish(); });
    return submit(g, std::move(task), async_op);
}

}  // namespace detail

/// tensor_list[r] = rank r's `tensor`, on every rank (tensor_list: one tensor per rank, each of
/// tensor's shape and dtype).
inline Work all_gather(const std::vector<TensorBase>& tensor_list, const TensorBase& tensor, const Group& group = {},
                       bool async_op = false) {
    const std::string name = "all_gather";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    detail::check_list(tensor_list, tensor, g->size(), name, "tensor_list");
    IntArray all_sizes{g->size() * tensor.numel()};
    const TensorBase gathered = detail::empty_buffer(all_sizes, tensor.dtype());
    return detail::all_gather_into(g, name, tensor, gathered, async_op, [=] {
        for (size_t r = 0; r < tensor_list.size(); ++r)
            detail::copy_values(tensor_list[r], detail::chunk(gathered, tensor.sizes(), static_cast<int64_t>(r)));
    });
}

/// output_tensor = the ranks' input_tensors, concatenated along dim 0 ([size * n, ...]) or
/// stacked ([size, ...]), as PyTorch accepts either shape.
inline Work all_gather_into_tensor(const TensorBase& output_tensor, const TensorBase& input_tensor,
                                   const Group& group = {}, bool async_op = false) {
    const std::string name = "all_gather_into_tensor";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(output_tensor, name);
    detail::check_host(input_tensor, name);
    if (!(output_tensor.dtype() == input_tensor.dtype()))
        tenet::detail::fail<dtype_error>(name, ": output_tensor is ", output_tensor.dtype(), ", input_tensor ",
                                         input_tensor.dtype());
    if (output_tensor.numel() != g->size() * input_tensor.numel())
        tenet::detail::fail<shape_error>(name, ": output_tensor of shape ", output_tensor.sizes(),
                                         " must hold the group's ", g->size(), " inputs of shape ",
                                         input_tensor.sizes());
    const TensorBase gathered = detail::contiguous_buffer(output_tensor);
    return detail::all_gather_into(g, name, input_tensor, gathered, async_op,
                                   [=] { detail::unpack(output_tensor, gathered); });
}

namespace detail {

/// reduce_scatter's and reduce_scatter_tensor's shared part: `input` (contiguous, size x
/// output's elements) reduced, rank r's block into `output`.
inline Work reduce_scatter_into(const Group& g, const std::string& name, const TensorBase& output,
                                const TensorBase& input, ReduceOp op, bool async_op) {
    check_reduce_op(op, output.dtype(), name);
    const int count = mpi_count(output.numel(), name);
    mpi_count(input.numel(), name);
    const TensorBase received = contiguous_buffer(output);
    auto task = make_task(g, name);
    check_signatures(*task, g, Signature(Collective::reduce_scatter, static_cast<int>(op), -1, &output));
    task->stages.push_back([=, comm = g->collectives->comm](MpiTask& t) {
        MPI_Request request;
        check_mpi(MPI_Ireduce_scatter_block(bytes(input), bytes(received), count, mpi_datatype(output.dtype()),
                                            mpi_op(op, output.dtype()), comm, &request),
                  t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=, size = g->size()](MpiTask&) {
        if (op == ReduceOp::AVG) divide(received, size);
        unpack(output, received);
    });
    return submit(g, std::move(task), async_op);
}

}  // namespace detail

/// output = input_list[rank] combined with `op` across the ranks (input_list: one tensor per
/// rank, each of output's shape and dtype).
inline Work reduce_scatter(const TensorBase& output, const std::vector<TensorBase>& input_list,
                           ReduceOp op = ReduceOp::SUM, const Group& group = {}, bool async_op = false) {
    const std::string name = "reduce_scatter";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(output, name);
    detail::check_list(input_list, output, g->size(), name, "input_list");
    IntArray all_sizes{g->size() * output.numel()};
    const TensorBase input = detail::empty_buffer(all_sizes, output.dtype());
    for (size_t r = 0; r < input_list.size(); ++r)
        detail::copy_values(detail::chunk(input, output.sizes(), static_cast<int64_t>(r)), input_list[r]);
    return detail::reduce_scatter_into(g, name, output, input, op, async_op);
}

/// output = block `rank` of input (group size x output's elements, in rank order) combined
/// with `op` across the ranks.
inline Work reduce_scatter_tensor(const TensorBase& output, const TensorBase& input, ReduceOp op = ReduceOp::SUM,
                                  const Group& group = {}, bool async_op = false) {
    const std::string name = "reduce_scatter_tensor";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(output, name);
    detail::check_host(input, name);
    if (!(output.dtype() == input.dtype()))
        tenet::detail::fail<dtype_error>(name, ": output is ", output.dtype(), ", input ", input.dtype());
    if (input.numel() != g->size() * output.numel())
        tenet::detail::fail<shape_error>(name, ": input of shape ", input.sizes(), " must hold the group's ", g->size(),
                                         " blocks of output's shape ", output.sizes());
    return detail::reduce_scatter_into(g, name, output, detail::contiguous_buffer(input), op, async_op);
}

/// gather_list[r] = rank r's `tensor` on rank `dst`; the other ranks pass an empty list.
inline Work gather(const TensorBase& tensor, const std::vector<TensorBase>& gather_list = {}, int dst = 0,
                   const Group& group = {}, bool async_op = false) {
    const std::string name = "gather";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    const int root = detail::root_of_list(g, dst, gather_list, tensor, name, "dst", "gather_list", "destination");
    const bool is_root = root == g->rank();
    const int count = detail::mpi_count(tensor.numel(), name);
    const TensorBase send = detail::contiguous_buffer(tensor);
    IntArray all_sizes{is_root ? g->size() * tensor.numel() : 0};
    const TensorBase gathered = detail::empty_buffer(all_sizes, tensor.dtype());
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::gather, 0, dst, &tensor));
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        const MPI_Datatype type = detail::mpi_datatype(send.dtype());
        detail::check_mpi(MPI_Igather(detail::bytes(send), count, type, is_root ? detail::bytes(gathered) : nullptr, count,
                                      type, root, comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=](detail::MpiTask&) {
        for (size_t r = 0; r < gather_list.size(); ++r)
            detail::copy_values(gather_list[r], detail::chunk(gathered, tensor.sizes(), static_cast<int64_t>(r)));
    });
    return detail::submit(g, std::move(task), async_op);
}

/// tensor = scatter_list[rank] of rank `src`; the other ranks pass an empty list.
inline Work scatter(const TensorBase& tensor, const std::vector<TensorBase>& scatter_list = {}, int src = 0,
                    const Group& group = {}, bool async_op = false) {
    const std::string name = "scatter";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    const int root = detail::root_of_list(g, src, scatter_list, tensor, name, "src", "scatter_list", "source");
    const bool is_root = root == g->rank();
    const int count = detail::mpi_count(tensor.numel(), name);
    IntArray all_sizes{is_root ? g->size() * tensor.numel() : 0};
    const TensorBase send = detail::empty_buffer(all_sizes, tensor.dtype());
    for (size_t r = 0; r < scatter_list.size(); ++r)
        detail::copy_values(detail::chunk(send, tensor.sizes(), static_cast<int64_t>(r)), scatter_list[r]);
    const TensorBase received = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::scatter, 0, src, &tensor));
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        const MPI_Datatype type = detail::mpi_datatype(tensor.dtype());
        detail::check_mpi(MPI_Iscatter(is_root ? detail::bytes(send) : nullptr, count, type, detail::bytes(received),
                                       count, type, root, comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=](detail::MpiTask&) { detail::unpack(tensor, received); });
    return detail::submit(g, std::move(task), async_op);
}

/// Splits input along dim 0 into one block per rank (input_split_sizes rows each, or equal
/// blocks when empty), sends block r to rank r, and concatenates the blocks received into
/// output (output_split_sizes rows from each rank, or equal blocks). The ranks' split sizes
/// must agree: rank i's input_split_sizes[j] = rank j's output_split_sizes[i].
inline Work all_to_all_single(const TensorBase& output, const TensorBase& input,
                              std::vector<int64_t> output_split_sizes = {},
                              std::vector<int64_t> input_split_sizes = {}, const Group& group = {},
                              bool async_op = false) {
    const std::string name = "all_to_all_single";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(output, name);
    detail::check_host(input, name);
    if (!(output.dtype() == input.dtype()))
        tenet::detail::fail<dtype_error>(name, ": output is ", output.dtype(), ", input ", input.dtype());
    if (input.dim() == 0 || output.dim() == 0)
        tenet::detail::fail<shape_error>(name, ": input and output need a dim 0 to split, got shapes ", input.sizes(),
                                         " and ", output.sizes());
    const IntArray row(input.sizes().begin() + 1, input.sizes().end());
    if (!(IntArray(output.sizes().begin() + 1, output.sizes().end()) == row))
        tenet::detail::fail<shape_error>(name, ": input ", input.sizes(), " and output ", output.sizes(),
                                         " differ beyond dim 0");
    const int size = g->size();
    auto splits = [&](std::vector<int64_t>& s, const TensorBase& t, const char* what) {
        if (s.empty()) {
            if (t.size(0) % size != 0)
                tenet::detail::fail<shape_error>(name, ": ", what, "'s dim 0 (", t.size(0),
                                                 ") does not split evenly across ", size, " ranks");
            s.assign(static_cast<size_t>(size), t.size(0) / size);
        }
        int64_t total = 0;
        for (int64_t v : s) {
            if (v < 0) tenet::detail::fail<value_error>(name, ": negative split size ", v);
            total += v;
        }
        if (static_cast<int>(s.size()) != size || total != t.size(0))
            tenet::detail::fail<shape_error>(name, ": ", what, "_split_sizes must have one entry per rank (", size,
                                             ") summing to dim 0 (", t.size(0), ")");
    };
    splits(output_split_sizes, output, "output");
    splits(input_split_sizes, input, "input");
    const int64_t row_elements = input.dim() > 0 && input.size(0) > 0 ? input.numel() / input.size(0) : 0;
    auto counts = [&](const std::vector<int64_t>& s) {
        std::vector<int> c(s.size()), offsets(s.size());
        int64_t offset = 0;
        for (size_t r = 0; r < s.size(); ++r) {
            c[r] = detail::mpi_count(s[r] * row_elements, name);
            offsets[r] = detail::mpi_count(offset, name);
            offset += s[r] * row_elements;
        }
        return std::pair{c, offsets};
    };
    const auto sends = counts(input_split_sizes), receives = counts(output_split_sizes);
    const TensorBase send = detail::contiguous_buffer(input), received = detail::contiguous_buffer(output);
    auto task = detail::make_task(g, name);
    // The signature: dtype and the shape of a row.
    const TensorBase row_like = detail::empty_buffer(row, input.dtype());
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::all_to_all, 0, -1, &row_like));
    // Then each rank learns how many rows the others send it, and checks its output splits.
    auto incoming = std::make_shared<std::vector<int64_t>>(static_cast<size_t>(size));
    auto sent = std::make_shared<std::vector<int64_t>>(input_split_sizes);
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        detail::check_mpi(MPI_Ialltoall(sent->data(), 1, MPI_INT64_T, incoming->data(), 1, MPI_INT64_T, comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    // The ranks then agree on whether every rank's output splits match what it is sent.
    auto all_ok = std::make_shared<int>(1);
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        *all_ok = *incoming == output_split_sizes ? 1 : 0;
        MPI_Request request;
        detail::check_mpi(MPI_Iallreduce(MPI_IN_PLACE, all_ok.get(), 1, MPI_INT, MPI_LAND, comm, &request), t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=, mine = output_split_sizes](detail::MpiTask& t) {
        if (*all_ok) return;
        std::ostringstream os;
        os << t.op << ": the ranks' split sizes do not match";
        if (*incoming != mine) {
            os << " (here, output_split_sizes [";
            for (size_t r = 0; r < mine.size(); ++r) os << (r ? ", " : "") << mine[r];
            os << "] but the ranks send [";
            for (size_t r = 0; r < incoming->size(); ++r) os << (r ? ", " : "") << (*incoming)[r];
            os << "] rows)";
        } else {
            os << " on another rank";
        }
        tenet::detail::fail<distributed_error>(os.str());
    });
    task->stages.push_back([=, comm = g->collectives->comm](detail::MpiTask& t) {
        MPI_Request request;
        const MPI_Datatype type = detail::mpi_datatype(send.dtype());
        detail::check_mpi(MPI_Ialltoallv(detail::bytes(send), sends.first.data(), sends.second.data(), type,
                                         detail::bytes(received), receives.first.data(), receives.second.data(), type,
                                         comm, &request),
                          t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=](detail::MpiTask&) { detail::unpack(output, received); });
    return detail::submit(g, std::move(task), async_op);
}

/// Waits until every rank of the group has reached it.
inline Work barrier(const Group& group = {}, bool async_op = false) {
    const std::string name = "barrier";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    auto task = detail::make_task(g, name);
    detail::check_signatures(*task, g, detail::Signature(detail::Collective::barrier, 0, -1, nullptr));
    return detail::submit(g, std::move(task), async_op);
}

// ---- Point to point: matched by (rank, tag); any order, beside the collectives ------------

/// Starts sending `tensor` to rank `dst` (a default-group rank); the Work completes once MPI has
/// taken it (tensor must be left alone until then).
inline Work isend(const TensorBase& tensor, int dst, const Group& group = {}, int tag = 0) {
    const std::string name = "send";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    const int peer = detail::group_rank(g, dst, name, "dst");
    if (peer == g->rank()) tenet::detail::fail<value_error>(name, ": Invalid destination rank: should not be the same as the rank of the current process.");
    if (tag < 0) tenet::detail::fail<value_error>(name, ": negative tag ", tag);
    const int count = detail::mpi_count(tensor.nbytes(), name);
    const TensorBase buffer = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name, /*ordered=*/false);
    task->stages.push_back([=, comm = g->point_to_point->comm](detail::MpiTask& t) {
        MPI_Request request;
        detail::check_mpi(MPI_Isend(detail::bytes(buffer), count, MPI_BYTE, peer, tag, comm, &request), t.op);
        t.requests.push_back(request);
    });
    return detail::submit(g, std::move(task), /*async_op=*/true);
}

/// Receives into `tensor` from rank `src` (a default-group rank; -1: any rank). The message
/// must hold exactly tensor's bytes: otherwise it is consumed and distributed_error names both
/// sizes. The Work's source_rank() tells the sender.
inline Work irecv(const TensorBase& tensor, int src = -1, const Group& group = {}, int tag = 0) {
    const std::string name = "recv";
    const Group g = resolve_group(group, name);
    if (!g->is_member()) return Work();
    detail::check_host(tensor, name);
    const int peer = src < 0 ? MPI_ANY_SOURCE : detail::group_rank(g, src, name, "src");
    if (tag < 0) tenet::detail::fail<value_error>(name, ": negative tag ", tag);
    const int64_t nbytes = tensor.nbytes();
    detail::mpi_count(nbytes, name);
    const TensorBase buffer = detail::contiguous_buffer(tensor);
    auto task = detail::make_task(g, name, /*ordered=*/false);
    auto message = std::make_shared<MPI_Message>(MPI_MESSAGE_NULL);
    auto status = std::make_shared<MPI_Status>();
    auto scratch = std::make_shared<std::vector<char>>();
    // Probe first (a matched probe: no other receive can take this message), to check its size.
    task->stages.push_back([=, comm = g->point_to_point->comm](detail::MpiTask& t) {
        t.ready = [=](detail::MpiTask& task) {
            int found = 0;
            detail::check_mpi(MPI_Improbe(peer, tag, comm, &found, message.get(), status.get()), task.op);
            return found != 0;
        };
    });
    task->stages.push_back([=, world_ranks = g->world_ranks()](detail::MpiTask& t) {
        int received = 0;
        MPI_Get_count(status.get(), MPI_BYTE, &received);
        t.source_rank = world_ranks[static_cast<size_t>(status->MPI_SOURCE)];
        MPI_Request request;
        if (received != nbytes) {
            scratch->resize(static_cast<size_t>(received));
            detail::check_mpi(MPI_Mrecv(scratch->data(), received, MPI_BYTE, message.get(), MPI_STATUS_IGNORE), t.op);
            tenet::detail::fail<distributed_error>(t.op, ": rank ", t.source_rank, " sent ", received,
                                                   " bytes, but the receiving tensor (", tensor.dtype(), " ",
                                                   tensor.sizes(), ") holds ", nbytes);
        }
        detail::check_mpi(MPI_Imrecv(detail::bytes(buffer), received, MPI_BYTE, message.get(), &request), t.op);
        t.requests.push_back(request);
    });
    task->stages.push_back([=](detail::MpiTask&) { detail::unpack(tensor, buffer); });
    return detail::submit(g, std::move(task), /*async_op=*/true);
}

/// Sends `tensor` to rank `dst` and waits until it has been handed over.
inline void send(const TensorBase& tensor, int dst, const Group& group = {}, int tag = 0) {
    isend(tensor, dst, group, tag).wait();
}

/// Receives into `tensor` from rank `src` (-1: any) and returns the sender's rank.
inline int recv(const TensorBase& tensor, int src = -1, const Group& group = {}, int tag = 0) {
    const Work work = irecv(tensor, src, group, tag);
    work.wait();
    return work.source_rank();
}

}  // namespace tenet::distributed
