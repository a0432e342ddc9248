#pragma once
// Named tensors (PyTorch 1.13's named tensor API): refine_names, rename, align_to, align_as,
// and the ops that take a dim by name (t.sum("C"), t.size("N"), t.transpose("N", "C"),
// flatten/unflatten). The names themselves: core/dimname.hpp; how results are named:
// core/name_inference.hpp (pointwise expressions, reductions, views). Errors follow PyTorch's
// wording: value_error for bad names, index_error for a name a tensor lacks.

#include "tenet/config.hpp"
#include <string>
#include <utility>
#include <vector>

#include "tenet/core/dimname.hpp"
#include "tenet/core/name_inference.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/reduce.hpp"
#include "tenet/ops/scan.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// PyTorch's expansion of one "..." in `names` to the names of the dims it covers in `have`;
/// `op` names the function in errors.
inline DimnameList expand_ellipsis(const DimnameList& names, const DimnameList& have, const char* op) {
    size_t ellipses = 0, at = 0;
    for (size_t i = 0; i < names.size(); ++i)
        if (is_ellipsis(names[i])) ellipses++, at = i;
    if (ellipses > 1) {
        std::string list = "(";
        for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i].repr();
        fail<value_error>(op, ": More than one Ellipsis ('...') found in names (", list + ")",
                          "). This function supports up to one Ellipsis.");
    }
    if (ellipses == 0) return names;
    const size_t covered = have.size() + 1 >= names.size() ? have.size() + 1 - names.size() : 0;
    DimnameList out(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(at));
    for (size_t k = 0; k < covered; ++k) out.push_back(have[at + k]);
    out.insert(out.end(), names.begin() + static_cast<std::ptrdiff_t>(at) + 1, names.end());
    return out;
}

/// The dim of x (a tensor or an expression) called `name`.
template <class X>
int64_t named_dim(const X& x, const Dimname& name) {
    if (std::optional<DimnameList> n = operand_names(x)) return dim_of(*n, name);
    return dim_of(DimnameList(with_node(x, "", [](const auto& e) { return e.shape().size(); })), name);
}
template <class X>
IntArray named_dims(const X& x, const DimnameList& names) {
    IntArray dims;
    for (const Dimname& n : names) dims.push_back(named_dim(x, n));
    return dims;
}

}  // namespace detail

template <class T>
Tensor<T> Tensor<T>::named_view(TensorImplPtr p, const DimnameList& names, const char* backward_name) const {
    Tensor<T> v = wrap(std::move(p), backward_name);
    detail::set_names(v.impl(), names);
    return v;
}

template <class T>
Tensor<T> Tensor<T>::refine_names(const DimnameList& names) const {
    const DimnameList have = this->names();
    const DimnameList want = detail::expand_ellipsis(names, have, "refine_names");
    if (want.size() != have.size())
        detail::fail<shape_error>("refine_names: cannot coerce ", detail::tensor_names_repr(have), " to ",
                                  detail::tensor_names_repr(want), " because they have a different number of dims (",
                                  have.size(), " and ", want.size(), " respectively).");
    for (size_t i = 0; i < want.size(); ++i) {
        if (have[i].is_wildcard() || have[i] == want[i]) continue;
        if (want[i].is_wildcard())
            detail::fail<value_error>("refine_names: cannot coerce ", detail::tensor_names_repr(have), " to ",
                                      detail::tensor_names_repr(want), " because ", have[i].repr(),
                                      " is more specific than None at index ", i);
        detail::fail<value_error>("refine_names: cannot coerce ", detail::tensor_names_repr(have), " to ",
                                  detail::tensor_names_repr(want), " because ", have[i].repr(), " is different from ",
                                  want[i].repr(), " at index ", i);
    }
    return alias_named(want);
}

template <class T>
Tensor<T> Tensor<T>::rename(const DimnameList& names) const {
    return alias_named(detail::expand_ellipsis(names, this->names(), "rename"));
}
template <class T>
Tensor<T> Tensor<T>::rename(std::nullopt_t) const {
    return alias_named(DimnameList(static_cast<size_t>(dim())));
}
template <class T>
Tensor<T> Tensor<T>::rename_map(const std::vector<std::pair<Dimname, Dimname>>& mapping) const {
    DimnameList out = names();
    for (const auto& [from, to] : mapping) {
        size_t i = 0;
        while (i < out.size() && !(out[i] == from && from.is_basic())) ++i;
        if (i == out.size())
            detail::fail<index_error>("rename: Tried to rename dim ", from.repr(), " to dim ", to.symbol(), " in Tensor[",
                                      detail::names_tuple_repr(names()), "] but dim ", from.repr(), " does not exist");
        out[i] = to;
    }
    return alias_named(out);
}
template <class T>
Tensor<T>& Tensor<T>::rename_(const DimnameList& names) {
    detail::set_names(impl(), detail::expand_ellipsis(names, this->names(), "rename_"));
    return *this;
}
template <class T>
Tensor<T>& Tensor<T>::rename_(std::nullopt_t) {
    impl().names = nullptr;
    return *this;
}

template <class T>
Tensor<T> Tensor<T>::align_to(const DimnameList& names) const {
    const DimnameList have = this->names();
    for (size_t i = 0; i < have.size(); ++i)
        if (have[i].is_wildcard())
            detail::fail<value_error>("align_to: All input dims must be named. Found unnamed dim at index ", i, " of ",
                                      detail::tensor_names_repr(have));
    // "..." stands for the dims of `have` that `names` does not list, in their order.
    DimnameList want;
    size_t ellipses = 0;
    for (const Dimname& n : names) ellipses += detail::is_ellipsis(n);
    if (ellipses > 1) detail::expand_ellipsis(names, have, "align_to");  // throws PyTorch's message
    for (const Dimname& n : names) {
        if (!detail::is_ellipsis(n)) {
            want.push_back(n);
            continue;
        }
        for (const Dimname& h : have) {
            bool listed = false;
            for (const Dimname& m : names) listed = listed || m == h;
            if (!listed) want.push_back(h);
        }
    }
    detail::check_names(want, want.size());
    IntArray sizes, strides;
    std::vector<bool> used(have.size(), false);
    for (const Dimname& n : want) {
        size_t i = 0;
        while (i < have.size() && !(have[i] == n)) ++i;
        if (i == have.size()) {  // a new size-1 dim
            sizes.push_back(1);
            strides.push_back(1);
        } else {
            used[i] = true;
            sizes.push_back(this->sizes()[i]);
            strides.push_back(this->strides()[i]);
        }
    }
    for (size_t i = 0; i < have.size(); ++i)
        if (!used[i])
            detail::fail<value_error>("align_to: Cannot find dim ", have[i].repr(), " from ",
                                      detail::tensor_names_repr(want), " in desired alignment ",
                                      detail::names_repr(want), ".");
    // One view of the new geometry, as PyTorch's (AsStridedBackward0).
    return named_view(detail::make_view(impl(), std::move(sizes), std::move(strides), storage_offset()), want,
                      "AsStridedBackward0");
}
template <class T>
template <class U>
Tensor<T> Tensor<T>::align_as(const Tensor<U>& other) const {
    return align_to(other.names());
}

template <class T>
Tensor<T> Tensor<T>::transpose(const Dimname& d0, const Dimname& d1) const {
    return transpose(detail::dim_of(names(), d0), detail::dim_of(names(), d1));
}
template <class T>
Tensor<T> Tensor<T>::select(const Dimname& dim, int64_t index) const {
    return select(detail::dim_of(names(), dim), index);
}
template <class T>
Tensor<T> Tensor<T>::squeeze(const Dimname& dim) const {
    return squeeze(detail::dim_of(names(), dim));
}

template <class T>
Tensor<T> Tensor<T>::flatten(const DimnameList& dims, const Dimname& out_dim) const {
    if (dims.empty()) detail::fail<value_error>("flatten(tensor, dims, out_dim): dims cannot be empty");
    detail::check_valid_name(out_dim);
    const DimnameList have = names();
    IntArray positions;
    for (const Dimname& d : dims) positions.push_back(detail::dim_of(have, d));
    for (size_t i = 1; i < positions.size(); ++i)
        if (positions[i] != positions[i - 1] + 1)
            detail::fail<value_error>("flatten(tensor, dims, out_dim): dims ", detail::names_repr(dims),
                                      " must be consecutive in ", detail::tensor_names_repr(have));
    const int64_t s = positions[0], e = positions[positions.size() - 1];
    DimnameList out(have.begin(), have.begin() + s);
    out.push_back(out_dim);
    out.insert(out.end(), have.begin() + e + 1, have.end());
    // PyTorch 1.13 renames the tensor itself in place when one dim is "flattened"; tenet returns a view.
    Tensor<T> v = rename(std::nullopt).flatten(s, e);
    if (s == e) v = v.expand(v.sizes());  // a new handle, so that this tensor keeps its names
    detail::set_names(v.impl(), out);
    return v;
}

template <class T>
Tensor<T> Tensor<T>::unflatten(const Dimname& dim, const IntArray& sizes, const DimnameList& names) const {
    const DimnameList have = this->names();
    const int64_t d = detail::dim_of(have, dim);
    if (sizes.size() != names.size())
        detail::fail<shape_error>("unflatten: sizes ", sizes, " and names ", detail::names_repr(names),
                                  " must have the same length");
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == -1 && infer < 0) infer = static_cast<int64_t>(i);
        else known *= sizes[i];
    }
    const int64_t size = this->sizes()[d];
    const bool fits = infer < 0 ? known == size : known != 0 && size % known == 0;
    if (!fits) {
        std::string list = "[";
        for (size_t i = 0; i < sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(sizes[i]);
        detail::fail<shape_error>("unflatten: Provided sizes ", list, "] don't multiply up to the size of dim ", d,
                                  " (", dim.repr(), ": ", size, ") in ", detail::tensor_names_repr(have));
    }
    IntArray shape;
    DimnameList out;
    for (int64_t k = 0; k < this->dim(); ++k) {
        if (k != d) {
            shape.push_back(this->sizes()[k]);
            out.push_back(have[static_cast<size_t>(k)]);
            continue;
        }
        for (size_t i = 0; i < sizes.size(); ++i) {
            shape.push_back(static_cast<int64_t>(i) == infer ? size / known : sizes[i]);
            out.push_back(names[i]);
        }
    }
    detail::check_names(out, out.size());
    Tensor<T> v = rename(std::nullopt).reshape(shape);
    detail::set_names(v.impl(), out);
    return v;
}

// ---- Reductions and dims by name: the methods of core/value_methods.hpp -----------------------

#define TENET_NAMED_REDUCTION(NAME)                                                            \
    template <class D>                                                                         \
    auto ValueMethods<D>::NAME(const Dimname& dim, bool keepdim) const {                       \
        return tenet::NAME(self(), detail::named_dim(self(), dim), keepdim);                   \
    }
#define TENET_NAMED_LIST_REDUCTION(NAME)                                                       \
    TENET_NAMED_REDUCTION(NAME)                                                                \
    template <class D>                                                                         \
    auto ValueMethods<D>::NAME(const DimnameList& dims, bool keepdim) const {                  \
        return tenet::NAME(self(), detail::named_dims(self(), dims), keepdim);                 \
    }
TENET_NAMED_LIST_REDUCTION(sum)
TENET_NAMED_LIST_REDUCTION(mean)
TENET_NAMED_LIST_REDUCTION(logsumexp)
TENET_NAMED_REDUCTION(prod)
TENET_NAMED_REDUCTION(max)
TENET_NAMED_REDUCTION(min)
#undef TENET_NAMED_REDUCTION
#undef TENET_NAMED_LIST_REDUCTION
#define TENET_NAMED_CORRECTED(NAME)                                                                  \
    template <class D>                                                                               \
    auto ValueMethods<D>::NAME(const Dimname& dim, int64_t correction, bool keepdim) const {         \
        return tenet::NAME(self(), IntArray{detail::named_dim(self(), dim)}, correction, keepdim);   \
    }                                                                                                \
    template <class D>                                                                               \
    auto ValueMethods<D>::NAME(const char* dim, int64_t correction, bool keepdim) const {            \
        return NAME(Dimname(dim), correction, keepdim);                                              \
    }                                                                                                \
    template <class D>                                                                               \
    auto ValueMethods<D>::NAME(const DimnameList& dims, int64_t correction, bool keepdim) const {    \
        return tenet::NAME(self(), detail::named_dims(self(), dims), correction, keepdim);           \
    }
TENET_NAMED_CORRECTED(std)
TENET_NAMED_CORRECTED(var)
#undef TENET_NAMED_CORRECTED
#define TENET_NAMED_ALONG(NAME)                                         \
    template <class D>                                                  \
    auto ValueMethods<D>::NAME(const Dimname& dim) const {              \
        return tenet::NAME(self(), detail::named_dim(self(), dim));     \
    }
TENET_NAMED_ALONG(softmax)
TENET_NAMED_ALONG(log_softmax)
TENET_NAMED_ALONG(cumsum)
TENET_NAMED_ALONG(cumprod)
#undef TENET_NAMED_ALONG

}  // namespace tenet
