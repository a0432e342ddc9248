// Fused expressions: one pass, no temporaries, broadcasting, promotion, aliasing and
// errors. Expected values are computed here with plain loops over the same inputs.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <type_traits>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using namespace tenet::indexing;

namespace {
int64_t storage_allocations() { return host_allocator().stats().allocations; }
}  // namespace

TEST_CASE("expr: building an expression allocates nothing; evaluating it allocates only the result") {
    auto a = arange(12.0).view({3, 4});
    auto b = arange(4.0);
    auto c = full({3, 1}, 0.5);
    const int64_t before = storage_allocations();
    auto e = a * b + c - a / 2;
    CHECK(storage_allocations() == before);
    Tensor<float> y = e;
    CHECK(storage_allocations() == before + 1);
    auto out = empty({3, 4});
    const int64_t before_assign = storage_allocations();
    out.assign(e);
    out.index({Slice(), 0}) = a.index({Slice(), 1}) * 3 + 1;
    CHECK(storage_allocations() == before_assign);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) {
            const float av = static_cast<float>(4 * i + j);
            CHECK(y(i, j) == av * static_cast<float>(j) + 0.5f - av / 2);
            CHECK(out(i, j) == (j == 0 ? static_cast<float>(4 * i + 1) * 3 + 1 : av * static_cast<float>(j) + 0.5f - av / 2));
        }
}

TEST_CASE("expr: an expression keeps its operands alive and can be evaluated twice") {
    auto make = [] {
        auto a = arange(3.0);
        auto b = full({3}, 2.0);
        return a * b;  // a and b go out of scope here
    };
    auto e = make();
    Tensor<float> first = e, second = e;
    CHECK(first.to_vector() == std::vector<float>{0, 2, 4});
    CHECK(second.to_vector() == first.to_vector());
}

TEST_CASE("expr: broadcasting follows NumPy rules and errors name both shapes") {
    auto x = arange(6).view({2, 3, 1});
    auto y = arange(4).view({1, 4});
    Tensor<int64_t> z = x + y;
    CHECK(z.sizes() == IntArray{2, 3, 4});
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j)
            for (int64_t k = 0; k < 4; ++k) CHECK(z(i, j, k) == 3 * i + j + k);
    CHECK_THROWS_AS(ones({2, 3}) * ones({3, 2}), shape_error);
    CHECK_THROWS_WITH(ones({4, 3, 2}) * ones({4, 3}), Catch::Contains("[4, 3, 2]") && Catch::Contains("[4, 3]"));
    // Empty tensors broadcast like any other size.
    Tensor<float> empty_result = ones({0, 3}) + ones({3});
    CHECK(empty_result.sizes() == IntArray{0, 3});
    CHECK_THROWS_AS(ones({4, 3, 2}) * ones({0}), shape_error);
}

TEST_CASE("expr: element types promote as in PyTorch") {
    auto i64 = arange(3);
    auto u8 = i64.to<uint8_t>();
    auto i8 = i64.to<int8_t>();
    auto b = i64 > 0;
    STATIC_REQUIRE(std::is_same_v<decltype((i64 * 2.5).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i64.to<int32_t>() + i64.to<double>()).eval()), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype((b + i64).eval()), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((u8 + u8).eval()), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i8 + u8).eval()), Tensor<int16_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i64 < 2).eval()), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype((i64 / 2).eval()), Tensor<float>>);
    STATIC_REQUIRE(std::is_same_v<decltype(cast<double>(i64 * 2).eval()), Tensor<double>>);
    CHECK((i64 / 2).eval().to_vector() == std::vector<float>{0.0f, 0.5f, 1.0f});
    // uint8 arithmetic wraps as in PyTorch: 200 + 100 = 44.
    auto big = full({1}, 200).to<uint8_t>();
    CHECK((big + full({1}, 100).to<uint8_t>()).eval().item() == 44);
}

TEST_CASE("expr: aliasing gives PyTorch's result") {
    auto a = arange(9.0).view({3, 3});
    const auto reference = a.clone();
    a.assign(a.t() + a);  // reads a transposed while writing a: needs a temporary
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j) CHECK(a(i, j) == reference(j, i) + reference(i, j));

    auto x = arange(5.0);
    x.index({Slice(1, None)}) = x.index({Slice(None, 4)}) * 10;  // overlapping shifted views
    CHECK(x.to_vector() == std::vector<float>{0, 0, 10, 20, 30});

    auto s = arange(4.0);
    s.assign(s * 2 + 1);  // same elements: evaluated in place, still correct
    CHECK(s.to_vector() == std::vector<float>{1, 3, 5, 7});
}

TEST_CASE("expr: assignment through views and out= semantics") {
    auto t = zeros({3, 4});
    t.index({Slice(), 2}) = arange(3.0) + 1;
    t[0] = full({4}, 9.0) * 2;
    CHECK(t.tolist() == tensor({{18.0, 18.0, 18.0, 18.0}, {0.0, 0.0, 2.0, 0.0}, {0.0, 0.0, 3.0, 0.0}}).tolist());
    auto out = empty({2});
    const auto* storage_before = out.data_ptr();
    out.assign(ones({2}) * 3);
    CHECK(out.data_ptr() == storage_before);
    out.assign(ones({5}) * 3);  // wrong shape: resized, as PyTorch's out= does
    CHECK(out.sizes() == IntArray{5});
    CHECK_THROWS_AS(t.index({Slice(), 0}) = ones({4}) * 2, shape_error);
    CHECK_THROWS_AS(ones({1}).expand({3}) = ones({3}) * 2, error);  // written-to elements overlap
}

TEST_CASE("expr: results do not depend on the thread count") {
    const int saved = get_num_threads();
    auto a = arange(3.0 * 70000).view({3, 70000});
    auto b = arange(70000.0);
    set_num_threads(1);
    Tensor<float> one = a.t() * 2 + b.unsqueeze(1);
    Tensor<float> flat_one = a * b + 1;
    set_num_threads(2);
    Tensor<float> two = a.t() * 2 + b.unsqueeze(1);
    Tensor<float> flat_two = a * b + 1;
    set_num_threads(saved);
    CHECK(one.to_vector() == two.to_vector());
    CHECK(flat_one.to_vector() == flat_two.to_vector());
    CHECK_THROWS_AS(set_num_threads(0), value_error);
}

TEST_CASE("expr: a transposed operand is read tile by tile with the right values") {
    auto a = arange(300.0 * 70).view({300, 70});
    auto b = arange(70.0 * 300).view({70, 300});
    Tensor<float> y = a.t() + b;
    for (int64_t i = 0; i < 70; i += 7)
        for (int64_t j = 0; j < 300; j += 13) CHECK(y(i, j) == static_cast<float>(j * 70 + i) + static_cast<float>(i * 300 + j));
}

TEST_CASE("expr: rows longer than a chunk, with broadcast, gathered and strided operands") {
    // 600 columns = two full 256-column chunks and a short one: the constant-count loop of a full
    // chunk, the leaf pointers stepped between chunks, and the general loop of the last one.
    // Small integers, so every value and sum below is exact in float.
    constexpr int64_t R = 3, C = 600;
    auto x = empty({R, C}), xt = empty({C, R}), bias = empty({1, C}), scale = empty({R, 1});
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j)
            x.data_ptr()[i * C + j] = xt.data_ptr()[j * R + i] = static_cast<float>((i * 7 + j) % 13);
    for (int64_t j = 0; j < C; ++j) bias.data_ptr()[j] = static_cast<float>(j % 5);
    for (int64_t i = 0; i < R; ++i) scale.data_ptr()[i] = static_cast<float>(i + 1);
    auto want = [](int64_t i, int64_t j) { return static_cast<float>(((i * 7 + j) % 13 + j % 5) * (i + 1)); };
    auto check_all = [&](const Tensor<float>& y) {
        REQUIRE(y.sizes() == IntArray{R, C});
        int64_t wrong = 0;
        for (int64_t i = 0; i < R; ++i)
            for (int64_t j = 0; j < C; ++j) wrong += y(i, j) != want(i, j);
        CHECK(wrong == 0);
    };
    Tensor<float> broadcast = (x + bias) * scale;  // bias and scale broadcast, nothing gathered
    check_all(broadcast);
    Tensor<float> gathered = (xt.t() + bias) * scale;  // xt.t() has column stride 3: gathered per chunk
    check_all(gathered);
    auto wide = zeros({R, 2 * C});
    auto strided = wide.index({Slice(), Slice(None, None, 2)});  // an output with column stride 2
    strided.assign((x + bias) * scale);
    check_all(strided);
    CHECK(wide.index({Slice(), Slice(1, None, 2)}).to_vector() == std::vector<float>(R * C, 0.0f));

    // Reductions of the same rows fold them chunk by chunk too.
    std::vector<float> row_sums(R, 0.0f);
    float total = 0.0f;
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) row_sums[i] += want(i, j);
    for (float s : row_sums) total += s;
    CHECK(sum((x + bias) * scale).item() == total);
    CHECK(sum((x + bias) * scale, 1).to_vector() == row_sums);
    CHECK(sum((xt.t() + bias) * scale, 1).to_vector() == row_sums);
}

TEST_CASE("expr: noalias skips the aliasing temporary") {
    auto a = arange(9.0).view({3, 3});
    auto b = ones({3, 3});
    auto y = empty({3, 3});
    y.noalias() = a * 2 + b;
    CHECK(y(2, 2) == 17.0f);
    const int64_t before = host_allocator().stats().allocations;
    a.assign(a.t() + b);  // overlapping: one temporary
    CHECK(host_allocator().stats().allocations == before + 1);
    auto c = arange(9.0).view({3, 3});
    const int64_t before_noalias = host_allocator().stats().allocations;
    c.noalias() = c.t() * 0 + b;  // the caller's promise: no temporary is made
    CHECK(host_allocator().stats().allocations == before_noalias);
    CHECK(c.to_vector() == std::vector<float>(9, 1.0f));
}

// TensorImpl caches is_contiguous and numel (the tiny-op path reads them, not the geometry);
// every way of making or reshaping a tensor's geometry must keep them equal to its answer.
TEST_CASE("expr: the cached contiguity and element count follow every view and in-place shape change") {
    auto cached_matches = [](const TensorBase& t) {
        return t.impl().contiguous() == detail::is_contiguous(t.sizes(), t.strides()) &&
               t.impl().numel() == product(t.sizes());
    };
    Tensor<float> a = arange(0.0, 24.0, 1.0).view({2, 3, 4});
    const std::vector<Tensor<float>> views = {a,
                                              a.transpose(0, 1).contiguous(),
                                              a.transpose(0, 2),
                                              a.permute({1, 0, 2}),
                                              a.select(1, 2),
                                              a.narrow(2, 1, 2),
                                              a.narrow(0, 1, 1),
                                              a.index({Slice(), Slice(None, None, 2)}),
                                              a.index({0}),
                                              a.unsqueeze(1),
                                              a.view({6, 4}),
                                              a.flatten(),
                                              a.index({Slice(), 0}).unsqueeze(0).expand({5, 2, 4}),
                                              a.reshape({4, 6}).t()};
    for (const auto& v : views) CHECK(cached_matches(v));
    CHECK(a.index({Slice(), Slice(None, None, 2)}).numel() == 16);  // 2 x ceil(3 / 2) x 4
    CHECK(a.index({Slice(), 0}).unsqueeze(0).expand({5, 2, 4}).numel() == 40);
    CHECK_FALSE(a.transpose(0, 2).is_contiguous());
    CHECK(a.narrow(0, 1, 1).is_contiguous());

    // In-place shape ops change the geometry every handle copy sees, and the flag with it.
    Tensor<float> m = arange(0.0, 6.0, 1.0).view({2, 3});
    Tensor<float> alias = m;
    m.t_();
    CHECK_FALSE(alias.is_contiguous());
    CHECK(cached_matches(alias));
    // The tiny-op path must see the transposed layout: y[i][j] = m0[j][i] + 1, m0[r][c] = 3r + c.
    Tensor<float> y = zeros({3, 2});
    y.assign(alias + 1.0f);
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 2; ++j) CHECK(y.index({i, j}).item() == static_cast<float>(3 * j + i + 1));
    m.transpose_(0, 1);
    CHECK(alias.is_contiguous());
    m.unsqueeze_(1);
    CHECK(cached_matches(m));
    m.squeeze_();
    CHECK(cached_matches(m));
    CHECK(m.is_contiguous());

    // External memory with explicit strides (column-major 2 x 3).
    std::vector<float> buffer = {0, 1, 2, 3, 4, 5};
    Tensor<float> col = from_blob(buffer.data(), {2, 3}, {1, 2});
    CHECK_FALSE(col.is_contiguous());
    CHECK(cached_matches(col));
    Tensor<float> sum = zeros({2, 3});
    sum.assign(col + col);  // col[r][c] = buffer[r + 2c]
    for (int64_t r = 0; r < 2; ++r)
        for (int64_t c = 0; c < 3; ++c) CHECK(sum.index({r, c}).item() == 2.0f * static_cast<float>(r + 2 * c));
}

}}  // namespace TENET_TEST_FILE
