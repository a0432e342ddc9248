// The collectives and point-to-point operations, each against what the ranks' inputs give when
// combined by hand in this process (every rank knows every rank's input: it is a function of the
// rank). Run with 2 and 4 processes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <tenet/distributed.hpp>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
namespace dist = tenet::distributed;

namespace {

int rank() { return dist::get_rank(); }
int world() { return dist::get_world_size(); }

/// Rank r's input: 6 values that differ per rank and element (positive, so PRODUCT stays exact).
template <class T>
Tensor<T> input_of(int r, IntArray sizes = {2, 3}) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    std::vector<T> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<T>((r * 7 + i * 3) % 5 + 1));
    return tensor(v).reshape(sizes);
}

/// The message of the exception `f` throws, checked to be of type E ("" when none is thrown).
template <class E, class F>
std::string message_of(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("all_reduce combines every rank's tensor with each ReduceOp", "[distributed]") {
    const std::vector<dist::ReduceOp> ops{dist::ReduceOp::SUM, dist::ReduceOp::PRODUCT, dist::ReduceOp::MIN,
                                          dist::ReduceOp::MAX};
    for (dist::ReduceOp op : ops) {
        std::vector<double> expected = input_of<double>(0).reshape({-1}).to_vector();
        for (int r = 1; r < world(); ++r) {
            const std::vector<double> v = input_of<double>(r).reshape({-1}).to_vector();
            for (size_t i = 0; i < v.size(); ++i) {
                double& e = expected[i];
                e = op == dist::ReduceOp::SUM ? e + v[i]
                    : op == dist::ReduceOp::PRODUCT ? e * v[i]
                    : op == dist::ReduceOp::MIN     ? std::min(e, v[i])
                                                    : std::max(e, v[i]);
            }
        }
        CAPTURE(dist::reduce_op_name(op));
        Tensor<float> f = input_of<float>(rank());
        dist::all_reduce(f, op);
        Tensor<int64_t> i = input_of<int64_t>(rank());
        dist::all_reduce(i, op);
        Tensor<Half> h = input_of<float>(rank()).to<Half>();
        dist::all_reduce(h, op);
        for (size_t k = 0; k < expected.size(); ++k) {
            CHECK(f.reshape({-1}).to_vector()[k] == static_cast<float>(expected[k]));
            CHECK(i.reshape({-1}).to_vector()[k] == static_cast<int64_t>(expected[k]));
            CHECK(static_cast<float>(h.reshape({-1}).to_vector()[k]) == static_cast<float>(Half(expected[k])));
        }
    }
}

TEST_CASE("all_reduce: AVG, the bitwise ops, bool, and a non-contiguous tensor", "[distributed]") {
    Tensor<double> avg = input_of<double>(rank());
    dist::all_reduce(avg, dist::ReduceOp::AVG);
    std::vector<double> sum(6, 0.0);
    for (int r = 0; r < world(); ++r)
        for (size_t k = 0; k < 6; ++k) sum[k] += input_of<double>(r).reshape({-1}).to_vector()[k];
    for (size_t k = 0; k < 6; ++k) CHECK(avg.reshape({-1}).to_vector()[k] == Approx(sum[k] / world()));

    Tensor<int32_t> bits = full<int32_t>({3}, 1 << rank());
    dist::all_reduce(bits, dist::ReduceOp::BOR);
    CHECK(bits.to_vector() == std::vector<int32_t>(3, (1 << world()) - 1));
    Tensor<int32_t> parity = full<int32_t>({2}, 1);
    dist::all_reduce(parity, dist::ReduceOp::BXOR);
    CHECK(parity.to_vector() == std::vector<int32_t>(2, world() % 2));

    Tensor<bool> any = tensor<bool>({rank() == 0, false});
    dist::all_reduce(any, dist::ReduceOp::MAX);
    CHECK(any.to_vector() == std::vector<bool>{true, false});
    Tensor<bool> all = tensor<bool>({rank() == 0, true});
    dist::all_reduce(all, dist::ReduceOp::MIN);
    CHECK(all.to_vector() == std::vector<bool>{world() == 1, true});

    // A transposed view: reduced through a packed copy, written back into the view only.
    Tensor<float> base = input_of<float>(rank(), {3, 4});
    Tensor<float> view = base.t();
    dist::all_reduce(view);
    std::vector<float> expected(12, 0.f);
    for (int r = 0; r < world(); ++r)
        for (size_t k = 0; k < 12; ++k) expected[k] += input_of<float>(r, {3, 4}).reshape({-1}).to_vector()[k];
    CHECK(base.reshape({-1}).to_vector() == expected);
}

TEST_CASE("broadcast and reduce take a root rank", "[distributed]") {
    const int root = world() - 1;
    Tensor<double> b = input_of<double>(rank()).t();
    dist::broadcast(b, root);
    CHECK(b.contiguous().to_vector() == input_of<double>(root).t().contiguous().to_vector());

    Tensor<int16_t> m = input_of<int16_t>(rank());
    dist::reduce(m, root, dist::ReduceOp::MAX);
    if (rank() == root) {
        std::vector<int16_t> expected = input_of<int16_t>(0).reshape({-1}).to_vector();
        for (int r = 1; r < world(); ++r) {
            const auto v = input_of<int16_t>(r).reshape({-1}).to_vector();
            for (size_t k = 0; k < v.size(); ++k) expected[k] = std::max(expected[k], v[k]);
        }
        CHECK(m.reshape({-1}).to_vector() == expected);
    } else {
        CHECK(m.to_vector() == input_of<int16_t>(rank()).to_vector());  // left as it was
    }
}

TEST_CASE("all_gather, all_gather_into_tensor, gather and scatter", "[distributed]") {
    std::vector<TensorBase> gathered;
    std::vector<Tensor<float>> typed;
    for (int r = 0; r < world(); ++r) {
        typed.push_back(zeros<float>({3, 2}).t());  // non-contiguous destinations
        gathered.push_back(typed.back());
    }
    dist::all_gather(gathered, input_of<float>(rank()));
    for (int r = 0; r < world(); ++r) CHECK(typed[r].contiguous().to_vector() == input_of<float>(r).to_vector());

    Tensor<int64_t> concatenated = zeros<int64_t>({2 * world(), 3}), stacked = zeros<int64_t>({world(), 2, 3});
    dist::all_gather_into_tensor(concatenated, input_of<int64_t>(rank()));
    dist::all_gather_into_tensor(stacked, input_of<int64_t>(rank()));
    for (int r = 0; r < world(); ++r) {
        CHECK(concatenated.narrow(0, 2 * r, 2).contiguous().to_vector() == input_of<int64_t>(r).to_vector());
        CHECK(stacked.select(0, r).contiguous().to_vector() == input_of<int64_t>(r).to_vector());
    }

    const int root = world() / 2;
    std::vector<TensorBase> at_root;
    std::vector<Tensor<double>> at_root_typed;
    if (rank() == root)
        for (int r = 0; r < world(); ++r) {
            at_root_typed.push_back(zeros<double>({2, 3}));
            at_root.push_back(at_root_typed.back());
        }
    dist::gather(input_of<double>(rank()), at_root, root);
    for (int r = 0; r < static_cast<int>(at_root_typed.size()); ++r)
        CHECK(at_root_typed[r].to_vector() == input_of<double>(r).to_vector());

    std::vector<TensorBase> pieces;
    if (rank() == root)
        for (int r = 0; r < world(); ++r) pieces.push_back(input_of<double>(r + 10));
    Tensor<double> mine = zeros<double>({2, 3});
    dist::scatter(mine, pieces, root);
    CHECK(mine.to_vector() == input_of<double>(rank() + 10).to_vector());
}

TEST_CASE("reduce_scatter and reduce_scatter_tensor", "[distributed]") {
    // Rank r contributes block j = input_of(r * world + j); rank j receives the sum over r.
    std::vector<TensorBase> blocks;
    Tensor<float> flat = zeros<float>({world() * 2, 3});
    for (int j = 0; j < world(); ++j) {
        blocks.push_back(input_of<float>(rank() * world() + j));
        flat.narrow(0, 2 * j, 2).copy_(input_of<float>(rank() * world() + j));
    }
    std::vector<float> expected(6, 0.f);
    for (int r = 0; r < world(); ++r)
        for (size_t k = 0; k < 6; ++k) expected[k] += input_of<float>(r * world() + rank()).reshape({-1}).to_vector()[k];
    Tensor<float> out = zeros<float>({2, 3});
    dist::reduce_scatter(out, blocks);
    CHECK(out.reshape({-1}).to_vector() == expected);
    Tensor<float> out_t = zeros<float>({3, 2}).t();  // written through a view
    dist::reduce_scatter_tensor(out_t, flat);
    CHECK(out_t.contiguous().reshape({-1}).to_vector() == expected);
}

TEST_CASE("all_to_all_single with equal and uneven splits", "[distributed]") {
    // Equal: rank r's row j is 100 * r + j; rank j receives row j of every rank.
    Tensor<int32_t> in = zeros<int32_t>({world(), 2});
    for (int j = 0; j < world(); ++j) in.select(0, j).fill_(100 * rank() + j);
    Tensor<int32_t> out = zeros<int32_t>({world(), 2});
    dist::all_to_all_single(out, in);
    for (int r = 0; r < world(); ++r) CHECK(out.select(0, r).to_vector() == std::vector<int32_t>(2, 100 * r + rank()));

    // Uneven: rank r sends (j + 1) rows to rank j, each row 1000 * r + j.
    std::vector<int64_t> send_splits, recv_splits;
    for (int j = 0; j < world(); ++j) send_splits.push_back(j + 1);
    for (int r = 0; r < world(); ++r) recv_splits.push_back(rank() + 1);
    int64_t rows = 0;
    for (int64_t s : send_splits) rows += s;
    Tensor<double> uneven_in = zeros<double>({rows, 3});
    int64_t at = 0;
    for (int j = 0; j < world(); ++j) {
        uneven_in.narrow(0, at, j + 1).fill_(1000.0 * rank() + j);
        at += j + 1;
    }
    Tensor<double> uneven_out = zeros<double>({world() * (rank() + 1), 3});
    dist::all_to_all_single(uneven_out, uneven_in, recv_splits, send_splits);
    for (int r = 0; r < world(); ++r)
        CHECK(uneven_out.narrow(0, r * (rank() + 1), rank() + 1).contiguous().to_vector() ==
              std::vector<double>(static_cast<size_t>(3 * (rank() + 1)), 1000.0 * r + rank()));
}

TEST_CASE("send and recv around a ring; isend and irecv; recv from any rank", "[distributed]") {
    if (world() < 2) return;
    const int next = (rank() + 1) % world(), previous = (rank() + world() - 1) % world();
    Tensor<float> received = zeros<float>({2, 3});
    dist::Work out = dist::isend(input_of<float>(rank()), next);
    dist::Work in = dist::irecv(received, previous);
    in.wait();
    out.wait();
    CHECK(in.is_completed());
    CHECK(in.source_rank() == previous);
    CHECK(received.to_vector() == input_of<float>(previous).to_vector());

    // Rank 0 receives from every other rank, in whatever order they arrive; tags tell them apart.
    if (rank() == 0) {
        std::vector<int> senders;
        for (int k = 1; k < world(); ++k) {
            Tensor<int64_t> t = zeros<int64_t>({4});
            const int sender = dist::recv(t, -1, {}, 7);
            CHECK(t.to_vector() == std::vector<int64_t>(4, sender * 11));
            senders.push_back(sender);
        }
        std::sort(senders.begin(), senders.end());
        for (int k = 1; k < world(); ++k) CHECK(senders[static_cast<size_t>(k - 1)] == k);
    } else {
        dist::send(full<int64_t>({4}, rank() * 11), 0, {}, 7);
    }
    dist::barrier();
}

TEST_CASE("async operations complete through their Work", "[distributed]") {
    std::vector<Tensor<float>> tensors;
    std::vector<dist::Work> works;
    for (int k = 0; k < 4; ++k) {
        tensors.push_back(full<float>({1 << 12}, static_cast<float>(k + rank())));
        works.push_back(dist::all_reduce(tensors.back(), dist::ReduceOp::SUM, {}, /*async_op=*/true));
    }
    for (int k = 0; k < 4; ++k) {
        works[k].wait();
        CHECK(works[k].is_completed());
        CHECK(works[k].is_success());
        float expected = 0;
        for (int r = 0; r < world(); ++r) expected += static_cast<float>(k + r);
        CHECK(tensors[k].to_vector() == std::vector<float>(1 << 12, expected));
    }
    dist::Work done = dist::barrier({}, /*async_op=*/true);
    done.wait();
    CHECK(done.is_completed());
}

TEST_CASE("process groups: subgroups, non-members, ranks", "[distributed]") {
    CHECK(dist::is_initialized());
    CHECK(dist::get_backend() == "mpi");
    CHECK(dist::is_mpi_available());
    // The even ranks.
    std::vector<int> evens;
    for (int r = 0; r < world(); r += 2) evens.push_back(r);
    const dist::Group g = dist::new_group(evens);
    const bool member = rank() % 2 == 0;
    CHECK(dist::get_rank(g) == (member ? rank() / 2 : -1));
    CHECK(dist::get_world_size(g) == (member ? static_cast<int>(evens.size()) : -1));
    Tensor<int64_t> t = full<int64_t>({2}, rank());
    dist::Work w = dist::all_reduce(t, dist::ReduceOp::SUM, g);
    CHECK(w.is_completed());
    int64_t expected = 0;
    for (int r : evens) expected += r;
    CHECK(t.to_vector() == std::vector<int64_t>(2, member ? expected : rank()));  // non-members: untouched
    if (member && evens.size() > 1) {
        Tensor<int64_t> b = full<int64_t>({1}, rank());
        dist::broadcast(b, evens.back(), g);  // src is a rank of the default group
        CHECK(b.item() == evens.back());
    }
    if (member && world() > 1)
        CHECK(message_of<value_error>([&] { dist::broadcast(t, 1, g); }).find("src 1 is not a rank of the group") !=
              std::string::npos);
    dist::barrier();
}

TEST_CASE("mismatched calls fail on every rank, naming each rank's call", "[distributed]") {
    if (world() < 2) return;
    Tensor<float> t = zeros<float>({4, rank() == 0 ? 3 : 2});
    const std::string shapes = message_of<dist::distributed_error>([&] { dist::all_reduce(t); });
    CHECK(shapes.find("all_reduce: the ranks' calls do not match") != std::string::npos);
    CHECK(shapes.find("rank 0: all_reduce(SUM) of tenet.float32 [4, 3]") != std::string::npos);
    CHECK(shapes.find("rank 1: all_reduce(SUM) of tenet.float32 [4, 2]") != std::string::npos);

    const std::string ops = message_of<dist::distributed_error>([&] {
        dist::all_reduce(zeros<float>({2}), rank() == 0 ? dist::ReduceOp::MAX : dist::ReduceOp::SUM);
    });
    CHECK(ops.find("rank 0: all_reduce(MAX)") != std::string::npos);

    const std::string dtypes = message_of<dist::distributed_error>([&] {
        if (rank() == 0) dist::broadcast(zeros<double>({2}), 0);
        else dist::broadcast(zeros<int64_t>({2}), 0);
    });
    CHECK(dtypes.find("rank 0: broadcast with root 0 of tenet.float64 [2]") != std::string::npos);
    CHECK(dtypes.find("rank 1: broadcast with root 0 of tenet.int64 [2]") != std::string::npos);

    const std::string kinds = message_of<dist::distributed_error>([&] {
        if (rank() == 0) dist::barrier();
        else dist::all_reduce(zeros<float>({1}));
    });
    CHECK(kinds.find("rank 0: barrier") != std::string::npos);

    // A received message of the wrong size is consumed, and named.
    if (rank() == 0) dist::send(zeros<float>({5}), 1);
    if (rank() == 1) {
        Tensor<float> small = zeros<float>({4});
        CHECK(message_of<dist::distributed_error>([&] { dist::recv(small, 0); }) ==
              "recv: rank 0 sent 20 bytes, but the receiving tensor (tenet.float32 [4]) holds 16");
    }
    // The group still works.
    Tensor<float> ok = ones<float>({1});
    dist::all_reduce(ok);
    CHECK(ok.item() == static_cast<float>(world()));
}

TEST_CASE("bad arguments raise before anything is sent", "[distributed]") {
    Tensor<int64_t> i = zeros<int64_t>({2});
    CHECK(message_of<dtype_error>([&] { dist::all_reduce(i, dist::ReduceOp::AVG); }) ==
          "all_reduce: ReduceOp.AVG needs a floating point tensor, got tenet.int64");
    CHECK(message_of<dtype_error>([&] { dist::all_reduce(zeros<float>({2}), dist::ReduceOp::BAND); }) ==
          "all_reduce: ReduceOp.BAND needs an integral or bool tensor, got tenet.float32");
    CHECK(message_of<value_error>([&] { dist::broadcast(i, world()); }) ==
          "broadcast: src " + std::to_string(world()) + " is not a rank of the group");
    std::vector<TensorBase> too_few;
    CHECK(message_of<value_error>([&] { dist::all_gather(too_few, i); })
              .find("all_gather: tensor_list must hold one tensor per rank of the group") != std::string::npos);
    std::vector<TensorBase> wrong(static_cast<size_t>(world()), zeros<int64_t>({3}));
    CHECK(message_of<shape_error>([&] { dist::all_gather(wrong, i); }) ==
          "all_gather: tensor_list[0] is tenet.int64 [3], expected tenet.int64 [2]");
    CHECK(message_of<shape_error>([&] { dist::all_gather_into_tensor(zeros<int64_t>({3}), i); })
              .find("all_gather_into_tensor: output_tensor of shape [3]") != std::string::npos);
    CHECK(message_of<dist::distributed_error>([] { dist::init_process_group("mpi"); }) ==
          "init_process_group: trying to initialize the default process group twice!");
    CHECK(message_of<dist::distributed_error>([] { dist::init_process_group("nccl"); })
              .find("the \"nccl\" backend is not available") != std::string::npos);
    CHECK(message_of<value_error>([] { dist::new_group({0, 0}); }) == "new_group: rank 0 is listed twice");
    if (dist::get_rank() != 0)
        CHECK(message_of<value_error>([&] { dist::gather(i, {i}, 0); }) ==
              "gather: Argument ``gather_list`` must NOT be specified on non-destination ranks.");
    if (world() > 1)
        CHECK(message_of<value_error>([] { dist::send(zeros<float>({1}), dist::get_rank()); })
                  .find("Invalid destination rank") != std::string::npos);
}

TEST_CASE("a rank that never arrives makes the others time out, not hang", "[distributed]") {
    if (world() < 2) return;
    const auto timeout = std::chrono::milliseconds(500);
    const dist::Group g = dist::new_group({}, timeout);
    // Rank 1 leaves this test early: it never calls the all_reduce.
    if (rank() == 1) return;
    Tensor<float> t = ones<float>({8});
    const auto start = std::chrono::steady_clock::now();
    const std::string what = message_of<dist::timeout_error>([&] { dist::all_reduce(t, dist::ReduceOp::SUM, g); });
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(what.find("all_reduce: timed out after 500 ms") != std::string::npos);
    CHECK(waited >= timeout);
    // The group is unusable afterwards, and says why.
    CHECK(message_of<dist::distributed_error>([&] { dist::barrier(g); }) ==
          "barrier: the process group cannot be used after all_reduce timed out");
}

}}  // namespace TENET_TEST_FILE
