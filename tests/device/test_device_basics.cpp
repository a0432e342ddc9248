// The device model (backend/device/device_backend.hpp, kernels/tenet/cuda/): tensors on "cuda", moves
// between host and device, printing, creation, random numbers, one kernel per assignment,
// broadcasting and views, in-place writes, autograd across devices, and the errors. Built
// twice (tests/CMakeLists.txt): on Thrust's OpenMP emulation in CI, and by nvcc for a GPU.
//
// Expected values here are mathematics (copies return what was copied, arange counts, small
// integer arithmetic is exact); printed forms come from PyTorch (gen_device_print.py).
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cstdint>
#include <string>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;

namespace {

const Device kCuda("cuda");
const Device kCuda0("cuda:0");

template <class T>
std::vector<T> values(const Tensor<T>& t) {
    return t.to_vector();
}

}  // namespace

TEST_CASE("device: a backend is registered and reports a device") {
    CHECK(cuda_is_available());
    CHECK(cuda_device_count() >= 1);
    CHECK(cuda_current_device() == 0);
    CHECK_FALSE(cuda_backend_name().empty());
    CHECK(accelerator::is_available());
    CHECK(accelerator::device_count() == cuda_device_count());
    REQUIRE(accelerator::current_accelerator().has_value());
    CHECK(accelerator::current_accelerator()->is_cuda());
    INFO("backend: " << cuda_backend_name());
    CHECK(cuda_is_emulated() == (cuda_backend_name().find("emulation") != std::string::npos));
}

TEST_CASE("device: \"cuda\" resolves to the current device, as in PyTorch") {
    auto z = zeros({2, 3}, "cuda");
    CHECK(z.device() == kCuda0);
    CHECK(z.device().str() == "cuda:0");
    CHECK(z.is_cuda());
    CHECK_FALSE(z.is_cpu());
    CHECK(zeros({2}, kCuda0).device() == kCuda0);
    CHECK(zeros({2}, device(Device(DeviceType::CUDA, 0))).device() == kCuda0);
    const std::string bad = "cuda:" + std::to_string(cuda_device_count());
    CHECK_THROWS_AS(zeros({2}, Device(bad)), device_error);
    CHECK_THROWS_WITH(zeros({2}, Device(bad)), Catch::Contains(bad) && Catch::Contains("CUDA device"));
}

TEST_CASE("device: moves between host and device keep values, shape and dtype") {
    const auto host = arange(12.0).view({3, 4});
    const auto dev = host.cuda();
    CHECK(dev.device() == kCuda0);
    CHECK(dev.sizes() == host.sizes());
    CHECK(dev.is_contiguous());
    CHECK(values(dev) == values(host));
    CHECK(values(dev.cpu()) == values(host));
    CHECK(dev.cpu().is_cpu());
    // Already there: the tensor itself, as PyTorch's to() returns self.
    CHECK(dev.cuda().is_same(dev));
    CHECK(dev.to(kCuda).is_same(dev));
    CHECK(host.cpu().is_same(host));
    // A strided source moves with its values in logical order.
    const auto t = host.t();
    CHECK(values(t.cuda()) == values(t));
    CHECK(values(t.cuda().cpu()) == values(t));
    CHECK(values(host.index({Slice(), Slice(None, None, 2)}).cuda()) == std::vector<float>{0, 2, 4, 6, 8, 10});
    // dtype and device in one step, either way.
    const auto d = host.to<double>(kCuda);
    STATIC_REQUIRE(std::is_same_v<decltype(d), const Tensor<double>>);
    CHECK(d.device() == kCuda0);
    CHECK(values(d) == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    CHECK(values(dev.to(Device("cpu"), kInt32)) == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    // item, to_vector and tolist read through a host copy.
    CHECK(dev.index({2, 3}).item() == 11.0f);
    CHECK(dev.sum().item<double>() == 66.0);
    CHECK(dev.tolist().size() == 3);
}

TEST_CASE("device: raw host access to device memory is refused") {
    auto dev = ones({2, 2}, "cuda");
    CHECK(dev.data_ptr() != nullptr);  // a device pointer, for kernels and libraries
    CHECK_THROWS_AS(dev(0, 0), device_error);
    CHECK_THROWS_WITH(dev(0, 0), Catch::Contains("cuda:0") && Catch::Contains(".cpu()"));
}

TEST_CASE("device: operands on different devices are an error naming both") {
    auto host = ones({3});
    auto dev = ones({3}, "cuda");
    CHECK_THROWS_AS(host + dev, device_error);
    CHECK_THROWS_WITH(host + dev, Catch::Contains("cpu") && Catch::Contains("cuda:0"));
    CHECK_THROWS_WITH(where(dev > 0, host, dev), Catch::Contains("cpu") && Catch::Contains("cuda:0"));
    // Writing a device expression into a host tensor (out=) is refused too.
    auto out = zeros({3});
    CHECK_THROWS_AS(out.assign(dev * 2), device_error);
    CHECK_THROWS_AS(out.index({Slice()}) = dev * 2, device_error);
    // copy_ is the explicit way across devices, with broadcasting and conversion.
    auto target = zeros({2, 3}, kFloat64);
    target.copy_(arange(3, kInt32).cuda());
    CHECK(values(target) == std::vector<double>{0, 1, 2, 0, 1, 2});
    auto back = zeros({2, 3}, kCuda);
    back.copy_(tensor({1.5, 2.5, 3.5}).to<double>());
    CHECK(values(back) == std::vector<float>{1.5, 2.5, 3.5, 1.5, 2.5, 3.5});
}

TEST_CASE("device: creation functions make their tensors on the device") {
    CHECK(values(zeros({3}, "cuda")) == std::vector<float>{0, 0, 0});
    CHECK(values(ones({2}, kInt64, "cuda")) == std::vector<int64_t>{1, 1});
    CHECK(values(full({2, 2}, 7, "cuda")) == std::vector<int64_t>{7, 7, 7, 7});
    CHECK(values(arange(5, "cuda")) == std::vector<int64_t>{0, 1, 2, 3, 4});
    CHECK(values(linspace(0.0, 1.0, 5, "cuda")) == std::vector<float>{0, 0.25, 0.5, 0.75, 1});
    CHECK(values(eye(2, "cuda")) == std::vector<float>{1, 0, 0, 1});
    CHECK(values(tensor({{1, 2}, {3, 4}}, "cuda")) == std::vector<int64_t>{1, 2, 3, 4});
    for (auto t : {zeros({3}, "cuda"), empty({3}, "cuda"), linspace(0.0, 1.0, 3, "cuda"), rand({3}, "cuda")})
        CHECK(t.device() == kCuda0);
    auto like = empty_like(zeros({2, 3}, "cuda"));
    CHECK(like.device() == kCuda0);
    CHECK(full_like(like, 2).device() == kCuda0);
    CHECK(randn_like(like).device() == kCuda0);
    const auto perm = randperm(6, "cuda");
    CHECK(perm.device() == kCuda0);
    auto sorted = values(perm);
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("device: a seed gives the same random numbers on the host and on the device") {
    for (uint64_t seed : {0ull, 42ull, 0xdeadbeefull}) {
        manual_seed(seed);
        const auto h = randn({1000});
        const auto hu = rand({7, 9}, kFloat64);
        const auto hi = randint(-5, 17, {100});
        const auto hn = normal(2.0, 3.0, {33});
        const auto hc = randn({40}, kComplex64);
        const auto hz = randn_like(ones({3, 5}, kComplex128));
        manual_seed(seed);
        const auto d = randn({1000}, "cuda");
        const auto du = rand({7, 9}, kFloat64, "cuda");
        const auto di = randint(-5, 17, {100}, "cuda");
        const auto dn = normal(2.0, 3.0, {33}, "cuda");
        const auto dc = randn({40}, kComplex64, "cuda");
        const auto dz = randn_like(ones({3, 5}, kComplex128, "cuda"));
        CHECK(values(d) == values(h));
        CHECK(values(du) == values(hu));
        CHECK(values(di) == values(hi));
        CHECK(values(dn) == values(hn));
        CHECK(dc.is_cuda());
        CHECK(dz.is_cuda());
        CHECK(values(dc) == values(hc));
        CHECK(values(dz) == values(hz));
    }
    // Element i depends only on (seed, offset, i): one launch over 5000 or two over parts agree.
    Generator g1(7), g2(7);
    const auto whole = rand({5000}, g1, "cuda");
    const auto first = rand({1234}, g2, "cuda");
    const auto rest = rand({5000 - 1234}, g2, "cuda");
    const auto w = values(whole), a = values(first), b = values(rest);
    CHECK(std::vector<float>(w.begin(), w.begin() + 1234) == a);
    CHECK(std::vector<float>(w.begin() + 1234, w.end()) == b);
}

TEST_CASE("device: an assignment is one kernel, whatever the tree") {
    auto a = arange(12.0).view({3, 4}).cuda();
    auto b = full({4}, 0.5, "cuda");
    auto c = full({3, 1}, -1.0, "cuda");
    const int64_t before = kernels::launches();
    auto e = sigmoid(a * b + c) * a - exp(c) / (b + 2);
    CHECK(kernels::launches() == before);  // building the expression launches nothing
    Tensor<float> y = e;
    CHECK(kernels::launches() == before + 1);
    CHECK(y.device() == kCuda0);
    CHECK(y.sizes() == IntArray{3, 4});
    // A reduction of an expression is one device reduction, with no kernel to materialise it.
    const int64_t before_sum = kernels::launches();
    auto s = sum(a * b + c);
    CHECK(kernels::launches() == before_sum + 1);
    CHECK(s.item() == (66.0f * 0.5f - 12.0f));
}

TEST_CASE("device: broadcasting and strided views work as on the host") {
    auto col = arange(3.0).view({3, 1}).cuda();
    auto row = arange(4.0).cuda();
    Tensor<float> outer = col * 10 + row;
    CHECK(outer.sizes() == IntArray{3, 4});
    CHECK(values(outer) == std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
    auto m = arange(6.0).view({2, 3}).cuda();
    Tensor<float> mt = m.t() + 0;  // a transposed read
    CHECK(values(mt) == std::vector<float>{0, 3, 1, 4, 2, 5});
    Tensor<float> sliced = m.index({Slice(), Slice(None, None, 2)}) * 2;
    CHECK(values(sliced) == std::vector<float>{0, 4, 6, 10});
    Tensor<float> expanded = m.index({Slice(), 0}).unsqueeze(1).expand({2, 3}) - m;
    CHECK(values(expanded) == std::vector<float>{0, -1, -2, 0, -1, -2});
    // Shape errors are the host's.
    CHECK_THROWS_AS(m + arange(4.0).cuda(), shape_error);
    // Mixed element types promote as PyTorch's.
    auto i = arange(3, "cuda");
    auto f = i * 2.5;
    STATIC_REQUIRE(std::is_same_v<decltype(f.eval()), Tensor<float>>);
    CHECK(values(f.eval()) == std::vector<float>{0, 2.5, 5});
    auto u = full({2}, 200, kUInt8, "cuda");
    CHECK(values((u + u).eval()) == std::vector<uint8_t>{144, 144});  // wraps, stays uint8
    CHECK(values((i > 0).eval()) == std::vector<bool>{false, true, true});
    auto h = full({2}, 1.5, kFloat16, "cuda");
    CHECK(values((h * 2).eval().to<float>()) == std::vector<float>{3, 3});
    CHECK(values(cast<int32_t>(tensor({1.7, -2.5}).cuda()).eval()) == std::vector<int32_t>{1, -2});
}

TEST_CASE("device: in-place writes, views and aliasing") {
    auto a = arange(4.0).cuda();
    a.add_(1).mul_(2);
    CHECK(values(a) == std::vector<float>{2, 4, 6, 8});
    a += ones({4}, "cuda") * 3;
    CHECK(values(a) == std::vector<float>{5, 7, 9, 11});
    a.clamp_(6, 10);
    CHECK(values(a) == std::vector<float>{6, 7, 9, 10});
    auto m = zeros({2, 3}, "cuda");
    m.index({Slice(), 0}) = 5;
    m.index({1}) = arange(3.0).cuda() + 1;
    CHECK(values(m) == std::vector<float>{5, 0, 0, 1, 2, 3});
    m.fill_(-1);
    CHECK(values(m) == std::vector<float>{-1, -1, -1, -1, -1, -1});
    m.t().zero_();
    CHECK(values(m) == std::vector<float>{0, 0, 0, 0, 0, 0});
    // Each write bumps the storage's version, as on the host.
    const auto v = m._version();
    m.add_(1);
    CHECK(m._version() > v);
    // The destination overlapping an input: PyTorch's result, through a temporary.
    auto s = tensor({{1.0, 2.0}, {3.0, 4.0}}).cuda();
    s.assign(s.t() + s);
    CHECK(values(s) == std::vector<float>{2, 5, 5, 8});
    auto r = arange(5.0).cuda();
    r.index({Slice(1, None)}) = r.index({Slice(None, -1)}) + 0;  // reads what it overwrites
    CHECK(values(r) == std::vector<float>{0, 0, 1, 2, 3});
}

TEST_CASE("device: reductions run on the device and return device tensors") {
    auto big = ones({1 << 20}, "cuda");
    auto total = big.sum();
    CHECK(total.device() == kCuda0);
    CHECK(total.item() == static_cast<float>(1 << 20));
    // Many result elements, and few: both paths of the device reduction.
    auto m = ones({1000, 300}, kFloat64, "cuda");
    CHECK(values(m.sum(1)) == std::vector<double>(1000, 300.0));
    CHECK(values(m.sum(0)) == std::vector<double>(300, 1000.0));
    auto mx = arange(12.0).view({3, 4}).cuda().max(1);
    CHECK(mx.values.device() == kCuda0);
    CHECK(mx.indices.device() == kCuda0);
    CHECK(values(mx.indices) == std::vector<int64_t>{3, 3, 3});
    CHECK(values(zeros({0}, "cuda").sum()) == std::vector<float>{0});
    CHECK(values((arange(6, "cuda") > 2).any(0)) == std::vector<bool>{true});
}

#if TENET_AUTOGRAD
TEST_CASE("device: autograd runs on the device and flows back across a move") {
    auto x = tensor({1.0, 2.0, 3.0}).requires_grad_();  // a host leaf
    auto y = x.cuda();
    CHECK(y.grad_fn()->name() == "ToCopyBackward0");
    auto z = (y * y * 2).sum();
    CHECK(z.device() == kCuda0);
    z.backward();
    REQUIRE(x.grad().defined());
    CHECK(x.grad().is_cpu());
    CHECK(values(x.grad()) == std::vector<float>{4, 8, 12});  // d/dx 2x^2 = 4x
    // A leaf on the device accumulates on the device, across backward calls.
    auto w = ones({2}, "cuda").requires_grad_();
    (w * 3).sum().backward();
    (w * 3).sum().backward();
    CHECK(w.grad().device() == kCuda0);
    CHECK(values(w.grad()) == std::vector<float>{6, 6});
    // The seed examples, on the device: y = x^2 at x = 3 gives 6.
    auto s = tensor(3.0, "cuda").requires_grad_();
    Tensor<float>(s * s).backward();
    CHECK(s.grad().item() == 6.0f);
}
#endif

TEST_CASE("device: printing shows the device as PyTorch does") {
#define DEVICE_PRINT_CASE(EXPR, TEXT) \
    {                                 \
        INFO(#EXPR);                  \
        CHECK(to_string(EXPR) == TEXT); \
    }
#include "device_print_cases.inc"
#undef DEVICE_PRINT_CASE
#if TENET_AUTOGRAD
    // The device comes before the autograd suffix (torch/_tensor_str.py appends device='...'
    // first and requires_grad last).
    auto g = ones({2}, "cuda").requires_grad_();
    CHECK(to_string(g) == "tensor([1., 1.], device='cuda:0', requires_grad=True)");
#endif
}

TEST_CASE("device: joins refuse inputs on different devices, naming both devices") {
    auto on_gpu = zeros({3}, kCuda0);
    auto on_cpu = zeros({3});
    CHECK_THROWS_AS(cat({on_cpu, on_gpu}), device_error);
    CHECK_THROWS_WITH(cat({on_cpu, on_gpu}), Catch::StartsWith("cat: ") && Catch::Contains("cpu and cuda:0"));
    CHECK_THROWS_WITH(stack({on_gpu, on_cpu}), Catch::StartsWith("stack: ") && Catch::Contains("cuda:0 and cpu"));
    CHECK_THROWS_WITH(hstack({on_cpu, on_cpu, on_gpu}), Catch::StartsWith("hstack: ") && Catch::Contains("cuda:0"));
}

TEST_CASE("device: flip runs on the device and keeps the input's memory order") {
    auto a = arange(6.0).view({2, 3}).cuda();
    auto f = a.flip({0, 1});
    CHECK(f.device() == kCuda0);
    CHECK(values(f) == std::vector<float>{5, 4, 3, 2, 1, 0});
    auto t = a.t().flip(0);  // read through negative strides, written in a's transposed order
    CHECK(t.strides() == IntArray{1, 3});
    CHECK(values(t) == std::vector<float>{2, 5, 1, 4, 0, 3});
    a.assign(a.flip(1));  // reads all of a before writing
    CHECK(values(a) == std::vector<float>{2, 1, 0, 5, 4, 3});
#if TENET_AUTOGRAD
    auto x = arange(4, kFloat64).cuda().requires_grad_();
    (x.flip(0) * arange(4, kFloat64).cuda()).sum().backward();
    CHECK(x.grad().device() == kCuda0);
    CHECK(values(x.grad()) == std::vector<double>{3, 2, 1, 0});
#endif
}

}}  // namespace TENET_TEST_FILE
