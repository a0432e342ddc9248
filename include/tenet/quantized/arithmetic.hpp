#pragma once
// Quantized add and mul with an output scale and zero point: PyTorch 1.13's
// torch.ops.quantized.add(a, b, scale, zero_point) and torch.ops.quantized.mul (x86, AVX2 kernels,
// which PyTorch runs on every whole block of 64 one-byte or 16 four-byte elements):
//   add: c = fma(sa, float(qa), float(sa * -za)) + fma(sb, float(qb), float(sb * -zb)) in float,
//        then quantized with (scale, zero_point) as quantize_per_tensor does;
//   mul: zero_point + nearbyint(float((qa - za) * (qb - zb)) * m), m = float(sa) * float(sb) *
//        (1.0f / float(scale)) in float, clamped to the dtype's range.
// Both operands must be per-tensor quantized and of one dtype; their shapes broadcast, as in
// PyTorch (which computes into the first operand's shape and resizes it, with a warning).

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>

#include "tenet/quantized/qtensor.hpp"

namespace tenet::inline TENET_ABI {

namespace detail::quant {

/// Checks the operands and returns the result's shape (the broadcast of theirs).
inline IntArray check_binary(const char* op, const QuantizedTensor& a, const QuantizedTensor& b, double scale,
                             int64_t zero_point) {
    if (!a.defined() || !b.defined()) fail<error>(op, ": an operand is undefined");
    if (a.qscheme() != kPerTensorAffine || b.qscheme() != kPerTensorAffine)
        fail<error>(op, ": only per-tensor quantized operands are supported (got ", a.qscheme(), " and ", b.qscheme(),
                    ")");
    if (!(a.dtype() == b.dtype()))
        fail<dtype_error>(op, ": both operands must have the same dtype (got ", a.dtype(), " and ", b.dtype(), ")");
    IntArray shape = broadcast_shapes(a.sizes(), b.sizes(), op);
    check_scale(op, scale);
    check_zero_point(op, zero_point, a.dtype());
    return shape;
}

/// `q`'s integer representation as a contiguous `shape` (a copy only when it must broadcast).
template <class Q>
Tensor<Q> repr_as(const QuantizedTensor& q, const IntArray& shape) {
    Tensor<Q> r = q.repr().as<Q>();
    return r.sizes() == shape ? r.contiguous() : r.expand(shape).contiguous();
}

template <class Q, class F>
QuantizedTensor binary(const QuantizedTensor& a, const QuantizedTensor& b, const IntArray& shape, double scale,
                       int64_t zero_point, F f) {
    const Tensor<Q> ra = repr_as<Q>(a, shape), rb = repr_as<Q>(b, shape);
    const Q* pa = ra.data_ptr();
    const Q* pb = rb.data_ptr();
    Tensor<Q> out = empty<Q>(shape);
    Q* po = out.data_ptr();
    detail::parallel_range(out.numel(), [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) po[i] = f(pa[i], pb[i]);
    });
    return QuantizedTensor(out, a.dtype(), scale, zero_point);
}

}  // namespace detail::quant

namespace quantized {

/// torch.ops.quantized.add(a, b, scale, zero_point): the sum of the dequantized operands,
/// quantized with the output scale and zero point (see the file comment for the arithmetic).
/// The operands' shapes broadcast. Throws error (per-channel operands), dtype_error (dtypes
/// differ), shape_error (shapes that do not broadcast),
/// value_error (bad scale or zero_point).
inline QuantizedTensor add(const QuantizedTensor& a, const QuantizedTensor& b, double scale, int64_t zero_point) {
    const IntArray shape = detail::quant::check_binary("quantized::add", a, b, scale, zero_point);
    const auto sa = static_cast<float>(a.q_scale()), sb = static_cast<float>(b.q_scale());
    const float pa = sa * -static_cast<float>(a.q_zero_point()), pb = sb * -static_cast<float>(b.q_zero_point());
    const float inv = 1.0f / static_cast<float>(scale);
    const auto zp = static_cast<float>(zero_point);
    return detail::quant::visit(a.dtype(), [&](auto q) {
        using Q = decltype(q);
        return detail::quant::binary<Q>(a, b, shape, scale, zero_point, [=](Q x, Q y) {
            const float c = std::fma(sa, static_cast<float>(x), pa) + std::fma(sb, static_cast<float>(y), pb);
            return detail::quant::quantize_one<Q>(c, inv, zp);
        });
    });
}

/// torch.ops.quantized.mul(a, b, scale, zero_point): the product, requantized from the integer
/// product of the zero-point-shifted values (see the file comment). Throws as add.
inline QuantizedTensor mul(const QuantizedTensor& a, const QuantizedTensor& b, double scale, int64_t zero_point) {
    const IntArray shape = detail::quant::check_binary("quantized::mul", a, b, scale, zero_point);
    const float m = static_cast<float>(a.q_scale()) * static_cast<float>(b.q_scale()) * (1.0f / static_cast<float>(scale));
    const int64_t za = a.q_zero_point(), zb = b.q_zero_point();
    return detail::quant::visit(a.dtype(), [&](auto q) {
        using Q = decltype(q);
        return detail::quant::binary<Q>(a, b, shape, scale, zero_point, [=](Q x, Q y) {
            // PyTorch multiplies in int32 (wrapping for qint32 products beyond it).
            const auto c = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(x) - za) *
                                                static_cast<uint32_t>(static_cast<int64_t>(y) - zb));
            const float r = std::nearbyint(static_cast<float>(c) * m);
            const int64_t v = zero_point + static_cast<int64_t>(r);
            return static_cast<Q>(std::clamp<int64_t>(v, std::numeric_limits<Q>::min(), std::numeric_limits<Q>::max()));
        });
    });
}

}  // namespace quantized
}  // namespace tenet
