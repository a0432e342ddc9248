// The seed examples of the data layer: storage offsets and strides of views, writes
// through views and through the storage, clone independence, from_blob, handle
// aliasing, the version counter and the caching host allocator.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "tenet/tenet.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using IA = tenet::IntArray;

TEST_CASE("seed: points storage offsets and strides") {
    auto points = tenet::tensor({{4.0, 1.0}, {5.0, 3.0}, {2.0, 1.0}});
    CHECK(points.dtype() == tenet::kFloat32);
    CHECK(points[1].storage_offset() == 2);
    CHECK(points.stride() == IA{2, 1});
    CHECK(points.t().stride() == IA{1, 2});
    CHECK_FALSE(points.t().is_contiguous());
    CHECK(points.t().sizes() == IA{2, 3});
    CHECK(tenet::ones({3, 4, 5}).transpose(0, 2).stride() == IA{1, 5, 20});
    auto tc = points.t().contiguous();
    CHECK(tc.stride() == IA{3, 1});
    CHECK(tc.is_contiguous());
    CHECK(tc.to_vector() == std::vector<float>{4, 5, 2, 1, 3, 1});
    CHECK_FALSE(tc.is_alias_of(points));
    CHECK(points.contiguous().is_same(points));  // already contiguous: itself
}

TEST_CASE("seed: writes through views and through the storage") {
    auto points = tenet::tensor({{4.0, 1.0}, {5.0, 3.0}, {2.0, 1.0}});
    auto second_point = points[1];
    CHECK(second_point.storage_offset() == 2);
    CHECK(second_point.sizes() == IA{2});
    second_point[0] = 10.0;
    CHECK(points.to_vector() == std::vector<float>{4, 1, 10, 3, 2, 1});
    CHECK(points(1, 0) == 10.0f);

    auto storage = points.storage();
    CHECK(storage.sizes() == IA{6});
    CHECK(storage.is_alias_of(points));
    storage[5] = 7.0f;
    storage(0) = -1.0f;
    CHECK(points.to_vector() == std::vector<float>{-1, 1, 10, 3, 2, 7});
    CHECK(points[1].storage().sizes() == IA{6});  // a view's storage is the whole buffer

    auto copy = points.clone();
    CHECK_FALSE(copy.is_alias_of(points));
    copy[0][0] = 100.0f;
    points[2][1] = 200.0f;
    CHECK(points(0, 0) == -1.0f);
    CHECK(copy(2, 1) == 7.0f);
    CHECK(copy(0, 0) == 100.0f);
}

TEST_CASE("seed: from_blob is zero-copy and calls its deleter once") {
    std::vector<float> buffer{1, 2, 3, 4, 5, 6};
    int deleted = 0;
    void* deleted_ptr = nullptr;
    {
        auto t = tenet::from_blob(buffer.data(), {2, 3}, [&](void* p) {
            ++deleted;
            deleted_ptr = p;
        });
        CHECK(t.data_ptr() == buffer.data());
        t(1, 2) = 60.0f;
        CHECK(buffer[5] == 60.0f);
        buffer[0] = 10.0f;
        CHECK(t(0, 0) == 10.0f);
        tenet::Tensor<float> keep = t.t()[1];  // a view outlives the original handle
        {
            auto copy = t;  // another handle to the same tensor
            (void)copy;
        }
        t = tenet::Tensor<float>();
        CHECK(deleted == 0);
        CHECK(keep.to_vector() == std::vector<float>{2, 5});
        keep = tenet::Tensor<float>();
        CHECK(deleted == 1);
    }
    CHECK(deleted == 1);
    CHECK(deleted_ptr == buffer.data());

    auto strided = tenet::from_blob(buffer.data(), {3}, {2});  // no deleter
    CHECK(strided.to_vector() == std::vector<float>{10, 3, 5});
}

TEST_CASE("seed: data_ptr arithmetic") {
    auto a = tenet::arange(24).view({2, 3, 4});
    int64_t* base = a.data_ptr();
    auto v = a.index({1, tenet::Slice(1, tenet::None), tenet::Slice(tenet::None, tenet::None, 2)});
    CHECK(v.data_ptr() == base + 12 + 4);
    CHECK(v.data_ptr() - base == v.storage_offset());
    CHECK(*(v.data_ptr() + v.stride(0) + v.stride(1)) == v(1, 1));
    CHECK(v(1, 1) == 22);
    CHECK(a[1][2].data_ptr() == &a(1, 2, 0));
    CHECK(a.transpose(0, 2).data_ptr() == base);
}

TEST_CASE("seed: copying a handle aliases the tensor (TensorImpl semantics)") {
    auto x = tenet::arange(6).view({2, 3});
    auto y = x;  // the same tensor, not a view
    CHECK(y.is_same(x));
    y.unsqueeze_(0);
    CHECK(x.sizes() == IA{1, 2, 3});
    CHECK(x.stride() == IA{6, 3, 1});
    x.squeeze_();
    CHECK(y.sizes() == IA{2, 3});
    y.transpose_(0, 1);
    CHECK(x.stride() == IA{1, 3});
    auto w = x.view({3, 2});  // a view is a different tensor: in-place shape ops on x leave it alone
    x.unsqueeze_(-1);
    CHECK(y.sizes() == IA{3, 2, 1});
    CHECK(w.sizes() == IA{3, 2});
    CHECK(w.is_alias_of(x));
    w(2, 1) = 50;
    CHECK(y(2, 1, 0) == 50);
}

// Handles share ownership across threads (TensorImplPtr counts owners in the TensorImpl): the
// count stays exact under concurrent copies, and the tensor, with its storage, is freed when
// the last handle goes, on whichever thread drops it.
TEST_CASE("seed: a tensor lives while any handle to it does, on any thread") {
    auto& alloc = tenet::host_allocator();
    const int64_t before = alloc.stats().in_use_bytes;
    std::optional<tenet::Tensor<float>> x = tenet::full({1000}, 2.0f);
    const int64_t with_x = alloc.stats().in_use_bytes;
    CHECK(with_x > before);
    CHECK(x->impl_ptr().use_count() == 1);

    // Self-assignment and moves keep the count exact; a moved-from handle is undefined.
    tenet::Tensor<float> h = *x;
    tenet::Tensor<float>& same = h;
    h = same;
    CHECK(x->impl_ptr().use_count() == 2);
    tenet::Tensor<float> moved = std::move(h);
    CHECK_FALSE(h.defined());  // NOLINT(bugprone-use-after-move): the moved-from state is the point
    CHECK(x->impl_ptr().use_count() == 2);
    moved = tenet::Tensor<float>();
    CHECK(x->impl_ptr().use_count() == 1);

    std::vector<tenet::Tensor<float>> kept(2);
    auto churn = [&](size_t k) {
        for (int i = 0; i < 20000; ++i) {
            tenet::Tensor<float> copy = *x;
            auto e = copy + *x;  // an expression's leaves own handles too
            auto e2 = e;
            (void)e2;
        }
        kept[k] = *x;
    };
    std::thread t0(churn, 0), t1(churn, 1);
    t0.join();
    t1.join();
    CHECK(x->impl_ptr().use_count() == 3);
    CHECK(kept[1].is_same(*x));

    x.reset();
    CHECK(kept[0].impl_ptr().use_count() == 2);
    CHECK(alloc.stats().in_use_bytes == with_x);  // still owned by the two kept handles
    std::thread([&] { kept[0] = tenet::Tensor<float>(); }).join();
    CHECK(kept[1].impl_ptr().use_count() == 1);
    CHECK(kept[1].sum().item() == 2000.0f);
    std::thread([&] { kept[1] = tenet::Tensor<float>(); }).join();
    CHECK(alloc.stats().in_use_bytes == before);
}

TEST_CASE("seed: the version counter counts in-place writes through any view") {
    auto t = tenet::zeros({3, 4});
    auto view = t.t();
    const auto v0 = t._version();
    t.fill_(1.0f);
    CHECK(t._version() == v0 + 1);
    view.copy_(tenet::ones({4, 3}));
    CHECK(t._version() == v0 + 2);
    t.index({tenet::Slice(), 2}) = 7.0f;
    CHECK(view._version() == v0 + 3);
    t[0] = tenet::tensor({1.0, 2.0, 3.0, 4.0});
    CHECK(t._version() == v0 + 4);
    t.zero_();
    CHECK(t._version() == v0 + 5);
    (void)t.t().contiguous();  // reads and views do not count
    (void)t.clone();
    (void)t[1].to(tenet::kFloat64);
    CHECK(t._version() == v0 + 5);
}

TEST_CASE("seed: the caching host allocator reuses large blocks") {
    auto& alloc = tenet::host_allocator();
    tenet::empty_cache();
    const auto before = alloc.stats();
    constexpr int64_t n = (int64_t{64} << 20) / 4;  // 64 MiB of float
    for (int i = 0; i < 4; ++i) {
        auto big = tenet::empty({n});
        CHECK(reinterpret_cast<std::uintptr_t>(big.data_ptr()) % 64 == 0);
        big[n - 1] = 1.0f;
        const auto during = alloc.stats();
        CHECK(during.allocations == before.allocations + i + 1);
        CHECK(during.cache_hits == before.cache_hits + i);  // every iteration after the first hits
        CHECK(during.in_use_bytes >= before.in_use_bytes + (int64_t{64} << 20));
    }
    const auto after = alloc.stats();
    CHECK(after.cache_hits == before.cache_hits + 3);
    CHECK(after.cached_bytes >= (int64_t{64} << 20));
    tenet::empty_cache();
    CHECK(alloc.stats().cached_bytes == 0);
    auto again = tenet::empty({n});
    CHECK(alloc.stats().cache_hits == after.cache_hits);  // the cache was emptied: a fresh block

    // Every block is 64-byte aligned, small or large, and views keep element offsets.
    for (int64_t size : {0, 1, 3, 17, 1000, 100000}) {
        auto t = tenet::empty({size}, tenet::kInt8);
        CHECK(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % 64 == 0);
    }
    auto d = tenet::zeros({5}, tenet::kFloat64);
    CHECK(reinterpret_cast<std::uintptr_t>(d.data_ptr()) % 64 == 0);
    CHECK(d[1].data_ptr() == d.data_ptr() + 1);
}

}}  // namespace TENET_TEST_FILE
