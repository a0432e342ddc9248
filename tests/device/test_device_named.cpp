// Named tensors on the device (core/named.hpp): names are metadata, so creation, expressions,
// reductions, views, products, copies and printing name device tensors as host ones. Built
// twice (tests/CMakeLists.txt): on Thrust's OpenMP emulation in CI, and by nvcc for a GPU.
// Expected names are PyTorch's rules (tests/named/ checks them against PyTorch on the host);
// values are small integers, exact.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <sstream>
#include <string>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

std::string names_of(const TensorBase& t) { return detail::names_tuple_repr(t.names()); }

Tensor<float> x_on_device() {  // [[0, 1, 2], [3, 4, 5]] named ('N', 'C'), on the device
    return arange(6.0f).reshape({2, 3}).to(Device("cuda")).refine_names({"N", "C"});
}

}  // namespace

TEST_CASE("device named: creation, expressions and in-place writes name device tensors") {
    const auto z = zeros({2, 3}, TensorOptions().device(Device("cuda")).names({"N", std::nullopt}));
    CHECK(z.is_cuda());
    CHECK(names_of(z) == "('N', None)");
    const Tensor<float> x = x_on_device();
    const Tensor<float> y = x * 2 + z;
    CHECK(y.is_cuda());
    CHECK(names_of(y) == "('N', 'C')");
    CHECK(y.to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
    CHECK_THROWS_AS(Tensor<float>(x + zeros({2, 3}, TensorOptions().device(Device("cuda")).names({"N", "D"}))),
                    value_error);
    Tensor<float> w = zeros({2, 3}, Device("cuda"));
    w.add_(x);
    CHECK(names_of(w) == "('N', 'C')");
    // where has no name inference (PyTorch refuses it on named operands), the add after it has.
    CHECK_THROWS_AS(Tensor<float>(where(x > 2, x, 0.0f)), value_error);
    const Tensor<float> v = where(x.rename(std::nullopt) > 2, 1.0f, 0.0f) + x;
    CHECK(names_of(v) == "('N', 'C')");
    CHECK(v.to_vector() == std::vector<float>{0, 1, 2, 4, 5, 6});
}

TEST_CASE("device named: reductions, softmax, views, products and copies keep PyTorch's names") {
    const Tensor<float> x = x_on_device();
    const Tensor<float> s = x.sum("C");
    CHECK(s.is_cuda());
    CHECK(names_of(s) == "('N',)");
    CHECK(s.to_vector() == std::vector<float>{3, 12});
    CHECK(names_of(x.sum("N", true)) == "('N', 'C')");
    CHECK(names_of(x.softmax("C")) == "('N', 'C')");
    CHECK(names_of(x.transpose("N", "C")) == "('C', 'N')");
    CHECK(names_of(x.align_to({"C", "N"})) == "('C', 'N')");
    const Tensor<float> m = x.matmul(ones({3, 2}, Device("cuda")));
    CHECK(names_of(m) == "('N', None)");
    CHECK(m.to_vector() == std::vector<float>{3, 3, 12, 12});
    const Tensor<float> back = x.cpu();
    CHECK(back.is_cpu());
    CHECK(names_of(back) == "('N', 'C')");
    CHECK_THROWS_AS(x.view({6}), value_error);
}

TEST_CASE("device named: printing puts names after the device, as PyTorch's repr") {
    std::ostringstream s;
    s << x_on_device().sum("C");
    CHECK(s.str() == "tensor([ 3., 12.], device='cuda:0', names=('N',))");
}

}}  // namespace TENET_TEST_FILE
