// Streaming stores (backend/host/streaming_stores.hpp): a result written around the cache holds the
// same values whatever its layout, alignment, element type or thread count. Each case lowers
// the threshold to 0, so small tensors take the streaming path; the expected values are
// computed element by element from the definitions (small integers: every value is exact).
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cstdint>
#include <vector>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using Catch::Contains;

namespace {

/// Sets the streaming threshold for one scope: the test cases share the process.
struct StreamingThreshold {
    int64_t saved = get_streaming_threshold();
    explicit StreamingThreshold(int64_t bytes) { set_streaming_threshold(bytes); }
    ~StreamingThreshold() { set_streaming_threshold(saved); }
};

/// Sets the thread count for one scope.
struct Threads {
    int saved = get_num_threads();
    explicit Threads(int n) { set_num_threads(n); }
    ~Threads() { set_num_threads(saved); }
};

/// A float tensor of `sizes` whose flat element k is f(k).
template <class F>
Tensor<float> filled(const IntArray& sizes, F f) {
    Tensor<float> t = empty(sizes);
    for (int64_t k = 0; k < t.numel(); ++k) t.data_ptr()[k] = static_cast<float>(f(k));
    return t;
}

/// Large enough (>= 2^18 elements) to skip the small flat loop, odd so rows end mid-line.
constexpr int64_t kFlat = (int64_t{1} << 18) + 37;

}  // namespace

TEST_CASE("streaming: the threshold is a cache size by default, settable, and checked") {
    CHECK(get_streaming_threshold() > 0);
    CHECK_THROWS_AS(set_streaming_threshold(-2), value_error);
    CHECK_THROWS_WITH(set_streaming_threshold(-2), Contains("set_streaming_threshold") && Contains("-2"));
    StreamingThreshold at(1024);
    CHECK(get_streaming_threshold() == 1024);
    CHECK(detail::stream_copy_for(1023) == nullptr);
#if TENET_HAVE_STREAMING_STORES
    if (__builtin_cpu_supports("avx")) CHECK(detail::stream_copy_for(1024) != nullptr);
#endif
    set_streaming_threshold(-1);
    CHECK(detail::stream_copy_for(int64_t{1} << 40) == nullptr);
}

TEST_CASE("streaming: a contiguous result, on one thread and on two") {
    StreamingThreshold always(0);
    auto a = filled({kFlat}, [](int64_t k) { return k % 7; });
    auto b = filled({kFlat}, [](int64_t k) { return k % 5; });
    auto c = filled({kFlat}, [](int64_t k) { return k % 3; });
    std::vector<float> want(kFlat);
    for (int64_t k = 0; k < kFlat; ++k) want[k] = static_cast<float>((k % 7) * (k % 5) + k % 3);
    for (int threads : {1, 2}) {
#ifndef _OPENMP
        if (threads > 1) continue;
#endif
        Threads t(threads);
        Tensor<float> fresh = a * b + c;
        CHECK(fresh.to_vector() == want);
        auto into = zeros({kFlat});
        into.assign(a * b + c);
        CHECK(into.to_vector() == want);
        auto inplace = a.clone();
        inplace *= b;
        inplace += c;  // reads and streams the same lines
        CHECK(inplace.to_vector() == want);
    }
}

TEST_CASE("streaming: broadcast rows, misaligned rows and short last chunks") {
    StreamingThreshold always(0);
    // 1000 columns: three full 256-column chunks, then 232 = 14 whole 64-byte lines and 8 more.
    constexpr int64_t R = 5, C = 1000;
    auto x = filled({R, C}, [](int64_t k) { return (k * 7) % 13; });
    auto bias = filled({1, C}, [](int64_t j) { return j % 5; });
    auto scale = filled({R, 1}, [](int64_t i) { return i + 1; });
    auto want = [](int64_t i, int64_t j) { return static_cast<float>(((i * C + j) * 7 % 13 + j % 5) * (i + 1)); };
    auto count_wrong = [&](const Tensor<float>& y) {
        int64_t wrong = 0;
        for (int64_t i = 0; i < R; ++i)
            for (int64_t j = 0; j < C; ++j) wrong += y(i, j) != want(i, j);
        return wrong;
    };
    for (int threads : {1, 2}) {
#ifndef _OPENMP
        if (threads > 1) continue;
#endif
        Threads t(threads);
        Tensor<float> fresh = (x + bias) * scale;
        CHECK(count_wrong(fresh) == 0);
        // Rows of a view that start 3 elements past a line: the first columns are stored, the rest streamed.
        for (int64_t shift : {1, 3, 15, 16}) {
            auto wide = zeros({R, C + 20});
            auto window = wide.index({Slice(), Slice(shift, shift + C)});
            window.assign((x + bias) * scale);
            CHECK(count_wrong(window) == 0);
            CHECK(wide.index({Slice(), Slice(None, shift)}).eq(0).all().item());
            CHECK(wide.index({Slice(), Slice(shift + C, None)}).eq(0).all().item());
        }
    }
}

TEST_CASE("streaming: results of 1, 2 and 8 bytes per element") {
    StreamingThreshold always(0);
    constexpr int64_t R = 3, C = 777;
    auto x = filled({R, C}, [](int64_t k) { return k % 200; });
    auto row = filled({1, C}, [](int64_t j) { return j % 100; });

    Tensor<uint8_t> u8 = x.to<uint8_t>() + row.to<uint8_t>();  // wraps modulo 256, as in PyTorch
    Tensor<bool> above = x > row;
    Tensor<int16_t> i16 = x.to<int16_t>() - row.to<int16_t>();
    Tensor<double> f64 = x.to<double>() * 0.5 + row.to<double>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < R; ++i) {
        for (int64_t j = 0; j < C; ++j) {
            const int64_t xv = (i * C + j) % 200, rv = j % 100;
            wrong += u8(i, j) != static_cast<uint8_t>((xv + rv) % 256);
            wrong += above(i, j) != (xv > rv);
            wrong += i16(i, j) != static_cast<int16_t>(xv - rv);
            wrong += f64(i, j) != static_cast<double>(xv) * 0.5 + static_cast<double>(rv);
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("streaming: strided and transposed results keep normal stores") {
    StreamingThreshold always(0);
    constexpr int64_t R = 4, C = 600;
    auto x = filled({R, C}, [](int64_t k) { return k % 11; });
    auto wide = zeros({R, 2 * C});
    auto every_other = wide.index({Slice(), Slice(None, None, 2)});
    every_other.assign(x * 2);
    auto xt = filled({C, R}, [](int64_t k) { return k % 11; });
    Tensor<float> from_transposed = xt.t() + x;  // tiled walk
    int64_t wrong = 0;
    for (int64_t i = 0; i < R; ++i) {
        for (int64_t j = 0; j < C; ++j) {
            wrong += every_other(i, j) != static_cast<float>((i * C + j) % 11 * 2);
            wrong += wide(i, 2 * j + 1) != 0.0f;
            wrong += from_transposed(i, j) != static_cast<float>((j * R + i) % 11 + (i * C + j) % 11);
        }
    }
    CHECK(wrong == 0);
}

}}  // namespace TENET_TEST_FILE
