#pragma once
// tenet's exceptions. Every misuse throws one of these; the message names the
// operation and the offending shapes, indices, dtypes or devices.

#include "tenet/config.hpp"
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace tenet::inline TENET_ABI {

/// Base of every tenet exception.
struct error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
/// Shapes that do not fit the operation (view, broadcast, expand, ...).
struct shape_error : error {
    using error::error;
};
/// An index or dimension out of range.
struct index_error : error {
    using error::error;
};
/// An element type the operation does not accept.
struct dtype_error : error {
    using error::error;
};
/// Operands on different devices, or a device that is not available.
struct device_error : error {
    using error::error;
};
/// A value outside the accepted domain (negative step, bad count, ...).
struct value_error : error {
    using error::error;
};
/// A file or buffer that cannot be read as what it claims to be (corrupt, truncated, hostile),
/// or a file that cannot be opened or written; the message names the file and the fault.
struct io_error : error {
    using error::error;
};

namespace detail {

/// Builds a message from any streamable pieces: `make_message("view: ", shape, " is invalid")`.
template <class... Parts>
std::string make_message(const Parts&... parts) {
    std::ostringstream os;
    (os << ... << parts);
    return os.str();
}

template <class Error = error, class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
    throw Error(make_message(parts...));
}

/// Wraps a possibly negative dimension into [0, ndim); `op` names the caller.
inline int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
    // PyTorch treats a 0-d tensor as having one addressable dim ([-1, 0]).
    const int64_t n = ndim == 0 ? 1 : ndim;
    if (dim < -n || dim >= n)
        fail<index_error>(op, ": dimension out of range (expected to be in range of [", -n, ", ",
                          n - 1, "], but got ", dim, ")");
    return dim < 0 ? dim + n : dim;
}

}  // namespace detail
}  // namespace tenet
