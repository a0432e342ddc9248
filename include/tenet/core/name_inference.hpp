#pragma once
// Name inference: the names an op's result gets from its inputs' names (PyTorch's
// namedinference). Every helper starts with a test of the inputs' name pointers, so unnamed
// tensors (the common case) pay a pointer comparison per operand and per op, never per element.

#include "tenet/config.hpp"
#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "tenet/core/dimname.hpp"
#include "tenet/core/tensor_impl.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Whether any tensor of this process has ever been named. Until one is, an expression's name
/// inference is this one relaxed load (a thread that receives a named tensor from another sees
/// the flag with it: the store precedes the hand-over).
inline std::atomic<bool> names_in_use{false};

/// Names `t`'s dims (checked: valid, distinct, one per dim); all None makes it unnamed, as in PyTorch.
inline void set_names(TensorImpl& t, const DimnameList& names) {
    check_names(names, t.sizes().size());
    bool any = false;
    for (const Dimname& d : names) any = any || d.is_basic();
    if (any && !names_in_use.load(std::memory_order_relaxed)) names_in_use.store(true, std::memory_order_relaxed);
    t.names = any ? DimnamesPtr(new const DimnameList(names)) : nullptr;
}
/// The names of `t`, or null when it has none.
inline const DimnameList* names_ptr(const TensorBase& t) { return t.defined() ? t.impl().names.get() : nullptr; }
/// The names of `t`, all None when it has none.
inline DimnameList names_or_none(const TensorImpl& t) {
    return t.names ? *t.names : DimnameList(t.sizes().size());
}

/// PyTorch's refusal of an op that has no name inference: "aten::view is not yet supported
/// with named tensors. ..." (a value_error; PyTorch's RuntimeError).
[[noreturn]] inline void fail_named_unsupported(std::string_view op) {
    fail<value_error>(op, " is not yet supported with named tensors. Please drop names via `tensor = "
                          "tensor.rename(None)`, call the op with an unnamed tensor, and set names on the "
                          "result of the operation.");
}
/// The same, when t is named.
inline void refuse_named(const TensorBase& t, std::string_view op) {
    if (t.has_names()) fail_named_unsupported(op);
}

/// The names of a broadcast of `leaves` (left to right, as a chain of binary ops unifies
/// them), or nullopt when no leaf is named.
template <size_t L>
std::optional<DimnameList> broadcast_names(const std::array<const TensorBase*, L>& leaves) {
    bool any = false;
    for (const TensorBase* t : leaves) any = any || t->impl().names;
    if (!any) return std::nullopt;
    std::optional<DimnameList> out;
    for (const TensorBase* t : leaves) {
        DimnameList n = names_or_none(t->impl());
        out = out ? unify_from_right(*out, n) : std::move(n);
    }
    return out;
}

/// The names of a matrix product's result (PyTorch's compute_matmul_outnames, for matmul, mm,
/// mv, bmm and dot): the batch dims' names unified from the right, then a's row name (a 2-D+)
/// and b's column name (b 2-D+). A mismatch in the batch dims, or a name twice in the result,
/// is a value_error worded as PyTorch's.
inline DimnameList matmul_names(const DimnameList& a, const DimnameList& b) {
    const size_t ba = a.size() >= 2 ? a.size() - 2 : 0, bb = b.size() >= 2 ? b.size() - 2 : 0;
    DimnameList out(std::max(ba, bb));
    for (size_t k = 1; k <= out.size(); ++k) {
        const Dimname none;
        const Dimname& x = k <= ba ? a[ba - k] : none;
        const Dimname& y = k <= bb ? b[bb - k] : none;
        if (x.is_basic() && y.is_basic() && !(x == y))
            fail<value_error>("matmul: Expected ", x.repr(), " (index ", ba - k, " of ", names_repr(a), ") to match ",
                              y.repr(), " (index ", bb - k, " of ", names_repr(b), ") but they do not match.");
        out[out.size() - k] = x.is_basic() ? x : y;
    }
    if (a.size() >= 2) out.push_back(a[a.size() - 2]);
    if (b.size() >= 2) out.push_back(b.back());
    for (size_t i = 0; i < out.size(); ++i)
        for (size_t j = i + 1; j < out.size() && out[i].is_basic(); ++j)
            if (out[i] == out[j])
                fail<value_error>("Matrix multiplying ", tensor_names_repr(a), " with ", tensor_names_repr(b),
                                  " would produce output tensor with duplicate names ", names_repr(out),
                                  ". Please rename the input tensors with `Tensor.rename` to prevent this.");
    return out;
}

/// The names of cat's result: its inputs' names unified (PyTorch's "Error when attempting to
/// cat dims ..."), or nullopt when none is named. stack has no name inference in PyTorch: refused.
inline std::optional<DimnameList> joined_names(const std::vector<TensorBase>& inputs, bool stacked) {
    bool any = false;
    for (const TensorBase& t : inputs) any = any || t.impl().names;
    if (!any) return std::nullopt;
    if (stacked) fail_named_unsupported("aten::stack");
    std::optional<DimnameList> out;
    for (const TensorBase& t : inputs) {
        DimnameList n = names_or_none(t.impl());
        out = out ? unify_from_right(*out, n, "cat") : std::move(n);
    }
    return out;
}

/// The names an expression's result takes (nullopt when nothing is named), decided before it
/// is evaluated, so that a mismatch throws before anything is written: a fresh result takes the
/// leaves' unified names; writing into `dst` (in place, `t.index(...) = e`, out=) unifies them
/// with dst's names, as PyTorch's in-place ops do. backend/host/evaluate.hpp's run_assign asks
/// once any tensor of the process has been named (names_in_use).
template <size_t L>
std::optional<DimnameList> result_names(const TensorBase& dst, const std::array<const TensorBase*, L>& leaves,
                                        bool fresh) {
    const DimnameList* own = fresh ? nullptr : names_ptr(dst);
    std::optional<DimnameList> from_leaves = broadcast_names(leaves);
    if (own && from_leaves) return unify_from_right(*own, *from_leaves);
    if (from_leaves) return from_leaves;
    if (own) return *own;
    return std::nullopt;
}

/// The names of a reduction's result: the input's without the reduced dims (kept by keepdim),
/// or nullopt for an unnamed input.
inline std::optional<DimnameList> reduced_names(const DimnameList* names, const IntArray& reduced_dims, bool keepdim) {
    if (!names || keepdim) return names ? std::optional<DimnameList>(*names) : std::nullopt;
    const auto n = static_cast<int64_t>(names->size());
    std::vector<bool> drop(names->size(), false);
    for (int64_t d : reduced_dims) drop[static_cast<size_t>(wrap_dim(d, n, "reduce"))] = true;
    if (reduced_dims.empty()) std::fill(drop.begin(), drop.end(), true);  // every dim
    DimnameList out;
    for (size_t i = 0; i < names->size(); ++i)
        if (!drop[i]) out.push_back((*names)[i]);
    return out;
}

/// r.values and r.indices (a reduction of x along dim: median, mode, cummax, ...) named after x.
template <class R>
R name_values_indices(R r, const TensorBase& x, int64_t dim, bool keepdim) {
    if (std::optional<DimnameList> out = reduced_names(names_ptr(x), IntArray{dim}, keepdim)) {
        set_names(r.values.impl(), *out);
        set_names(r.indices.impl(), *out);
    }
    return r;
}
/// x without names (a recorded alias when it has some): for ops that reshape internally.
template <class T>
T drop_names(const T& x) {
    return x.has_names() ? x.rename(std::nullopt) : x;
}

}  // namespace tenet::detail

namespace tenet::inline TENET_ABI::detail {

/// An unnamed alias of t, not recorded for autograd (for internal computations).
inline TensorImplPtr unnamed_alias(const TensorImpl& t) { return make_view(t, t.sizes(), t.strides(), t.offset); }
/// Gives `to` the names of `from` (copies, conversions, detach: the same dims). Out of line:
/// unnamed tensors pay the test alone.
[[gnu::noinline, gnu::cold]] inline void copy_names_of(const TensorImpl& from, TensorImpl& to) {
    to.names = DimnamesPtr(new const DimnameList(*from.names));
}
inline void copy_names(const TensorBase& from, const TensorBase& to) {
    if (from.impl_ptr()->names) [[unlikely]]
        copy_names_of(*from.impl_ptr(), *to.impl_ptr());
}
/// `names` without dim d (select, an integer index).
inline DimnameList erase_name(DimnameList names, int64_t d) {
    names.erase(names.begin() + wrap_dim(d, static_cast<int64_t>(names.size()), "select"));
    return names;
}
/// `names` with dims d0 and d1 swapped (transpose).
inline DimnameList swap_names(DimnameList names, int64_t d0, int64_t d1) {
    const auto n = static_cast<int64_t>(names.size());
    if (n > 0) std::swap(names[static_cast<size_t>(wrap_dim(d0, n, "transpose"))], names[static_cast<size_t>(wrap_dim(d1, n, "transpose"))]);
    return names;
}
/// The names squeeze keeps: those of the dims not dropped (all size-1 dims, or only `dim`).
inline DimnameList squeezed_names(const DimnameList& names, const IntArray& sizes, std::optional<int64_t> dim) {
    const auto n = static_cast<int64_t>(names.size());
    const int64_t only = dim && n > 0 ? wrap_dim(*dim, n, "squeeze") : -1;
    DimnameList out;
    for (int64_t i = 0; i < n; ++i)
        if (!(sizes[i] == 1 && (!dim || i == only))) out.push_back(names[static_cast<size_t>(i)]);
    return out;
}
/// The names of a basic index's result: integers drop their dim's name, slices keep it; a None
/// or bool (a new dim) is PyTorch's refused unsqueeze.
inline DimnameList indexed_names(const DimnameList& names, std::span<const TensorIndex> indices) {
    using Kind = TensorIndex::Kind;
    int64_t consumed = 0;
    for (const auto& ix : indices) consumed += ix.consumes_dim();
    DimnameList out;
    size_t d = 0;
    for (const auto& ix : indices) {
        switch (ix.kind()) {
            case Kind::Integer: ++d; break;
            case Kind::Slice: out.push_back(names[d++]); break;
            case Kind::Ellipsis:
                for (int64_t k = 0; k < static_cast<int64_t>(names.size()) - consumed; ++k) out.push_back(names[d++]);
                break;
            default: fail_named_unsupported("aten::unsqueeze");
        }
    }
    for (; d < names.size(); ++d) out.push_back(names[d]);
    return out;
}

}  // namespace tenet::detail

namespace tenet::inline TENET_ABI::detail {

#if TENET_HEADER_DEFINITIONS
TENET_FIXED void name_view_like(const TensorImpl& base, TensorImpl& view, int64_t leading) {
    DimnameList n(static_cast<size_t>(leading));
    n.insert(n.end(), base.names->begin(), base.names->end());
    set_names(view, n);
}
TENET_FIXED void name_selected(const TensorImpl& base, TensorImpl& view, int64_t erased) {
    set_names(view, erase_name(*base.names, erased));
}
TENET_FIXED void name_transposed(const TensorImpl& base, TensorImpl& view, int64_t d0, int64_t d1) {
    set_names(view, swap_names(*base.names, d0, d1));
}
TENET_FIXED void name_squeezed(const TensorImpl& base, TensorImpl& view, std::optional<int64_t> dim) {
    set_names(view, squeezed_names(*base.names, base.sizes(), dim));
}
TENET_FIXED void name_indexed(const TensorImpl& base, TensorImpl& view, std::span<const TensorIndex> indices) {
    set_names(view, indexed_names(*base.names, indices));
}
#endif  // TENET_HEADER_DEFINITIONS

}  // namespace tenet::detail
