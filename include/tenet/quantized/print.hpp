#pragma once
// Printing a QuantizedTensor as PyTorch's repr: the dequantized values, then size, dtype,
// quantization_scheme and the parameters (`tenet.` where PyTorch writes `torch.`).

#include "tenet/config.hpp"
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "tenet/io/print.hpp"
#include "tenet/io/py_repr.hpp"
#include "tenet/quantized/qtensor.hpp"

namespace tenet::inline TENET_ABI {

/// The repr PyTorch gives a quantized tensor, e.g. `tensor([0.1000, 0.2000], size=(2,),
/// dtype=tenet.quint8, quantization_scheme=tenet.per_tensor_affine, scale=0.1, zero_point=10)`.
inline std::string to_string(const QuantizedTensor& q) {
    if (!q.defined()) return "[ Tensor (undefined) ]";
    namespace p = detail::print;
    p::Values v = p::values_of(q.dequantize());
    std::ostringstream dtype, scheme;
    dtype << "dtype=" << q.dtype();
    scheme << "quantization_scheme=" << q.qscheme();
    std::vector<std::string> suffixes{"size=" + p::py_tuple(q.sizes()), dtype.str(), scheme.str()};
    if (q.qscheme() == kPerTensorAffine) {
        suffixes.push_back("scale=" + p::py_float_repr(q.q_scale()));
        suffixes.push_back("zero_point=" + std::to_string(q.q_zero_point()));
    } else {
        suffixes.push_back("scale=" + to_string(q.q_per_channel_scales()));
        suffixes.push_back("zero_point=" + to_string(q.q_per_channel_zero_points()));
        suffixes.push_back("axis=" + std::to_string(q.q_per_channel_axis()));
    }
    const std::string prefix = "tensor(";
    const auto indent = static_cast<int64_t>(prefix.size());
    return p::add_suffixes(prefix + p::body(v, indent), suffixes, indent, v.opts.linewidth);
}

inline std::ostream& operator<<(std::ostream& os, const QuantizedTensor& q) { return os << to_string(q); }

}  // namespace tenet
