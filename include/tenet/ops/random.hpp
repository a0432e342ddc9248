#pragma once
// Random creation functions (rand, randn, randint, randperm, normal, rand_like, randn_like)
// driven by a counter-based generator, Philox4x32-10 (Salmon et al., "Parallel Random
// Numbers: As Easy as 1, 2, 3", SC'11).
//
// A Generator holds a seed and an offset: the number of 128-bit Philox blocks consumed so
// far. Every random call reserves a contiguous range of blocks [offset, offset + n) and
// element i of its output is computed from block (offset + i) alone, keyed by the seed.
// An element's value therefore depends only on (seed, offset, i), so results are the same
// however the fill is split into chunks, threads or device blocks (see the detail::*Element
// functors, which compute one element from its index; the host and the device run the same).
//
// Generators are thread-safe: state changes are guarded by a mutex. The numbers are not
// bit-identical to PyTorch's (whose CPU generator is a Mersenne Twister).

#include "tenet/config.hpp"
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <numbers>
#include <type_traits>
#include <utility>

#include "tenet/backend/device/device_dispatch.hpp"
#include "tenet/core/host_device.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI {

// ---- Philox4x32-10 -------------------------------------------------------------------

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

/// One Philox4x32-10 block: the 128-bit counter `ctr` encrypted under the 64-bit `key`.
TENET_HD constexpr PhiloxCounter philox4x32_10(PhiloxCounter ctr, PhiloxKey key) {
    constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;  // round multipliers
    constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;  // Weyl key increments
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key[0] += kW0;
            key[1] += kW1;
        }
        const uint64_t p0 = static_cast<uint64_t>(kM0) * ctr[0];
        const uint64_t p1 = static_cast<uint64_t>(kM1) * ctr[2];
        const auto hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
        const auto hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
        ctr = {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
    }
    return ctr;
}

/// The state a random call reserves: the key (seed) and the first block of its range.
struct PhiloxState {
    uint64_t seed = 0;
    uint64_t offset = 0;

    /// The four random words of block (offset + i).
    TENET_HD PhiloxCounter block(uint64_t i) const {
        const uint64_t c = offset + i;
        return philox4x32_10({static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0u, 0u},
                             {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
    }
};

// ---- Generator -----------------------------------------------------------------------

/// A Philox generator: a seed and an offset (128-bit blocks consumed). Thread-safe.
class Generator {
public:
    /// PyTorch's default seed for its CPU generator.
    static constexpr uint64_t kDefaultSeed = 67280421310721ull;

    explicit Generator(uint64_t seed = kDefaultSeed) : seed_(seed) {}
    /// Copies the other generator's seed and offset (the copy then advances on its own).
    Generator(const Generator& other) {
        std::lock_guard lock(other.mutex_);
        seed_ = other.seed_;
        offset_ = other.offset_;
    }
    Generator& operator=(const Generator& other) {
        if (this == &other) return *this;
        uint64_t seed, offset;
        {
            std::lock_guard lock(other.mutex_);
            seed = other.seed_;
            offset = other.offset_;
        }
        std::lock_guard lock(mutex_);
        seed_ = seed;
        offset_ = offset;
        return *this;
    }

    /// Sets the seed and rewinds the offset to 0.
    Generator& manual_seed(uint64_t seed) {
        std::lock_guard lock(mutex_);
        seed_ = seed;
        offset_ = 0;
        return *this;
    }
    /// The seed set at construction or by the last manual_seed.
    uint64_t initial_seed() const {
        std::lock_guard lock(mutex_);
        return seed_;
    }
    /// Blocks consumed since the last seeding.
    uint64_t offset() const {
        std::lock_guard lock(mutex_);
        return offset_;
    }
    Generator& set_offset(uint64_t offset) {
        std::lock_guard lock(mutex_);
        offset_ = offset;
        return *this;
    }
    /// Reserves `blocks` consecutive blocks and returns the state that addresses them.
    PhiloxState reserve(uint64_t blocks) {
        std::lock_guard lock(mutex_);
        const PhiloxState s{seed_, offset_};
        offset_ += blocks;
        return s;
    }

private:
    mutable std::mutex mutex_;
    uint64_t seed_ = kDefaultSeed;
    uint64_t offset_ = 0;
};

/// The global generator used when no Generator is passed.
inline Generator& default_generator() {
    static Generator gen;
    return gen;
}
/// Seeds the global generator (and rewinds its offset), as torch.manual_seed.
inline Generator& manual_seed(uint64_t seed) { return default_generator().manual_seed(seed); }
/// The global generator's seed, as torch.initial_seed.
inline uint64_t initial_seed() { return default_generator().initial_seed(); }

// ---- Elements: each computes element i of its output from block (state.offset + i) ----

namespace detail {

/// 53 random bits from a block as a double in [0, 1).
inline TENET_HD double philox_uniform53(uint32_t a, uint32_t b) {
    const uint64_t bits = ((static_cast<uint64_t>(a) << 32) | b) >> 11;
    return static_cast<double>(bits) * 0x1.0p-53;
}

/// A uniform [0, 1) value of type T from one block.
template <class T>
TENET_HD T uniform_from_block(const PhiloxCounter& r) {
    if constexpr (std::is_same_v<T, double>) {
        return philox_uniform53(r[0], r[1]);
    } else {
        const float u = static_cast<float>(r[0] >> 8) * 0x1.0p-24f;
        if constexpr (std::is_same_v<T, float>) {
            return u;
        } else {
            // Rounding to 16 bits may carry a value just below 1 up to 1: keep it below 1.
            T v(u);
            if (static_cast<float>(v) >= 1.0f)
                v = std::is_same_v<T, Half> ? T::from_bits(0x3bffu) /* 1 - 2^-11 */
                                            : T::from_bits(0x3f7fu) /* 1 - 2^-8 */;
            return v;
        }
    }
}

/// A standard normal value from one block (Box–Muller, the cosine branch).
inline TENET_HD double normal_from_block(const PhiloxCounter& r) {
    const double u1 = philox_uniform53(r[0], r[1]) + 0x1.0p-53;  // (0, 1]: log never sees 0
    const double u2 = philox_uniform53(r[2], r[3]);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

/// Complex standard normal values, as PyTorch's randn of a complex dtype: the real and the
/// imaginary part independent, each N(0, 1/2) (E|z|^2 = 1). One block gives both: Box–Muller's
/// cosine and sine branches of the same pair of uniforms.
template <class T>
struct ComplexNormalElement {
    TENET_HD T operator()(const PhiloxState& s, int64_t i) const {
        const PhiloxCounter r = s.block(static_cast<uint64_t>(i));
        const double u1 = philox_uniform53(r[0], r[1]) + 0x1.0p-53;
        const double u2 = philox_uniform53(r[2], r[3]);
        const double rho = std::sqrt(-std::log(u1));  // sqrt(-2 log u1) / sqrt(2)
        const double theta = 2.0 * std::numbers::pi * u2;
        using R = typename T::value_type;
        return T(static_cast<R>(rho * std::cos(theta)), static_cast<R>(rho * std::sin(theta)));
    }
};

/// Uniform [0, 1).
template <class T>
struct UniformElement {
    TENET_HD T operator()(const PhiloxState& s, int64_t i) const {
        return uniform_from_block<T>(s.block(static_cast<uint64_t>(i)));
    }
};

/// mean + std * z_i.
template <class T>
struct NormalElement {
    double mean = 0.0, std = 1.0;
    TENET_HD T operator()(const PhiloxState& s, int64_t i) const {
        return convert<T>(mean + std * normal_from_block(s.block(static_cast<uint64_t>(i))));
    }
};

/// Integers uniform in [low, low + range) (range > 0).
template <class T>
struct RandintElement {
    int64_t low = 0;
    uint64_t range = 1;
    TENET_HD T operator()(const PhiloxState& s, int64_t i) const {
        const PhiloxCounter r = s.block(static_cast<uint64_t>(i));
        const uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
        return convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + bits % range));
    }
};

template <class T>
[[noreturn]] void fail_not_floating(const char* op) {
    fail<dtype_error>(op, ": expected a floating point dtype, but got ", dtype_of<T>);
}

/// Writes element(state, i) to element i of the dense tensor t (its numel consecutive
/// slots from data_ptr), reserving numel blocks of `gen`. On a device: one kernel.
template <class T, class Element>
void fill_random(const Tensor<T>& t, Generator& gen, const Element& element) {
    if (t.is_meta()) return;  // no values to draw: the generator does not advance, as PyTorch's meta kernels
    const int64_t n = t.numel();
    const PhiloxState s = gen.reserve(static_cast<uint64_t>(n));
    if (!t.is_cpu()) {
#if TENET_DEVICE_EVALUATOR
        return device_random_fill(t, s, element);
#else
        no_device_evaluator("random", t.device());
#endif
    }
    T* out = t.data_ptr();
    for (int64_t i = 0; i < n; ++i) out[i] = element(s, i);
}

/// A contiguous tensor of the given sizes, filled by `element`.
template <class T, class Element>
Tensor<T> random_fill(const IntArray& sizes, Generator& gen, TensorOptions options, const Element& element) {
    Tensor<T> t = empty<T>(sizes, options);
    fill_random(t, gen, element);
    return t;
}

/// Like random_fill but with t's sizes, dtype, device and memory order.
template <class T, class Element>
Tensor<T> random_fill_like(const Tensor<T>& like, Generator& gen, const Element& element) {
    Tensor<T> t = empty_like(like);
    fill_random(t, gen, element);
    return t;
}

template <class T>
void check_randint_bounds(int64_t low, int64_t high) {
    if (low >= high)
        fail<value_error>("randint: random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
    if constexpr (std::is_integral_v<T>) {
        constexpr auto lo = static_cast<int64_t>(std::numeric_limits<T>::min());
        constexpr auto hi = static_cast<int64_t>(std::numeric_limits<T>::max());
        if (low < lo || high - 1 > hi)
            fail<value_error>("randint: [from, to) = [", low, ", ", high, ") is out of bounds for dtype ",
                              dtype_of<T>, " (whose range is [", lo, ", ", hi, "])");
    } else {
        constexpr int64_t limit = int64_t{1} << std::numeric_limits<T>::digits;
        if (low < -limit || high - 1 > limit)
            fail<value_error>("randint: [from, to) = [", low, ", ", high, ") is out of bounds for dtype ",
                              dtype_of<T>, ": its integers are exact only in [", -limit, ", ", limit, "]");
    }
}

template <class T>
Tensor<T> randint_impl(int64_t low, int64_t high, const IntArray& sizes, Generator& gen, TensorOptions options) {
    check_randint_bounds<T>(low, high);
    return random_fill<T>(sizes, gen, options,
                          RandintElement<T>{low, static_cast<uint64_t>(high) - static_cast<uint64_t>(low)});
}

template <class T>
Tensor<T> randperm_impl(int64_t n, Generator& gen, TensorOptions options) {
    if (n < 0) fail<value_error>("randperm: n must be non-negative, got ", n);
    if constexpr (std::is_same_v<T, bool>) {
        fail<dtype_error>("randperm: unsupported dtype ", dtype_of<T>);
    } else {
        // The largest value, n - 1, must be representable (exactly, for floating T).
        int64_t max_value;
        if constexpr (std::is_integral_v<T>)
            max_value = static_cast<int64_t>(std::numeric_limits<T>::max());
        else
            max_value = int64_t{1} << std::numeric_limits<T>::digits;
        if (n - 1 > max_value) fail<value_error>("randperm: n is too large for result tensor type ", dtype_of<T>, " (n = ", n, ")");
        check_device_supported(options.device(), "randperm");
        if (options.device().is_meta()) return meta_result<T>({n});  // nothing drawn, as fill_random
        Tensor<T> t = empty<T>({n});  // the shuffle is sequential: made on the host, then moved
        T* p = t.data_ptr();
        std::vector<int64_t> perm(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
        // Fisher–Yates: step i (from n-1 down to 1) swaps i with j drawn from block i.
        const PhiloxState s = gen.reserve(static_cast<uint64_t>(n));
        for (int64_t i = n - 1; i > 0; --i) {
            const PhiloxCounter r = s.block(static_cast<uint64_t>(i));
            const uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
            const auto j = static_cast<int64_t>(bits % static_cast<uint64_t>(i + 1));
            std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
        }
        for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(perm[static_cast<size_t>(i)]);
        return on_device(t, options);
    }
}

template <class T>
Tensor<T> normal_impl(double mean, double std, const IntArray& sizes, Generator& gen, TensorOptions options) {
    if constexpr (!FloatingElement<T>) {
        fail_not_floating<T>("normal");
    } else {
        if (!(std >= 0.0)) fail<value_error>("normal: expects std >= 0.0, but found std ", std);
        return random_fill<T>(sizes, gen, options, NormalElement<T>{mean, std});
    }
}

}  // namespace detail

// ---- rand: uniform [0, 1) -------------------------------------------------------------

/// Uniform values in [0, 1) (float32 unless T is given; floating T only, else dtype_error).
template <class T = float>
Tensor<T> rand(const IntArray& sizes, Generator& gen, TensorOptions options = {}) {
    if constexpr (!FloatingElement<T>) {
        detail::fail_not_floating<T>("rand");
    } else {
        return detail::random_fill<T>(sizes, gen, options, detail::UniformElement<T>{});
    }
}
template <class T = float>
Tensor<T> rand(const IntArray& sizes, TensorOptions options = {}) {
    return rand<T>(sizes, default_generator(), options);
}
template <class T>
Tensor<T> rand(const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return rand<T>(sizes, default_generator(), options);
}
template <class T>
Tensor<T> rand(const IntArray& sizes, Generator& gen, dtype_t<T>, TensorOptions options = {}) {
    return rand<T>(sizes, gen, options);
}

// ---- randn: standard normal -----------------------------------------------------------

/// Standard normal values (float32 unless T is given; floating T only, else dtype_error). A
/// complex T (complex64, complex128) draws as PyTorch's: real and imaginary parts independent,
/// each of variance 1/2, on the host and on devices (PyTorch's exact stream is not reproduced).
template <class T = float>
Tensor<T> randn(const IntArray& sizes, Generator& gen, TensorOptions options = {}) {
    if constexpr (is_complex_v<T>) {
        return detail::random_fill<T>(sizes, gen, options, detail::ComplexNormalElement<T>{});
    } else if constexpr (!FloatingElement<T>) {
        detail::fail_not_floating<T>("randn");
    } else {
        return detail::random_fill<T>(sizes, gen, options, detail::NormalElement<T>{});
    }
}
template <class T = float>
Tensor<T> randn(const IntArray& sizes, TensorOptions options = {}) {
    return randn<T>(sizes, default_generator(), options);
}
template <class T>
Tensor<T> randn(const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return randn<T>(sizes, default_generator(), options);
}
template <class T>
Tensor<T> randn(const IntArray& sizes, Generator& gen, dtype_t<T>, TensorOptions options = {}) {
    return randn<T>(sizes, gen, options);
}

// ---- randint: integers uniform in [low, high) ------------------------------------------

/// Integers uniform in [low, high) (int64 unless T is given; low >= high is a value_error).
template <class T = int64_t>
Tensor<T> randint(int64_t low, int64_t high, const IntArray& sizes, Generator& gen, TensorOptions options = {}) {
    return detail::randint_impl<T>(low, high, sizes, gen, options);
}
template <class T = int64_t>
Tensor<T> randint(int64_t low, int64_t high, const IntArray& sizes, TensorOptions options = {}) {
    return detail::randint_impl<T>(low, high, sizes, default_generator(), options);
}
template <class T>
Tensor<T> randint(int64_t low, int64_t high, const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return detail::randint_impl<T>(low, high, sizes, default_generator(), options);
}
template <class T>
Tensor<T> randint(int64_t low, int64_t high, const IntArray& sizes, Generator& gen, dtype_t<T>,
                  TensorOptions options = {}) {
    return detail::randint_impl<T>(low, high, sizes, gen, options);
}
/// Integers uniform in [0, high) (int64 unless T is given).
template <class T = int64_t>
Tensor<T> randint(int64_t high, const IntArray& sizes, Generator& gen, TensorOptions options = {}) {
    return detail::randint_impl<T>(0, high, sizes, gen, options);
}
template <class T = int64_t>
Tensor<T> randint(int64_t high, const IntArray& sizes, TensorOptions options = {}) {
    return detail::randint_impl<T>(0, high, sizes, default_generator(), options);
}
template <class T>
Tensor<T> randint(int64_t high, const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return detail::randint_impl<T>(0, high, sizes, default_generator(), options);
}
template <class T>
Tensor<T> randint(int64_t high, const IntArray& sizes, Generator& gen, dtype_t<T>, TensorOptions options = {}) {
    return detail::randint_impl<T>(0, high, sizes, gen, options);
}

// ---- randperm: a random permutation of 0..n-1 ------------------------------------------

/// A 1-D random permutation of 0..n-1 (int64 unless T is given; n < 0 is a value_error).
template <class T = int64_t>
Tensor<T> randperm(int64_t n, Generator& gen, TensorOptions options = {}) {
    return detail::randperm_impl<T>(n, gen, options);
}
template <class T = int64_t>
Tensor<T> randperm(int64_t n, TensorOptions options = {}) {
    return detail::randperm_impl<T>(n, default_generator(), options);
}
template <class T>
Tensor<T> randperm(int64_t n, dtype_t<T>, TensorOptions options = {}) {
    return detail::randperm_impl<T>(n, default_generator(), options);
}
template <class T>
Tensor<T> randperm(int64_t n, Generator& gen, dtype_t<T>, TensorOptions options = {}) {
    return detail::randperm_impl<T>(n, gen, options);
}

// ---- normal: mean + std * N(0, 1) -------------------------------------------------------

/// Normal values with the given mean and std (float32 unless T is given; std < 0 is a value_error).
template <class T = float>
Tensor<T> normal(double mean, double std, const IntArray& sizes, Generator& gen, TensorOptions options = {}) {
    return detail::normal_impl<T>(mean, std, sizes, gen, options);
}
template <class T = float>
Tensor<T> normal(double mean, double std, const IntArray& sizes, TensorOptions options = {}) {
    return detail::normal_impl<T>(mean, std, sizes, default_generator(), options);
}
template <class T>
Tensor<T> normal(double mean, double std, const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return detail::normal_impl<T>(mean, std, sizes, default_generator(), options);
}
template <class T>
Tensor<T> normal(double mean, double std, const IntArray& sizes, Generator& gen, dtype_t<T>,
                 TensorOptions options = {}) {
    return detail::normal_impl<T>(mean, std, sizes, gen, options);
}

// ---- *_like ------------------------------------------------------------------------------

/// Uniform [0, 1) values with t's sizes, dtype, device and memory order (floating t only).
template <class T>
Tensor<T> rand_like(const Tensor<T>& t, Generator& gen) {
    if constexpr (!FloatingElement<T>) {
        detail::fail_not_floating<T>("rand_like");
    } else {
        return detail::random_fill_like(t, gen, detail::UniformElement<T>{});
    }
}
template <class T>
Tensor<T> rand_like(const Tensor<T>& t) {
    return rand_like(t, default_generator());
}
/// Standard normal values with t's sizes, dtype, device and memory order (floating t only; a
/// complex t draws as randn does: each part N(0, 1/2)).
template <class T>
Tensor<T> randn_like(const Tensor<T>& t, Generator& gen) {
    if constexpr (is_complex_v<T>) {
        return detail::random_fill_like(t, gen, detail::ComplexNormalElement<T>{});
    } else if constexpr (!FloatingElement<T>) {
        detail::fail_not_floating<T>("randn_like");
    } else {
        return detail::random_fill_like(t, gen, detail::NormalElement<T>{});
    }
}
template <class T>
Tensor<T> randn_like(const Tensor<T>& t) {
    return randn_like(t, default_generator());
}

}  // namespace tenet
