#pragma once
// Shape and stride arithmetic shared by every view operation. Pure functions on
// IntArrays, with no element type, so they are compiled once per translation unit
// however many element types a program uses.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Row-major strides of a dense tensor of the given sizes.
inline IntArray contiguous_strides(const IntArray& sizes) {
    IntArray strides(sizes.size());
    int64_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = s;
        s *= std::max<int64_t>(sizes[i], 1);
    }
    return strides;
}

/// PyTorch's is_contiguous: row-major dense, ignoring the strides of size-1 dims.
inline bool is_contiguous(const IntArray& sizes, const IntArray& strides) {
    const int64_t *size = sizes.data(), *stride = strides.data();  // hoisted: this runs on every op
    int64_t expected = 1;
    bool dense = true;
    for (size_t i = sizes.size(); i-- > 0;) {
        if (size[i] == 0) return true;
        if (size[i] == 1) continue;
        dense &= stride[i] == expected;
        expected *= size[i];
    }
    return dense;
}

/// Whether the elements cover a gap-free block of memory exactly once, in any dim order.
TENET_FIXED bool is_non_overlapping_and_dense(const IntArray& sizes, const IntArray& strides);

/// Strides for a fresh dense tensor that keep the memory order of (sizes, strides), as
/// PyTorch's preserve_format: a non-overlapping dense layout keeps its strides verbatim;
/// any other layout gets dense strides in the same dim order (PyTorch's
/// infer_dense_strides: dims sorted by stride, stride-0 dims staying in place).
TENET_FIXED IntArray dense_strides_like(const IntArray& sizes, const IntArray& strides);

/// One past the largest storage element a view touches (0 for an empty view).
inline int64_t storage_extent(const IntArray& sizes, const IntArray& strides, int64_t offset) {
    int64_t last = offset;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == 0) return 0;
        last += (sizes[i] - 1) * strides[i];
    }
    return last + 1;
}

/// Resolves a single -1 in a requested shape and checks the element count.
TENET_FIXED IntArray infer_size(const IntArray& shape, int64_t numel, const char* op);

/// Strides that let a tensor of (sizes, strides) be viewed as new_sizes without a copy,
/// or nothing when a dimension would span two non-contiguous chunks (PyTorch's rule).
TENET_FIXED std::optional<IntArray> view_strides(const IntArray& sizes, const IntArray& strides,
                                            const IntArray& new_sizes);

/// Broadcasts two shapes with NumPy/PyTorch rules; `op` names the caller in the error.
TENET_FIXED IntArray broadcast_shapes(const IntArray& a, const IntArray& b, const char* op);

/// Strides that present a tensor of (sizes, strides) as the larger shape `target`
/// (expanded size-1 dims and new leading dims get stride 0; a new leading dim of size 1 gets
/// the stride PyTorch gives it). `target` may contain -1 for "keep".
/// Returns the resolved target sizes and the strides.
TENET_FIXED std::pair<IntArray, IntArray> expand_geometry(const IntArray& sizes, const IntArray& strides,
                                                     const IntArray& target, const char* op);

/// Wraps an index into [0, size) for dimension `dim`; throws index_error when out of range.
inline int64_t wrap_index(int64_t index, int64_t size, int64_t dim, const char* op) {
    if (index < -size || index >= size)
        fail<index_error>(op, ": index ", index, " is out of bounds for dimension ", dim, " with size ", size);
    return index < 0 ? index + size : index;
}

/// Merges adjacent dims that every operand walks contiguously, so a dense N-d walk
/// becomes a flat loop. `strides` holds one IntArray per operand; all share `sizes`.
template <size_t N>
void coalesce_dims(IntArray& sizes, std::array<IntArray, N>& strides) {
    if (sizes.size() < 2) return;
    size_t out = 0;
    for (size_t d = 1; d < sizes.size(); ++d) {
        bool mergeable = true;
        for (size_t k = 0; k < N; ++k)
            mergeable = mergeable && strides[k][out] == strides[k][d] * sizes[d];
        if (sizes[out] == 1) mergeable = true;  // a size-1 dim merges with anything
        if (sizes[d] == 1) mergeable = true;
        if (mergeable) {
            if (sizes[d] == 1) continue;                        // keep the outer dim's strides
            for (size_t k = 0; k < N; ++k) strides[k][out] = strides[k][d];  // inner stride wins
            sizes[out] *= sizes[d];
        } else {
            ++out;
            sizes[out] = sizes[d];
            for (size_t k = 0; k < N; ++k) strides[k][out] = strides[k][d];
        }
    }
    sizes.resize(out + 1);
    for (auto& s : strides) s.resize(out + 1);
}

#if TENET_HEADER_DEFINITIONS
TENET_FIXED bool is_non_overlapping_and_dense(const IntArray& sizes, const IntArray& strides) {
    const size_t n = sizes.size();
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (sizes[a] < 2 || sizes[b] < 2) return sizes[a] < 2 && sizes[b] >= 2;  // size-1 dims first
        return strides[a] < strides[b];
    });
    int64_t expected = 1;
    for (size_t i : order) {
        if (sizes[i] == 1) continue;
        if (sizes[i] == 0) return true;
        if (strides[i] != expected) return false;
        expected *= sizes[i];
    }
    return true;
}

TENET_FIXED IntArray dense_strides_like(const IntArray& sizes, const IntArray& strides) {
    if (is_non_overlapping_and_dense(sizes, strides)) return strides;
    const size_t n = sizes.size();
    // perm[0] is the innermost dim; start from row-major order, then insertion-sort.
    std::vector<size_t> perm(n);
    for (size_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
    auto should_swap = [&](size_t d0, size_t d1) {
        const int64_t s0 = strides[d0], s1 = strides[d1];
        if (s0 == 0 || s1 == 0) return 0;  // ambiguous: keep the row-major order
        if (s0 != s1) return s0 < s1 ? -1 : 1;
        return sizes[d0] > sizes[d1] ? 1 : 0;  // equal strides: the smaller size goes inner
    };
    for (size_t i = 1; i < n; ++i) {
        size_t d1 = i;
        for (size_t j = 1; j <= i; ++j) {
            const size_t d0 = i - j;
            const int c = should_swap(perm[d0], perm[d1]);
            if (c > 0) {
                std::swap(perm[d0], perm[d1]);
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    IntArray result(n);
    int64_t s = 1;
    for (size_t i : perm) {
        result[i] = s;
        if (sizes[i] > 1) s *= sizes[i];
    }
    return result;
}

TENET_FIXED IntArray infer_size(const IntArray& shape, int64_t numel, const char* op) {
    IntArray result = shape;
    std::optional<size_t> infer_dim;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (infer_dim) fail<shape_error>(op, ": only one dimension can be inferred, got shape ", shape);
            infer_dim = i;
        } else if (shape[i] < 0) {
            fail<shape_error>(op, ": invalid shape dimension ", shape[i], " in shape ", shape);
        } else {
            known *= shape[i];
        }
    }
    if (infer_dim) {
        if (known != 0 && numel % known == 0) {
            result[*infer_dim] = numel / known;
            return result;
        }
    } else if (known == numel) {
        return result;
    }
    fail<shape_error>(op, ": shape ", shape, " is invalid for input of size ", numel);
}

TENET_FIXED std::optional<IntArray> view_strides(const IntArray& sizes, const IntArray& strides,
                                            const IntArray& new_sizes) {
    IntArray new_strides(new_sizes.size());
    if (sizes.empty()) return contiguous_strides(new_sizes);  // a 0-d tensor: every new dim is 1
    if (product(sizes) == 0) {
        if (sizes == new_sizes) return strides;
        return contiguous_strides(new_sizes);
    }
    // Walk the old dims from the back, grouping runs that are contiguous with each other;
    // each group must be exactly covered by a run of new dims.
    int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
    int64_t chunk_base_stride = strides.empty() ? 1 : strides.back();
    int64_t tensor_numel = 1;
    int64_t view_numel = 1;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
        tensor_numel *= sizes[d];
        const bool chunk_ends = d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride);
        if (chunk_ends) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= new_sizes[view_d];
                --view_d;
            }
            if (view_numel != tensor_numel) return std::nullopt;
            if (d > 0) {
                chunk_base_stride = strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if (view_d != -1) return std::nullopt;
    return new_strides;
}

TENET_FIXED IntArray broadcast_shapes(const IntArray& a, const IntArray& b, const char* op) {
    if (b.empty() || a == b) return a;  // the common cases (a number as b), and the hot ones for tiny operands
    if (a.empty()) return b;
    const size_t n = std::max(a.size(), b.size());
    IntArray out(n);
    for (size_t i = 0; i < n; ++i) {
        const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da != db && da != 1 && db != 1)
            fail<shape_error>(op, ": shapes ", a, " and ", b, " cannot be broadcast together: the size of tensor a (", da,
                              ") must match the size of tensor b (", db, ") at non-singleton dimension ", i);
        out[i] = da == 1 ? db : da;
    }
    return out;
}

TENET_FIXED std::pair<IntArray, IntArray> expand_geometry(const IntArray& sizes, const IntArray& strides,
                                                     const IntArray& target, const char* op) {
    if (target.size() < sizes.size())
        fail<shape_error>(op, ": the number of sizes provided (", target.size(),
                          ") must be greater or equal to the number of dimensions in the tensor (", sizes.size(),
                          "); target sizes ", target, ", tensor sizes ", sizes);
    const size_t lead = target.size() - sizes.size();
    IntArray out_sizes(target.size());
    IntArray out_strides(target.size());
    for (size_t i = 0; i < target.size(); ++i) {
        int64_t want = target[i];
        if (i < lead) {
            if (want < 0)
                fail<shape_error>(op, ": the expanded size of the tensor (", want,
                                  ") isn't allowed in a leading, non-existing dimension ", i);
            out_sizes[i] = want;
            continue;  // its stride: below, once the dims after it are known
        }
        const int64_t have = sizes[i - lead];
        if (want == -1) want = have;
        if (want < 0) fail<shape_error>(op, ": invalid size ", want, " in target sizes ", target);
        if (have == want) {
            out_strides[i] = strides[i - lead];
        } else if (have == 1) {
            out_strides[i] = 0;
        } else {
            fail<shape_error>(op, ": the expanded size of the tensor (", want, ") must match the existing size (",
                              have, ") at non-singleton dimension ", i, ".  Target sizes: ", target,
                              ".  Tensor sizes: ", sizes);
        }
        out_sizes[i] = want;
    }
    // A new leading dim of size 1 gets the stride of the dims after it (size * stride), others
    // 0, as PyTorch's inferExpandGeometry (ones({5}).expand({2, 1, 5}) has strides [0, 5, 1]).
    for (size_t i = lead; i-- > 0;) {
        const int64_t next = i + 1 < target.size() ? out_sizes[i + 1] * out_strides[i + 1] : 0;
        out_strides[i] = out_sizes[i] == 1 ? next : 0;
    }
    return {std::move(out_sizes), std::move(out_strides)};
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::detail
