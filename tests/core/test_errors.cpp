// Every misuse of the data layer throws the right tenet exception, and the message
// names the operation and the offending shapes, indices or values.
#include <catch2/catch.hpp>

#include <vector>

#include "tenet/tenet.hpp"

#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using Catch::Matchers::Contains;
using namespace tenet::indexing;

TEST_CASE("errors: view") {
    auto x = tenet::arange(10);
    TENET_REQUIRE_THROWS(x.view({3, 3}), tenet::shape_error,
                           Contains("view: shape [3, 3] is invalid for input of size 10"));
    TENET_REQUIRE_THROWS(x.view({-1, 3}), tenet::shape_error,
                           Contains("view: shape [-1, 3] is invalid for input of size 10"));
    TENET_REQUIRE_THROWS(x.view({-1, -1}), tenet::shape_error,
                           Contains("view: only one dimension can be inferred") && Contains("[-1, -1]"));
    TENET_REQUIRE_THROWS(x.view({-2, 5}), tenet::shape_error, Contains("view") && Contains("-2"));
    auto a = tenet::arange(24).view({2, 3, 4});
    TENET_REQUIRE_THROWS(a.transpose(0, 1).view({24}), tenet::shape_error,
                           Contains("view: view size is not compatible with input tensor's size and stride") &&
                               Contains("[3, 2, 4]") && Contains("[4, 12, 1]") && Contains("reshape"));
    TENET_REQUIRE_THROWS(a.reshape({5, 5}), tenet::shape_error,
                           Contains("reshape: shape [5, 5] is invalid for input of size 24"));
    REQUIRE_THROWS_AS(a.flatten(2, 1), tenet::index_error);
}

TEST_CASE("errors: expand, permute, t, transpose") {
    auto c = tenet::arange(3).view({3, 1});
    TENET_REQUIRE_THROWS(c.expand({4, 4}), tenet::shape_error,
                           Contains("expand: the expanded size of the tensor (4) must match the existing size (3)") &&
                               Contains("[4, 4]") && Contains("[3, 1]"));
    TENET_REQUIRE_THROWS(c.expand({4}), tenet::shape_error, Contains("expand") && Contains("[4]"));
    TENET_REQUIRE_THROWS(c.expand({-1, 3, 4}), tenet::shape_error, Contains("expand") && Contains("-1"));
    auto a = tenet::arange(24).view({2, 3, 4});
    TENET_REQUIRE_THROWS(a.permute({0, 0, 1}), tenet::index_error,
                           Contains("permute: repeated dim 0") && Contains("[0, 0, 1]"));
    TENET_REQUIRE_THROWS(a.permute({-3, 0, 1}), tenet::index_error, Contains("permute: repeated dim"));
    TENET_REQUIRE_THROWS(a.permute({1, 0}), tenet::shape_error,
                           Contains("permute") && Contains("3 dims") && Contains("[1, 0]"));
    TENET_REQUIRE_THROWS(a.permute({0, 1, 3}), tenet::index_error, Contains("permute: dimension out of range"));
    TENET_REQUIRE_THROWS(a.t(), tenet::shape_error,
                           Contains("t: expects a tensor with <= 2 dimensions, but self is 3D") &&
                               Contains("[2, 3, 4]"));
    TENET_REQUIRE_THROWS(a.transpose(0, 3), tenet::index_error,
                           Contains("transpose: dimension out of range (expected to be in range of [-3, 2], but got 3)"));
}

TEST_CASE("errors: select, index, slice, narrow") {
    auto a = tenet::arange(24).view({2, 3, 4});
    TENET_REQUIRE_THROWS(a.select(0, 2), tenet::index_error,
                           Contains("select: index 2 is out of bounds for dimension 0 with size 2"));
    TENET_REQUIRE_THROWS(a.select(1, -4), tenet::index_error,
                           Contains("select: index -4 is out of bounds for dimension 1 with size 3"));
    TENET_REQUIRE_THROWS(a[5], tenet::index_error, Contains("index 5 is out of bounds for dimension 0 with size 2"));
    TENET_REQUIRE_THROWS(a[-3], tenet::index_error, Contains("index -3 is out of bounds for dimension 0 with size 2"));
    TENET_REQUIRE_THROWS(a.select(3, 0), tenet::index_error, Contains("select: dimension out of range"));
    TENET_REQUIRE_THROWS(a.index({0, 0, 4}), tenet::index_error,
                           Contains("index: index 4 is out of bounds for dimension 2 with size 4"));
    TENET_REQUIRE_THROWS(a.index({Ellipsis, -5}), tenet::index_error,
                           Contains("index -5 is out of bounds for dimension 2 with size 4"));
    TENET_REQUIRE_THROWS(a.index({0, 0, 0, 0}), tenet::index_error,
                           Contains("index: too many indices for tensor of dimension 3 (got 4)"));
    TENET_REQUIRE_THROWS(a.index({Ellipsis, 0, Ellipsis}), tenet::index_error,
                           Contains("index: an index can only have a single ellipsis"));
    TENET_REQUIRE_THROWS(a.index({"..", 0}), tenet::index_error, Contains("\"..\""));
    TENET_REQUIRE_THROWS(a.index({Slice(None, None, 0)}), tenet::value_error,
                           Contains("slice: step must be greater than zero, got 0"));
    TENET_REQUIRE_THROWS(a.index({Slice(), Slice(None, None, -1)}), tenet::value_error,
                           Contains("slice: step must be greater than zero, got -1"));
    TENET_REQUIRE_THROWS(a.slice(0, 0, 1, -2), tenet::value_error, Contains("got -2"));
    TENET_REQUIRE_THROWS(a.narrow(0, 3, 1), tenet::index_error,
                           Contains("narrow: start (3) is out of range for dimension 0 with size 2"));
    TENET_REQUIRE_THROWS(a.narrow(2, 2, 3), tenet::index_error,
                           Contains("narrow: start (2) + length (3) exceeds dimension size (4)"));
    TENET_REQUIRE_THROWS(a.narrow(1, -4, 1), tenet::index_error, Contains("narrow: start (-4)"));
    TENET_REQUIRE_THROWS(a.narrow(1, 0, -1), tenet::index_error, Contains("length (-1)"));
    auto z = tenet::tensor(5);
    TENET_REQUIRE_THROWS(z.select(0, 0), tenet::index_error, Contains("select") && Contains("0-dim"));
    TENET_REQUIRE_THROWS(z.narrow(0, 0, 1), tenet::shape_error, Contains("narrow") && Contains("0-dim"));
    TENET_REQUIRE_THROWS(z.index({0}), tenet::index_error, Contains("too many indices for tensor of dimension 0"));
}

TEST_CASE("errors: squeeze, unsqueeze, size, stride") {
    auto a = tenet::arange(24).view({2, 3, 4});
    TENET_REQUIRE_THROWS(a.squeeze(3), tenet::index_error,
                           Contains("squeeze: dimension out of range (expected to be in range of [-3, 2], but got 3)"));
    TENET_REQUIRE_THROWS(a.squeeze(-4), tenet::index_error, Contains("but got -4"));
    TENET_REQUIRE_THROWS(a.unsqueeze(4), tenet::index_error,
                           Contains("unsqueeze: dimension out of range (expected to be in range of [-4, 3], but got 4)"));
    TENET_REQUIRE_THROWS(a.unsqueeze(-5), tenet::index_error, Contains("unsqueeze") && Contains("but got -5"));
    TENET_REQUIRE_THROWS(a.unsqueeze_(7), tenet::index_error, Contains("unsqueeze"));
    CHECK(a.dim() == 3);  // a failed in-place op leaves the tensor alone
    TENET_REQUIRE_THROWS(a.size(3), tenet::index_error, Contains("size: dimension out of range"));
    TENET_REQUIRE_THROWS(a.stride(-4), tenet::index_error, Contains("stride: dimension out of range"));
}

TEST_CASE("errors: element access and item") {
    auto a = tenet::arange(6).view({2, 3});
    TENET_REQUIRE_THROWS(a.item(), tenet::shape_error,
                           Contains("item: a Tensor with 6 elements cannot be converted to Scalar") && Contains("[2, 3]"));
    TENET_REQUIRE_THROWS(tenet::zeros({0}).item(), tenet::shape_error, Contains("a Tensor with 0 elements"));
    TENET_REQUIRE_THROWS(a(1), tenet::index_error,
                           Contains("operator(): expected 2 indices for a tensor of shape [2, 3], got 1"));
    TENET_REQUIRE_THROWS(a(0, 1, 2), tenet::index_error, Contains("expected 2 indices") && Contains("got 3"));
    TENET_REQUIRE_THROWS(a(0, 3), tenet::index_error,
                           Contains("operator(): index 3 is out of bounds for dimension 1 with size 3"));
    TENET_REQUIRE_THROWS(a(-3, 0), tenet::index_error, Contains("index -3 is out of bounds for dimension 0 with size 2"));
}

TEST_CASE("errors: creation") {
    TENET_REQUIRE_THROWS(tenet::tensor({{1, 2}, {3}}), tenet::shape_error,
                           Contains("tensor: the nested list is ragged: expected a sequence of length 2 at dim 1 (got 1)"));
    TENET_REQUIRE_THROWS(tenet::tensor({{{1}, {2}}, {{3, 4}, {5}}}), tenet::shape_error, Contains("ragged"));
    TENET_REQUIRE_THROWS(tenet::tensor(std::vector<double>{1, 2, 3}, {2, 2}), tenet::shape_error,
                           Contains("tensor: shape [2, 2] is invalid for input of size 3"));
    TENET_REQUIRE_THROWS(tenet::arange(0, 5, 0), tenet::value_error, Contains("arange: step must be nonzero"));
    TENET_REQUIRE_THROWS(tenet::arange(0.0, 1.0, 0.0), tenet::value_error, Contains("arange: step must be nonzero"));
    // torch.arange(0, 5, 0.5, dtype=torch.int32): the step truncates to 0 in the integer accumulate type.
    TENET_REQUIRE_THROWS(tenet::arange(0, 5, 0.5, tenet::kInt32), tenet::value_error,
                           Contains("arange: step must be nonzero"));
    TENET_REQUIRE_THROWS(tenet::arange(0, 5, -1), tenet::value_error,
                           Contains("arange: upper bound and larger bound inconsistent with step sign") &&
                               Contains("start 0") && Contains("end 5") && Contains("step -1"));
    TENET_REQUIRE_THROWS(tenet::arange(5, 0, 1), tenet::value_error, Contains("inconsistent with step sign"));
    TENET_REQUIRE_THROWS(tenet::linspace(0, 1, -1), tenet::value_error,
                           Contains("linspace: number of steps must be non-negative, got -1"));
    TENET_REQUIRE_THROWS(tenet::zeros({2, -1}), tenet::shape_error, Contains("negative dimension -1") && Contains("[2, -1]"));
    TENET_REQUIRE_THROWS(tenet::eye(-1), tenet::shape_error, Contains("eye: n and m must be non-negative"));
}

TEST_CASE("errors: devices") {
    // This binary has no device backend (tests/device/ has the device tests): CUDA is refused,
    // as by a CPU-only build of PyTorch.
    CHECK_FALSE(tenet::cuda_is_available());
    CHECK(tenet::cuda_device_count() == 0);
    CHECK_FALSE(tenet::accelerator::current_accelerator().has_value());
    TENET_REQUIRE_THROWS(tenet::zeros({2}, "cuda"), tenet::device_error,
                           Contains("empty: cannot use device cuda") && Contains("without CUDA"));
    TENET_REQUIRE_THROWS(tenet::ones({2}).cuda(), tenet::device_error, Contains("to: cannot use device cuda"));
    TENET_REQUIRE_THROWS(tenet::rand({2}, "cuda"), tenet::device_error, Contains("without CUDA"));
    TENET_REQUIRE_THROWS(tenet::empty({2}, tenet::Device(tenet::kCUDA, 1)), tenet::device_error, Contains("cuda:1"));
    TENET_REQUIRE_THROWS(tenet::ones({2}, tenet::device("cuda:0")), tenet::device_error, Contains("cuda:0"));
    TENET_REQUIRE_THROWS(tenet::arange(3, tenet::TensorOptions(tenet::kCUDA)), tenet::device_error, Contains("cuda"));
    TENET_REQUIRE_THROWS(tenet::tensor({1, 2}, "cuda"), tenet::device_error, Contains("cuda"));
    TENET_REQUIRE_THROWS(tenet::Device("gpu"), tenet::device_error,
                           Contains("expected one of cpu, cuda, meta device type at start of device string: gpu"));
    TENET_REQUIRE_THROWS(tenet::Device("cuda:x"), tenet::device_error, Contains("invalid device string: 'cuda:x'"));
    TENET_REQUIRE_THROWS(tenet::Device("cpu:1"), tenet::device_error, Contains("CPU device index must be -1 or zero"));
    CHECK(tenet::Device("cuda:1").index() == 1);
    // 8-bit indices, as LibTorch's DeviceIndex (where PyTorch 1.13 wraps "cuda:300" to cuda:44, tenet refuses).
    CHECK(tenet::Device("cuda:127").index() == 127);
    TENET_REQUIRE_THROWS(tenet::Device("cuda:300"), tenet::device_error, Contains("must be -1 or in [0, 127], got 300"));
    TENET_REQUIRE_THROWS(tenet::Device(tenet::kCUDA, -2), tenet::device_error, Contains("got -2"));
    STATIC_REQUIRE(sizeof(tenet::Device) == 2);
}

TEST_CASE("errors: writes into overlapping or undefined tensors") {
    auto c = tenet::arange(3).view({3, 1});
    auto e = c.expand({3, 4});
    TENET_REQUIRE_THROWS(e.copy_(tenet::zeros({3, 4}, tenet::kInt64)), tenet::error,
                           Contains("copy_: unsupported operation: more than one element of the written-to tensor "
                                    "refers to a single memory location") &&
                               Contains("[3, 4]") && Contains("[1, 0]"));
    TENET_REQUIRE_THROWS(e.fill_(1), tenet::error, Contains("fill_: unsupported operation"));
    TENET_REQUIRE_THROWS(e.index({Slice(), Slice()}) = 2, tenet::error, Contains("more than one element"));
    CHECK(c.to_vector() == std::vector<int64_t>{0, 1, 2});  // nothing was written
    e.index({Slice(), 0}).fill_(9);  // a size-1 slice of an expanded dim may be written
    CHECK(c.to_vector() == std::vector<int64_t>{9, 9, 9});

    tenet::Tensor<float> u;
    CHECK_FALSE(u.defined());
    TENET_REQUIRE_THROWS(u.sizes(), tenet::error, Contains("the tensor is undefined"));
    TENET_REQUIRE_THROWS(u.numel(), tenet::error, Contains("undefined"));
    TENET_REQUIRE_THROWS(u.view({1}), tenet::error, Contains("undefined"));
    TENET_REQUIRE_THROWS(u.fill_(1.0f), tenet::error, Contains("undefined"));
    TENET_REQUIRE_THROWS(tenet::zeros({2}).copy_(u), tenet::error, Contains("undefined"));
}

}}  // namespace TENET_TEST_FILE
