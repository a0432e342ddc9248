// Indexing with tensors on the device (backend/device/device_index.hpp): what the placed golden
// files (test_index_golden, test_masks_golden, test_advanced_index_golden) do not show. Errors
// name the index, the dim and the size as on the host; duplicate targets accumulate, and a plain
// write through duplicates keeps the last one as the host does; index tensors on the host index
// a device tensor; mixed devices are refused. Built for the emulated device (CI) and by nvcc.
//
// Expected values are mathematics: small integers and halves add exactly in any order.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cstdint>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;

namespace {

const Device kCuda("cuda");

Tensor<int64_t> longs(std::vector<int64_t> v) {
    return tensor(v).to(kCuda);
}

} // namespace

TEST_CASE("device index: out-of-range indices raise index_error naming index, dim and size", "[device][index]") {
    const Tensor<float> x = arange(12, kFloat32).reshape({3, 4}).to(kCuda);
    CHECK_THROWS_WITH(gather(x, 0, longs({0, 3}).reshape({1, 2})),
                      Catch::Contains("gather: index 3 is out of bounds for dimension 0 with size 3"));
    CHECK_THROWS_WITH(index_select(x, 1, longs({1, -1, 7})),
                      Catch::Contains("index_select: index -1 is out of range for dimension 1 with size 4"));
    CHECK_THROWS_WITH(take(x, longs({2, -13})), Catch::Contains("index -13") && Catch::Contains("12 elements"));
    CHECK_THROWS_WITH(scatter_add(x, 1, longs({4}).reshape({1, 1}), x),
                      Catch::Contains("index 4 is out of bounds for dimension 1 with size 4"));
    CHECK_THROWS_WITH(x.index({Slice(), longs({0, -5})}),
                      Catch::Contains("index -5 is out of bounds for dimension 1 with size 4"));
    Tensor<float> y = x.clone();
    CHECK_THROWS_AS(y.index_put_({longs({3})}, 1.0f), index_error);
    CHECK(y.cpu().to_vector() == x.cpu().to_vector()); // nothing written
}

TEST_CASE("device index: duplicate targets accumulate; a plain write keeps the last", "[device][index]") {
    Tensor<double> x = zeros<double>({4}, TensorOptions().device(kCuda));
    const Tensor<int64_t> idx = longs({1, 3, 1, 1, 0, 3});
    const Tensor<double> v = tensor(std::vector<double>{0.5, 1, 2, 4, 8, 16}).to(kCuda);
    x.index_put_({idx}, v, true);
    CHECK(x.cpu().to_vector() == std::vector<double>{8, 6.5, 0, 17});
    x.index_put_({idx}, v, false); // index order: the last write of a place wins
    CHECK(x.cpu().to_vector() == std::vector<double>{8, 4, 0, 16});
    CHECK(scatter_add(zeros<double>({4}, TensorOptions().device(kCuda)), 0, idx, v).cpu().to_vector() ==
          std::vector<double>{8, 6.5, 0, 17});
    CHECK(index_add(zeros<double>({4}, TensorOptions().device(kCuda)), 0, idx, v, 2.0).cpu().to_vector() ==
          std::vector<double>{16, 13, 0, 34});
    CHECK(scatter(zeros<double>({4}, TensorOptions().device(kCuda)), 0, idx, v).cpu().to_vector() ==
          std::vector<double>{8, 4, 0, 16});
    const Tensor<int64_t> counts = zeros<int64_t>({4}, TensorOptions().device(kCuda));
    CHECK(scatter_reduce(counts, 0, idx, ones<int64_t>({6}, TensorOptions().device(kCuda)), "sum").cpu().to_vector() ==
          std::vector<int64_t>{1, 3, 0, 2});
}

TEST_CASE("device index: gradients through an index sum over duplicates", "[device][index]") {
    Tensor<float> x = arange(6, kFloat32).reshape({2, 3}).to(kCuda).requires_grad_();
    const Tensor<float> picked = x.index({Slice(), longs({2, 0, 2, 2})});
    Tensor<float>((picked * 0.5f).sum()).backward();
    CHECK(x.grad().device().is_cuda());
    CHECK(x.grad().cpu().to_vector() == std::vector<float>{0.5f, 0, 1.5f, 0.5f, 0, 1.5f});
    Tensor<float> z = arange(4, kFloat32).to(kCuda).requires_grad_();
    Tensor<float>(gather(z, 0, longs({3, 3, 0})).sum()).backward();
    CHECK(z.grad().cpu().to_vector() == std::vector<float>{1, 0, 0, 2});
    Tensor<float> w = arange(6, kFloat32).reshape({2, 3}).to(kCuda).requires_grad_();
    Tensor<float>(masked_select(w, tensor({true, false, true}).to(kCuda)).sum()).backward(); // mask broadcast
    CHECK(w.grad().cpu().to_vector() == std::vector<float>{1, 0, 1, 1, 0, 1});
}

TEST_CASE("device index: masks, nonzero and where(cond) compact on the device", "[device][index]") {
    const Tensor<int64_t> x = tensor(std::vector<int64_t>{0, 5, 0, 7, 1, 0}).reshape({2, 3}).to(kCuda);
    const Tensor<int64_t> nz = nonzero(x);
    CHECK(nz.device().is_cuda());
    CHECK(nz.sizes() == IntArray{3, 2});
    CHECK(nz.cpu().to_vector() == std::vector<int64_t>{0, 1, 1, 0, 1, 1});
    const auto w = where(x.t()); // a transposed view: row-major over its own shape
    REQUIRE(w.size() == 2);
    CHECK(w[0].cpu().to_vector() == std::vector<int64_t>{0, 1, 1});
    CHECK(w[1].cpu().to_vector() == std::vector<int64_t>{1, 0, 1});
    CHECK(masked_select(x, Tensor<bool>(x > int64_t(2))).cpu().to_vector() == std::vector<int64_t>{5, 7});
    CHECK(count_nonzero(x).item() == 3);
    CHECK(nonzero(zeros<float>({3}, TensorOptions().device(kCuda))).sizes() == IntArray{0, 1});
}

TEST_CASE("device index: gather and mask selection read strided and broadcast operands directly",
          "[device][index]") {
    // x.t() = [[0, 3], [1, 4], [2, 5]]: a transposed view, read without a copy.
    const Tensor<float> x = arange(6, kFloat32).reshape({2, 3}).to(kCuda);
    const Tensor<float> xt = x.t();
    const Tensor<int64_t> idx = longs({1, 0, 1, 0, 0, 1}).reshape({2, 3}).t(); // [[1, 0], [0, 0], [1, 1]]
    const Tensor<float> g = gather(xt, 1, idx);
    CHECK(g.device().is_cuda());
    CHECK(g.sizes() == IntArray{3, 2});
    CHECK(g.cpu().to_vector() == std::vector<float>{3, 0, 1, 1, 5, 5});
    // indices [1, 2] broadcast over x's rows (stride 0).
    CHECK(take_along_dim(x, longs({2, 0}).reshape({1, 2}), 1).cpu().to_vector() == std::vector<float>{2, 0, 5, 3});
    CHECK(gather(arange(4, kFloat32).to(kCuda), 0, longs({}).reshape({0})).numel() == 0);
    // A mask broadcast along xt's rows, and full masks (device and host) over the transposed view.
    CHECK(masked_select(xt, tensor({true, false}).to(kCuda)).cpu().to_vector() == std::vector<float>{0, 1, 2});
    CHECK(masked_select(xt, Tensor<bool>(xt > 2.0f)).cpu().to_vector() == std::vector<float>{3, 4, 5});
    CHECK(xt.index({Tensor<bool>(xt > 2.0f)}).cpu().to_vector() == std::vector<float>{3, 4, 5});
    const Tensor<bool> hm = tensor({true, false, false, true, true, true}).reshape({3, 2});
    const Tensor<float> picked = xt.index({hm});
    CHECK(picked.device().is_cuda());
    CHECK(picked.cpu().to_vector() == std::vector<float>{0, 4, 2, 5});
    CHECK(xt.index({Tensor<bool>(xt > 9.0f)}).numel() == 0);
    // With a gradient: the positions are kept for the backward pass.
    Tensor<float> w = arange(3, kFloat32).to(kCuda).requires_grad_();
    Tensor<float>(w.index({tensor({true, false, true}).to(kCuda)}).sum()).backward();
    CHECK(w.grad().cpu().to_vector() == std::vector<float>{1, 0, 1});
}

TEST_CASE("device index: host index tensors index a device tensor; device indices cannot index the host",
          "[device][index]") {
    const Tensor<float> xh = arange(6, kFloat32).reshape({2, 3});
    const Tensor<float> x = xh.to(kCuda);
    const Tensor<float> r = x.index({tensor(std::vector<int64_t>{1, 0})});
    CHECK(r.device().is_cuda());
    CHECK(r.cpu().to_vector() == std::vector<float>{3, 4, 5, 0, 1, 2});
    CHECK(x.index({tensor({false, true})}).cpu().to_vector() == std::vector<float>{3, 4, 5});
    CHECK_THROWS_AS(xh.index({longs({0})}), device_error);
    CHECK_THROWS_AS(gather(x, 0, tensor(std::vector<int64_t>{0})), device_error);
    CHECK_THROWS_AS(index_select(xh, 0, longs({0})), device_error);
    CHECK_THROWS_AS(masked_select(x, tensor({true, false, true})), device_error);
}

}} // namespace TENET_TEST_FILE
