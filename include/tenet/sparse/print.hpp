#pragma once
// Printing a SparseTensor as PyTorch's repr:
//   tensor(indices=tensor([[0, 1],
//                          [2, 0]]),
//          values=tensor([3., 4.]),
//          size=(2, 3), nnz=2, layout=tenet.sparse_coo)

#include "tenet/config.hpp"
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "tenet/io/print.hpp"
#include "tenet/io/py_repr.hpp"
#include "tenet/sparse/sparse_tensor.hpp"

namespace tenet::inline TENET_ABI {

template <class T>
std::string to_string(const SparseTensor<T>& s) {
    if (!s.defined()) return "[ Tensor (undefined) ]";
    namespace p = detail::print;
    const std::string prefix = "tensor(";
    const auto indent = static_cast<int64_t>(prefix.size());
    std::vector<std::string> suffixes{"size=" + p::py_tuple(s.sizes()), "nnz=" + std::to_string(s._nnz())};
    if (!(s.dtype() == get_default_dtype() || s.dtype() == kInt64 || s.dtype() == kBool))
        suffixes.push_back("dtype=tenet." + std::string(s.dtype().name()));
    const std::string ip = "indices=tensor(", vp = "values=tensor(";
    const p::Values iv = p::values_of(s._indices()), vv = p::values_of(s._values());
    std::string is = p::body(iv, indent + static_cast<int64_t>(ip.size()));
    if (s._indices().numel() == 0) is += ", size=" + p::py_tuple(s._indices().sizes());
    std::string vs = p::body(vv, indent + static_cast<int64_t>(vp.size()));
    if (s._values().numel() == 0) vs += ", size=" + p::py_tuple(s._values().sizes());
    std::ostringstream layout;
    layout << "layout=" << s.layout();
    suffixes.push_back(layout.str());
    const std::string text = prefix + ip + is + "),\n" + std::string(static_cast<size_t>(indent), ' ') + vp + vs + ")";
    return p::add_suffixes(text, suffixes, indent, iv.opts.linewidth, /*force_newline=*/true);
}

template <class T>
std::ostream& operator<<(std::ostream& os, const SparseTensor<T>& s) {
    return os << to_string(s);
}

}  // namespace tenet
