#pragma once
// tenet's quantized tensors (PyTorch's torch.quint8 / qint8 / qint32, per-tensor and per-channel
// affine): QuantizedTensor, quantize_per_tensor, quantize_per_channel, dequantize, int_repr and
// the quantization parameters (<tenet/quantized/qtensor.hpp>), quantized::add and
// quantized::mul (<tenet/quantized/arithmetic.hpp>), printing (<tenet/quantized/print.hpp>).
// Not part of <tenet/tenet.hpp>: include this header explicitly.

#include "tenet/config.hpp"
#include "tenet/core.hpp"
#include "tenet/quantized/arithmetic.hpp"
#include "tenet/quantized/print.hpp"
#include "tenet/quantized/qtensor.hpp"
