#pragma once
// torch.stft and torch.istft, as PyTorch 1.13 computes them (namespace tenet):
//
//   stft(x, n_fft, hop_length = n_fft / 4, win_length = n_fft, window = ones, center = true,
//        pad_mode = "reflect", normalized = false, onesided = !complex, return_complex)
//       x: a signal [L] or a batch of signals [B, L] (float32, float64, complex64, complex128).
//       With center, each signal is first padded by n_fft / 2 on both sides ("reflect",
//       "constant" (zeros), "replicate" or "circular", as F.pad); frame f is then the n_fft
//       points from f * hop_length (1 + (L' - n_fft) / hop_length frames), multiplied by the
//       window (win_length points, zero-padded on both sides to n_fft, centred), and transformed
//       (rfft of real frames when onesided: n_fft / 2 + 1 frequencies, else fft: n_fft), scaled
//       by 1 / sqrt(n_fft) when normalized. The result is [n_freq, n_frames] ([B, n_freq,
//       n_frames]), complex64 or complex128, a new contiguous tensor (PyTorch's is a transposed view).
//   istft(X, n_fft, hop_length = n_fft / 4, win_length = n_fft, window = ones, center = true,
//         normalized = false, onesided = (X.size(-2) != n_fft), length, return_complex = false)
//       X: complex spectra [n_freq, n_frames] or [B, n_freq, n_frames]. The inverse of stft by
//       windowed overlap-add: each frame's irfft (n_fft points) times the window, summed at
//       f * hop_length and divided by the sum of the squared windows there (the NOLA condition:
//       that sum must not fall below 1e-11 anywhere in the output, else "window overlap add
//       min"); center drops n_fft / 2 points from both ends; length cuts the result, or pads it
//       with zeros. The result is real, of X's precision: [length] ([B, length]).
//
// The frames are a strided view of the padded signal (frame f starts f * hop_length points
// after frame f - 1) and all frames of all signals are one batched transform of tenet's FFT
// engine (tenet/fft/engine.hpp); the framing, the overlap-add and stft's transform run on the
// host (a device input is copied there and the result back; istft's irfft runs on the input's
// device, through cuFFT under nvcc: fft/device_engine.hpp).
//
// tenet's typed tensors fix what PyTorch decides at run time:
//  - the window's dtype is the transform's real type (float32 for float32 and complex64 input,
//    float64 for float64 and complex128): convert another window with .to();
//  - stft returns complex tensors only: return_complex must be given as true for real inputs
//    (PyTorch 1.13 warns "stft will soon require the return_complex parameter be given for real
//    inputs" and returns view_as_real of the result; tenet refuses the omission), and
//    return_complex = false, the deprecated real layout, is refused (call view_as_real(stft(...)));
//  - istft takes complex spectra only (PyTorch 1.13's deprecated real [..., 2] input does not
//    compile) and returns the real signal; return_complex = true (a complex signal from two-sided
//    spectra) is refused with value_error;
//  - integer and bool signals do not compile (PyTorch refuses them in the padding or the transform).
// Errors (value_error, PyTorch's words after its "stft(torch.FloatTensor[...], n_fft=..., ...) :"
// prefix): n_fft outside (0, L'], hop_length < 1, win_length outside (0, n_fft], a window of
// another length, an input of neither 1 nor 2 dims, onesided with complex input, an unknown
// pad_mode, a reflect padding not shorter than the signal, a circular one longer; istft's: an
// empty input, one of neither 2 nor 3 dims, a frequency dim that does not match n_fft (or
// n_fft / 2 + 1 when onesided), hop_length outside (0, win_length], win_length outside (0, n_fft],
// a window of another shape, and the NOLA failure. No autograd (a real input that requires grad
// is refused with dtype_error, as by the transforms).

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include "tenet/core/complex.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/fft/transforms.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// PyTorch's Tensor::toString() of a T tensor: torch.FloatTensor, torch.cuda.DoubleTensor,
/// CPUComplexFloatType (complex dtypes have no legacy tensor type name).
template <class T>
std::string torch_type_string(const Tensor<T>& t) {
    if constexpr (is_complex_v<T>)
        return std::string(t.is_cpu() ? "CPU" : "CUDA") +
               (std::is_same_v<T, complex<float>> ? "ComplexFloatType" : "ComplexDoubleType");
    else
        return std::string(t.is_cpu() ? "torch." : "torch.cuda.") +
               (std::is_same_v<T, float> ? "FloatTensor" : "DoubleTensor");
}

inline std::string optional_text(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "None"; }
inline std::string optional_text(const std::optional<bool>& v) { return v ? std::to_string(int(*v)) : "None"; }

template <class R>
std::string window_text(const std::optional<Tensor<R>>& w) {
    if (!w) return "None";
    std::ostringstream s;
    s << torch_type_string(*w) << '{' << w->sizes() << '}';
    return s.str();
}

/// The window as n_fft points: `window` (ones without one) centred between zeros.
template <class R>
Tensor<R> padded_window(const std::optional<Tensor<R>>& window, int64_t win_length, int64_t n_fft) {
    Tensor<R> w = zeros<R>({n_fft});
    Tensor<R> mid = w.narrow(0, (n_fft - win_length) / 2, win_length);
    if (window)
        mid.copy_(window->detach().cpu());
    else
        mid.fill_(R(1));
    return w;
}

/// Source index of padded position j of a signal of `len` points padded by `pad` on each
/// side, as F.pad's modes; -1: a zero (constant).
inline int64_t padded_source(int64_t j, int64_t len, int64_t pad, char mode) {
    const int64_t i = j - pad;
    if (i >= 0 && i < len) return i;
    switch (mode) {
    case 'r': return i < 0 ? -i : 2 * (len - 1) - i;           // reflect
    case 'e': return i < 0 ? 0 : len - 1;                       // replicate (edge)
    case 'c': return i < 0 ? i + len : i - len;                 // circular
    default: return -1;                                         // constant
    }
}

}  // namespace detail

/// torch.stft (see the top of this header): the complex spectra [n_freq, n_frames] (or
/// [B, n_freq, n_frames]) of the windowed frames of x.
template <class T, class R = fft::detail::fft_real_t<T>>
Tensor<complex<R>> stft(const Tensor<T>& x, int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
                        std::optional<int64_t> win_length = std::nullopt,
                        const std::optional<Tensor<std::type_identity_t<R>>>& window = std::nullopt, bool center = true,
                        std::string_view pad_mode = "reflect", bool normalized = false,
                        std::optional<bool> onesided = std::nullopt, std::optional<bool> return_complex = std::nullopt) {
    static_assert(std::is_floating_point_v<T> || is_complex_v<T>,
                  "tenet::stft: the signal must be float32, float64, complex64 or complex128");
    static_assert(std::is_same_v<R, fft::detail::fft_real_t<T>>,
                  "tenet::stft: the window's dtype is the transform's real type (float32 for float32 and complex64 "
                  "signals, float64 for float64 and complex128)");
    using C = complex<R>;
    constexpr bool is_cplx = is_complex_v<T>;
    using U = std::conditional_t<is_cplx, C, R>;  // the frames' type
    if (!return_complex && !is_cplx)
        tenet::detail::fail<value_error>(
            "stft: the return_complex parameter must be given for real inputs (PyTorch 1.13 warns \"stft will soon "
            "require the return_complex parameter be given for real inputs\" and returns view_as_real of the "
            "result; tenet's stft returns complex tensors only): pass return_complex=true");
    if (return_complex && !*return_complex)
        tenet::detail::fail<value_error>("stft: return_complex=false (the real [..., 2] layout, deprecated by PyTorch) "
                                         "is not supported by tenet: pass return_complex=true and call view_as_real "
                                         "on the result");
    fft::detail::check_no_grad(x, "stft");

    // Padding (PyTorch's Python stft, through F.pad on the signal viewed as 3-D).
    const int64_t nd = x.dim();
    IntArray sizes = x.sizes();
    const int64_t len = nd ? sizes.back() : 1;
    const int64_t pad = center ? n_fft / 2 : 0;
    char mode = 'k';
    if (center) {
        if (pad_mode == "reflect") mode = 'r';
        else if (pad_mode == "replicate") mode = 'e';
        else if (pad_mode == "circular") mode = 'c';
        else if (pad_mode != "constant")
            tenet::detail::fail<value_error>("stft: Unrecognised padding mode ", pad_mode);
        IntArray shape3(static_cast<size_t>(std::max<int64_t>(0, 3 - nd)), 1);
        for (int64_t s : sizes) shape3.push_back(s);
        if (mode == 'r' && pad >= len)
            tenet::detail::fail<value_error>("stft: Argument #4: Padding size should be less than the corresponding "
                                             "input dimension, but got: padding (", pad, ", ", pad, ") at dimension ",
                                             shape3.size() - 1, " of input ", shape3);
        if (mode == 'c' && pad > len)
            tenet::detail::fail<value_error>("stft: Padding value causes wrapping around more than once.");
        if (nd) sizes.back() += 2 * pad;
    }
    const int64_t hop = hop_length.value_or(n_fft / 4);
    const int64_t win = win_length.value_or(n_fft);
    auto fail = [&](const auto&... what) {
        tenet::detail::fail<value_error>("stft(", detail::torch_type_string(x), sizes, ", n_fft=", n_fft,
                                         ", hop_length=", hop, ", win_length=", win, ", window=",
                                         detail::window_text(window), ", normalized=", int(normalized),
                                         ", onesided=", detail::optional_text(onesided), ", return_complex=1) : ",
                                         what...);
    };
    if (nd != 1 && nd != 2) fail("expected a 1D or 2D tensor");
    const int64_t plen = sizes.back();
    if (n_fft <= 0 || n_fft > plen) fail("expected 0 < n_fft < ", plen, ", but got n_fft=", n_fft);
    if (hop <= 0) fail("expected hop_length > 0, but got hop_length=", hop);
    if (win <= 0 || win > n_fft) fail("expected 0 < win_length <= n_fft, but got win_length=", win);
    if (window && (window->dim() != 1 || window->size(0) != win))
        fail("expected a 1D window tensor of size equal to win_length=", win, ", but got window with size ",
             window->sizes());
    const bool sided = onesided.value_or(!is_cplx);
    if (is_cplx && sided)
        tenet::detail::fail<value_error>("stft: Cannot have onesided output if window or input is complex");

    // The windowed frames [B, n_frames, n_fft]: frame f of signal b is the padded signal's
    // points f * hop ... f * hop + n_fft - 1 (an as_strided view), times the window.
    const int64_t batch = nd == 2 ? sizes[0] : 1;
    const int64_t n_frames = 1 + (plen - n_fft) / hop;
    const Tensor<T> h = x.is_cpu() ? x.detach().contiguous() : x.detach().cpu().contiguous();
    const T* src = h.data_ptr();
    const Tensor<R> w = detail::padded_window(window, win, n_fft);
    const R* wp = w.data_ptr();
    const Tensor<U> frames = empty<U>({batch, n_frames, n_fft});
    U* fp = frames.data_ptr();
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t f = 0; f < n_frames; ++f)
            for (int64_t k = 0; k < n_fft; ++k) {
                const int64_t i = detail::padded_source(f * hop + k, len, pad, mode);
                const U v = i < 0 ? U(0) : static_cast<U>(src[b * len + i]);
                fp[(b * n_frames + f) * n_fft + k] = v * wp[k];
            }

    // One batched transform along the frames' last dim, written transposed: [B, n_freq, n_frames].
    const fft::Norm norm = normalized ? fft::Norm::Ortho : fft::Norm::Backward;
    const int64_t n_freq = sided ? n_fft / 2 + 1 : n_fft;
    const Tensor<C> out = empty<C>({batch, n_freq, n_frames});
    const Tensor<C> out_t = out.transpose(1, 2);
    if constexpr (is_cplx) {
        fft::detail::c2c_dim(frames, out_t, 2, true, norm);
    } else if (sided) {
        fft::detail::r2c_dim(frames, out_t, 2, norm);
    } else {
        fft::detail::c2c_dim(Tensor<C>(frames.template to<C>()), out_t, 2, true, norm);
    }
    const Tensor<C> r = nd == 1 ? out.squeeze(0) : out;
    return x.is_cpu() ? r : r.to(x.device());
}

/// torch.istft (see the top of this header): the real signal [length] (or [B, length]) whose
/// stft the complex spectra X are, by windowed overlap-add.
template <class C, class R = fft::detail::fft_real_t<C>>
Tensor<R> istft(const Tensor<C>& X, int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
                std::optional<int64_t> win_length = std::nullopt, const std::optional<Tensor<std::type_identity_t<R>>>& window = std::nullopt,
                bool center = true, bool normalized = false, std::optional<bool> onesided = std::nullopt,
                std::optional<int64_t> length = std::nullopt, bool return_complex = false) {
    static_assert(is_complex_v<C>,
                  "tenet::istft: the spectra must be complex64 or complex128 (PyTorch 1.13's real [..., 2] input is "
                  "deprecated; use view_as_complex)");
    static_assert(std::is_same_v<R, real_t<C>>, "tenet::istft: the window's dtype is the spectra's real type");
    const int64_t hop = hop_length.value_or(n_fft >> 2);
    const int64_t win = win_length.value_or(n_fft);
    auto prefix = [&](std::ostream& s) {
        s << "istft(" << detail::torch_type_string(X) << X.sizes() << ", n_fft=" << n_fft << ", hop_length=" << hop << ", win_length=" << win
          << ", window=" << detail::window_text(window) << ", center=" << int(center) << ", normalized="
          << int(normalized) << ", onesided=" << detail::optional_text(onesided)
          << ", length=" << detail::optional_text(length) << ", return_complex=" << int(return_complex) << ") ";
    };
    auto fail = [&](const auto&... what) {
        std::ostringstream s;
        prefix(s);
        s << ": ";
        ((s << what), ...);
        tenet::detail::fail<value_error>(s.str());
    };
    const int64_t nd = X.dim();
    if (X.numel() == 0) fail("input tensor cannot be empty.");
    if (nd != 2 && nd != 3) fail("expected a tensor with 3 or 4 dimensions, but got ", nd + 1);
    const int64_t n_frames = X.size(-1), fft_size = X.size(-2);
    const bool sided = onesided.value_or(fft_size != n_fft);
    if (sided) {
        if (n_fft / 2 + 1 != fft_size)
            fail("expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when "
                 "onsided=True, but got ", fft_size);
    } else if (n_fft != fft_size) {
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
             "onsided=False, but got ", fft_size);
    }
    if (!(0 < hop && hop <= win)) fail("expected 0 < hop_length <= win_length");
    if (!(0 < win && win <= n_fft)) fail("expected 0 < win_length <= n_fft");
    if (window && (window->dim() != 1 || window->size(0) != win))
        fail("Invalid window shape. window has to be 1D and length of `win_length`");
    if (return_complex) {
        if (sided) tenet::detail::fail<value_error>("istft: Cannot have onesided output if window or input is complex");
        tenet::detail::fail<value_error>("istft: return_complex=true (a complex signal) is not supported by tenet: its "
                                         "istft returns the real signal (return_complex=false)");
    }

    // Every frame's irfft of n_fft points, one batched transform: [B, n_frames, n_fft].
    const Tensor<C> spectra = nd == 2 ? X.unsqueeze(0) : X;
    // (On the host for the overlap-add below: under nvcc a device X's irfft stays on its device.)
    const Tensor<R> frames = fft::irfft(spectra.transpose(1, 2), n_fft, -1, normalized ? "ortho" : "backward").cpu();
    const Tensor<R> w = detail::padded_window(window, win, n_fft);

    // Overlap-add of the windowed frames and of the squared window (the envelope).
    const int64_t batch = frames.size(0), total = n_fft + hop * (n_frames - 1);
    Tensor<R> y = zeros<R>({batch, total}), envelope = zeros<R>({total});
    const R *fp = frames.data_ptr(), *wp = w.data_ptr();
    R *yp = y.data_ptr(), *ep = envelope.data_ptr();
    for (int64_t f = 0; f < n_frames; ++f)
        for (int64_t k = 0; k < n_fft; ++k) ep[f * hop + k] += wp[k] * wp[k];
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t f = 0; f < n_frames; ++f)
            for (int64_t k = 0; k < n_fft; ++k) yp[b * total + f * hop + k] += fp[(b * n_frames + f) * n_fft + k] * wp[k];

    const int64_t start = center ? n_fft / 2 : 0;
    const int64_t end = length ? start + *length : center ? total - n_fft / 2 : total;
    const int64_t stop = std::clamp<int64_t>(end, start, total);
    for (int64_t i = start; i < stop; ++i)
        if (std::abs(ep[i]) < R(1e-11)) {
            std::ostringstream s;
            prefix(s);
            s << "window overlap add min: 1";
            tenet::detail::fail<value_error>(s.str());
        }
    Tensor<R> out = zeros<R>({batch, std::max<int64_t>(end - start, stop - start)});
    R* op = out.data_ptr();
    const int64_t width = out.size(1);
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = start; i < stop; ++i) op[b * width + i - start] = yp[b * total + i] / ep[i];
    if (nd == 2) out = out.squeeze(0);
    return X.is_cpu() ? out : out.to(X.device());
}

}  // namespace tenet::inline TENET_ABI
