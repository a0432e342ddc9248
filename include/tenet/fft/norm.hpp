#pragma once
// The normalisation of a discrete Fourier transform, as PyTorch's `norm` argument:
//   Norm::Backward ("backward", PyTorch's default): forward unscaled, inverse scaled by 1/n;
//   Norm::Ortho    ("ortho"):    both scaled by 1/sqrt(n) (the transforms are unitary);
//   Norm::Forward  ("forward"):  forward scaled by 1/n, inverse unscaled.
// n is the length of the signal (for irfft, the length of its real output).

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI::fft {

enum class Norm { Backward, Ortho, Forward };

/// PyTorch's norm string as a Norm (no string: "backward"); anything else throws value_error
/// naming `op` and the string.
inline Norm parse_norm(std::optional<std::string_view> norm, const char* op = "fft") {
    if (!norm || *norm == "backward") return Norm::Backward;
    if (*norm == "ortho") return Norm::Ortho;
    if (*norm == "forward") return Norm::Forward;
    tenet::detail::fail<value_error>(op, ": Invalid normalization mode: \"", *norm,
                              "\" (expected \"backward\", \"ortho\" or \"forward\")");
}

/// PyTorch's name of a Norm.
constexpr const char* norm_name(Norm norm) noexcept {
    return norm == Norm::Backward ? "backward" : norm == Norm::Ortho ? "ortho" : "forward";
}

/// The factor a transform of length n in the given direction is multiplied by.
inline double norm_scale(Norm norm, int64_t n, bool forward) noexcept {
    switch (norm) {
    case Norm::Ortho: return 1.0 / std::sqrt(static_cast<double>(n));
    case Norm::Backward: return forward ? 1.0 : 1.0 / static_cast<double>(n);
    case Norm::Forward: return forward ? 1.0 / static_cast<double>(n) : 1.0;
    }
    return 1.0;
}

}  // namespace tenet::inline TENET_ABI::fft
