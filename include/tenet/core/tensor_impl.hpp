#pragma once
// TensorImpl: what a tensor handle points to — a storage and the geometry of one
// view into it (offset, sizes, strides, in elements), plus its run-time dtype.
// `TensorBase` is the handle without the element type: everything that does not
// depend on T (metadata, views) lives here and is compiled once, not once per T.

#include "tenet/config.hpp"
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "tenet/core/allocator.hpp"
#include "tenet/core/dimname.hpp"
#include "tenet/core/dtype.hpp"
#include "tenet/core/geometry.hpp"
#include "tenet/core/indexing.hpp"
#include "tenet/core/layout.hpp"
#include "tenet/core/storage.hpp"

namespace tenet::inline TENET_ABI {

namespace autograd {
struct AutogradMeta;  // autograd/node.hpp
}

class TensorImplPtr;

class TensorImpl {
public:
    StoragePtr storage;
    int64_t offset = 0;
    DType dtype = ScalarType::Float32;
    /// requires_grad, grad, grad_fn: created by the autograd layer on first use. Views get
    /// their own (a view of a tensor that requires grad is recorded as a ViewBackward).
    std::shared_ptr<autograd::AutogradMeta> autograd;
    /// The dims' names (core/named.hpp): null for an unnamed tensor, so names cost one pointer
    /// and no allocation when unused. Set through detail::set_names (never all None).
    detail::DimnamesPtr names;

    const IntArray& sizes() const { return sizes_; }
    const IntArray& strides() const { return strides_; }
    /// detail::is_contiguous(sizes, strides) and product(sizes), cached because every op on a
    /// tiny tensor asks them (W7 in bench/: a few ns of a 30 ns op).
    bool contiguous() const { return contiguous_; }
    int64_t numel() const { return numel_; }

    /// The one way to set sizes and strides, so that the cached facts always follow them.
    void set_geometry(IntArray sizes, IntArray strides) {
        sizes_ = std::move(sizes);
        strides_ = std::move(strides);
        contiguous_ = detail::is_contiguous(sizes_, strides_);
        numel_ = product(sizes_);
    }

private:
    friend class TensorImplPtr;
    IntArray sizes_;  // a 0-d tensor until set_geometry
    IntArray strides_;
    int64_t numel_ = 1;
    bool contiguous_ = true;
    std::atomic<int64_t> owners_{1};  // the handles to this object; TensorImplPtr::make returns the first
};

/// An owning handle to a TensorImpl, shared like std::shared_ptr. The count of owners lives in
/// the TensorImpl itself, so a handle is one pointer and copying or dropping one is a single
/// inlined atomic update: a tiny op copies and drops one handle per operand (W7 in bench/),
/// where std::shared_ptr's release is an out-of-line call.
class TensorImplPtr {
public:
    TensorImplPtr() = default;
    TensorImplPtr(std::nullptr_t) {}
    TensorImplPtr(const TensorImplPtr& o) noexcept : p_(o.p_) {
        if (p_) p_->owners_.fetch_add(1, std::memory_order_relaxed);
    }
    TensorImplPtr(TensorImplPtr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    TensorImplPtr& operator=(TensorImplPtr o) noexcept {  // by value: copy and move, self-assignment safe
        std::swap(p_, o.p_);
        return *this;
    }
    ~TensorImplPtr() {
        // The last owner's decrement must see every other owner's writes before destroying.
        if (p_ && p_->owners_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(p_);
    }

    /// A new TensorImpl (a 0-d geometry, no storage) from the object pool; this handle is its one owner.
    static TensorImplPtr make() {
        static_assert(std::is_nothrow_default_constructible_v<TensorImpl>, "tenet: make() relies on it to never leak");
        TensorImplPtr h;
        h.p_ = new (detail::ObjectPool::allocate(sizeof(TensorImpl))) TensorImpl;  // default-, not value-initialised
        return h;
    }

    TensorImpl* get() const { return p_; }
    TensorImpl& operator*() const { return *p_; }
    TensorImpl* operator->() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }
    /// The number of handles to the TensorImpl (0 for a null handle), as std::shared_ptr's.
    int64_t use_count() const { return p_ ? p_->owners_.load(std::memory_order_acquire) : 0; }
    friend bool operator==(const TensorImplPtr& a, const TensorImplPtr& b) { return a.p_ == b.p_; }
    friend bool operator==(const TensorImplPtr& a, std::nullptr_t) { return a.p_ == nullptr; }

private:
    static void destroy(TensorImpl* p) noexcept {
        p->~TensorImpl();
        detail::ObjectPool::deallocate(p, sizeof(TensorImpl));
    }
    TensorImpl* p_ = nullptr;
};

namespace detail {

/// A fresh dense tensor of `sizes` with the given strides (dense, any dim order).
TENET_FIXED TensorImplPtr make_dense_impl(const IntArray& sizes, IntArray strides, DType dtype, Device device);

TENET_FIXED TensorImplPtr make_contiguous_impl(const IntArray& sizes, DType dtype, Device device);

/// A view of `base`'s storage with new geometry.
TENET_FIXED TensorImplPtr make_view(const TensorImpl& base, IntArray sizes, IntArray strides, int64_t offset);

}  // namespace detail

/// The element-type-free part of a tensor handle. Copying a handle aliases the tensor.
class TensorBase {
public:
    TensorBase() = default;
    explicit TensorBase(TensorImplPtr impl) : impl_(std::move(impl)) {}

    /// False for a default-constructed handle that refers to no tensor.
    bool defined() const { return impl_ != nullptr; }

    const IntArray& sizes() const { return impl().sizes(); }
    const IntArray& shape() const { return impl().sizes(); }
    /// Size of dimension `d`; negative `d` counts from the end.
    int64_t size(int64_t d) const { return impl().sizes()[detail::wrap_dim(d, dim(), "size")]; }
    int64_t dim() const { return static_cast<int64_t>(impl().sizes().size()); }
    int64_t ndim() const { return dim(); }
    int64_t numel() const { return impl().numel(); }
    const IntArray& stride() const { return impl().strides(); }
    const IntArray& strides() const { return impl().strides(); }
    int64_t stride(int64_t d) const { return impl().strides()[detail::wrap_dim(d, dim(), "stride")]; }
    int64_t storage_offset() const { return impl().offset; }
    bool is_contiguous() const { return impl().contiguous(); }
    bool is_non_overlapping_and_dense() const {
        return detail::is_non_overlapping_and_dense(impl().sizes(), impl().strides());
    }
    DType dtype() const { return impl().dtype; }
    DType scalar_type() const { return impl().dtype; }
    int64_t element_size() const { return impl().dtype.itemsize(); }
    int64_t itemsize() const { return element_size(); }
    int64_t nbytes() const { return numel() * element_size(); }
    Device device() const { return impl().storage->device(); }
    bool is_cpu() const { return device().is_cpu(); }
    bool is_cuda() const { return device().is_cuda(); }
    /// Whether the tensor is on the meta device: sizes, strides and dtype, no data (PyTorch's is_meta).
    bool is_meta() const { return device().is_meta(); }
    bool is_floating_point() const { return dtype().is_floating_point(); }
    bool is_complex() const { return dtype().is_complex(); }
    /// Always false: tenet's conj() is a lazy expression, never a view with a conjugate bit.
    bool is_conj() const { return false; }
    /// A dense tensor's layout is always kStrided (sparse tensors are SparseTensor<T>).
    Layout layout() const { return Layout::kStrided; }
    /// False: a dense tensor (PyTorch's is_sparse; SparseTensor<T>::is_sparse() is true).
    bool is_sparse() const { return false; }

    /// Whether any dim is named (core/named.hpp).
    bool has_names() const { return impl().names != nullptr; }
    /// The dims' names, one per dim (all None for an unnamed tensor), as PyTorch's t.names.
    DimnameList names() const {
        return impl().names ? *impl().names : DimnameList(static_cast<size_t>(dim()));
    }
    /// Size and stride of the dim called `name` (index_error when there is none).
    int64_t size(const Dimname& name) const { return sizes()[detail::dim_of(names(), name)]; }
    int64_t stride(const Dimname& name) const { return strides()[detail::dim_of(names(), name)]; }

    /// Whether both handles share one storage (PyTorch's is_alias_of).
    bool is_alias_of(const TensorBase& other) const { return impl().storage == other.impl().storage; }
    /// Whether both handles are the same tensor.
    bool is_same(const TensorBase& other) const { return impl_ == other.impl_; }
    /// The storage's version counter (bumped by every in-place write through any view).
    uint64_t _version() const { return impl().storage->version(); }

    /// The typed tensor this handle refers to (shares it; no copy). A dtype_error naming both
    /// dtypes when T is not the tensor's element type. For handles typed at run time: what
    /// `load` and `from_dlpack` return.
    template <class T>
    Tensor<T> as() const;
    /// The tensor's values converted to element type T (the tensor itself when T is its type).
    template <class T>
    Tensor<T> to() const;

    const TensorImpl& impl() const {
        if (!impl_) detail::fail("tenet: the tensor is undefined (a default-constructed handle)");
        return *impl_;
    }
    TensorImpl& impl() {
        if (!impl_) detail::fail("tenet: the tensor is undefined (a default-constructed handle)");
        return *impl_;
    }
    const TensorImplPtr& impl_ptr() const { return impl_; }

protected:
    TensorImplPtr impl_;
};

namespace detail {

// ---- View geometry: each returns a new TensorImpl sharing the storage. -------------
// A named base's view is named by the functions below (core/name_inference.hpp), called only
// when the base has names; view, permute and unsqueeze leave names to Tensor's methods,
// which refuse named tensors as PyTorch does.

/// view's names: base's (narrow, slice, expand: `leading` new unnamed dims first), without dim
/// `erased` (select), or with d0 and d1 swapped (transpose).
TENET_FIXED void name_view_like(const TensorImpl& base, TensorImpl& view, int64_t leading = 0);
TENET_FIXED void name_selected(const TensorImpl& base, TensorImpl& view, int64_t erased);
TENET_FIXED void name_transposed(const TensorImpl& base, TensorImpl& view, int64_t d0, int64_t d1);
TENET_FIXED void name_squeezed(const TensorImpl& base, TensorImpl& view, std::optional<int64_t> dim);
TENET_FIXED void name_indexed(const TensorImpl& base, TensorImpl& view, std::span<const TensorIndex> indices);

TENET_FIXED TensorImplPtr view(const TensorImpl& t, const IntArray& shape);

TENET_FIXED TensorImplPtr transpose(const TensorImpl& t, int64_t d0, int64_t d1);

inline TensorImplPtr matrix_t(const TensorImpl& t) {
    const auto n = static_cast<int64_t>(t.sizes().size());
    if (n > 2) fail<shape_error>("t: expects a tensor with <= 2 dimensions, but self is ", n, "D (sizes ", t.sizes(), ")");
    if (n == 2) return transpose(t, 0, 1);
    TensorImplPtr v = make_view(t, t.sizes(), t.strides(), t.offset);
    if (t.names) [[unlikely]]
        name_view_like(t, *v);
    return v;
}

TENET_FIXED TensorImplPtr permute(const TensorImpl& t, const IntArray& dims);

inline TensorImplPtr expand(const TensorImpl& t, const IntArray& target) {
    auto [sizes, strides] = expand_geometry(t.sizes(), t.strides(), target, "expand");
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), t.offset);
    if (t.names) [[unlikely]]
        name_view_like(t, *v, static_cast<int64_t>(v->sizes().size() - t.sizes().size()));
    return v;
}

TENET_FIXED TensorImplPtr narrow(const TensorImpl& t, int64_t dim, int64_t start, int64_t length);

TENET_FIXED TensorImplPtr select(const TensorImpl& t, int64_t dim, int64_t index);

/// Python slicing of one dim of the geometry (sizes, strides, offset), in place: clamps the
/// bounds, as PyTorch does; the step must be positive.
TENET_FIXED void slice_geometry(IntArray& sizes, IntArray& strides, int64_t& offset, int64_t dim, const Slice& s);

TENET_FIXED TensorImplPtr slice(const TensorImpl& t, int64_t dim, const Slice& s);

/// Inserts a dim of size 1 at `dim` (already in [0, ndim]) into sizes/strides.
inline void insert_unit_dim(IntArray& sizes, IntArray& strides, size_t dim) {
    const int64_t stride = dim < sizes.size() ? sizes[dim] * strides[dim] : 1;
    sizes.insert(dim, 1);
    strides.insert(dim, stride);
}

TENET_FIXED TensorImplPtr unsqueeze(const TensorImpl& t, int64_t dim);

/// Drops size-1 dims: all of them, or only `dim` (a no-op when its size is not 1).
TENET_FIXED TensorImplPtr squeeze(const TensorImpl& t, std::optional<int64_t> dim);

/// Applies a LibTorch-style index list (integers, slices, None, Ellipsis, bools).
TENET_FIXED TensorImplPtr index(const TensorImpl& t, std::span<const TensorIndex> indices);

#if TENET_HEADER_DEFINITIONS
TENET_FIXED TensorImplPtr make_dense_impl(const IntArray& sizes, IntArray strides, DType dtype, Device device) {
    // Refuse sizes whose byte count overflows before any arithmetic relies on it.
    // An empty tensor needs no bytes, however large its other sizes are.
    int64_t bytes = dtype.itemsize();
    bool overflow = false;
    for (int64_t s : sizes) {
        if (s == 0) {
            overflow = false;
            break;
        }
        overflow = overflow || __builtin_mul_overflow(bytes, s, &bytes);
    }
    if (overflow)
        fail<shape_error>("empty: a tensor of sizes ", sizes, " and dtype ", dtype, " is too large to allocate");
    const int64_t extent = storage_extent(sizes, strides, 0);
    auto impl = TensorImplPtr::make();
    impl->storage = detail::make_pooled<StorageImpl>(static_cast<size_t>(extent * dtype.itemsize()), device);
    impl->set_geometry(sizes, std::move(strides));
    impl->dtype = dtype;
    return impl;
}

TENET_FIXED TensorImplPtr make_contiguous_impl(const IntArray& sizes, DType dtype, Device device) {
    for (int64_t s : sizes)
        if (s < 0) fail<shape_error>("empty: negative dimension ", s, " in size ", sizes);
    return make_dense_impl(sizes, contiguous_strides(sizes), dtype, device);
}

TENET_FIXED TensorImplPtr make_view(const TensorImpl& base, IntArray sizes, IntArray strides, int64_t offset) {
    auto impl = TensorImplPtr::make();
    impl->storage = base.storage;
    impl->offset = offset;
    impl->set_geometry(std::move(sizes), std::move(strides));
    impl->dtype = base.dtype;
    return impl;
}

TENET_FIXED TensorImplPtr view(const TensorImpl& t, const IntArray& shape) {
    const IntArray sizes = infer_size(shape, t.numel(), "view");
    auto strides = view_strides(t.sizes(), t.strides(), sizes);
    if (!strides)
        fail<shape_error>("view: view size is not compatible with input tensor's size and stride (at least one "
                          "dimension spans across two contiguous subspaces): input sizes ",
                          t.sizes(), ", strides ", t.strides(), ", requested shape ", shape, ". Use .reshape(...) instead.");
    return make_view(t, sizes, std::move(*strides), t.offset);
}

TENET_FIXED TensorImplPtr transpose(const TensorImpl& t, int64_t d0, int64_t d1) {
    const auto n = static_cast<int64_t>(t.sizes().size());
    d0 = wrap_dim(d0, n, "transpose");
    d1 = wrap_dim(d1, n, "transpose");
    IntArray sizes = t.sizes(), strides = t.strides();
    if (n > 0) {
        std::swap(sizes[d0], sizes[d1]);
        std::swap(strides[d0], strides[d1]);
    }
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), t.offset);
    if (t.names) [[unlikely]]
        name_transposed(t, *v, d0, d1);
    return v;
}

TENET_FIXED TensorImplPtr permute(const TensorImpl& t, const IntArray& dims) {
    const auto n = static_cast<int64_t>(t.sizes().size());
    if (static_cast<int64_t>(dims.size()) != n)
        fail<shape_error>("permute: number of dims don't match in permute: the tensor has ", n,
                          " dims but the permutation ", dims, " has ", dims.size());
    IntArray sizes(n), strides(n);
    std::vector<bool> seen(n, false);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t d = wrap_dim(dims[i], n, "permute");
        if (seen[d]) fail<index_error>("permute: repeated dim ", dims[i], " in permutation ", dims);
        seen[d] = true;
        sizes[i] = t.sizes()[d];
        strides[i] = t.strides()[d];
    }
    return make_view(t, std::move(sizes), std::move(strides), t.offset);
}

TENET_FIXED TensorImplPtr narrow(const TensorImpl& t, int64_t dim, int64_t start, int64_t length) {
    if (t.sizes().empty()) fail<shape_error>("narrow: narrow() cannot be applied to a 0-dim tensor");
    dim = wrap_dim(dim, static_cast<int64_t>(t.sizes().size()), "narrow");
    const int64_t size = t.sizes()[dim];
    if (start < -size || start > size)
        fail<index_error>("narrow: start (", start, ") is out of range for dimension ", dim, " with size ", size);
    if (start < 0) start += size;
    if (length < 0 || start + length > size)
        fail<index_error>("narrow: start (", start, ") + length (", length, ") exceeds dimension size (", size,
                          ") of dimension ", dim);
    IntArray sizes = t.sizes();
    sizes[dim] = length;
    TensorImplPtr v = make_view(t, std::move(sizes), t.strides(), t.offset + start * t.strides()[dim]);
    if (t.names) [[unlikely]]
        name_view_like(t, *v);
    return v;
}

TENET_FIXED TensorImplPtr select(const TensorImpl& t, int64_t dim, int64_t index) {
    if (t.sizes().empty()) fail<index_error>("select: select() cannot be applied to a 0-dim tensor");
    dim = wrap_dim(dim, static_cast<int64_t>(t.sizes().size()), "select");
    index = wrap_index(index, t.sizes()[dim], dim, "select");
    IntArray sizes = t.sizes(), strides = t.strides();
    const int64_t offset = t.offset + index * strides[dim];
    sizes.erase(static_cast<size_t>(dim));
    strides.erase(static_cast<size_t>(dim));
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), offset);
    if (t.names) [[unlikely]]
        name_selected(t, *v, dim);
    return v;
}

TENET_FIXED void slice_geometry(IntArray& sizes, IntArray& strides, int64_t& offset, int64_t dim, const Slice& s) {
    if (sizes.empty()) fail<index_error>("slice: slice() cannot be applied to a 0-dim tensor");
    dim = wrap_dim(dim, static_cast<int64_t>(sizes.size()), "slice");
    if (s.step() <= 0) fail<value_error>("slice: step must be greater than zero, got ", s.step());
    const int64_t size = sizes[dim];
    auto clamp_bound = [size](int64_t v) {
        if (v < 0) v += size;
        return std::clamp<int64_t>(v, 0, size);
    };
    const int64_t start = s.start() ? clamp_bound(*s.start()) : 0;
    const int64_t stop = std::max(start, s.stop() ? clamp_bound(*s.stop()) : size);
    offset += start * strides[dim];
    sizes[dim] = (stop - start + s.step() - 1) / s.step();
    strides[dim] *= s.step();
}

TENET_FIXED TensorImplPtr slice(const TensorImpl& t, int64_t dim, const Slice& s) {
    IntArray sizes = t.sizes(), strides = t.strides();
    int64_t offset = t.offset;
    slice_geometry(sizes, strides, offset, dim, s);
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), offset);
    if (t.names) [[unlikely]]
        name_view_like(t, *v);
    return v;
}

TENET_FIXED TensorImplPtr unsqueeze(const TensorImpl& t, int64_t dim) {
    const auto n = static_cast<int64_t>(t.sizes().size());
    dim = wrap_dim(dim, n + 1, "unsqueeze");
    IntArray sizes = t.sizes(), strides = t.strides();
    insert_unit_dim(sizes, strides, static_cast<size_t>(dim));
    return make_view(t, std::move(sizes), std::move(strides), t.offset);
}

TENET_FIXED TensorImplPtr squeeze(const TensorImpl& t, std::optional<int64_t> dim) {
    IntArray sizes, strides;
    const auto n = static_cast<int64_t>(t.sizes().size());
    const int64_t only = dim ? wrap_dim(*dim, n, "squeeze") : -1;
    for (int64_t i = 0; i < n; ++i) {
        const bool drop = t.sizes()[i] == 1 && (!dim || i == only);
        if (drop) continue;
        sizes.push_back(t.sizes()[i]);
        strides.push_back(t.strides()[i]);
    }
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), t.offset);
    if (t.names) [[unlikely]]
        name_squeezed(t, *v, dim);
    return v;
}

TENET_FIXED TensorImplPtr index(const TensorImpl& t, std::span<const TensorIndex> indices) {
    using Kind = TensorIndex::Kind;
    const auto n = static_cast<int64_t>(t.sizes().size());
    int64_t consumed = 0;
    int ellipses = 0;
    for (const auto& ix : indices) {
        consumed += ix.consumes_dim();
        ellipses += ix.kind() == Kind::Ellipsis;
    }
    if (ellipses > 1) fail<index_error>("index: an index can only have a single ellipsis ('...')");
    if (consumed > n)
        fail<index_error>("index: too many indices for tensor of dimension ", n, " (got ", consumed, ")");

    IntArray sizes = t.sizes(), strides = t.strides();
    int64_t offset = t.offset;
    size_t d = 0;  // the next dim of the result to index
    int64_t source_dim = 0;  // the matching dim of `t`, for error messages
    for (const auto& ix : indices) {
        switch (ix.kind()) {
            case Kind::Integer: {
                const int64_t i = wrap_index(ix.integer(), sizes[d], source_dim, "index");
                offset += i * strides[d];
                sizes.erase(d);
                strides.erase(d);
                ++source_dim;
                break;
            }
            case Kind::Slice:
                slice_geometry(sizes, strides, offset, static_cast<int64_t>(d), ix.slice());
                ++d;
                ++source_dim;
                break;
            case Kind::None:
            case Kind::Boolean:
                insert_unit_dim(sizes, strides, d);
                if (ix.kind() == Kind::Boolean && !ix.boolean()) sizes[d] = 0;
                ++d;
                break;
            case Kind::Ellipsis: {
                const int64_t skip = n - consumed;
                d += static_cast<size_t>(skip);
                source_dim += skip;
                break;
            }
            case Kind::Indices:  // Tensor::index sends lists with index tensors to advanced_index
                fail<index_error>("index: an index tensor in a basic index list");
        }
    }
    TensorImplPtr v = make_view(t, std::move(sizes), std::move(strides), offset);
    if (t.names) [[unlikely]]
        name_indexed(t, *v, indices);
    return v;
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace detail
}  // namespace tenet

#include "tenet/core/name_inference.hpp"  // the definitions of the view-naming functions above
