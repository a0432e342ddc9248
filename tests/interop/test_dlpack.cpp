// The DLPack bridge with hand-built DLManagedTensors: every dtype, strides, byte_offset, NULL
// strides, 0-d, ownership (the deleter runs exactly once, after the last tensor dies; never when
// from_dlpack throws), the checks on malformed descriptions, and to_dlpack's export. The dtype
// codes are DLPack 0.6's table (dlpack.h); the expected elements are index arithmetic. The
// exchange with real PyTorch is tests/interop/check_dlpack.py.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "tenet/tenet.hpp"
#include "tenet/interop.hpp"

#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using Catch::Matchers::Contains;
using namespace tenet::indexing;


namespace {

/// A hand-built managed tensor whose deleter counts its calls.
struct Managed {
    DLManagedTensor m{};
    std::vector<int64_t> shape, strides;
    int deleted = 0;

    Managed(void* data, DLDataType dtype, std::vector<int64_t> shape_, const std::vector<int64_t>* strides_ = nullptr,
            uint64_t byte_offset = 0, DLDevice device = {kDLCPU, 0})
        : shape(std::move(shape_)) {
        if (strides_) strides = *strides_;
        m.dl_tensor.data = data;
        m.dl_tensor.device = device;
        m.dl_tensor.ndim = static_cast<int>(shape.size());
        m.dl_tensor.dtype = dtype;
        m.dl_tensor.shape = shape.empty() ? nullptr : shape.data();
        m.dl_tensor.strides = strides_ ? strides.data() : nullptr;
        m.dl_tensor.byte_offset = byte_offset;
        m.manager_ctx = &deleted;
        m.deleter = [](DLManagedTensor* self) { ++*static_cast<int*>(self->manager_ctx); };
    }
    Managed(const Managed&) = delete;
    Managed& operator=(const Managed&) = delete;
};

DLDataType dl(uint8_t code, uint8_t bits, uint16_t lanes = 1) { return DLDataType{code, bits, lanes}; }

std::vector<double> values(const tenet::TensorBase& t) {
    auto d = t.to<double>().contiguous();
    auto s = tenet::span(d);
    return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("dlpack: from_dlpack imports every dtype tenet has", "[interop][dlpack]") {
    struct Case {
        DLDataType dtype;
        tenet::DType expected;
    };
    const Case cases[] = {{dl(kDLUInt, 8), tenet::kUInt8},     {dl(kDLInt, 8), tenet::kInt8},
                          {dl(kDLInt, 16), tenet::kInt16},     {dl(kDLInt, 32), tenet::kInt32},
                          {dl(kDLInt, 64), tenet::kInt64},     {dl(kDLFloat, 16), tenet::kFloat16},
                          {dl(kDLBfloat, 16), tenet::kBFloat16}, {dl(kDLFloat, 32), tenet::kFloat32},
                          {dl(kDLFloat, 64), tenet::kFloat64}};
    for (const Case& c : cases) {
        // The source elements 0..5, written by tenet in the expected dtype.
        tenet::TensorBase src = tenet::visit_dtype(c.expected, [](auto tag) -> tenet::TensorBase {
            using U = typename decltype(tag)::type;
            return tenet::arange(6).to<U>();
        });
        Managed h(src.impl().storage->data(), c.dtype, {2, 3});
        {
            tenet::TensorBase t = tenet::from_dlpack(&h.m);
            INFO("dtype " << c.expected);
            REQUIRE(t.dtype() == c.expected);
            REQUIRE(t.sizes() == tenet::IntArray{2, 3});
            REQUIRE(t.strides() == tenet::IntArray{3, 1});
            REQUIRE(t.impl().storage->data() == src.impl().storage->data());
            REQUIRE(values(t) == std::vector<double>{0, 1, 2, 3, 4, 5});
            REQUIRE(h.deleted == 0);
        }
        REQUIRE(h.deleted == 1);
    }
}

TEST_CASE("dlpack: from_dlpack honours strides and byte_offset", "[interop][dlpack]") {
    std::vector<float> buf(20);
    for (int k = 0; k < 20; ++k) buf[k] = float(k);
    const std::vector<int64_t> strides{5, 2};
    Managed h(buf.data(), dl(kDLFloat, 32), {2, 3}, &strides, 1 * sizeof(float));  // [i, j] = 1 + 5 i + 2 j
    auto t = tenet::from_dlpack<float>(&h.m);
    REQUIRE(t.strides() == tenet::IntArray{5, 2});
    REQUIRE(t.data_ptr() == buf.data() + 1);
    REQUIRE(values(t) == std::vector<double>{1, 3, 5, 6, 8, 10});
    t(1, 2) = -1.0f;  // writes reach the producer's memory
    REQUIRE(buf[1 + 5 + 4] == -1.0f);
    buf[3] = 30.0f;
    REQUIRE(t(0, 1) == 30.0f);
}

TEST_CASE("dlpack: NULL strides mean compact row-major; 0-d and empty tensors", "[interop][dlpack]") {
    std::vector<int64_t> buf(24);
    for (int k = 0; k < 24; ++k) buf[k] = 100 + k;
    {
        Managed h(buf.data(), dl(kDLInt, 64), {2, 3, 4});
        auto t = tenet::from_dlpack<int64_t>(&h.m);
        REQUIRE(t.strides() == tenet::IntArray{12, 4, 1});
        REQUIRE(t(1, 2, 3) == 100 + 12 + 8 + 3);
    }
    {
        Managed h(buf.data(), dl(kDLInt, 64), {}, nullptr, 5 * sizeof(int64_t));  // 0-d, shape NULL
        auto t = tenet::from_dlpack<int64_t>(&h.m);
        REQUIRE(t.dim() == 0);
        REQUIRE(t.item() == 105);
    }
    {
        Managed h(nullptr, dl(kDLFloat, 32), {0, 3});  // no elements: data may be NULL
        auto t = tenet::from_dlpack<float>(&h.m);
        REQUIRE(t.sizes() == tenet::IntArray{0, 3});
        REQUIRE(t.numel() == 0);
        REQUIRE(t.sum().item() == 0.0f);
    }
}

TEST_CASE("dlpack: the deleter runs exactly once, after the last tensor using the memory dies", "[interop][dlpack]") {
    std::vector<double> buf{1, 2, 3, 4};
    Managed h(buf.data(), dl(kDLFloat, 64), {2, 2});
    tenet::Tensor<double> view;
    {
        auto t = tenet::from_dlpack<double>(&h.m);
        view = t.t();
        auto copy = t;
    }
    REQUIRE(h.deleted == 0);  // the transposed view still uses it
    REQUIRE(view(0, 1) == 3.0);
    view = tenet::Tensor<double>();
    REQUIRE(h.deleted == 1);
    // A NULL deleter is allowed (DLPack: no way to release): nothing is called.
    Managed n(buf.data(), dl(kDLFloat, 64), {4});
    n.m.deleter = nullptr;
    { auto t = tenet::from_dlpack(&n.m); }
    REQUIRE(n.deleted == 0);
}

TEST_CASE("dlpack: typed from_dlpack<T> refuses another dtype without taking ownership", "[interop][dlpack]") {
    std::vector<int32_t> buf{1, 2, 3};
    Managed h(buf.data(), dl(kDLInt, 32), {3});
    TENET_REQUIRE_THROWS(tenet::from_dlpack<float>(&h.m), tenet::dtype_error,
                         Contains("from_dlpack: expected dtype tenet.float32 but the DLPack tensor holds tenet.int32"));
    REQUIRE(h.deleted == 0);  // still the caller's, who releases it once
    h.m.deleter(&h.m);
    REQUIRE(h.deleted == 1);
}

TEST_CASE("dlpack: from_dlpack refuses malformed descriptions before taking ownership", "[interop][dlpack]") {
    alignas(16) static double buf[16] = {};
    auto refuse = [](Managed& h, auto matcher) {
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::error);
        REQUIRE_THROWS_WITH(tenet::from_dlpack(&h.m), matcher);
        REQUIRE(h.deleted == 0);
    };
    {
        Managed h(buf, dl(kDLFloat, 32, 4), {2});
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::dtype_error);
        refuse(h, Contains("code 2, bits 32, lanes 4") && Contains("lanes != 1"));
    }
    {
        Managed h(buf, dl(kDLComplex, 32), {2});  // PyTorch's complex32 (torch.chalf)
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::dtype_error);
        refuse(h, Contains("code 5, bits 32") && Contains("no complex32"));
    }
    {
        Managed h(buf, dl(kDLUInt, 16), {2});
        refuse(h, Contains("code 1, bits 16") && Contains("only unsigned dtype is uint8"));
    }
    {
        Managed h(buf, dl(kDLFloat, 8), {2});
        refuse(h, Contains("code 2, bits 8"));
    }
    {
        Managed h(buf, dl(kDLOpaqueHandle, 64), {2});
        refuse(h, Contains("code 3, bits 64") && Contains("unknown type code"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2});
        h.m.dl_tensor.ndim = -1;
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::value_error);
        refuse(h, Contains("ndim -1 is out of range [0, 64]"));
        h.m.dl_tensor.ndim = 65;
        refuse(h, Contains("ndim 65 is out of range"));
        h.m.dl_tensor.ndim = 1;
        h.m.dl_tensor.shape = nullptr;
        refuse(h, Contains("shape is NULL for ndim 1"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2, -3});
        refuse(h, Contains("negative size in shape [2, -3]"));
    }
    {
        const std::vector<int64_t> strides{-1};
        Managed h(buf, dl(kDLFloat, 64), {2}, &strides);
        refuse(h, Contains("negative stride in strides [-1]"));
    }
    {
        Managed h(nullptr, dl(kDLFloat, 64), {2});
        refuse(h, Contains("data is NULL for a tensor of shape [2]"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2}, nullptr, 4);  // a double at a 4-byte offset
        refuse(h, Contains("byte_offset 4 is not aligned to the 8-byte elements of dtype tenet.float64"));
    }
    {
        const int64_t big = int64_t{1} << 32;
        Managed h(buf, dl(kDLFloat, 64), {big, big});  // 2^64 elements
        refuse(h, Contains("element count of shape [4294967296, 4294967296] overflows int64"));
    }
    {
        const std::vector<int64_t> strides{std::numeric_limits<int64_t>::max() / 2, 1};
        Managed h(buf, dl(kDLFloat, 64), {3, 1}, &strides);
        refuse(h, Contains("size * stride of dim 0 overflows int64"));
    }
    {
        const std::vector<int64_t> strides{int64_t{1} << 61};
        Managed h(buf, dl(kDLFloat, 64), {2}, &strides);  // 2^61 + 1 elements of 8 bytes
        refuse(h, Contains("extent of shape [2] with strides [2305843009213693952]") && Contains("overflows int64"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2}, nullptr, uint64_t{1} << 63);
        refuse(h, Contains("byte_offset 9223372036854775808 is out of range"));
    }
    {
        // byte_offset 2^63 - 8 plus an extent of 2^63 - 8 bytes passes the end of the address space.
        const std::vector<int64_t> strides{(int64_t{1} << 60) - 2};
        Managed h(buf, dl(kDLFloat, 64), {2}, &strides, (uint64_t{1} << 63) - 8);
        refuse(h, Contains("wraps around the address space"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2}, nullptr, 0, {kDLOpenCL, 0});
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::device_error);
        refuse(h, Contains("unsupported DLPack device type 4"));
    }
    {
        Managed h(buf, dl(kDLFloat, 64), {2}, nullptr, 0, {kDLCUDA, 200});
        REQUIRE_THROWS_AS(tenet::from_dlpack(&h.m), tenet::device_error);
        refuse(h, Contains("CUDA device index 200 is out of range [0, 127]"));
    }
    REQUIRE_THROWS_WITH(tenet::from_dlpack(nullptr), Contains("the DLManagedTensor is NULL"));
}

TEST_CASE("dlpack: a CUDA tensor without a CUDA backend is a device_error, not taken", "[interop][dlpack]") {
    if (tenet::detail::device_backend_slot() != nullptr) {
        WARN("skipped: this program has a CUDA backend");
        return;
    }
    alignas(8) static float buf[4] = {};
    Managed h(buf, dl(kDLFloat, 32), {4}, nullptr, 0, {kDLCUDA, 0});
    TENET_REQUIRE_THROWS(tenet::from_dlpack(&h.m), tenet::device_error, Contains("from_dlpack"));
    REQUIRE(h.deleted == 0);
}

TEST_CASE("dlpack: to_dlpack exports dtype, shape, strides and the first element", "[interop][dlpack]") {
    struct Case {
        tenet::DType dtype;
        uint8_t code, bits;
    };
    const Case cases[] = {{tenet::kUInt8, kDLUInt, 8},     {tenet::kInt8, kDLInt, 8},
                          {tenet::kInt16, kDLInt, 16},     {tenet::kInt32, kDLInt, 32},
                          {tenet::kInt64, kDLInt, 64},     {tenet::kFloat16, kDLFloat, 16},
                          {tenet::kBFloat16, kDLBfloat, 16}, {tenet::kFloat32, kDLFloat, 32},
                          {tenet::kFloat64, kDLFloat, 64}};
    for (const Case& c : cases) {
        tenet::TensorBase base = tenet::visit_dtype(c.dtype, [](auto tag) -> tenet::TensorBase {
            using U = typename decltype(tag)::type;
            return tenet::arange(12).to<U>().reshape({3, 4}).t().slice(0, 1);  // [3, 3], strides [1, 4], offset 4
        });
        INFO("dtype " << c.dtype);
        DLManagedTensor* m = tenet::to_dlpack(base);
        const DLTensor& d = m->dl_tensor;
        REQUIRE(int(d.dtype.code) == c.code);
        REQUIRE(int(d.dtype.bits) == c.bits);
        REQUIRE(d.dtype.lanes == 1);
        REQUIRE(d.device.device_type == kDLCPU);
        REQUIRE(d.device.device_id == 0);
        REQUIRE(d.ndim == 2);
        REQUIRE(std::vector<int64_t>(d.shape, d.shape + 2) == std::vector<int64_t>{3, 3});
        REQUIRE(std::vector<int64_t>(d.strides, d.strides + 2) == std::vector<int64_t>{1, 4});
        REQUIRE(d.byte_offset == 0);
        REQUIRE(d.data == static_cast<char*>(base.impl().storage->data()) + 1 * base.itemsize());
        m->deleter(m);
    }
    TENET_REQUIRE_THROWS(tenet::to_dlpack(tenet::tensor({true, false})), tenet::dtype_error,
                         Contains("to_dlpack: Bool type is not supported by dlpack"));
}

TEST_CASE("dlpack: the exported tensor keeps the storage alive until its deleter runs", "[interop][dlpack]") {
    DLManagedTensor* m = nullptr;
    std::weak_ptr<tenet::StorageImpl> storage;
    {
        auto t = tenet::arange(5.0f);
        storage = t.impl().storage;
        m = tenet::to_dlpack(t);
    }
    REQUIRE_FALSE(storage.expired());
    REQUIRE(static_cast<float*>(m->dl_tensor.data)[4] == 4.0f);  // still readable (ASan checks)
    m->deleter(m);
    REQUIRE(storage.expired());
    // A 0-d tensor: ndim 0.
    DLManagedTensor* s = tenet::to_dlpack(tenet::tensor({7.0f}).reshape({}));
    REQUIRE(s->dl_tensor.ndim == 0);
    REQUIRE(*static_cast<float*>(s->dl_tensor.data) == 7.0f);
    s->deleter(s);
}

TEST_CASE("dlpack: to_dlpack then from_dlpack shares the memory both ways", "[interop][dlpack]") {
    auto t = tenet::arange(12).to<int32_t>().reshape({3, 4}).index({Slice(None, None, 2), Slice(1, None)});
    std::weak_ptr<tenet::StorageImpl> storage = t.impl().storage;
    {
        auto back = tenet::from_dlpack<int32_t>(tenet::to_dlpack(t));
        REQUIRE(back.data_ptr() == t.data_ptr());
        REQUIRE(back.sizes() == t.sizes());
        REQUIRE(back.strides() == t.strides());
        REQUIRE(values(back) == std::vector<double>{1, 2, 3, 9, 10, 11});
        back(1, 0) = -9;
        REQUIRE(t(1, 0) == -9);
        t = tenet::Tensor<int32_t>();
        REQUIRE_FALSE(storage.expired());  // the import holds the export, which holds the storage
    }
    REQUIRE(storage.expired());  // the import's death ran the export's deleter
}

TEST_CASE("dlpack: complex64 and complex128 are kDLComplex 64 and 128, both ways", "[interop][dlpack]") {
    using tenet::complex;
    // DLPack's table (dlpack.h, and PyTorch's DLConvertor): kDLComplex is type code 5, and bits
    // count the whole (real, imaginary) pair.
    static_assert(kDLComplex == 5);
    // Export: a non-contiguous view, [3, 2] of a [4, 6] complex64 tensor, offset 7, strides [6, 2].
    tenet::Tensor<complex<float>> base = tenet::empty<complex<float>>({4, 6});
    for (int k = 0; k < 24; ++k) base.data_ptr()[k] = complex<float>(float(k), -0.5f * float(k));
    auto view = base.index({Slice(1, None, 1), Slice(1, None, 2)}).index({Slice(None, 3)});
    DLManagedTensor* m = tenet::to_dlpack(view);
    const DLTensor& d = m->dl_tensor;
    REQUIRE(int(d.dtype.code) == 5);
    REQUIRE(int(d.dtype.bits) == 64);
    REQUIRE(d.dtype.lanes == 1);
    REQUIRE(std::vector<int64_t>(d.shape, d.shape + 2) == std::vector<int64_t>{3, 3});
    REQUIRE(std::vector<int64_t>(d.strides, d.strides + 2) == std::vector<int64_t>{6, 2});
    REQUIRE(d.data == static_cast<void*>(base.data_ptr() + 7));
    {
        // And back: the same memory, the same elements, writes seen both ways.
        auto back = tenet::from_dlpack<complex<float>>(m);
        REQUIRE(back.strides() == tenet::IntArray{6, 2});
        REQUIRE(back(2, 1) == complex<float>(21.0f, -10.5f));  // base element 7 + 2 * 6 + 1 * 2
        back(0, 0) = complex<float>(1.0f, 2.0f);
        REQUIRE(base.data_ptr()[7] == complex<float>(1.0f, 2.0f));
    }
    // Import of a hand-built complex128 tensor (16-byte elements, byte_offset of one element).
    std::vector<complex<double>> buf(7);
    for (int k = 0; k < 7; ++k) buf[k] = complex<double>(k, 10 + k);
    const std::vector<int64_t> strides{2};
    Managed h(buf.data(), dl(kDLComplex, 128), {3}, &strides, sizeof(complex<double>));
    {
        tenet::TensorBase t = tenet::from_dlpack(&h.m);
        REQUIRE(t.dtype() == tenet::kComplex128);
        const auto c = t.as<complex<double>>();
        REQUIRE(c(0) == complex<double>(1, 11));
        REQUIRE(c(2) == complex<double>(5, 15));
        DLManagedTensor* again = tenet::to_dlpack(c);
        REQUIRE(int(again->dl_tensor.dtype.code) == 5);
        REQUIRE(int(again->dl_tensor.dtype.bits) == 128);
        again->deleter(again);
    }
    REQUIRE(h.deleted == 1);
    // complex128 bits under kDLFloat are not a complex: refused.
    Managed f(buf.data(), dl(kDLFloat, 128), {3});
    TENET_REQUIRE_THROWS(tenet::from_dlpack(&f.m), tenet::dtype_error, Contains("code 2, bits 128"));
    REQUIRE(f.deleted == 0);
}

}}  // namespace TENET_TEST_FILE
