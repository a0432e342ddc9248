#pragma once
// Indexing with tensors on a device: what core/advanced_index.hpp, ops/gather.hpp and
// ops/masks.hpp call when their operands live on a device. Every index op there is a list of
// element pairs (at[k] in the indexed tensor, other[k] in the other one); on a device the pairs
// are int64 device tensors built by one kernel from the index's values, the forward pass is a
// gather through them, and a write or a gradient through them is a reduction by target
// (stable sort by target, reduce_by_key, one combine per target), so duplicate targets
// accumulate deterministically and a plain write keeps the last pair in index order, as the
// host loops do. Defined in kernels/tenet/cuda/index.cuh (Thrust: CUDA, or its OpenMP system
// under TENET_DEVICE_EMULATION); elsewhere the callers throw `no_device_evaluator`.

#include "tenet/config.hpp"
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "tenet/backend/device/device_dispatch.hpp"
#include "tenet/core/device.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI::detail {

/// How an index op combines the values written to one place (ops/gather.hpp's scatter family;
/// Copy: the last one written wins).
enum class IndexReduce { Copy, Sum, Prod, Mean, Amax, Amin };

/// Element pairs on a device: at[k] and other[k] are element offsets (contiguous int64 device
/// tensors of one length); an undefined `other` stands for other[k] = k.
struct DevicePairs {
    Tensor<int64_t> at, other;
    int64_t size() const { return at.defined() ? at.numel() : 0; }
};

/// Throws device_error unless every tensor given is on `device` (an index op's operands must
/// share one device, as in PyTorch). Undefined tensors are skipped.
inline void check_same_device(const char* op, Device device, std::initializer_list<const TensorBase*> ts) {
    for (const TensorBase* t : ts)
        if (t && t->defined() && t->device() != device)
            fail<device_error>(op, ": expected all tensors to be on the same device, but found at least two "
                                   "devices, ",
                               device, " and ", t->device());
}

#if TENET_DEVICE_EVALUATOR
/// The first value (in row-major order) of the device tensor `index` (int64 or int32) outside
/// [lo, hi), or none: one min/max reduction, then a search only when one is out of range.
template <class I>
std::optional<int64_t> device_first_outside(const Tensor<I>& index, int64_t lo, int64_t hi);

/// gather's and scatter's pairs (ops/gather.hpp's along_map): for each element c of index
/// (contiguous, values in range), at = c with c[dim] = index[c] in self, other = c in other.
template <class I>
DevicePairs device_along_pairs(const IntArray& self_sizes, int64_t dim, const Tensor<I>& index,
                               const IntArray& other_sizes);
/// gather's forward without pairs: out (contiguous, index's shape) = x at each index element's
/// coordinate with coordinate dim replaced by the index's value (x and index strided, strides in
/// elements, empty for 0-d; values already checked in range). One thread per output element.
template <class T, class I>
void device_gather_along(T* out, const T* x, const IntArray& x_strides, int64_t dim, const Tensor<I>& index);

/// The index_* ops' pairs (slice_map): slice index[k] (negatives wrapped) of self along dim and
/// slice k of other (other_n slices along dim).
template <class I>
DevicePairs device_slice_pairs(const IntArray& self_sizes, int64_t dim, const Tensor<I>& index, int64_t other_n);
/// take's and put's pairs (flat_map): flat element index[k] (negatives wrapped) and k.
template <class I>
DevicePairs device_flat_pairs(int64_t numel, const Tensor<I>& index);
/// The pairs of the targets `at` each once (ascending), other = 0: index_fill's value gradient.
template <class I>
DevicePairs device_unique_targets(const Tensor<I>& at);

/// out[other[k]] = src[at[k]] for every pair (pointers into device memory of m's device).
template <class T>
void device_gather_pairs(T* out, const T* src, const DevicePairs& m, Device device);

/// dst[at[k]] = reduce(dst[at[k]], src ? src[other[k]] * alpha : value) for every pair, the
/// values for one target folded first (in index order for Copy: the last wins); include_self
/// false: a target's old value takes no part. Mean divides by the count (plus one with self;
/// integers round down).
template <class T>
void device_reduce_pairs(T* dst, const DevicePairs& m, const T* src, T value, IndexReduce kind, bool include_self,
                         double alpha, Device device);

/// The flat (row-major over `sizes`) positions of the nonzero elements of the device layout
/// (`first`, strides `strides` over `sizes`), ascending: a stream compaction.
template <class T>
Tensor<int64_t> device_nonzero_positions(const T* first, const IntArray& sizes, const IntArray& strides,
                                         Device device);
/// masked_select's forward without positions: the elements of x (first element `x`, strides
/// `x_strides` over `sizes`) where the bool mask (`mask`, `mask_strides` over `sizes`, 0 where
/// broadcast) holds, in row-major order, as a 1-D device tensor: a count, then one stream
/// compaction straight from the values.
template <class T>
Tensor<T> device_masked_values(const T* x, const IntArray& x_strides, const bool* mask, const IntArray& mask_strides,
                               const IntArray& sizes, Device device);
/// flat's positions as coordinates over `sizes`: [n, sizes.size()].
template <class I>
Tensor<int64_t> device_unravel(const Tensor<I>& flat, const IntArray& sizes);
/// The element offsets (in a layout of `strides` over `sizes`) of the flat positions `flat`.
template <class I>
Tensor<int64_t> device_offsets_of(const Tensor<I>& flat, const IntArray& sizes, const IntArray& strides);

/// The source offsets of an advanced index's result (core/advanced_index.hpp), row-major over
/// [before..., B, after...]: base + the before/after coordinates times their strides + the sum
/// over the index tensors k of positions[k][b] (wrapped by dim_sizes[k]) * dim_strides[k].
/// positions: contiguous, B's shape (nb elements each), on `device` (none: a 0-d mask's index). (The functions are
/// templates over the index type, int64_t, so a translation unit compiles only those it calls.)
template <class I>
Tensor<int64_t> device_advanced_offsets(const std::vector<Tensor<I>>& positions, const IntArray& dim_sizes,
                                        const IntArray& dim_strides, int64_t nb, const IntArray& before_sizes,
                                        const IntArray& before_strides, const IntArray& after_sizes,
                                        const IntArray& after_strides, int64_t base, Device device);
#endif

}  // namespace tenet::detail
