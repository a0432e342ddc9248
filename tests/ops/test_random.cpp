// Tests for tenet/ops/random.hpp: Philox4x32-10, Generator, rand/randn/randint/randperm/normal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tenet/tenet.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;

namespace {

template <class T>
std::vector<double> as_doubles(const Tensor<T>& t) {
    std::vector<double> out;
    for (const T& v : t.to_vector()) out.push_back(static_cast<double>(static_cast<float>(v)));
    return out;
}
template <>
std::vector<double> as_doubles(const Tensor<double>& t) {
    return t.to_vector();
}

struct Moments {
    double mean = 0, var = 0;
};
inline Moments moments(const std::vector<double>& v) {
    Moments m;
    for (double x : v) m.mean += x;
    m.mean /= static_cast<double>(v.size());
    for (double x : v) m.var += (x - m.mean) * (x - m.mean);
    m.var /= static_cast<double>(v.size() - 1);
    return m;
}

template <class E, class F>
void require_throws_naming(F&& f, const std::string& needle) {
    try {
        f();
    } catch (const E& e) {
        INFO("message: " << e.what());
        CHECK(std::string(e.what()).find(needle) != std::string::npos);
        return;
    } catch (const std::exception& e) {
        FAIL("wrong exception type: " << e.what());
    }
    FAIL("expected an exception naming " << needle);
}

}  // namespace

TEST_CASE("random: Philox4x32-10 known-answer vectors (Random123)") {
    // Expected words from tests/golden/philox_kat.py, an independent Python implementation,
    // which agree with Random123's kat_vectors for philox4x32_10.
    CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0}) == PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    CHECK(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
          PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    CHECK(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
          PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
    // It is constexpr.
    static_assert(philox4x32_10({0, 0, 0, 0}, {0, 0})[0] == 0x6627e8d5u);
}

TEST_CASE("random: Generator seed, offset and reservation") {
    Generator g(42);
    CHECK(g.initial_seed() == 42);
    CHECK(g.offset() == 0);
    PhiloxState s = g.reserve(10);
    CHECK(s.seed == 42);
    CHECK(s.offset == 0);
    CHECK(g.offset() == 10);
    (void)rand({3, 4}, g);
    CHECK(g.offset() == 22);
    g.manual_seed(7);
    CHECK(g.initial_seed() == 7);
    CHECK(g.offset() == 0);

    manual_seed(123);
    CHECK(initial_seed() == 123);
    CHECK(default_generator().offset() == 0);
    CHECK(Generator().initial_seed() == Generator::kDefaultSeed);

    // A copy continues the same stream independently.
    Generator a(5);
    (void)rand({7}, a);
    Generator b = a;
    CHECK(rand({5}, a).to_vector() == rand({5}, b).to_vector());
}

TEST_CASE("random: manual_seed makes results reproducible") {
    manual_seed(2024);
    auto a1 = rand({4, 5});
    auto b1 = randn({3, 3}, kFloat64);
    auto c1 = randint(0, 100, {20});
    auto d1 = randperm(17);
    auto e1 = normal(1.0, 2.0, {8});
    manual_seed(2024);
    auto a2 = rand({4, 5});
    auto b2 = randn({3, 3}, kFloat64);
    auto c2 = randint(0, 100, {20});
    auto d2 = randperm(17);
    auto e2 = normal(1.0, 2.0, {8});
    CHECK(a1.to_vector() == a2.to_vector());
    CHECK(b1.to_vector() == b2.to_vector());
    CHECK(c1.to_vector() == c2.to_vector());
    CHECK(d1.to_vector() == d2.to_vector());
    CHECK(e1.to_vector() == e2.to_vector());

    // Consecutive calls continue the stream; a different seed gives different numbers.
    manual_seed(2024);
    auto x = rand({100});
    auto y = rand({100});
    CHECK(x.to_vector() != y.to_vector());
    manual_seed(2025);
    CHECK(rand({100}).to_vector() != x.to_vector());

    // An explicit generator does not touch the default one.
    manual_seed(9);
    Generator g(9);
    auto from_g = rand({50}, g);
    CHECK(default_generator().offset() == 0);
    CHECK(rand({50}).to_vector() == from_g.to_vector());
}

TEST_CASE("random: element values depend only on (seed, offset, index)") {
    // Drawing [0, 10) then [10, 30) equals one draw of 30 elements.
    Generator g1(77), g2(77);
    auto whole = rand<double>({30}, g1).to_vector();
    auto first = rand<double>({10}, g2).to_vector();
    auto second = rand<double>({20}, g2).to_vector();
    for (size_t i = 0; i < 10; ++i) CHECK(whole[i] == first[i]);
    for (size_t i = 0; i < 20; ++i) CHECK(whole[10 + i] == second[i]);
    // The shape does not matter either.
    Generator g3(77);
    CHECK(rand<double>({5, 6}, g3).to_vector() == whole);
}

TEST_CASE("random: chunked fill equals a single pass") {
    const int64_t n = 1003;
    const PhiloxState s{0xdeadbeefcafef00dull, 12345};
    // Element i comes from block (offset + i) alone: any order, chunking or threading agrees.
    auto check_chunks = [&](auto element, auto tag) {
        using T = typename decltype(tag)::type;
        std::vector<T> one(n), chunked(n), threaded(n);
        for (int64_t i = 0; i < n; ++i) one[i] = element(s, i);
        for (int64_t b = n / 97 * 97; b >= 0; b -= 97)
            for (int64_t i = b; i < std::min(n, b + 97); ++i) chunked[i] = element(s, i);
        std::vector<std::thread> threads;
        for (int k = 0; k < 4; ++k)
            threads.emplace_back([&, k] {
                for (int64_t i = n * k / 4; i < n * (k + 1) / 4; ++i) threaded[i] = element(s, i);
            });
        for (auto& t : threads) t.join();
        for (int64_t i = 0; i < n; ++i) {
            CHECK(static_cast<double>(one[i]) == static_cast<double>(chunked[i]));
            CHECK(static_cast<double>(one[i]) == static_cast<double>(threaded[i]));
        }
    };
    check_chunks(detail::UniformElement<float>{}, kFloat32);
    check_chunks(detail::UniformElement<double>{}, kFloat64);
    check_chunks(detail::NormalElement<double>{}, kFloat64);
    check_chunks(detail::RandintElement<int64_t>{-5, 1005}, kInt64);

    // And the public functions agree with the elements at the reserved offset.
    Generator g(0xdeadbeefcafef00dull);
    g.set_offset(12345);
    std::vector<float> ref(n);
    for (int64_t i = 0; i < n; ++i) ref[i] = detail::UniformElement<float>{}(s, i);
    CHECK(rand({n}, g).to_vector() == ref);
}

TEST_CASE("random: rand values lie in the unit interval with the right moments") {
    manual_seed(1);
    const int64_t n = 1000000;
    auto check = [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto t = rand({n}, tag);
        static_assert(std::is_same_v<decltype(t), Tensor<T>>);
        CHECK(t.dtype() == dtype_of<T>);
        CHECK(t.sizes() == IntArray{n});
        auto v = as_doubles(t);
        CHECK(*std::min_element(v.begin(), v.end()) >= 0.0);
        CHECK(*std::max_element(v.begin(), v.end()) < 1.0);
        const Moments m = moments(v);
        // mean of U(0,1): 1/2, sd of the sample mean sqrt(1/12/n); variance 1/12.
        CHECK(std::abs(m.mean - 0.5) < 5 * std::sqrt(1.0 / 12 / n) + (std::is_same_v<T, BFloat16> ? 2e-3 : 0.0));
        CHECK(std::abs(m.var - 1.0 / 12) < 2e-3);
    };
    check(kFloat32);
    check(kFloat64);
    check(kFloat16);
    check(kBFloat16);
    // Default dtype and template form.
    CHECK(rand({2, 3}).dtype() == kFloat32);
    CHECK(rand<double>({2}).dtype() == kFloat64);
    CHECK(rand({0}).numel() == 0);
    CHECK(rand({}).dim() == 0);
}

TEST_CASE("random: reduced-precision rand stays below 1") {
    // About 1 in 4096 float draws round up to 1.0 in half (1 in 512 for bfloat16): they must be clamped.
    Generator g(3);
    auto h = rand({200000}, g, kFloat16).to_vector();
    auto b = rand({200000}, g, kBFloat16).to_vector();
    float hmax = 0, bmax = 0;
    for (Half x : h) hmax = std::max(hmax, static_cast<float>(x));
    for (BFloat16 x : b) bmax = std::max(bmax, static_cast<float>(x));
    CHECK(hmax == 1.0f - 0x1.0p-11f);
    CHECK(bmax == 1.0f - 0x1.0p-8f);
}

TEST_CASE("random: randn and normal moments") {
    manual_seed(11);
    const int64_t n = 1000000;
    auto z = randn({n});
    CHECK(z.dtype() == kFloat32);
    auto v = as_doubles(z);
    for (double x : v) REQUIRE(std::isfinite(x));
    Moments m = moments(v);
    CHECK(std::abs(m.mean) < 5.0 / std::sqrt(static_cast<double>(n)));
    // sd of the sample variance of N(0,1): sqrt(2/(n-1)).
    CHECK(std::abs(m.var - 1.0) < 5 * std::sqrt(2.0 / n));
    // Tails look normal: P(|z| > 2) = 0.0455.
    const double tail = static_cast<double>(std::count_if(v.begin(), v.end(), [](double x) { return std::abs(x) > 2; })) / n;
    CHECK(std::abs(tail - 0.0455) < 5 * std::sqrt(0.0455 * 0.9545 / n));

    auto w = normal(3.0, 2.0, {n}, kFloat64);
    static_assert(std::is_same_v<decltype(w), Tensor<double>>);
    m = moments(w.to_vector());
    CHECK(std::abs(m.mean - 3.0) < 5 * 2.0 / std::sqrt(static_cast<double>(n)));
    CHECK(std::abs(m.var - 4.0) < 5 * 4.0 * std::sqrt(2.0 / n));
    CHECK(normal(0.0, 1.0, {3}).dtype() == kFloat32);
    // std == 0 gives the mean exactly.
    for (float x : normal(5.0, 0.0, {10}).to_vector()) CHECK(x == 5.0f);
    CHECK(randn({4}, kFloat16).dtype() == kFloat16);
    CHECK(randn({4}, kBFloat16).dtype() == kBFloat16);
}

TEST_CASE("random: randn of a complex dtype draws real and imaginary parts N(0, 1/2), as PyTorch") {
    manual_seed(13);
    const int64_t n = 400000;
    auto z = randn({n}, kComplex64);
    static_assert(std::is_same_v<decltype(z), Tensor<complex<float>>>);
    std::vector<double> re, im;
    double cross = 0;
    for (complex<float> x : z.to_vector()) {
        REQUIRE((std::isfinite(x.real()) && std::isfinite(x.imag())));
        re.push_back(x.real());
        im.push_back(x.imag());
        cross += static_cast<double>(x.real()) * x.imag();
    }
    const double sd_mean = std::sqrt(0.5 / static_cast<double>(n));
    for (const auto* part : {&re, &im}) {
        const Moments m = moments(*part);
        CHECK(std::abs(m.mean) < 5 * sd_mean);
        CHECK(std::abs(m.var - 0.5) < 5 * 0.5 * std::sqrt(2.0 / n));  // E|z|^2 = 1
    }
    CHECK(std::abs(cross / n) < 5 * 0.5 / std::sqrt(static_cast<double>(n)));  // uncorrelated parts
    // Seeded: the same stream again; complex128 too.
    manual_seed(13);
    CHECK(randn({3}, kComplex64).to_vector() == Tensor<complex<float>>(z.slice(0, 0, 3)).to_vector());
    Generator g(7);
    const auto w = randn<complex<double>>({2, 3}, g);
    CHECK(w.dtype() == kComplex128);
    CHECK(w.sizes() == IntArray{2, 3});
}

TEST_CASE("random: randint bounds, coverage and dtypes") {
    manual_seed(5);
    auto t = randint(3, 10, {100000});
    static_assert(std::is_same_v<decltype(t), Tensor<int64_t>>);
    std::set<int64_t> seen;
    for (int64_t x : t.to_vector()) {
        REQUIRE(x >= 3);
        REQUIRE(x < 10);
        seen.insert(x);
    }
    CHECK(seen.size() == 7);
    const Moments m = moments(as_doubles(t.to<double>()));
    CHECK(std::abs(m.mean - 6.0) < 5 * std::sqrt(4.0 / 100000));  // var of U{3..9} = (49-1)/12 = 4

    auto u = randint(4, {1000});
    for (int64_t x : u.to_vector()) REQUIRE((x >= 0 && x < 4));
    CHECK(u.dtype() == kInt64);

    auto neg = randint(-3, 0, {1000}, kInt8);
    static_assert(std::is_same_v<decltype(neg), Tensor<int8_t>>);
    std::set<int> seen8;
    for (int8_t x : neg.to_vector()) seen8.insert(x);
    CHECK(seen8 == std::set<int>{-3, -2, -1});

    auto f = randint(0, 5, {1000}, kFloat32);
    for (float x : f.to_vector()) REQUIRE((x >= 0 && x < 5 && x == std::floor(x)));
    auto b = randint(2, {100}, kBool);
    CHECK(b.dtype() == kBool);
    auto big = randint<int64_t>(INT64_MIN, INT64_MAX, {1000});  // full-width range does not overflow
    CHECK(big.numel() == 1000);
    CHECK(randint(1, 2, {5}).to_vector() == std::vector<int64_t>(5, 1));

    // Generator overloads.
    Generator g1(8), g2(8);
    CHECK(randint(0, 50, {30}, g1).to_vector() == randint(50, {30}, g2).to_vector());
    CHECK(randint(0, 50, {30}, g1, kInt32).dtype() == kInt32);
}

TEST_CASE("random: randperm is a permutation") {
    manual_seed(99);
    for (int64_t n : {0, 1, 2, 10, 1000}) {
        auto p = randperm(n);
        static_assert(std::is_same_v<decltype(p), Tensor<int64_t>>);
        CHECK(p.sizes() == IntArray{n});
        auto v = p.to_vector();
        std::sort(v.begin(), v.end());
        for (int64_t i = 0; i < n; ++i) REQUIRE(v[static_cast<size_t>(i)] == i);
    }
    // It shuffles: a permutation of 1000 is not the identity, and different draws differ.
    auto a = randperm(1000).to_vector(), b = randperm(1000).to_vector();
    CHECK(a != b);
    int fixed = 0;
    for (size_t i = 0; i < a.size(); ++i) fixed += a[i] == static_cast<int64_t>(i);
    CHECK(fixed < 10);
    // Every permutation of 3 appears.
    std::set<std::vector<int64_t>> perms;
    for (int k = 0; k < 300; ++k) perms.insert(randperm(3).to_vector());
    CHECK(perms.size() == 6);
    // Other dtypes.
    auto f = randperm(5, kFloat32);
    auto fv = f.to_vector();
    std::sort(fv.begin(), fv.end());
    CHECK(fv == std::vector<float>{0, 1, 2, 3, 4});
    CHECK(randperm(128, kInt8).dtype() == kInt8);
    Generator g1(4), g2(4);
    CHECK(randperm(20, g1).to_vector() == randperm(20, g2).to_vector());
}

TEST_CASE("random: rand_like and randn_like") {
    auto base = zeros({3, 4}, kFloat64);
    auto r = rand_like(base);
    static_assert(std::is_same_v<decltype(r), Tensor<double>>);
    CHECK(r.sizes() == base.sizes());
    CHECK(r.device() == base.device());
    for (double x : r.to_vector()) CHECK((x >= 0 && x < 1));
    auto n = randn_like(zeros({5}, kFloat16));
    CHECK(n.dtype() == kFloat16);
    CHECK(n.sizes() == IntArray{5});
    // A transposed input keeps its memory order.
    auto tr = zeros({3, 4}).t();
    auto rt = rand_like(tr);
    CHECK(rt.sizes() == IntArray{4, 3});
    CHECK(rt.strides() == tr.strides());
    Generator g1(1), g2(1);
    CHECK(rand_like(base, g1).to_vector() == rand({3, 4}, g2, kFloat64).to_vector());
}

TEST_CASE("random: dtype checks") {
    require_throws_naming<dtype_error>([] { (void)rand<int64_t>({2}); }, "rand");
    require_throws_naming<dtype_error>([] { (void)rand({2}, kInt32); }, "int32");
    require_throws_naming<dtype_error>([] { (void)randn({2}, kBool); }, "randn");
    require_throws_naming<dtype_error>([] { (void)randn({2}, kBool); }, "bool");
    require_throws_naming<dtype_error>([] { (void)normal(0.0, 1.0, {2}, kInt64); }, "normal");
    require_throws_naming<dtype_error>([] { (void)rand_like(zeros({2}, kInt64)); }, "rand_like");
    require_throws_naming<dtype_error>([] { (void)randn_like(zeros({2}, kUInt8)); }, "randn_like");
    require_throws_naming<dtype_error>([] { (void)randperm(3, kBool); }, "randperm");
}

TEST_CASE("random: error cases") {
    require_throws_naming<value_error>([] { (void)randint(5, 5, {3}); },
                                       "randint: random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    require_throws_naming<value_error>([] { (void)randint(0, {3}); }, "randint");
    require_throws_naming<value_error>([] { (void)randint(7, 2, {3}); }, "from=7 >= to=2");
    require_throws_naming<value_error>([] { (void)randint(0, 300, {3}, kUInt8); }, "randint");
    require_throws_naming<value_error>([] { (void)randint(-1, 3, {3}, kUInt8); }, "uint8");
    require_throws_naming<value_error>([] { (void)randint(0, 3, {3}, kBool); }, "bool");
    require_throws_naming<value_error>([] { (void)randperm(-1); }, "randperm");
    require_throws_naming<value_error>([] { (void)randperm(129, kInt8); }, "randperm");
    require_throws_naming<value_error>([] { (void)normal(0.0, -1.0, {3}); }, "normal");
    require_throws_naming<value_error>([] { (void)normal(0.0, std::nan(""), {3}); }, "normal");
    require_throws_naming<device_error>([] { (void)rand({2}, TensorOptions("cuda")); }, "");
    // A failed call does not consume random numbers.
    manual_seed(0);
    try {
        (void)randint(5, 5, {3});
    } catch (const value_error&) {
    }
    CHECK(default_generator().offset() == 0);
}

TEST_CASE("random: the default generator is thread-safe") {
    manual_seed(31);
    std::vector<std::thread> threads;
    for (int k = 0; k < 8; ++k)
        threads.emplace_back([] {
            for (int i = 0; i < 100; ++i) (void)rand({10});
        });
    for (auto& t : threads) t.join();
    CHECK(default_generator().offset() == 8 * 100 * 10);
}

}}  // namespace TENET_TEST_FILE
