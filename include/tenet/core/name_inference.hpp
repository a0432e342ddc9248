#pragma once
// Name inference: the names an op's result gets from its inputs' names (PyTorch's
// namedinference). Every helper starts with a test of the inputs' name pointers, so unnamed
// tensors (the common case) pay a pointer comparison per operand and per op, never per element.

#include "tenet/config.hpp"
#include <array>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "tenet/core/dimname.hpp"
#include "tenet/core/tensor_impl.hpp"

namespace tenet::inline TENET_ABI::detail {

/// Names `t`'s dims (checked: valid, distinct, one per dim); all None makes it unnamed, as in PyTorch.
inline void set_names(TensorImpl& t, const DimnameList& names) {
    check_names(names, t.sizes().size());
    bool any = false;
    for (const Dimname& d : names) any = any || d.is_basic();
    t.names = any ? std::make_unique<const DimnameList>(names) : nullptr;
}
/// The names of `t`, or null when it has none.
inline const DimnameList* names_ptr(const TensorBase& t) { return t.defined() ? t.impl().names.get() : nullptr; }
/// The names of `t`, all None when it has none.
inline DimnameList names_or_none(const TensorImpl& t) {
    return t.names ? *t.names : DimnameList(t.sizes().size());
}
/// `view` (a new TensorImpl) named `names`, unless `names` is empty (an unnamed source).
inline TensorImplPtr with_names(TensorImplPtr view, std::optional<DimnameList> names) {
    if (names) set_names(*view, *names);
    return view;
}

/// PyTorch's refusal of an op that has no name inference: "aten::view is not yet supported
/// with named tensors. ..." (a value_error; PyTorch's RuntimeError).
[[noreturn]] inline void fail_named_unsupported(const char* op) {
    fail<value_error>(op, " is not yet supported with named tensors. Please drop names via `tensor = "
                          "tensor.rename(None)`, call the op with an unnamed tensor, and set names on the "
                          "result of the operation.");
}
/// The same, when t is named.
inline void refuse_named(const TensorBase& t, const char* op) {
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

/// The names an expression's result takes, decided before it is evaluated (a mismatch throws
/// before anything is written) and given to the result when the evaluation returns: a fresh
/// result takes the leaves' unified names; writing into `dst` (in place, `t.index(...) = e`,
/// out=) unifies them with dst's names, as PyTorch's in-place ops do.
class ResultNames {
public:
    template <size_t L>
    ResultNames(TensorBase& dst, const std::array<const TensorBase*, L>& leaves, bool fresh) : dst_(dst) {
        std::optional<DimnameList> from_leaves = broadcast_names(leaves);
        const DimnameList* own = fresh ? nullptr : names_ptr(dst);
        if (!from_leaves && !own) return;
        if (own && from_leaves) names_ = unify_from_right(*own, *from_leaves);
        else names_ = from_leaves ? std::move(from_leaves) : std::optional<DimnameList>(*own);
    }
    ~ResultNames() {
        // Unless the evaluation threw: the result's rank is that of the names, checked above.
        if (names_ && uncaught_ == std::uncaught_exceptions() && dst_.defined() &&
            dst_.impl().sizes().size() == names_->size())
            dst_.impl().names = std::make_unique<const DimnameList>(std::move(*names_));
    }
    ResultNames(const ResultNames&) = delete;
    ResultNames& operator=(const ResultNames&) = delete;

private:
    TensorBase& dst_;
    std::optional<DimnameList> names_;
    int uncaught_ = std::uncaught_exceptions();
};

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

}  // namespace tenet::detail

namespace tenet::inline TENET_ABI::detail {

/// An unnamed alias of t (a leaf's .grad is unnamed in PyTorch, whatever names its gradient had).
inline TensorImplPtr unnamed_alias(const TensorImpl& t) { return make_view(t, t.sizes(), t.strides(), t.offset); }
/// Gives `to` the names of `from` (copies, conversions, detach: the same dims).
inline void copy_names(const TensorBase& from, const TensorBase& to) {
    if (const DimnameList* n = names_ptr(from)) const_cast<TensorImpl&>(to.impl()).names = std::make_unique<const DimnameList>(*n);
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
