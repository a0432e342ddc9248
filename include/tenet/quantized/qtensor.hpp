#pragma once
// Quantized tensors (PyTorch 1.13's torch.quint8 / qint8 / qint32 with per-tensor or per-channel
// affine quantization): QuantizedTensor, quantize_per_tensor, quantize_per_channel, dequantize.
//
// A QuantizedTensor holds its integer representation (a contiguous Tensor<uint8_t>, <int8_t> or
// <int32_t>, `int_repr()`) and its quantization parameters. The arithmetic is PyTorch's (x86,
// without FBGEMM, as Debian's build and the reference implementation):
//   quantize:   q = clamp(int64(float(zero_point) + nearbyint(x * (1.0f / float(scale)))), qmin, qmax)
//               in float arithmetic, ties to even; a value whose conversion to int64 is undefined
//               (NaN, +-inf, beyond +-2^63: x86 gives INT64_MIN) becomes qmin, as PyTorch on x86.
//   dequantize: per tensor  float(scale) * float(q - zero_point), the difference in int32 (wrapping);
//               per channel float(double(float(q) - float(zero_point[c])) * scales[c]).
// Unlike PyTorch (which accepts them and produces zeros or negative values), a scale that is
// not a positive finite number is refused with a value_error.

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string_view>
#include <vector>

#include "tenet/core.hpp"

namespace tenet::inline TENET_ABI {

/// A quantized element type (torch.quint8, torch.qint8, torch.qint32). Prints as `tenet.quint8`.
struct QDType {
    enum class Kind : int8_t { QUInt8, QInt8, QInt32 } kind;
    constexpr std::string_view name() const {
        return kind == Kind::QUInt8 ? "quint8" : kind == Kind::QInt8 ? "qint8" : "qint32";
    }
    /// The dtype of int_repr(): uint8, int8 or int32.
    constexpr DType underlying() const {
        return kind == Kind::QUInt8 ? DType(ScalarType::UInt8)
               : kind == Kind::QInt8 ? DType(ScalarType::Int8)
                                     : DType(ScalarType::Int32);
    }
    /// The representable range of the integer representation.
    constexpr int64_t qmin() const {
        return kind == Kind::QUInt8 ? 0 : kind == Kind::QInt8 ? -128 : std::numeric_limits<int32_t>::min();
    }
    constexpr int64_t qmax() const {
        return kind == Kind::QUInt8 ? 255 : kind == Kind::QInt8 ? 127 : std::numeric_limits<int32_t>::max();
    }
    friend constexpr bool operator==(QDType a, QDType b) { return a.kind == b.kind; }
    friend std::ostream& operator<<(std::ostream& os, QDType d) { return os << "tenet." << d.name(); }
};
inline constexpr QDType kQUInt8{QDType::Kind::QUInt8};
inline constexpr QDType kQInt8{QDType::Kind::QInt8};
inline constexpr QDType kQInt32{QDType::Kind::QInt32};

/// torch.per_tensor_affine / torch.per_channel_affine. Prints as `tenet.per_tensor_affine`.
enum class QScheme : int8_t { kPerTensorAffine, kPerChannelAffine };
inline constexpr QScheme kPerTensorAffine = QScheme::kPerTensorAffine;
inline constexpr QScheme kPerChannelAffine = QScheme::kPerChannelAffine;
inline std::ostream& operator<<(std::ostream& os, QScheme s) {
    return os << (s == QScheme::kPerTensorAffine ? "tenet.per_tensor_affine" : "tenet.per_channel_affine");
}

namespace detail::quant {

/// Refuses a scale that is not a positive finite number (after the conversion to float that
/// quantization uses, so 1e-50 is refused too).
inline void check_scale(const char* op, double scale) {
    const auto f = static_cast<float>(scale);
    if (!(f > 0.0f) || !std::isfinite(f))
        fail<value_error>(op, ": scale must be a positive finite number (as a float), got ", scale);
}
inline void check_zero_point(const char* op, int64_t zero_point, QDType dtype) {
    if (zero_point < dtype.qmin() || zero_point > dtype.qmax())
        fail<value_error>(op, ": zero_point ", zero_point, " is out of the range of ", dtype, " [", dtype.qmin(),
                          ", ", dtype.qmax(), "]");
}

/// PyTorch's quantize_val (x86, without FBGEMM): see the file comment.
template <class Q>
inline Q quantize_one(float x, float inv_scale, float zero_point) {
    constexpr auto qmin = static_cast<float>(std::numeric_limits<Q>::min());
    constexpr auto qmax = static_cast<float>(std::numeric_limits<Q>::max());
    const float v = zero_point + std::nearbyint(x * inv_scale);
    if constexpr (sizeof(Q) == 1) {
        // Clamped in float: the same as int64 then clamp for every value int64 holds; the rest
        // (NaN, out of int64's range) is x86's INT64_MIN, clamped to qmin.
        const float in_range = (v >= -0x1p63f && v < 0x1p63f) ? v : qmin;
        return static_cast<Q>(std::min(std::max(in_range, qmin), qmax));
    } else {
        if (!(v >= -0x1p63f && v < 0x1p63f)) return std::numeric_limits<Q>::min();
        const auto i = static_cast<int64_t>(v);
        return static_cast<Q>(std::clamp<int64_t>(i, std::numeric_limits<Q>::min(), std::numeric_limits<Q>::max()));
    }
}

/// Calls f with a value of the underlying integer type of `dtype` (uint8_t, int8_t or int32_t).
template <class F>
decltype(auto) visit(QDType dtype, F&& f) {
    switch (dtype.kind) {
        case QDType::Kind::QUInt8: return f(uint8_t{});
        case QDType::Kind::QInt8: return f(int8_t{});
        default: return f(int32_t{});
    }
}

}  // namespace detail::quant

/// A quantized tensor: integer values with a scale and a zero point (per tensor, or per channel
/// along one axis). Created by quantize_per_tensor / quantize_per_channel; `dequantize()` gives
/// the float values back. Copying a handle aliases the integer storage, as Tensor<T> does.
class QuantizedTensor {
public:
    QuantizedTensor() = default;

    /// A per-tensor quantized tensor over the integer values `repr` (uint8, int8 or int32
    /// matching `dtype`; made contiguous), as PyTorch's _make_per_tensor_quantized_tensor.
    QuantizedTensor(TensorBase repr, QDType dtype, double scale, int64_t zero_point)
        : repr_(contiguous_repr(repr, dtype, "_make_per_tensor_quantized_tensor")), dtype_(dtype),
          scheme_(kPerTensorAffine), scale_(scale), zero_point_(zero_point) {
        detail::quant::check_scale("_make_per_tensor_quantized_tensor", scale);
        detail::quant::check_zero_point("_make_per_tensor_quantized_tensor", zero_point, dtype);
    }
    /// A per-channel quantized tensor (PyTorch's _make_per_channel_quantized_tensor).
    QuantizedTensor(TensorBase repr, QDType dtype, Tensor<double> scales, Tensor<int64_t> zero_points, int64_t axis)
        : repr_(contiguous_repr(repr, dtype, "_make_per_channel_quantized_tensor")), dtype_(dtype),
          scheme_(kPerChannelAffine), scales_(scales.contiguous()), zero_points_(zero_points.contiguous()),
          axis_(axis) {
        check_channels("_make_per_channel_quantized_tensor", repr_.sizes(), scales_, zero_points_, axis, dtype);
    }

    bool defined() const { return repr_.defined(); }
    const IntArray& sizes() const { return repr_.sizes(); }
    const IntArray& shape() const { return repr_.sizes(); }
    int64_t size(int64_t d) const { return repr_.size(d); }
    int64_t dim() const { return repr_.dim(); }
    int64_t numel() const { return repr_.numel(); }
    /// torch.quint8, torch.qint8 or torch.qint32.
    QDType dtype() const { return dtype_; }
    QScheme qscheme() const { return scheme_; }
    bool is_quantized() const { return true; }
    Layout layout() const { return Layout::kStrided; }
    bool is_sparse() const { return false; }

    /// A copy of the integer values (uint8, int8 or int32), as PyTorch's int_repr.
    TensorBase int_repr() const {
        return detail::quant::visit(dtype_, [&](auto q) -> TensorBase {
            using Q = decltype(q);
            return repr_.as<Q>().clone();
        });
    }
    /// The scale of a per-tensor quantized tensor (an error for a per-channel one).
    double q_scale() const {
        require(kPerTensorAffine, "q_scale");
        return scale_;
    }
    int64_t q_zero_point() const {
        require(kPerTensorAffine, "q_zero_point");
        return zero_point_;
    }
    /// The per-channel scales (float64), zero points (int64) and axis (an error per tensor).
    Tensor<double> q_per_channel_scales() const {
        require(kPerChannelAffine, "q_per_channel_scales");
        return scales_.clone();
    }
    Tensor<int64_t> q_per_channel_zero_points() const {
        require(kPerChannelAffine, "q_per_channel_zero_points");
        return zero_points_.clone();
    }
    int64_t q_per_channel_axis() const {
        require(kPerChannelAffine, "q_per_channel_axis");
        return axis_;
    }

    /// The float values (a new Tensor<float>): see the file comment for the formula.
    Tensor<float> dequantize() const;

    /// The integer storage itself (no copy), for the library's own loops.
    const TensorBase& repr() const { return repr_; }

    /// Checks per-channel parameters against sizes (shared with quantize_per_channel).
    static void check_channels(const char* op, const IntArray& sizes, const Tensor<double>& scales,
                               const Tensor<int64_t>& zero_points, int64_t axis, QDType dtype) {
        const auto nd = static_cast<int64_t>(sizes.size());
        if (axis < 0 || axis >= nd)
            detail::fail<index_error>(op, ": channel axis ", axis, " is out of range for a tensor of ", nd,
                                      " dims (expected [0, ", nd, "))");
        if (scales.dim() != 1 || zero_points.dim() != 1)
            detail::fail<shape_error>(op, ": scales and zero_points must be 1-D (got shapes ", scales.sizes(), " and ",
                                      zero_points.sizes(), ")");
        if (scales.numel() != zero_points.numel())
            detail::fail<shape_error>(op, ": the number of scales (", scales.numel(),
                                      ") and of zero_points (", zero_points.numel(), ") must match");
        if (scales.numel() != sizes[static_cast<size_t>(axis)])
            detail::fail<shape_error>(op, ": the number of scales (", scales.numel(), ") must equal the size of axis ",
                                      axis, " (", sizes[static_cast<size_t>(axis)], ")");
        const std::vector<double> s = scales.to_vector();
        const std::vector<int64_t> z = zero_points.to_vector();
        for (size_t c = 0; c < s.size(); ++c) {
            const auto f = static_cast<float>(s[c]);
            if (!(f > 0.0f) || !std::isfinite(f))
                detail::fail<value_error>(op, ": scales[", c, "] must be a positive finite number (as a float), got ",
                                          s[c]);
            if (z[c] < dtype.qmin() || z[c] > dtype.qmax())
                detail::fail<value_error>(op, ": zero_points[", c, "] = ", z[c], " is out of the range of ", dtype,
                                          " [", dtype.qmin(), ", ", dtype.qmax(), "]");
        }
    }

private:
    static TensorBase contiguous_repr(const TensorBase& repr, QDType dtype, const char* op) {
        if (!(repr.dtype() == dtype.underlying()))
            detail::fail<dtype_error>(op, ": the integer values of a ", dtype, " tensor must be ", dtype.underlying(),
                                      ", got ", repr.dtype());
        if (!repr.is_cpu())
            detail::fail<device_error>(op, ": quantized tensors live on the host (got ", repr.device(), ")");
        return detail::quant::visit(dtype, [&](auto q) -> TensorBase {
            using Q = decltype(q);
            return repr.as<Q>().contiguous();
        });
    }
    void require(QScheme s, const char* op) const {
        if (scheme_ != s)
            detail::fail<error>(op, ": expected a ", s == kPerTensorAffine ? "per-tensor" : "per-channel",
                                " quantized tensor, got qscheme ", scheme_);
    }

    TensorBase repr_;
    QDType dtype_ = kQUInt8;
    QScheme scheme_ = kPerTensorAffine;
    double scale_ = 1.0;
    int64_t zero_point_ = 0;
    Tensor<double> scales_;
    Tensor<int64_t> zero_points_;
    int64_t axis_ = 0;
};

/// torch.quantize_per_tensor(x, scale, zero_point, dtype). Throws value_error for a scale that
/// is not a positive finite number or a zero_point outside dtype's range.
inline QuantizedTensor quantize_per_tensor(const Tensor<float>& x, double scale, int64_t zero_point, QDType dtype) {
    detail::quant::check_scale("quantize_per_tensor", scale);
    detail::quant::check_zero_point("quantize_per_tensor", zero_point, dtype);
    detail::check_host_access(x, "quantize_per_tensor");
    const Tensor<float> src = x.contiguous();
    const float* in = src.data_ptr();
    const float inv_scale = 1.0f / static_cast<float>(scale);
    const auto zp = static_cast<float>(zero_point);
    const int64_t n = src.numel();
    TensorBase repr = detail::quant::visit(dtype, [&](auto q) -> TensorBase {
        using Q = decltype(q);
        Tensor<Q> out = empty<Q>(src.sizes());
        Q* o = out.data_ptr();
        detail::parallel_range(n, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) o[i] = detail::quant::quantize_one<Q>(in[i], inv_scale, zp);
        });
        return out;
    });
    return QuantizedTensor(std::move(repr), dtype, scale, zero_point);
}

/// torch.quantize_per_channel(x, scales, zero_points, axis, dtype): channel c along `axis` is
/// quantized with float(scales[c]) and zero_points[c]. Throws index_error for an axis outside
/// [0, x.dim()) (negative axes are refused, as PyTorch does), shape_error for scales or
/// zero_points that are not 1-D of x.size(axis) elements, value_error for a bad scale or zero
/// point (naming the channel).
template <class S>
    requires FloatingElement<S>
QuantizedTensor quantize_per_channel(const Tensor<float>& x, const Tensor<S>& scales,
                                     const Tensor<int64_t>& zero_points, int64_t axis, QDType dtype) {
    const Tensor<double> s = scales.template to<double>().contiguous();
    const Tensor<int64_t> z = zero_points.contiguous();
    QuantizedTensor::check_channels("quantize_per_channel", x.sizes(), s, z, axis, dtype);
    detail::check_host_access(x, "quantize_per_channel");
    const Tensor<float> src = x.contiguous();
    const float* in = src.data_ptr();
    const int64_t channels = x.size(axis);
    int64_t inner = 1, outer = 1;
    for (int64_t d = axis + 1; d < x.dim(); ++d) inner *= x.size(d);
    for (int64_t d = 0; d < axis; ++d) outer *= x.size(d);
    std::vector<float> inv(static_cast<size_t>(channels)), zp(static_cast<size_t>(channels));
    const double* sd = s.data_ptr();
    const int64_t* zd = z.data_ptr();
    for (int64_t c = 0; c < channels; ++c) {
        inv[static_cast<size_t>(c)] = 1.0f / static_cast<float>(sd[c]);
        zp[static_cast<size_t>(c)] = static_cast<float>(zd[c]);
    }
    TensorBase repr = detail::quant::visit(dtype, [&](auto q) -> TensorBase {
        using Q = decltype(q);
        Tensor<Q> out = empty<Q>(src.sizes());
        Q* o = out.data_ptr();
        for (int64_t b = 0; b < outer; ++b)
            for (int64_t c = 0; c < channels; ++c) {
                const int64_t base = (b * channels + c) * inner;
                const float ic = inv[static_cast<size_t>(c)], zc = zp[static_cast<size_t>(c)];
                for (int64_t e = 0; e < inner; ++e) o[base + e] = detail::quant::quantize_one<Q>(in[base + e], ic, zc);
            }
        return out;
    });
    return QuantizedTensor(std::move(repr), dtype, s, z, axis);
}

inline Tensor<float> QuantizedTensor::dequantize() const {
    Tensor<float> out = empty<float>(sizes());
    float* o = out.data_ptr();
    const int64_t n = numel();
    detail::quant::visit(dtype_, [&](auto q) {
        using Q = decltype(q);
        const Q* in = repr_.as<Q>().data_ptr();
        if (scheme_ == kPerTensorAffine) {
            const auto s = static_cast<float>(scale_);
            const int64_t z = zero_point_;
            detail::parallel_range(n, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) {
                    // q - zero_point in int32, wrapping as PyTorch's does for qint32.
                    const auto d = static_cast<int32_t>(static_cast<uint32_t>(in[i]) - static_cast<uint32_t>(z));
                    o[i] = s * static_cast<float>(d);
                }
            });
        } else {
            const int64_t channels = size(axis_);
            int64_t inner = 1, outer = 1;
            for (int64_t d = axis_ + 1; d < dim(); ++d) inner *= size(d);
            for (int64_t d = 0; d < axis_; ++d) outer *= size(d);
            const double* sd = scales_.data_ptr();
            const int64_t* zd = zero_points_.data_ptr();
            for (int64_t b = 0; b < outer; ++b)
                for (int64_t c = 0; c < channels; ++c) {
                    const int64_t base = (b * channels + c) * inner;
                    const auto zc = static_cast<float>(zd[c]);
                    const double sc = sd[c];
                    for (int64_t e = 0; e < inner; ++e)
                        o[base + e] = static_cast<float>(static_cast<double>(static_cast<float>(in[base + e]) - zc) * sc);
                }
        }
    });
    return out;
}

/// torch.dequantize(q): q.dequantize().
inline Tensor<float> dequantize(const QuantizedTensor& q) { return q.dequantize(); }

}  // namespace tenet
