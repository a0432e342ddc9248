#pragma once
// A tensor's memory layout (PyTorch's torch.layout): strided (every dense Tensor<T>) or sparse
// COO (tenet::SparseTensor<T>, <tenet/sparse.hpp>).

#include "tenet/config.hpp"
#include <cstdint>
#include <ostream>

namespace tenet::inline TENET_ABI {

/// torch.strided / torch.sparse_coo. Prints as `tenet.strided` / `tenet.sparse_coo`.
enum class Layout : int8_t { kStrided, kSparseCOO };

inline constexpr Layout kStrided = Layout::kStrided;
inline constexpr Layout kSparseCOO = Layout::kSparseCOO;

inline std::ostream& operator<<(std::ostream& os, Layout l) {
    return os << (l == Layout::kStrided ? "tenet.strided" : "tenet.sparse_coo");
}

}  // namespace tenet
