#pragma once
// Tensor<T>: a handle to a strided view (offset, sizes, strides) of shared storage
// holding elements of type T. Copying a handle aliases the tensor, as in LibTorch;
// `clone()` copies the data. Views (transpose, index, view, expand, ...) are O(1)
// and share storage, so writes through a view are seen by every tensor sharing it.
//
// Assignment follows LibTorch:
//   y = x;                      rebinds the name y (no data is written)
//   t[0] = 5;  t.index({...}) = x;   writes data through the temporary view
//   y.copy_(x);  y.fill_(v);    write data into y

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/core/convert.hpp"
#include "tenet/backend/device/device_backend.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/name_inference.hpp"
#include "tenet/core/nested_list.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/tensor_impl.hpp"
#include "tenet/core/tensor_options.hpp"
#include "tenet/core/value_methods.hpp"

namespace tenet::inline TENET_ABI {

/// A scalar a tensor can be filled with or converted from: any arithmetic type, a 16-bit float or
/// a tenet::complex.
template <class S>
concept Scalar = std::is_arithmetic_v<S> || is_reduced_float<S>::value || is_complex_v<S>;

template <class T>
class Tensor;

namespace detail {
template <class T>
inline constexpr bool always_false = false;

/// The error for reading a meta tensor's data (PyTorch: "Cannot copy out of meta tensor; no data!").
[[noreturn]] inline void fail_meta_data_access(const TensorBase& t, const char* op) {
    fail<device_error>(op, ": Cannot copy out of meta tensor; no data! (a meta tensor of sizes ", t.sizes(),
                       " and dtype ", t.dtype(), " has a shape but no values)");
}

/// Throws unless the tensor's data is addressable from the host.
inline void check_host_access(const TensorBase& t, const char* op) {
    if (!t.device().is_cpu()) {
        if (t.device().is_meta()) fail_meta_data_access(t, op);
        fail<device_error>(op, ": cannot access the data of a tensor on ", t.device(),
                           " from the host; copy it with .cpu() first");
    }
}

/// PyTorch refuses to write to a tensor in which two indices share one element.
TENET_FIXED void check_no_internal_overlap(const TensorImpl& t, const char* op);

/// Whether the storage bytes touched by two views of one storage may intersect.
TENET_FIXED bool may_overlap(const TensorImpl& a, const TensorImpl& b);

/// Whether two views share at least one storage byte, decided exactly: different storages
/// or disjoint byte ranges do not; two non-overlapping dense views (each covers its whole
/// range) with intersecting ranges do; otherwise the views' elements are listed and
/// compared, if there are at most `limit` of them (nullopt past it: undecided).
TENET_FIXED std::optional<bool> shares_elements(const TensorImpl& a, const TensorImpl& b, int64_t limit = int64_t{1} << 20);

/// PyTorch's refusal to write `src` into `dst` where some elements of the two are one memory
/// location (at::assert_no_partial_overlap). The same view (element for element: copy_ of a
/// view into itself) is allowed, as PyTorch's full overlap. Where PyTorch cannot decide (a
/// view that is not dense) it writes in its own loop order; tenet decides exactly (see
/// shares_elements) and refuses every shared element. Views too large to list (nullopt) are
/// let through: the caller reads src in full first.
TENET_FIXED void check_no_partial_overlap(const TensorImpl& dst, const TensorImpl& src, const char* op);

/// requires_grad_(true) on a tensor of T: only floating dtypes can require gradients.
template <class T>
void check_can_require_grad(DType dtype) {
    if constexpr (is_complex_v<T>)
        fail<dtype_error>("requires_grad_: autograd on complex tensors is not supported yet by tenet (got ", dtype,
                          ")");
    else if constexpr (!FloatingElement<T>)
        fail<dtype_error>("requires_grad_: only Tensors of floating point dtype can require gradients (got ", dtype,
                          ")");
}

/// PyTorch's canCast (torch.can_cast): no floating -> integral or bool, no non-bool -> bool.
/// Complex goes to complex only.
template <class From, class To>
inline constexpr bool can_cast_v =
    !(FloatingElement<From> && !FloatingElement<To> && !is_complex_v<To>) &&
    !(!std::is_same_v<From, bool> && std::is_same_v<To, bool>) && !(is_complex_v<From> && !is_complex_v<To>);

/// out= (Tensor::assign) refuses a result it can't cast to the destination's type, as
/// PyTorch's "result type Float can't be cast to the desired output type Long".
template <class From, class To>
void check_out_cast(const char* op) {
    if constexpr (!can_cast_v<From, To>)
        fail<dtype_error>(op, ": result type ", dtype_of<From>.name(), " can't be cast to the desired output type ",
                          dtype_of<To>.name());
}

// Copies and fills that involve a device (backend/device/device_copy.hpp, included at the end).
template <class T, class U>
void copy_between_devices(const Tensor<T>& dst, const Tensor<U>& src);
TENET_FIXED void fill_on_device(const TensorBase& dst, const void* value, int64_t itemsize);
template <class T>
Tensor<T> host_copy(const Tensor<T>& t);
#if TENET_HEADER_DEFINITIONS
TENET_FIXED void check_no_internal_overlap(const TensorImpl& t, const char* op) {
    for (size_t d = 0; d < t.sizes().size(); ++d)
        if (t.strides()[d] == 0 && t.sizes()[d] > 1)
            fail<error>(op, ": unsupported operation: more than one element of the written-to tensor refers to a "
                            "single memory location (sizes ", t.sizes(), ", strides ", t.strides(),
                        "). Please clone() the tensor before performing the operation.");
}

TENET_FIXED bool may_overlap(const TensorImpl& a, const TensorImpl& b) {
    if (a.storage != b.storage) return false;
    const int64_t a_end = storage_extent(a.sizes(), a.strides(), a.offset) * a.dtype.itemsize();
    const int64_t b_end = storage_extent(b.sizes(), b.strides(), b.offset) * b.dtype.itemsize();
    if (a_end == 0 || b_end == 0) return false;
    const int64_t a_begin = a.offset * a.dtype.itemsize(), b_begin = b.offset * b.dtype.itemsize();
    return a_begin < b_end && b_begin < a_end;
}

TENET_FIXED std::optional<bool> shares_elements(const TensorImpl& a, const TensorImpl& b, int64_t limit) {
    if (!may_overlap(a, b)) return false;
    if (is_non_overlapping_and_dense(a.sizes(), a.strides()) && is_non_overlapping_and_dense(b.sizes(), b.strides()))
        return true;
    if (a.numel() + b.numel() > limit) return std::nullopt;
    auto starts = [](const TensorImpl& t) {  // sorted first bytes of the view's elements
        std::vector<int64_t> s;
        s.reserve(static_cast<size_t>(t.numel()));
        const int64_t size = t.dtype.itemsize();
        for_each_offset<1>(t.sizes(), {t.strides()}, {t.offset},
                           [&](const std::array<int64_t, 1>& o) { s.push_back(o[0] * size); });
        std::sort(s.begin(), s.end());
        return s;
    };
    const std::vector<int64_t> sa = starts(a), sb = starts(b);
    const int64_t na = a.dtype.itemsize(), nb = b.dtype.itemsize();
    for (size_t i = 0, j = 0; i < sa.size() && j < sb.size();) {  // a sweep over both sorted lists
        if (sa[i] + na <= sb[j]) ++i;
        else if (sb[j] + nb <= sa[i]) ++j;
        else return true;
    }
    return false;
}

TENET_FIXED void check_no_partial_overlap(const TensorImpl& dst, const TensorImpl& src, const char* op) {
    if (dst.storage != src.storage || !shares_elements(dst, src).value_or(false)) return;
    if (dst.dtype.itemsize() == src.dtype.itemsize() && dst.offset == src.offset &&
        expand_geometry(src.sizes(), src.strides(), dst.sizes(), op).second == dst.strides())
        return;  // the same elements in the same order
    fail<error>(op, ": unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                    "single memory location (written-to: sizes ", dst.sizes(), ", strides ", dst.strides(), ", offset ",
                dst.offset, "; input: sizes ", src.sizes(), ", strides ", src.strides(), ", offset ", src.offset,
                "). Please clone() the tensor before performing the operation.");
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace detail

namespace detail {
/// Whether an index list has an index tensor (advanced indexing: core/advanced_index.hpp).
inline bool has_index_tensors(std::span<const TensorIndex> indices) {
    for (const TensorIndex& ix : indices)
        if (ix.kind() == TensorIndex::Kind::Indices) return true;
    return false;
}
inline bool has_index_tensors(std::initializer_list<TensorIndex> indices) {
    return has_index_tensors(std::span<const TensorIndex>(indices.begin(), indices.size()));
}
/// x.index({...}) with index tensors: a copy (core/advanced_index.hpp).
template <class T>
Tensor<T> advanced_index(const Tensor<T>& x, std::span<const TensorIndex> indices);
/// x.index_put_({...}, values, accumulate) with index tensors.
template <class T>
void advanced_index_put(const Tensor<T>& x, std::span<const TensorIndex> indices, const Tensor<T>& values,
                        bool accumulate);
}  // namespace detail

/// The in-place methods of Tensor that call the free function of their name on *this:
/// `c.scatter_add_(0, index, src)` is `scatter_add_(c, 0, index, src)`.
#define TENET_FORWARDED_INPLACE_METHODS(X)                                                        \
    X(scatter_) X(scatter_add_) X(scatter_reduce_) X(index_add_) X(index_copy_) X(index_fill_)    \
    X(index_reduce_) X(put_) X(masked_fill_) X(masked_scatter_)

template <class T>
class Tensor : public TensorBase, public ValueMethods<Tensor<T>> {
    static_assert(Element<T>,
                  "tenet: unsupported element type: Tensor<T> holds bool, uint8_t, int8_t, int16_t, int32_t, "
                  "int64_t, tenet::Half, tenet::BFloat16, float or double");

public:
    using value_type = T;

    /// An undefined tensor (no storage); assign a tensor to it before use.
    Tensor() = default;
    explicit Tensor(TensorImplPtr impl) : TensorBase(std::move(impl)) {
        if (impl_ && impl_->dtype != dtype_of<T>)
            detail::fail<dtype_error>("Tensor: expected dtype ", dtype_of<T>, " but the tensor holds ", impl_->dtype);
    }

    Tensor(const Tensor&) = default;
    Tensor(Tensor&&) noexcept = default;
    ~Tensor() = default;
    /// Evaluates an expression, in one pass, into a new tensor: `Tensor<float> y = a * b + c;`.
    template <TensorExpression E>
    Tensor(const E& e) {  // NOLINT: implicit on purpose
        detail::evaluate_into(*this, e, detail::AssignMode::Fresh);
    }

    // ---- Assignment (see the file comment) -----------------------------------------
    Tensor& operator=(const Tensor&) & = default;
    Tensor& operator=(Tensor&&) & noexcept = default;
    /// Writes `src` (broadcast) into the view this temporary refers to (for an advanced index's
    /// result, `t.index({mask}) = src`, into the indexed elements of t: index_put_).
    Tensor& operator=(const Tensor& src) && { return sent_back(src) ? *this : copy_(src); }
    template <class U>
    Tensor& operator=(const Tensor<U>& src) && {
        return sent_back(src) ? *this : copy_(src);
    }
    /// Rebinds this name to the expression's result (a new tensor), as `y = a + b` does in Python.
    template <TensorExpression E>
    Tensor& operator=(const E& e) & {
        detail::evaluate_into(*this, e, detail::AssignMode::Fresh);
        return *this;
    }
    /// Writes the expression's result (broadcast) into the view this temporary refers to.
    template <TensorExpression E>
    Tensor& operator=(const E& e) && {
        if (write_back() == nullptr) detail::evaluate_into(*this, e, detail::AssignMode::Into);
        else sent_back(Tensor<typename E::value_type>(e));
        return *this;
    }
    /// PyTorch's out=: evaluates into this tensor's storage when the shape fits (no
    /// allocation), else rebinds to a fresh result of the expression's shape. A result type
    /// that can't be cast to T (torch.can_cast: floating -> integral or bool, non-bool -> bool)
    /// is a dtype_error, as in PyTorch.
    template <TensorExpression E>
    Tensor& assign(const E& e) {
        detail::check_out_cast<typename E::value_type, T>("assign");
        detail::evaluate_into(*this, e, detail::AssignMode::Out);
        return *this;
    }
    /// The same with a tensor: its values (converted to T, under the same can_cast rule) are
    /// copied in, read in full first when src overlaps this tensor (`x.assign(x.t())`).
    template <class U>
    Tensor& assign(const Tensor<U>& src) {
        detail::check_out_cast<U, T>("assign");
        detail::assign_tensor(*this, src);
        return *this;
    }
    /// Eigen's opt-out of the aliasing check: `y.noalias() = expr` writes into y without the
    /// temporary tenet would use if a leaf overlapped y. Only for callers who know none does.
    struct NoAliasAssign {
        Tensor& dst;
        template <TensorExpression E>
        Tensor& operator=(const E& e) {
            detail::evaluate_into(dst, e, detail::AssignMode::IntoNoAlias);
            return dst;
        }
    };
    NoAliasAssign noalias() { return NoAliasAssign{*this}; }
    /// Fills the view this temporary refers to.
    template <Scalar S>
    Tensor& operator=(S value) && {
        if (write_back() == nullptr) return fill_(value);
        Tensor one(detail::make_contiguous_impl({}, dtype_of<T>, device()));
        sent_back(one.fill_(value));
        return *this;
    }
    template <Scalar S>
    Tensor& operator=(S) & {
        static_assert(detail::always_false<S>,
                      "tenet: assigning a scalar to a named tensor is ambiguous; use t.fill_(v) to write every "
                      "element, or assign through a view: t.index({...}) = v");
        return *this;
    }

    // ---- Data access -----------------------------------------------------------------
    /// Pointer to the first element (the storage's base plus the storage offset).
    template <class U = T>
    U* data_ptr() const {
        static_assert(std::is_same_v<U, T>, "tenet: data_ptr<U>() must name the tensor's own element type");
        return static_cast<T*>(impl().storage->data()) + impl().offset;
    }
    T* data() const { return data_ptr(); }

    /// The whole storage as a 1-D tensor (shares it: writes are seen by every view).
    Tensor storage() const {
        const auto n = static_cast<int64_t>(impl().storage->nbytes() / sizeof(T));
        return Tensor(detail::make_view(impl(), IntArray{n}, IntArray{1}, 0));
    }

    /// Element at the given indices (one per dim; negative counts from the end).
    template <std::integral... I>
    T& operator()(I... indices) const {
        detail::check_host_access(*this, "operator()");
        const std::array<int64_t, sizeof...(I)> idx{static_cast<int64_t>(indices)...};
        if (static_cast<int64_t>(idx.size()) != dim())
            detail::fail<index_error>("operator(): expected ", dim(), " indices for a tensor of shape ", sizes(),
                                      ", got ", idx.size());
        int64_t offset = impl().offset;
        for (size_t d = 0; d < idx.size(); ++d)
            offset += detail::wrap_index(idx[d], impl().sizes()[d], static_cast<int64_t>(d), "operator()") *
                      impl().strides()[d];
        return static_cast<T*>(impl().storage->data())[offset];
    }

    /// The value of a one-element tensor (copied from the device for a device tensor).
    template <class U = T>
    U item() const {
        if (numel() != 1)
            detail::fail<shape_error>("item: a Tensor with ", numel(),
                                      " elements cannot be converted to Scalar (shape ", sizes(), ")");
        if (!is_cpu()) {
            if (is_meta()) detail::fail_meta_data_access(*this, "item");
            T value;
            detail::device_backend(device(), "item")
                .copy_bytes(&value, Device(DeviceType::CPU), data_ptr(), device(), sizeof(T));
            return convert<U>(value);
        }
        return convert<U>(*data_ptr());
    }

    /// The elements in row-major order (copied from the device for a device tensor).
    std::vector<T> to_vector() const {
        if (!is_cpu()) {
            if (is_meta()) detail::fail_meta_data_access(*this, "to_vector");
            return detail::host_copy(*this).to_vector();
        }
        std::vector<T> out;
        out.reserve(static_cast<size_t>(numel()));
        const T* base = static_cast<const T*>(impl().storage->data());
        detail::for_each_offset<1>(sizes(), {strides()}, {storage_offset()},
                                   [&](const std::array<int64_t, 1>& o) { out.push_back(base[o[0]]); });
        return out;
    }

    /// The elements as nested lists (PyTorch's tolist()); a 0-d tensor gives a bare value.
    NestedList<T> tolist() const {
        if (!is_cpu()) {
            if (is_meta()) detail::fail_meta_data_access(*this, "tolist");
            return detail::host_copy(*this).tolist();
        }
        const T* base = static_cast<const T*>(impl().storage->data());
        auto build = [&](auto&& self, size_t d, int64_t offset) -> NestedList<T> {
            if (d == sizes().size()) return {base[offset]};
            std::vector<NestedList<T>> items;
            items.reserve(static_cast<size_t>(sizes()[d]));
            for (int64_t i = 0; i < sizes()[d]; ++i) items.push_back(self(self, d + 1, offset + i * strides()[d]));
            return {std::move(items)};
        };
        return build(build, 0, storage_offset());
    }

    // ---- Views (O(1), sharing storage) ----------------------------------------------
    /// A view with a new shape (one size may be -1); throws when the strides forbid it.
    Tensor view(const IntArray& shape) const {
        detail::refuse_named(*this, "aten::view");
        return wrap(detail::view(impl(), shape), "ViewBackward0");
    }
    /// A view when the strides allow it, else a contiguous copy.
    Tensor reshape(const IntArray& shape) const {
        detail::refuse_named(*this, "aten::reshape");
        const IntArray sizes = detail::infer_size(shape, numel(), "reshape");
        if (detail::view_strides(impl().sizes(), impl().strides(), sizes)) return view(sizes);
        return contiguous_copy().view(sizes);
    }
    template <class U>
    Tensor view_as(const Tensor<U>& other) const {
        return view(other.sizes());
    }
    template <class U>
    Tensor reshape_as(const Tensor<U>& other) const {
        return reshape(other.sizes());
    }
    /// Merges dims start_dim..end_dim into one (a view when possible, as reshape).
    Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const {
        if (dim() == 0) return reshape({1});
        const int64_t s = detail::wrap_dim(start_dim, dim(), "flatten");
        const int64_t e = detail::wrap_dim(end_dim, dim(), "flatten");
        if (s > e) detail::fail<index_error>("flatten: start_dim (", start_dim, ") cannot come after end_dim (", end_dim, ")");
        if (s == e) return *this;
        IntArray shape;
        for (int64_t d = 0; d < s; ++d) shape.push_back(sizes()[d]);
        int64_t merged = 1;
        for (int64_t d = s; d <= e; ++d) merged *= sizes()[d];
        shape.push_back(merged);
        for (int64_t d = e + 1; d < dim(); ++d) shape.push_back(sizes()[d]);
        return reshape(shape);
    }
    /// Removes every size-1 dim.
    Tensor squeeze() const { return wrap(detail::squeeze(impl(), std::nullopt), "SqueezeBackward0"); }
    /// Removes dim `d` if its size is 1; otherwise returns an unchanged view.
    Tensor squeeze(int64_t d) const { return wrap(detail::squeeze(impl(), d), "SqueezeBackward1"); }
    /// Inserts a size-1 dim at `d` (negative counts from the end: -1 appends).
    Tensor unsqueeze(int64_t d) const {
        detail::refuse_named(*this, "aten::unsqueeze");
        return wrap(detail::unsqueeze(impl(), d), "UnsqueezeBackward0");
    }
    /// The in-place shape ops refuse named tensors, as PyTorch's do.
    Tensor& squeeze_() {
        detail::refuse_named(*this, "aten::squeeze_");
        return reshape_in_place(detail::squeeze(impl(), std::nullopt));
    }
    Tensor& squeeze_(int64_t d) {
        detail::refuse_named(*this, "aten::squeeze_");
        return reshape_in_place(detail::squeeze(impl(), d));
    }
    Tensor& unsqueeze_(int64_t d) {
        detail::refuse_named(*this, "aten::unsqueeze_");
        return reshape_in_place(detail::unsqueeze(impl(), d));
    }
    /// Swaps dims d0 and d1 (and their names).
    Tensor transpose(int64_t d0, int64_t d1) const {
        return wrap(detail::transpose(impl(), d0, d1), "TransposeBackward0");
    }
    Tensor& transpose_(int64_t d0, int64_t d1) {
        detail::refuse_named(*this, "aten::transpose_");
        return reshape_in_place(detail::transpose(impl(), d0, d1));
    }
    /// Transpose of a matrix (<= 2-D).
    Tensor t() const { return wrap(detail::matrix_t(impl()), "TBackward0"); }
    Tensor& t_() {
        detail::refuse_named(*this, "aten::t_");
        return reshape_in_place(detail::matrix_t(impl()));
    }
    /// Reorders the dims (not for named tensors, as in PyTorch: align_to reorders by name).
    Tensor permute(const IntArray& dims) const {
        detail::refuse_named(*this, "aten::permute");
        return wrap(detail::permute(impl(), dims), "PermuteBackward0");
    }
    /// Broadcasts size-1 dims (and new leading dims) to `sizes` without copying; -1 keeps a size.
    /// New leading dims of a named tensor are unnamed, as in PyTorch.
    Tensor expand(const IntArray& sizes) const { return wrap(detail::expand(impl(), sizes), "ExpandBackward0"); }
    template <class U>
    Tensor expand_as(const Tensor<U>& other) const {
        return expand(other.sizes());
    }
    Tensor narrow(int64_t dim, int64_t start, int64_t length) const {
        return wrap(detail::narrow(impl(), dim, start, length), "SliceBackward0");
    }
    Tensor select(int64_t dim, int64_t index) const {
        return wrap(detail::select(impl(), dim, index), "SelectBackward0");
    }
    Tensor slice(int64_t dim, std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt,
                 int64_t step = 1) const {
        return wrap(detail::slice(impl(), dim, Slice(start, end, step)), "SliceBackward0");
    }
    /// The row view `t[i]` (select along dim 0).
    Tensor operator[](int64_t i) const { return select(0, i); }
    /// LibTorch's indexing: `t.index({Slice(1, None), 2, None, Ellipsis})` is a view; with index
    /// tensors (`t.index({mask})`, `t.index({Slice(), idx})`) PyTorch's advanced indexing, a copy
    /// whose assignment `t.index({mask}) = v` writes into t (core/advanced_index.hpp).
    /// A named tensor keeps the names of sliced dims (an index tensor, None or a bool: refused, as PyTorch).
    Tensor index(std::initializer_list<TensorIndex> indices) const {
        const std::span<const TensorIndex> list(indices.begin(), indices.size());
        if (detail::has_index_tensors(indices)) {
            detail::refuse_named(*this, "aten::index.Tensor");
            return detail::advanced_index(*this, list);
        }
        bool selects = false;
        for (const TensorIndex& ix : indices) selects = selects || ix.kind() == TensorIndex::Kind::Integer;
        return wrap(detail::index(impl(), list), selects ? "SelectBackward0" : "SliceBackward0");
    }
    /// LibTorch's index_put_: writes a tensor, expression or number (broadcast) into the indexed
    /// elements; `accumulate` adds instead (duplicate indices add up).
    template <class V>
    Tensor& index_put_(std::initializer_list<TensorIndex> indices, const V& value, bool accumulate = false) {
        if (detail::has_index_tensors(indices)) {
            detail::advanced_index_put(*this, std::span<const TensorIndex>(indices.begin(), indices.size()),
                                       value_tensor(value), accumulate);
        } else if (accumulate) {
            Tensor view = index(indices);
            view.add_(value);
        } else {
            index(indices) = value;
        }
        return *this;
    }

    // ---- Copies ------------------------------------------------------------------------
    /// Itself when already contiguous, else a contiguous copy.
    Tensor contiguous() const { return is_contiguous() ? *this : contiguous_copy(); }
    /// A copy with fresh storage; keeps the memory order of a dense layout (PyTorch's preserve_format).
    Tensor clone() const {
        Tensor out(detail::make_dense_impl(sizes(), detail::dense_strides_like(sizes(), strides()), dtype(), device()));
        detail::copy_names(*this, out);
        out.copy_data_(*this);
        detail::record_copy(*this, out);
        return out;
    }
    /// Converts to element type U (a new tensor; itself when U is T).
    template <class U>
    Tensor<U> to() const {
        if constexpr (std::is_same_v<U, T>) {
            return *this;
        } else {
            Tensor<U> out(
                detail::make_dense_impl(sizes(), detail::dense_strides_like(sizes(), strides()), dtype_of<U>, device()));
            detail::copy_names(*this, out);
            out.copy_data_(*this);
            detail::record_copy(*this, out);
            return out;
        }
    }
    template <class U>
    Tensor<U> to(dtype_t<U>) const {
        return to<U>();
    }
    /// A copy on `device` with element type U (itself when both already match), as
    /// PyTorch's t.to(device, dtype): "cuda" means the current device.
    template <class U>
    Tensor<U> to(Device device) const {
        const Device target = detail::resolve_device(device, "to");
        if (target == this->device()) return to<U>();
        if (is_meta()) detail::fail_meta_data_access(*this, "to");
        Tensor<U> out(detail::make_dense_impl(sizes(), detail::dense_strides_like(sizes(), strides()), dtype_of<U>,
                                              target));
        detail::copy_names(*this, out);
        out.copy_data_(*this);
        detail::record_copy(*this, out);
        return out;
    }
    Tensor to(Device device) const { return to<T>(device); }
    template <class U>
    Tensor<U> to(Device device, dtype_t<U>) const {
        return to<U>(device);
    }
    /// A copy on CUDA device `index` (the current device by default); itself when already there.
    Tensor cuda(int index = -1) const { return to(Device(DeviceType::CUDA, index)); }
    /// A copy in host memory; itself when already there.
    Tensor cpu() const { return to(Device(DeviceType::CPU)); }
    /// Converts to the element type of `other`.
    template <class U>
    Tensor<U> type_as(const Tensor<U>&) const {
        return to<U>();
    }

    // ---- In-place writes (each bumps the storage's version counter) -----------------
    /// Copies `src` (broadcast to this shape, converted to T: any conversion, as PyTorch's
    /// copy_) into this tensor. As in PyTorch, src and this tensor may be the same view, but
    /// may not share only some elements (`a[2::2].copy_(a[0:3:2])`): that is an error
    /// ("some elements of the input tensor and the written-to tensor refer to a single
    /// memory location"), decided exactly (detail::check_no_partial_overlap).
    /// Names unify as for `dst + src`: this tensor takes them (a mismatch throws first).
    template <class U>
    Tensor& copy_(const Tensor<U>& src) {
        if (has_names() || src.has_names()) [[unlikely]]
            return copy_named_(src);
        copy_data_(src);
        detail::record_copy_into(*this, src);
        return *this;
    }
    /// copy_ without autograd: the data movement alone (used by clone, to, contiguous).
    /// Works between any two devices (backend/device/device_copy.hpp).
    template <class U>
    Tensor& copy_data_(const Tensor<U>& src) {
        detail::check_no_internal_overlap(impl(), "copy_");
        if constexpr (std::is_same_v<U, T>)
            if (is_same(src)) return *this;
        detail::check_no_partial_overlap(impl(), src.impl(), "copy_");
        if (!is_cpu() || !src.is_cpu()) {
            detail::copy_between_devices(*this, src);
            impl().storage->bump_version();
            return *this;
        }
        // Reading from memory we are about to write: read everything first.
        const Tensor<U> source = detail::may_overlap(impl(), src.impl()) ? src.clone() : src;
        auto [src_sizes, src_strides] = detail::expand_geometry(source.sizes(), source.strides(), sizes(), "copy_");
        T* dst = static_cast<T*>(impl().storage->data());
        const U* from = static_cast<const U*>(source.impl().storage->data());
        if (is_contiguous() && detail::is_contiguous(sizes(), src_strides)) {  // flat, vectorisable
            T* d = data_ptr();
            const U* s = from + source.storage_offset();
            for (int64_t i = 0, n = numel(); i < n; ++i) d[i] = convert<T>(s[i]);
            impl().storage->bump_version();
            return *this;
        }
        detail::for_each_offset<2>(sizes(), {strides(), src_strides}, {storage_offset(), source.storage_offset()},
                                   [&](const std::array<int64_t, 2>& o) { dst[o[0]] = convert<T>(from[o[1]]); });
        impl().storage->bump_version();
        return *this;
    }
    /// Sets every element to `value` (converted to T).
    template <Scalar S>
    Tensor& fill_(S value) {
        detail::record_overwrite(*this, "FillBackward0");
        detail::check_no_internal_overlap(impl(), "fill_");
        const T v = convert<T>(value);
        if (!is_cpu()) {
            detail::fill_on_device(*this, &v, sizeof(T));
            impl().storage->bump_version();
            return *this;
        }
        if (is_contiguous()) {
            detail::fill_contiguous(data_ptr(), numel(), v);
            impl().storage->bump_version();
            return *this;
        }
        T* dst = static_cast<T*>(impl().storage->data());
        detail::for_each_offset<1>(sizes(), {strides()}, {storage_offset()},
                                   [&](const std::array<int64_t, 1>& o) { dst[o[0]] = v; });
        impl().storage->bump_version();
        return *this;
    }
    Tensor& zero_() { return fill_(0); }

    // ---- In-place element-wise ops: defined in expr/math.hpp and expr/binary_ops.hpp ----
    // The lazy forms (t.sin(), t.add(x), t.sum(), ...) are ValueMethods (core/value_methods.hpp),
    // shared with every expression. `t.sin_()` and `t.add_(x)` (or `t += x`) evaluate into t
    // itself in one pass: a compile error when the result type cannot be cast to T.
#define TENET_UNARY_OP(NAME, Functor, DERIVATIVE) Tensor& NAME##_();
#include "tenet/expr/unary_ops.def"
    Tensor& gelu_(const char* approximate = "none");
    Tensor& softplus_(double beta = 1.0, double threshold = 20.0);
    Tensor& nan_to_num_(double nan = 0.0, std::optional<double> posinf = std::nullopt,
                        std::optional<double> neginf = std::nullopt);
    template <class Lo, class Hi = std::nullopt_t>
    Tensor& clamp_(const Lo& min, const Hi& max = std::nullopt);
    template <class B>
    Tensor& clamp_min_(const B& min);
    template <class B>
    Tensor& clamp_max_(const B& max);
#define TENET_TENSOR_INPLACE_METHOD(NAME) \
    template <class X>                    \
    Tensor& NAME(const X& other);
#define TENET_INPLACE_inplace(NAME) TENET_TENSOR_INPLACE_METHOD(NAME##_)
#define TENET_INPLACE_no_inplace(NAME)
#define TENET_COMPOUND_compound(SYMBOL) TENET_TENSOR_INPLACE_METHOD(operator SYMBOL##=)
#define TENET_COMPOUND_no_compound(SYMBOL)
#define TENET_BINARY_OP(NAME, Functor, FORM, INPLACE, D_A, D_B) TENET_INPLACE_##INPLACE(NAME)
#define TENET_BINARY_ALIAS(ALIAS, NAME, INPLACE) TENET_INPLACE_##INPLACE(ALIAS)
#define TENET_BINARY_OPERATOR(SYMBOL, NAME, COMPOUND) TENET_COMPOUND_##COMPOUND(SYMBOL)
#include "tenet/expr/binary_ops.def"
#undef TENET_INPLACE_inplace
#undef TENET_INPLACE_no_inplace
#undef TENET_COMPOUND_compound
#undef TENET_COMPOUND_no_compound
#undef TENET_TENSOR_INPLACE_METHOD
    template <class X, class S>
    Tensor& add_(const X& other, S alpha);
    template <class X, class S>
    Tensor& sub_(const X& other, S alpha);
    template <class X>
    Tensor& div_(const X& other, std::string_view rounding_mode);
    template <class X, class W>
    Tensor& lerp_(const X& end, const W& weight);
    // The in-place index, scatter and mask ops: the list is TENET_FORWARDED_INPLACE_METHODS
    // (above the class), their definitions are in ops/forwarded_methods.hpp.
#define TENET_FORWARDED_INPLACE_METHOD(NAME) \
    template <class... Args>                 \
    Tensor& NAME(const Args&... args);
    TENET_FORWARDED_INPLACE_METHODS(TENET_FORWARDED_INPLACE_METHOD)
#undef TENET_FORWARDED_INPLACE_METHOD

    // ---- Complex parts: defined in expr/complex.hpp (views sharing storage) ----------
    /// The real parts (a view with doubled strides; itself for a real tensor).
    auto real() const;
    /// The imaginary parts (a view; complex tensors only).
    auto imag() const;
    /// t itself: tenet's conj is never a pending view (expr/complex.hpp).
    Tensor resolve_conj() const { return *this; }

    // ---- Autograd: declared here, defined behind the seam (core/hooks.hpp): in
    // autograd/tensor_autograd.hpp, or core/hooks_off.hpp when built with TENET_AUTOGRAD=0
    /// Whether this tensor takes part in autograd (a leaf that requires grad, or a result
    /// computed from one while grad mode was on).
    bool requires_grad() const;
    /// Marks a leaf as requiring grad (floating dtypes only; non-leaves cannot be unmarked).
    Tensor& requires_grad_(bool requires_grad = true);
    Tensor& set_requires_grad(bool requires_grad) { return requires_grad_(requires_grad); }
    /// The accumulated gradient: undefined until a backward reaches this tensor.
    Tensor grad() const;
    /// Forgets the accumulated gradient (PyTorch's `x.grad = None`).
    void reset_grad() const;
    /// A tensor that requires grad and was not computed by a recorded op; or any tensor
    /// that does not require grad.
    bool is_leaf() const;
    /// The node that computed this tensor (null for leaves): `grad_fn()->name()`.
    std::shared_ptr<autograd::Node> grad_fn() const;
    /// Back-propagates from this tensor: `gradient` is d(loss)/d(this), implicit (1) for a
    /// single-element tensor. retain_graph keeps the saved tensors for another backward
    /// (by default: when create_graph). create_graph records the backward too, so the
    /// gradients (leaves' grad() then has a grad_fn) can be differentiated again; as in
    /// PyTorch, that links each leaf and its gradient in a cycle until reset_grad():
    /// autograd::grad(..., create_graph=true) is the leak-free way.
    void backward(const Tensor& gradient = Tensor(), std::optional<bool> retain_graph = std::nullopt,
                  bool create_graph = false) const;
    /// The same data without history (shares storage; requires_grad false).
    Tensor detach() const { return same_names(Tensor(detail::make_view(impl(), sizes(), strides(), storage_offset()))); }

    // ---- Linear algebra: declared here, defined in linalg/matmul.hpp and linalg/products.hpp
    // (section owned by linalg/)
    // `a.matmul(b)` is tenet::matmul(a, b), and so on; each returns a new tensor.
    template <class X>
    auto matmul(const X& other) const;
    template <class X>
    auto mm(const X& other) const;
    template <class X>
    auto bmm(const X& other) const;
    template <class X>
    auto mv(const X& other) const;
    template <class X>
    auto dot(const X& other) const;
    template <class X>
    auto vdot(const X& other) const;
    template <class X>
    auto outer(const X& other) const;
    template <class X>
    auto ger(const X& other) const;
    template <class X>
    auto cross(const X& other, std::optional<int64_t> dim = std::nullopt) const;
    auto trace() const;
    auto diag(int64_t diagonal = 0) const;
    auto tril(int64_t diagonal = 0) const;
    auto triu(int64_t diagonal = 0) const;

    // ---- Splitting into views: declared here, defined in ops/join.hpp ----------------
    // (section owned by ops/join.hpp)
    // `t.split(2)` is tenet::split(t, 2), and so on; the pieces share t's storage.
    std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
    std::vector<Tensor> split(const IntArray& split_sizes, int64_t dim = 0) const;
    std::vector<Tensor> split_with_sizes(const IntArray& split_sizes, int64_t dim = 0) const;
    std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
    std::vector<Tensor> unbind(int64_t dim = 0) const;
    std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
    std::vector<Tensor> tensor_split(const IntArray& indices, int64_t dim = 0) const;

    // ---- Reversing: declared here, defined in ops/flip.hpp (new tensors, as PyTorch's) ----
    Tensor flip(const IntArray& dims) const;
    Tensor flip(int64_t dim) const;  ///< LibTorch's x.flip(0): one dim
    Tensor fliplr() const;
    Tensor flipud() const;

    // ---- Named tensors: declared here, defined in core/named.hpp (PyTorch's named tensor API) ----
    /// Names unnamed dims and checks named ones ("..." covers the dims it stands for).
    Tensor refine_names(const DimnameList& names) const;
    /// A view with these names ("..." keeps the names of the dims it covers); rename(std::nullopt) drops them.
    Tensor rename(const DimnameList& names) const;
    Tensor rename(std::nullopt_t) const;
    /// Python's rename(N='M'): renames the dims named by the pairs' first names.
    Tensor rename_map(const std::vector<std::pair<Dimname, Dimname>>& mapping) const;
    /// The in-place forms: this tensor's own names change.
    Tensor& rename_(const DimnameList& names);
    Tensor& rename_(std::nullopt_t);
    /// A view with the dims permuted to the order of `names` ("..." stands for the dims not
    /// listed, in their order); a name the tensor lacks becomes a new size-1 dim of that name.
    /// Every dim of the tensor must be named.
    Tensor align_to(const DimnameList& names) const;
    /// align_to(other.names()).
    template <class U>
    Tensor align_as(const Tensor<U>& other) const;
    /// transpose, select and squeeze of the dims named so.
    Tensor transpose(const Dimname& d0, const Dimname& d1) const;
    Tensor select(const Dimname& dim, int64_t index) const;
    Tensor squeeze(const Dimname& dim) const;
    /// Merges the consecutive dims `dims` into one dim named `out_dim`.
    Tensor flatten(const DimnameList& dims, const Dimname& out_dim) const;
    /// Splits the dim `dim` into dims of `sizes` (one may be -1) named `names`.
    Tensor unflatten(const Dimname& dim, const IntArray& sizes, const DimnameList& names) const;

private:
    /// The write-back of an advanced index's result (this tensor itself, not a view of it), or null.
    const detail::WriteBack* write_back() const {
        const auto& wb = impl().storage->write_back;
        return wb && wb->result == impl_ptr().get() ? wb.get() : nullptr;
    }
    /// Sends a value assigned to an advanced index's result to the indexed tensor; false when
    /// this tensor is not such a result.
    template <class U>
    bool sent_back(const Tensor<U>& value) const {
        const detail::WriteBack* wb = write_back();
        if (wb == nullptr) return false;
        wb->put(value.template to<T>());
        return true;
    }
    /// index_put_'s value as a tensor of T: a tensor (converted), an expression (evaluated) or a
    /// number (0-d).
    template <class V>
    Tensor value_tensor(const V& value) const {
        if constexpr (std::is_arithmetic_v<V> || std::is_same_v<V, Half> || std::is_same_v<V, BFloat16>) {
            Tensor one(detail::make_contiguous_impl({}, dtype_of<T>, device()));
            return one.fill_(value);
        } else if constexpr (TensorExpression<V>) {
            return Tensor<typename V::value_type>(value).template to<T>();
        } else {
            return value.template to<T>();
        }
    }
    /// A view of this tensor, recorded for autograd under PyTorch's backward name.
    Tensor wrap(TensorImplPtr p, const char* backward_name) const {
        Tensor v(std::move(p));
        detail::record_view(*this, v, backward_name);
        return v;
    }
    Tensor contiguous_copy() const {
        Tensor out(detail::make_contiguous_impl(sizes(), dtype(), device()));
        detail::copy_names(*this, out);
        out.copy_data_(*this);
        detail::record_copy(*this, out);
        return out;
    }
    /// The in-place shape ops change this tensor's own geometry (seen through every handle copy).
    Tensor& reshape_in_place(TensorImplPtr p) {
        impl().set_geometry(p->sizes(), p->strides());
        impl().offset = p->offset;
        return *this;
    }
    // Names of views (core/name_inference.hpp): each is a no-op for an unnamed tensor.
    /// v with this tensor's names (the same dims).
    Tensor same_names(Tensor v) const {
        detail::copy_names(*this, v);
        return v;
    }
    /// A view of geometry p named `names`, recorded under `backward_name` (core/named.hpp:
    /// rename's AliasBackward0, align_to's AsStridedBackward0).
    Tensor named_view(TensorImplPtr p, const DimnameList& names, const char* backward_name) const;
    /// This tensor's alias named `names` (rename and refine_names: PyTorch's AliasBackward0).
    Tensor alias_named(const DimnameList& names) const {
        return named_view(detail::make_view(impl(), sizes(), strides(), storage_offset()), names, "AliasBackward0");
    }

    /// copy_ of a named tensor or from one (out of line): names unify, checked before the copy.
    template <class U>
    [[gnu::noinline]] Tensor& copy_named_(const Tensor<U>& src) {
        const DimnameList n = detail::unify_from_right(names(), src.names());
        copy_data_(src);
        detail::record_copy_into(*this, src);
        detail::set_names(impl(), n);
        return *this;
    }
};

template <class T>
Tensor<T> TensorBase::as() const {
    if (impl().dtype != dtype_of<T>)
        detail::fail<dtype_error>("as: expected dtype ", dtype_of<T>, " but the tensor holds ", impl().dtype);
    return Tensor<T>(impl_);
}

template <class T>
Tensor<T> TensorBase::to() const {
    return visit_dtype(impl().dtype, [&]<class U>(dtype_t<U>) { return Tensor<U>(impl_).template to<T>(); });
}

}  // namespace tenet

#include "tenet/backend/device/device_copy.hpp"
