#pragma once
// torch.fft's transforms on tensors, as PyTorch 1.13 computes them (namespace tenet::fft):
//
//   fft, ifft        (x, n, dim = -1, norm)        complex -> complex
//   rfft             (x, n, dim = -1, norm)        real -> complex, the n / 2 + 1 first outputs
//   irfft            (x, n, dim = -1, norm)        complex (Hermitian half) -> real of n points,
//                                                  n = 2 (m - 1) by default (m: x's size along dim)
//   hfft             (x, n, dim = -1, norm)        irfft(conj(x)) with the forward transform's
//                                                  norm: the real spectrum of a Hermitian signal
//   ihfft            (x, n, dim = -1, norm)        conj(rfft(x)) with the inverse's norm
//   fft2, ifft2, rfft2, irfft2   (x, s, dim = {-2, -1}, norm)
//   fftn, ifftn, rfftn, irfftn   (x, s, dim, norm)   all dims without dim (the last len(s) with s)
//   hfft2, ihfft2, hfftn, ihfftn (as the above)  hfftn: fft along dims but the last, then hfft
//                                                  along dims.back(); ihfftn: ihfft along
//                                                  dims.back(), then ifft along the others
//
// n (s[i]) cuts or zero-pads the input along dim (dims[i]) to that many points (for irfft and
// hfft: to n / 2 + 1 complex values); -1 in s keeps the input's size (irfftn's last dim: the
// default 2 (m - 1); hfftn's too). norm is "backward" (the default: the inverse scaled by 1/n), "ortho"
// (both by 1/sqrt(n)) or "forward" (the forward by 1/n); n-D transforms scale by the product
// of the lengths. rfftn transforms dims.back() real-to-complex first and the other dims
// after; irfftn the other dims first and dims.back() complex-to-real last.
//
// dtypes, as PyTorch's: float32 and complex64 compute in float (complex results complex64),
// float64 and complex128 in double; integer and bool inputs are promoted to float32 first.
// Complex inputs to rfft, ihfft, rfft2, rfftn, ihfft2 and ihfftn do not compile (PyTorch: "rfft expects a real
// input tensor, but got ComplexFloat"). Inputs may have any strides (transposed, sliced,
// expanded); every result is a new contiguous tensor. A tensor on a device is transformed on
// that device through cuFFT where the translation unit is compiled by nvcc, and otherwise (the
// Thrust OpenMP emulation, host compilers) on the host with the result copied back to its
// device (fft/device_engine.hpp). Both take the same path through this file: only the 1-D
// engine calls differ (c2c_dim, r2c_dim, c2r_dim).
//
// Errors (as PyTorch's words): n or s[i] below 1 ("Invalid number of data points (0)
// specified"), a dim out of range (index_error), s and dim of different lengths, repeated
// dims, more s values than dims, an invalid norm string, rfftn/irfftn with no dims (all
// value_error); a 0-d input to the 1-D transforms (index_error).
//
// No autograd: a real input that requires grad, with grad mode on, throws dtype_error (the
// gradient would be complex, and complex autograd is not supported yet); call the transform on
// x.detach() or under NoGradGuard to compute without a graph.

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/core/complex.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/complex.hpp"
#include "tenet/fft/device_engine.hpp"
#include "tenet/fft/engine.hpp"
#include "tenet/fft/norm.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI::fft {

namespace detail {

template <class T>
constexpr void check_fft_type() {
    static_assert(std::is_arithmetic_v<T> || is_complex_v<T>,
                  "tenet::fft: the transforms take bool, integer, float32, float64, complex64 and complex128 tensors");
}
/// The real type a transform of T computes in: double for float64 and complex128, float else.
template <class T>
using fft_real_t = std::conditional_t<std::is_same_v<T, double> || std::is_same_v<T, complex<double>>, double, float>;
/// The complex result type of a transform of T (complex64 or complex128).
template <class T>
using fft_complex_t = complex<fft_real_t<T>>;

template <class T>
constexpr void check_real_input() {
    static_assert(!is_complex_v<T>,
                  "tenet::fft: rfft, rfft2, rfftn, ihfft, ihfft2 and ihfftn expect a real input tensor (PyTorch: \"rfft expects a real "
                  "input tensor, but got ComplexFloat\")");
}

/// The refusal of a graph: complex autograd (the transforms' gradients) is not supported yet.
template <class T>
void check_no_grad(const Tensor<T>& x, const char* op) {
    if (autograd::GradMode::is_enabled() && x.requires_grad())
        tenet::detail::fail<dtype_error>(op, ": autograd through FFTs is not supported yet by tenet (complex autograd is "
                                             "missing) and the input requires grad: transform x.detach(), or call it "
                                             "under NoGradGuard, to compute without a graph");
}

/// The dims a transform runs along and the number of points along each (s[i] for dims[i]).
struct FftDims {
    IntArray dims, s;
};

inline void check_points(const char* op, int64_t n) {
    if (n < 1) tenet::detail::fail<value_error>(op, ": Invalid number of data points (", n, ") specified");
}

/// PyTorch's canonicalize_fft_shape_and_dim_args: dims wrapped (unique), s's -1 and missing
/// entries resolved to the input's sizes, every length at least 1.
inline FftDims canonical_dims(const char* op, const IntArray& sizes, const std::optional<IntArray>& s,
                              const std::optional<IntArray>& dim) {
    const auto nd = static_cast<int64_t>(sizes.size());
    FftDims r;
    if (dim) {
        for (int64_t d : *dim) {
            if (nd == 0)
                tenet::detail::fail<index_error>(op, ": Dimension specified as ", d, " but tensor has no dimensions");
            r.dims.push_back(tenet::detail::wrap_dim(d, nd, op));
        }
        for (size_t i = 0; i < r.dims.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (r.dims[i] == r.dims[j]) tenet::detail::fail<value_error>(op, ": FFT dims must be unique (got ", *dim, ")");
        if (s && s->size() != dim->size())
            tenet::detail::fail<value_error>(op, ": When given, dim and shape arguments must have the same length (s=", *s,
                                             ", dim=", *dim, ")");
    } else if (s) {
        const auto ns = static_cast<int64_t>(s->size());
        if (ns > nd)
            tenet::detail::fail<value_error>(op, ": Got shape with ", ns, " values but input tensor only has ", nd,
                                             " dimensions.");
        for (int64_t i = 0; i < ns; ++i) r.dims.push_back(nd - ns + i);
    } else {
        for (int64_t d = 0; d < nd; ++d) r.dims.push_back(d);
    }
    for (size_t i = 0; i < r.dims.size(); ++i) {
        const int64_t given = s ? (*s)[i] : -1;
        if (given != -1) check_points(op, given);
        const int64_t n = given == -1 ? sizes[r.dims[i]] : given;
        check_points(op, n);
        r.s.push_back(n);
    }
    return r;
}

/// One dim's for a 1-D transform (n as s).
inline FftDims canonical_dim(const char* op, const IntArray& sizes, std::optional<int64_t> n, int64_t dim) {
    if (sizes.empty())
        tenet::detail::fail<index_error>(op, ": Dimension specified as ", dim, " but tensor has no dimensions");
    if (n) check_points(op, *n);
    return canonical_dims(op, sizes, IntArray{n.value_or(-1)}, IntArray{dim});
}

/// x on its engine's device (fft/device_engine.hpp: its own under cuFFT, else the host) as
/// element type U, each dims[i] cut or zero-padded to lengths[i] (a new contiguous tensor:
/// fresh), or x itself (any strides, not fresh) when nothing changes and `copy` is false (cuFFT
/// takes no broadcast input: an expanded x is copied).
template <class U>
struct Prepared {
    Tensor<U> t;
    bool fresh = false;
};
template <class U, class T>
Prepared<U> prepared(const Tensor<T>& x, const IntArray& dims, const IntArray& lengths, bool copy = false) {
    const bool device = on_device_engine(x);
    const Tensor<T> h = x.is_cpu() || device ? x.detach() : x.detach().cpu();
    IntArray sizes = h.sizes();
    bool same = true;
    for (size_t i = 0; i < dims.size(); ++i)
        if (sizes[dims[i]] != lengths[i]) sizes[dims[i]] = lengths[i], same = false;
    if (device)
        for (int64_t st : h.strides()) copy = copy || st == 0;
    if constexpr (std::is_same_v<T, U>)
        if (same && !copy) return {h, false};
    Tensor<U> out = same ? empty<U>(sizes, h.device()) : zeros<U>(sizes, h.device());
    Tensor<T> src = h;
    Tensor<U> dst = out;
    for (size_t i = 0; i < dims.size(); ++i) {
        const int64_t keep = std::min(h.size(dims[i]), lengths[i]);
        src = src.narrow(dims[i], 0, keep);
        dst = dst.narrow(dims[i], 0, keep);
    }
    if (dst.numel() > 0) dst.copy_(src);
    return {out, true};
}

/// Calls run(in_offset, out_offset, batch, in_batch_stride, out_batch_stride) for every group
/// of rows of a transform along `dim` of tensors whose other dims have `sizes`: the largest
/// other dim is the engine's batch, the rest are looped here.
template <class F>
void for_each_row_batch(const IntArray& sizes, const IntArray& in_strides, const IntArray& out_strides, int64_t dim,
                        F&& run) {
    const auto nd = static_cast<int64_t>(sizes.size());
    int64_t bdim = -1;
    for (int64_t d = 0; d < nd; ++d) {
        if (d == dim) continue;
        if (sizes[d] == 0) return;
        if (bdim < 0 || sizes[d] > sizes[bdim]) bdim = d;
    }
    const int64_t batch = bdim < 0 ? 1 : sizes[bdim];
    const int64_t ibs = bdim < 0 ? 0 : in_strides[bdim], obs = bdim < 0 ? 0 : out_strides[bdim];
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    int64_t io = 0, oo = 0;
    for (;;) {
        run(io, oo, batch, ibs, obs);
        int64_t d = nd - 1;
        for (; d >= 0; --d) {
            if (d == dim || d == bdim) continue;
            auto& i = idx[static_cast<size_t>(d)];
            if (++i < sizes[d]) {
                io += in_strides[d], oo += out_strides[d];
                break;
            }
            io -= (sizes[d] - 1) * in_strides[d], oo -= (sizes[d] - 1) * out_strides[d];
            i = 0;
        }
        if (d < 0) return;
    }
}

/// out *= the norm's factor for a transform of n points (cuFFT does not scale): on the device.
template <class T>
void scale_on_device(const Tensor<T>& out, Norm norm, int64_t n, bool forward) {
    const double scale = norm_scale(norm, n, forward);
    if (scale == 1.0) return;
    Tensor<T> into = out;
    into.mul_(static_cast<real_t<T>>(scale));
}

/// The engine's c2c along dim: in and out of the same sizes (out may be in itself).
template <class R>
void c2c_dim(const Tensor<complex<R>>& in, const Tensor<complex<R>>& out, int64_t dim, bool forward, Norm norm) {
    const int64_t n = out.size(dim);
    const R* ip = reinterpret_cast<const R*>(in.data_ptr());
    R* op = reinterpret_cast<R*>(out.data_ptr());
    const Direction direction = forward ? Direction::Forward : Direction::Inverse;
    const bool device = on_device_engine(out);
    for_each_row_batch(out.sizes(), in.strides(), out.strides(), dim,
                       [&](int64_t io, int64_t oo, int64_t batch, int64_t ibs, int64_t obs) {
                           const Layout l{n, in.stride(dim), out.stride(dim), batch, ibs, obs};
#if TENET_CUFFT
                           if (device) return kernels::cufft_c2c(ip + 2 * io, op + 2 * oo, l, direction, out.device());
#endif
                           c2c(ip + 2 * io, op + 2 * oo, l, direction, norm);
                       });
    if (device) scale_on_device(out, norm, n, forward);
}
#if TENET_CUFFT
/// The rows of x along dim as one [rows, n] row-major block whose first element is aligned as a
/// complex value: cuFFT refuses a real pointer that is not (CUFFT_INVALID_VALUE; PyTorch copies
/// such inputs too), and one block is one cuFFT call. A view of x when it is laid out so already;
/// else a copy of its values, or fresh storage for a result (values = false).
template <class T>
Tensor<T> device_rows(const Tensor<T>& x, int64_t dim, bool values = true) {
    const int64_t n = x.size(dim);
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    Tensor<T> moved = x.transpose(dim, -1);
    constexpr uintptr_t align = 2 * sizeof(real_t<T>);
    if (!moved.is_contiguous() || reinterpret_cast<uintptr_t>(moved.data_ptr()) % align != 0) {
        Tensor<T> copy = empty<T>(moved.sizes(), moved.device());
        if (values) copy.copy_(moved);
        moved = copy;
    }
    return moved.reshape({rows, n});
}

/// out (laid out as `rows` along dim) from a [rows, m] block, where the block is not a view of out.
template <class T>
void copy_rows_back(const Tensor<T>& out, const Tensor<T>& rows, int64_t dim) {
    Tensor<T> moved = out.transpose(dim, -1);
    if (rows.data_ptr() != moved.data_ptr()) moved.copy_(rows.reshape(moved.sizes()));
}
#endif

/// The engine's r2c along dim: n reals in, n / 2 + 1 complex values out.
template <class R>
void r2c_dim(const Tensor<R>& in, const Tensor<complex<R>>& out, int64_t dim, Norm norm) {
#if TENET_CUFFT
    if (on_device_engine(out)) {
        const int64_t n = in.size(dim), h = out.size(dim);
        const Tensor<R> rows = device_rows(in, dim);
        const Tensor<complex<R>> result = device_rows(out, dim, false);  // a view of out when it can be
        kernels::cufft_r2c(rows.data_ptr(), reinterpret_cast<R*>(result.data_ptr()),
                           Layout{n, 1, 1, rows.size(0), n, h}, out.device());
        copy_rows_back(out, result, dim);
        scale_on_device(out, norm, n, true);
        return;
    }
#endif
    const R* ip = in.data_ptr();
    R* op = reinterpret_cast<R*>(out.data_ptr());
    for_each_row_batch(out.sizes(), in.strides(), out.strides(), dim,
                       [&](int64_t io, int64_t oo, int64_t batch, int64_t ibs, int64_t obs) {
                           const Layout l{in.size(dim), in.stride(dim), out.stride(dim), batch, ibs, obs};
                           r2c(ip + io, op + 2 * oo, l, norm);
                       });
}
/// The engine's c2r along dim: n / 2 + 1 complex values in, n reals out (on a device, in is
/// overwritten: it must be a scratch copy).
template <class R>
void c2r_dim(const Tensor<complex<R>>& in, const Tensor<R>& out, int64_t dim, Norm norm) {
#if TENET_CUFFT
    if (on_device_engine(out)) {
        const int64_t n = out.size(dim), h = in.size(dim);
        const Tensor<complex<R>> rows = device_rows(in, dim);
        const Tensor<R> result = device_rows(out, dim, false);
        kernels::cufft_c2r(reinterpret_cast<R*>(rows.data_ptr()), result.data_ptr(),
                           Layout{n, 1, 1, rows.size(0), h, n}, out.device());
        copy_rows_back(out, result, dim);
        scale_on_device(out, norm, n, false);
        return;
    }
#endif
    R* ip = reinterpret_cast<R*>(in.data_ptr());
    R* op = out.data_ptr();
    for_each_row_batch(out.sizes(), in.strides(), out.strides(), dim,
                       [&](int64_t io, int64_t oo, int64_t batch, int64_t ibs, int64_t obs) {
                           const Layout l{out.size(dim), in.stride(dim), out.stride(dim), batch, ibs, obs};
                           c2r(ip + 2 * io, op + oo, l, norm);
                       });
}

template <class C>
void conj_in_place(const Tensor<C>& t) {  // t contiguous
    if (on_device_engine(t)) {
        Tensor<C> into = t;
        std::move(into) = tenet::conj(t);  // written in place
        return;
    }
    C* p = t.data_ptr();
    for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = C(p[i].real(), -p[i].imag());
}

/// The result back on x's device.
template <class U, class T>
Tensor<U> on_device_of(const Tensor<U>& r, const Tensor<T>& x) {
    return x.is_cpu() ? r : r.to(x.device());
}

/// fftn and ifftn.
template <class T>
Tensor<fft_complex_t<T>> c2c_n(const char* op, const Tensor<T>& x, const FftDims& d, bool forward, Norm norm) {
    using C = fft_complex_t<T>;
    check_fft_type<T>();
    check_no_grad(x, op);
    Prepared<C> in = prepared<C>(x, d.dims, d.s, d.dims.empty());
    const Tensor<C> out = in.fresh ? in.t : empty<C>(in.t.sizes(), in.t.device());
    for (size_t i = 0; i < d.dims.size(); ++i) c2c_dim(i == 0 ? in.t : out, out, d.dims[i], forward, norm);
    return on_device_of(out, x);
}

/// rfftn (and ihfftn's first step): r2c along dims.back(), then c2c forward along the others.
template <class T>
Tensor<fft_complex_t<T>> r2c_n(const char* op, const Tensor<T>& x, const FftDims& d, Norm norm, bool conj_out) {
    using R = fft_real_t<T>;
    using C = complex<R>;
    check_fft_type<T>();
    check_real_input<T>();
    check_no_grad(x, op);
    if (d.dims.empty()) tenet::detail::fail<value_error>(op, ": ", op, " must transform at least one axis");
    const Prepared<R> in = prepared<R>(x, d.dims, d.s);
    const int64_t last = d.dims.back();
    IntArray sizes = in.t.sizes();
    sizes[last] = d.s.back() / 2 + 1;
    const Tensor<C> out = empty<C>(sizes, in.t.device());
    r2c_dim(in.t, out, last, norm);
    for (size_t i = 0; i + 1 < d.dims.size(); ++i) c2c_dim(out, out, d.dims[i], true, norm);
    if (conj_out) conj_in_place(out);
    return on_device_of(out, x);
}

/// irfftn (and hfft's): c2c inverse along dims but the last, then c2r along dims.back() to
/// `last_n` points; the input is conjugated first when conj_in.
template <class T>
Tensor<fft_real_t<T>> c2r_n(const char* op, const Tensor<T>& x, const std::optional<IntArray>& s,
                            const std::optional<IntArray>& dim, Norm norm, bool conj_in) {
    using R = fft_real_t<T>;
    using C = complex<R>;
    check_fft_type<T>();
    check_no_grad(x, op);
    FftDims d = canonical_dims(op, x.sizes(), s, dim);
    if (d.dims.empty()) tenet::detail::fail<value_error>(op, ": ", op, " must transform at least one axis");
    const int64_t last = d.dims.back();
    const int64_t last_n = s && s->back() != -1 ? d.s.back() : 2 * (x.size(last) - 1);
    check_points(op, last_n);
    d.s.back() = last_n / 2 + 1;
    // cuFFT's c2r overwrites its input: on a device it transforms a copy.
    Prepared<C> in = prepared<C>(x, d.dims, d.s, conj_in || d.dims.size() > 1 || on_device_engine(x));
    if (conj_in) conj_in_place(in.t);
    for (size_t i = 0; i + 1 < d.dims.size(); ++i) c2c_dim(in.t, in.t, d.dims[i], false, norm);
    IntArray sizes = in.t.sizes();
    sizes[last] = last_n;
    const Tensor<R> out = empty<R>(sizes, in.t.device());
    c2r_dim(in.t, out, last, norm);
    return on_device_of(out, x);
}

/// hfft's and ihfft's norm: the forward (inverse) transform's, which the engine's inverse
/// (forward) scales by the other name.
constexpr Norm swapped(Norm norm) {
    return norm == Norm::Backward ? Norm::Forward : norm == Norm::Forward ? Norm::Backward : Norm::Ortho;
}

}  // namespace detail

using NormArg = std::optional<std::string_view>;

// ---- 1-D -------------------------------------------------------------------------------------

/// torch.fft.fft: the discrete Fourier transform along dim (n points: cut or zero-padded).
template <class T>
Tensor<detail::fft_complex_t<T>> fft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                     NormArg norm = std::nullopt) {
    return detail::c2c_n("fft", x, detail::canonical_dim("fft", x.sizes(), n, dim), true, parse_norm(norm, "fft"));
}
/// torch.fft.ifft: the inverse of fft.
template <class T>
Tensor<detail::fft_complex_t<T>> ifft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                      NormArg norm = std::nullopt) {
    return detail::c2c_n("ifft", x, detail::canonical_dim("ifft", x.sizes(), n, dim), false, parse_norm(norm, "ifft"));
}
/// torch.fft.rfft: the n / 2 + 1 first outputs of fft of a real signal (complex input does not compile).
template <class T>
Tensor<detail::fft_complex_t<T>> rfft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                      NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("rfft", x, detail::canonical_dim("rfft", x.sizes(), n, dim), parse_norm(norm, "rfft"), false);
}
/// torch.fft.irfft: the real signal of n points (default 2 (m - 1)) whose rfft x is.
template <class T>
Tensor<detail::fft_real_t<T>> irfft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                    NormArg norm = std::nullopt) {
    if (x.dim() == 0)
        tenet::detail::fail<index_error>("irfft: Dimension specified as ", dim, " but tensor has no dimensions");
    if (n) detail::check_points("irfft", *n);
    return detail::c2r_n("irfft", x, IntArray{n.value_or(-1)}, IntArray{dim}, parse_norm(norm, "irfft"), false);
}
/// torch.fft.hfft: the real spectrum (n points, default 2 (m - 1)) of a signal with Hermitian
/// symmetry given by its first half x: irfft(conj(x)) scaled as a forward transform.
template <class T>
Tensor<detail::fft_real_t<T>> hfft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                   NormArg norm = std::nullopt) {
    if (x.dim() == 0)
        tenet::detail::fail<index_error>("hfft: Dimension specified as ", dim, " but tensor has no dimensions");
    if (n) detail::check_points("hfft", *n);
    return detail::c2r_n("hfft", x, IntArray{n.value_or(-1)}, IntArray{dim}, detail::swapped(parse_norm(norm, "hfft")),
                         true);
}
/// torch.fft.ihfft: the inverse of hfft, conj(rfft(x)) scaled as an inverse transform (complex
/// input does not compile).
template <class T>
Tensor<detail::fft_complex_t<T>> ihfft(const Tensor<T>& x, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                                       NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("ihfft", x, detail::canonical_dim("ihfft", x.sizes(), n, dim),
                         detail::swapped(parse_norm(norm, "ihfft")), true);
}

// ---- n-D -------------------------------------------------------------------------------------

/// torch.fft.fftn: fft along each of dims (all without dims; the last len(s) with s only).
template <class T>
Tensor<detail::fft_complex_t<T>> fftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                      const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    return detail::c2c_n("fftn", x, detail::canonical_dims("fftn", x.sizes(), s, dim), true, parse_norm(norm, "fftn"));
}
/// torch.fft.ifftn: the inverse of fftn.
template <class T>
Tensor<detail::fft_complex_t<T>> ifftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                       const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    return detail::c2c_n("ifftn", x, detail::canonical_dims("ifftn", x.sizes(), s, dim), false,
                         parse_norm(norm, "ifftn"));
}
/// torch.fft.rfftn: rfft along dims.back(), then fft along the other dims.
template <class T>
Tensor<detail::fft_complex_t<T>> rfftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                       const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("rfftn", x, detail::canonical_dims("rfftn", x.sizes(), s, dim), parse_norm(norm, "rfftn"),
                         false);
}
/// torch.fft.irfftn: the inverse of rfftn (s.back(), default 2 (m - 1), the real output's length
/// along dims.back()).
template <class T>
Tensor<detail::fft_real_t<T>> irfftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                     const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    return detail::c2r_n("irfftn", x, s, dim, parse_norm(norm, "irfftn"), false);
}

/// torch.fft.fft2: fftn along dim (default the last two).
template <class T>
Tensor<detail::fft_complex_t<T>> fft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                      const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    return detail::c2c_n("fft2", x, detail::canonical_dims("fft2", x.sizes(), s, dim), true, parse_norm(norm, "fft2"));
}
/// torch.fft.ifft2: ifftn along dim (default the last two).
template <class T>
Tensor<detail::fft_complex_t<T>> ifft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                       const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    return detail::c2c_n("ifft2", x, detail::canonical_dims("ifft2", x.sizes(), s, dim), false,
                         parse_norm(norm, "ifft2"));
}
/// torch.fft.rfft2: rfftn along dim (default the last two).
template <class T>
Tensor<detail::fft_complex_t<T>> rfft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                       const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("rfft2", x, detail::canonical_dims("rfft2", x.sizes(), s, dim), parse_norm(norm, "rfft2"),
                         false);
}
/// torch.fft.irfft2: irfftn along dim (default the last two).
template <class T>
Tensor<detail::fft_real_t<T>> irfft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                     const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    return detail::c2r_n("irfft2", x, s, dim, parse_norm(norm, "irfft2"), false);
}

/// torch.fft.hfftn: the real n-D spectrum of a signal with Hermitian symmetry given by its half
/// along dims.back(): fftn along the other dims, then hfft along dims.back() (s.back(), default
/// 2 (m - 1), the real output's length there). As PyTorch's: conj(fft(x)) = ifft(conj(x)) unscaled,
/// so hfftn is irfftn of conj(x) with the forward transform's norm.
template <class T>
Tensor<detail::fft_real_t<T>> hfftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                    const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    return detail::c2r_n("hfftn", x, s, dim, detail::swapped(parse_norm(norm, "hfftn")), true);
}
/// torch.fft.ihfftn: the inverse of hfftn, ihfft along dims.back(), then ifft along the others
/// (conj(rfftn(x)) scaled as an inverse transform; complex input does not compile).
template <class T>
Tensor<detail::fft_complex_t<T>> ihfftn(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                        const std::optional<IntArray>& dim = std::nullopt, NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("ihfftn", x, detail::canonical_dims("ihfftn", x.sizes(), s, dim),
                         detail::swapped(parse_norm(norm, "ihfftn")), true);
}
/// torch.fft.hfft2: hfftn along dim (default the last two).
template <class T>
Tensor<detail::fft_real_t<T>> hfft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                    const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    return detail::c2r_n("hfft2", x, s, dim, detail::swapped(parse_norm(norm, "hfft2")), true);
}
/// torch.fft.ihfft2: ihfftn along dim (default the last two).
template <class T>
Tensor<detail::fft_complex_t<T>> ihfft2(const Tensor<T>& x, const std::optional<IntArray>& s = std::nullopt,
                                        const IntArray& dim = {-2, -1}, NormArg norm = std::nullopt) {
    detail::check_real_input<T>();
    return detail::r2c_n("ihfft2", x, detail::canonical_dims("ihfft2", x.sizes(), s, dim),
                         detail::swapped(parse_norm(norm, "ihfft2")), true);
}

}  // namespace tenet::inline TENET_ABI::fft
