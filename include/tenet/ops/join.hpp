#pragma once
// Joining tensors (cat, concat, stack, hstack, vstack, dstack) and splitting one tensor into
// views (split, chunk, unbind, tensor_split), with PyTorch's names, rules and messages.
//
// A join allocates its contiguous result once and copies each input into its slot, a narrow
// view of the result, with copy_data_: one strided pass per input, converting the element
// type on the way when inputs differ. A split returns narrow (or select) views that share the
// input's storage, so writes through a piece are seen by the input, as in PyTorch.
//
// The inputs of a join are a std::vector (or a braced list) of Tensor<T>, or a std::tuple of
// tensors of different element types, whose result has PyTorch's promoted type:
//     cat({a, b}, 1);                             // Tensor<T>
//     cat(std::tuple{int64_tensor, float_tensor})  // Tensor<float>, as torch.cat
// Expressions are values there, evaluated once each ("Lists that hold expressions", below):
//     cat(std::tuple{a + b, int64_tensor}), cat({a + b, c + d}), cat<float>({a + b, c})
//
// Autograd (autograd/join.hpp): a join is one node (CatBackward0, StackBackward0) whose backward
// hands each input its slot of the gradient; all the pieces of one split are outputs of ONE
// node (SplitBackward0, SplitWithSizesBackward0, UnbindBackward0) whose backward joins their
// gradients, zeros standing in for the pieces that got none. tensor_split's pieces are
// recorded as slices (SliceBackward0), as in PyTorch.

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tenet/core/static_tensor.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/node.hpp"
#include "tenet/expr/promotion.hpp"

namespace tenet::inline TENET_ABI {

// ---- Lists of tensors ------------------------------------------------------------------

namespace detail {
template <class L>
struct tensor_list_traits {
    static constexpr bool value = false;
};
template <class T>
struct tensor_list_traits<std::vector<Tensor<T>>> {
    static constexpr bool value = true;
    using element = T;
};
template <class T>
struct promote_all {
    using type = T;
};
template <class A, class B, class... Ts>
struct promote_all<std::tuple<A, B, Ts...>> : promote_all<std::tuple<promote_t<A, B>, Ts...>> {};
template <class A>
struct promote_all<std::tuple<A>> {
    using type = A;
};
template <class... Ts>
struct tensor_list_traits<std::tuple<Tensor<Ts>...>> {
    static constexpr bool value = sizeof...(Ts) > 0;
    using element = typename promote_all<std::tuple<Ts...>>::type;
};
}  // namespace detail

/// What the joins accept: a std::vector<Tensor<T>>, or a std::tuple of tensors of any element types.
template <class L>
concept TensorList = detail::tensor_list_traits<std::remove_cvref_t<L>>::value;

/// The element type of a join of L: T, or PyTorch's promotion of the tuple's element types.
template <TensorList L>
using joined_t = typename detail::tensor_list_traits<std::remove_cvref_t<L>>::element;

namespace detail {

template <class T, class F>
void for_each_tensor(const std::vector<Tensor<T>>& list, F&& f) {
    for (size_t i = 0; i < list.size(); ++i) f(list[i], i);
}
template <class... Ts, class F>
void for_each_tensor(const std::tuple<Tensor<Ts>...>& list, F&& f) {
    std::apply([&](const auto&... t) {
        size_t i = 0;
        (f(t, i++), ...);
    }, list);
}

/// The list with f (a view op, which keeps the element type) applied to each tensor.
template <class T, class F>
std::vector<Tensor<T>> map_tensors(const std::vector<Tensor<T>>& list, F&& f) {
    std::vector<Tensor<T>> out;
    out.reserve(list.size());
    for (const Tensor<T>& t : list) out.push_back(f(t));
    return out;
}
template <class... Ts, class F>
std::tuple<Tensor<Ts>...> map_tensors(const std::tuple<Tensor<Ts>...>& list, F&& f) {
    return std::apply([&](const auto&... t) { return std::tuple<Tensor<Ts>...>(f(t)...); }, list);
}

/// The tensors of a list as untyped handles.
template <class L>
std::vector<TensorBase> handles_of(const L& list) {
    std::vector<TensorBase> out;
    for_each_tensor(list, [&](const TensorBase& t, size_t) { out.push_back(t); });
    return out;
}

/// Where each input of a join lies in the result: input i fills [starts[i], starts[i] +
/// lengths[i]) along `dim` (stack: index starts[i] of the new dim). `skipped` marks the 1-D
/// empty inputs that cat ignores, whatever the others' rank (PyTorch's legacy rule).
struct JoinPlan {
    IntArray sizes;
    int64_t dim = 0;
    bool stacked = false;
    std::vector<int64_t> starts, lengths;
    std::vector<bool> skipped;
};

/// torch.cat's checks, in its order, and the plan. `op` names the caller in messages.
inline JoinPlan plan_cat(const std::vector<TensorBase>& ts, int64_t dim, const char* op) {
    if (ts.empty()) fail<value_error>(op, ": expected a non-empty list of Tensors");
    std::optional<Device> device;
    for (const TensorBase& t : ts) device = expr::common_device(device, t.device(), op);
    for (size_t i = 0; i < ts.size(); ++i)
        if (ts[i].dim() == 0)
            fail<shape_error>(op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    JoinPlan plan;
    const size_t n = ts.size();
    plan.starts.assign(n, 0);
    plan.lengths.assign(n, 0);
    plan.skipped.assign(n, false);
    size_t ref = n;  // the first input that is not skipped: the others must match it
    for (size_t i = 0; i < n; ++i) {
        plan.skipped[i] = ts[i].dim() == 1 && ts[i].size(0) == 0;
        if (!plan.skipped[i] && ref == n) ref = i;
    }
    if (ref == n) {  // only skipped inputs (dim is not even checked, as in PyTorch)
        plan.sizes = IntArray{0};
        return plan;
    }
    const TensorBase& first = ts[ref];
    plan.dim = wrap_dim(dim, first.dim(), op);
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        plan.starts[i] = total;
        if (plan.skipped[i]) continue;
        const TensorBase& t = ts[i];
        if (t.dim() != first.dim())
            fail<shape_error>(op, ": Tensors must have same number of dimensions: got ", first.dim(), " and ", t.dim(),
                              ". Tensor ", ref, " has shape ", first.sizes(), ", tensor ", i, " has shape ",
                              t.sizes(), ".");
        for (int64_t d = 0; d < t.dim(); ++d)
            if (d != plan.dim && t.sizes()[d] != first.sizes()[d])
                fail<shape_error>(op, ": Sizes of tensors must match except in dimension ", plan.dim, ". Expected size ",
                                  first.sizes()[d], " but got size ", t.sizes()[d], " for tensor number ", i,
                                  " in the list. Tensor ", ref, " has shape ", first.sizes(), ", tensor ", i,
                                  " has shape ", t.sizes(), ".");
        plan.lengths[i] = t.sizes()[plan.dim];
        total += plan.lengths[i];
    }
    plan.sizes = first.sizes();
    plan.sizes[plan.dim] = total;
    return plan;
}

/// torch.stack's checks: a non-empty list of equal shapes; returns the new dim, wrapped.
inline int64_t check_stack(const std::vector<TensorBase>& ts, int64_t dim, const char* op) {
    if (ts.empty()) fail<value_error>(op, ": expects a non-empty TensorList");
    const int64_t wrapped = wrap_dim(dim, ts[0].dim() + 1, op);
    for (size_t i = 1; i < ts.size(); ++i)
        if (!(ts[i].sizes() == ts[0].sizes()))
            fail<shape_error>(op, ": expects each tensor to be equal size, but got ", ts[0].sizes(), " at entry 0 and ",
                              ts[i].sizes(), " at entry ", i);
    return wrapped;
}

/// Input i's slot in a joined tensor (the result, or its gradient), as a view of it.
inline TensorImplPtr join_slot(const TensorImpl& joined, const JoinPlan& plan, size_t i) {
    if (plan.skipped[i]) return make_view(joined, IntArray{0}, IntArray{1}, joined.offset);
    return plan.stacked ? detail::select(joined, plan.dim, plan.starts[i])
                        : detail::narrow(joined, plan.dim, plan.starts[i], plan.lengths[i]);
}

/// The value of cat(list, dim), or of stack(list, dim) when `stacked`, and its plan; nothing
/// is recorded. Each input is written into its slot of the result in one pass (copy_data_).
template <class L>
std::pair<Tensor<joined_t<L>>, JoinPlan> join_values(const L& list, int64_t dim, bool stacked, const char* op) {
    using R = joined_t<L>;
    const std::vector<TensorBase> handles = handles_of(list);
    const std::optional<DimnameList> names = joined_names(handles, stacked);  // core/name_inference.hpp
    JoinPlan plan;
    if (stacked) {
        // stack is cat along a new size-1 dim of every input (views: nothing is copied here).
        const int64_t d = check_stack(handles, dim, op);
        std::vector<TensorBase> unsqueezed;
        for (const TensorBase& t : handles) unsqueezed.emplace_back(detail::unsqueeze(t.impl(), d));
        plan = plan_cat(unsqueezed, d, op);
        plan.stacked = true;
    } else {
        plan = plan_cat(handles, dim, op);
    }
    Tensor<R> result(make_contiguous_impl(plan.sizes, dtype_of<R>, handles.front().device()));
    for_each_tensor(list, [&](const auto& t, size_t i) {
        if (t.numel() > 0) Tensor<R>(join_slot(result.impl(), plan, i)).copy_data_(t);
    });
    if (names && names->size() == plan.sizes.size()) set_names(result.impl(), *names);
    return {result, plan};
}

/// A join, recorded: what cat, stack and the *stack functions return.
template <class L>
Tensor<joined_t<L>> join(const L& list, int64_t dim, bool stacked, const char* op, const char* backward_name) {
    auto [result, plan] = join_values(list, dim, stacked, op);
    record_join(result, list, plan, backward_name);
    return result;
}

/// Views of `self` along `dim` (already wrapped): consecutive narrows of the given lengths or,
/// for unbind, one select per index; recorded as the outputs of one node.
template <class T>
std::vector<Tensor<T>> split_views(const Tensor<T>& self, int64_t dim, const IntArray& lengths, bool unbind,
                                   const char* backward_name) {
    std::vector<Tensor<T>> pieces;
    pieces.reserve(lengths.size());
    int64_t start = 0;
    for (int64_t length : lengths) {
        pieces.emplace_back(unbind ? detail::select(self.impl(), dim, start)
                                    : detail::narrow(self.impl(), dim, start, length));
        start += length;
    }
    record_split(self, pieces, dim, lengths, unbind, backward_name);
    return pieces;
}

/// hstack, vstack, dstack: cat of lift(t) for each t, along dim_of(rank of the first lifted tensor).
template <class L, class Lift, class DimOf>
Tensor<joined_t<L>> lifted_cat(const L& list, Lift&& lift, DimOf&& dim_of, const char* op) {
    if (handles_of(list).empty()) fail<value_error>(op, ": expects a non-empty TensorList");
    const auto lifted = map_tensors(list, lift);
    return join(lifted, dim_of(handles_of(lifted).front().dim()), false, op, "CatBackward0");
}

}  // namespace detail

// ---- Joins -------------------------------------------------------------------------------

/// torch.cat: the tensors joined along `dim` (negative counts from the end). All must have the
/// same rank and sizes except along dim; 1-D empty tensors (shape [0]) are skipped whatever
/// the others' rank. Throws value_error for an empty list, shape_error for mismatched shapes
/// and 0-d inputs, index_error for dim, device_error for inputs on different devices.
template <TensorList L>
Tensor<joined_t<L>> cat(const L& tensors, int64_t dim = 0) {
    return detail::join(tensors, dim, false, "cat", "CatBackward0");
}
template <class T>
Tensor<T> cat(std::initializer_list<Tensor<T>> tensors, int64_t dim = 0) {
    return cat(std::vector<Tensor<T>>(tensors), dim);
}
/// torch.concat: cat under another name.
template <TensorList L>
Tensor<joined_t<L>> concat(const L& tensors, int64_t dim = 0) {
    return cat(tensors, dim);
}
template <class T>
Tensor<T> concat(std::initializer_list<Tensor<T>> tensors, int64_t dim = 0) {
    return cat(tensors, dim);
}

/// torch.stack: tensors of one shape joined along a new dim `dim` in [-(ndim + 1), ndim].
template <TensorList L>
Tensor<joined_t<L>> stack(const L& tensors, int64_t dim = 0) {
    return detail::join(tensors, dim, true, "stack", "StackBackward0");
}
template <class T>
Tensor<T> stack(std::initializer_list<Tensor<T>> tensors, int64_t dim = 0) {
    return stack(std::vector<Tensor<T>>(tensors), dim);
}

/// torch.atleast_1d / atleast_2d / atleast_3d: views with size-1 dims added as PyTorch adds them
/// (0-d -> [1], [1, 1], [1, 1, 1]; 1-D [n] -> [1, n] and [1, n, 1]; 2-D [m, n] -> [m, n, 1]).
template <class T>
Tensor<T> atleast_1d(const Tensor<T>& t) {
    return t.dim() == 0 ? t.reshape({1}) : t;
}
template <class T>
Tensor<T> atleast_2d(const Tensor<T>& t) {
    if (t.dim() == 0) return t.reshape({1, 1});
    return t.dim() == 1 ? t.unsqueeze(0) : t;
}
template <class T>
Tensor<T> atleast_3d(const Tensor<T>& t) {
    if (t.dim() == 0) return t.reshape({1, 1, 1});
    if (t.dim() == 1) return t.unsqueeze(0).unsqueeze(-1);
    return t.dim() == 2 ? t.unsqueeze(-1) : t;
}

/// torch.hstack: cat along dim 1 (dim 0 when the inputs are 1-D) after atleast_1d.
template <TensorList L>
Tensor<joined_t<L>> hstack(const L& tensors) {
    return detail::lifted_cat(
        tensors, [](const auto& t) { return atleast_1d(t); }, [](int64_t rank) { return rank == 1 ? 0 : 1; }, "hstack");
}
template <class T>
Tensor<T> hstack(std::initializer_list<Tensor<T>> tensors) {
    return hstack(std::vector<Tensor<T>>(tensors));
}
/// torch.vstack: cat along dim 0 after atleast_2d (1-D inputs become rows).
template <TensorList L>
Tensor<joined_t<L>> vstack(const L& tensors) {
    return detail::lifted_cat(tensors, [](const auto& t) { return atleast_2d(t); }, [](int64_t) { return 0; }, "vstack");
}
template <class T>
Tensor<T> vstack(std::initializer_list<Tensor<T>> tensors) {
    return vstack(std::vector<Tensor<T>>(tensors));
}
/// torch.dstack: cat along dim 2 after atleast_3d.
template <TensorList L>
Tensor<joined_t<L>> dstack(const L& tensors) {
    return detail::lifted_cat(tensors, [](const auto& t) { return atleast_3d(t); }, [](int64_t) { return 2; }, "dstack");
}
template <class T>
Tensor<T> dstack(std::initializer_list<Tensor<T>> tensors) {
    return dstack(std::vector<Tensor<T>>(tensors));
}

// ---- Lists that hold expressions ---------------------------------------------------------
// An expression in a join is a value, as in PyTorch: it is evaluated once (recorded by autograd
// as any evaluation) and joined as a tensor of its own element type.
//   cat(std::tuple{a + b, i64, s})   any mix of tensors, static tensors and expressions, with
//                                    PyTorch's promotion of their element types
//   cat({a + b, c + d})              a braced list of expressions of ONE type
//   cat<float>({a + b, c, cast<float>(i64)})
//                                    a braced list of the named type: each expression (of any
//                                    element type) evaluated as it; a tensor of another type
//                                    does not convert implicitly (cast<float>(t) or t.to<float>())
// A braced list whose elements differ in type (`cat({a + b, c})`, `cat({i64, f32})`) gives
// C++ nothing to deduce the result type from: it is one static_assert saying so.

namespace detail {
template <class X>
struct join_operand {
    static constexpr bool value = false;
};
template <class T>
struct join_operand<Tensor<T>> {
    static constexpr bool value = true;
    using element = T;
};
template <class T, class S>
struct join_operand<StaticTensor<T, S>> {
    static constexpr bool value = true;
    using element = T;
};
template <TensorExpression E>
struct join_operand<E> {
    static constexpr bool value = true;
    using element = typename E::value_type;
};
template <class X>
using join_element_t = typename join_operand<std::remove_cvref_t<X>>::element;

/// A std::tuple of tensors and expressions that is not already a TensorList.
template <class... Xs>
concept EvaluableJoinTuple = sizeof...(Xs) > 0 && (join_operand<std::remove_cvref_t<Xs>>::value && ...) &&
                             !TensorList<std::tuple<Xs...>>;

/// The tuple's tensors as Tensor handles and its expressions evaluated, left to right, once each.
template <class... Xs>
std::tuple<Tensor<join_element_t<Xs>>...> evaluate_join_tuple(const std::tuple<Xs...>& list) {
    return std::apply([](const auto&... x) { return std::tuple<Tensor<join_element_t<Xs>>...>{x...}; }, list);
}
template <TensorExpression E>
std::vector<Tensor<typename E::value_type>> evaluate_join_list(std::initializer_list<E> list) {
    std::vector<Tensor<typename E::value_type>> out;
    out.reserve(list.size());
    for (const E& e : list) out.emplace_back(e);
    return out;
}

/// What a braced list of tensors and expressions of different types binds to: the overload
/// that reports, in one static_assert, why its result type cannot be deduced.
struct UndeducedJoinItem {
    template <class X>
        requires join_operand<std::remove_cvref_t<X>>::value
    UndeducedJoinItem(const X&) {}  // NOLINT: implicit on purpose
};
template <class>
inline constexpr bool undeduced_join = false;
}  // namespace detail

#define TENET_JOIN_EXPRESSION_FORMS(NAME, DIM_PARAM, DIM_ARG)                                                   \
    template <class... Xs>                                                                                   \
        requires detail::EvaluableJoinTuple<Xs...>                                                           \
    auto NAME(const std::tuple<Xs...>& list DIM_PARAM) {                                                     \
        return NAME(detail::evaluate_join_tuple(list) DIM_ARG);                                              \
    }                                                                                                        \
    template <TensorExpression E>                                                                            \
    Tensor<typename E::value_type> NAME(std::initializer_list<E> list DIM_PARAM) {                           \
        return NAME(detail::evaluate_join_list(list) DIM_ARG);                                               \
    }                                                                                                        \
    template <class Item = detail::UndeducedJoinItem>                                                        \
    Tensor<float> NAME(std::initializer_list<std::type_identity_t<Item>> DIM_PARAM) {                        \
        static_assert(detail::undeduced_join<Item>,                                                          \
                      "tenet: " #NAME "({...}): the braced list's elements differ in type, so C++ cannot "   \
                      "deduce the result's element type: name it, " #NAME "<float>({...}) (expressions are " \
                      "evaluated as that type), or write " #NAME "(std::tuple{...}) for PyTorch's promotion"); \
        return {};                                                                                           \
    }
#define TENET_JOIN_COMMA ,
TENET_JOIN_EXPRESSION_FORMS(cat, TENET_JOIN_COMMA [[maybe_unused]] int64_t dim = 0, TENET_JOIN_COMMA dim)
TENET_JOIN_EXPRESSION_FORMS(concat, TENET_JOIN_COMMA [[maybe_unused]] int64_t dim = 0, TENET_JOIN_COMMA dim)
TENET_JOIN_EXPRESSION_FORMS(stack, TENET_JOIN_COMMA [[maybe_unused]] int64_t dim = 0, TENET_JOIN_COMMA dim)
TENET_JOIN_EXPRESSION_FORMS(hstack, , )
TENET_JOIN_EXPRESSION_FORMS(vstack, , )
TENET_JOIN_EXPRESSION_FORMS(dstack, , )
#undef TENET_JOIN_COMMA
#undef TENET_JOIN_EXPRESSION_FORMS

// ---- Splits: views sharing the input's storage ----------------------------------------------

/// torch.split: pieces of `split_size` along `dim` (the last one shorter if the size does not
/// divide). split_size 0 is allowed only for a dim of size 0 (one empty piece).
template <class T>
std::vector<Tensor<T>> split(const Tensor<T>& self, int64_t split_size, int64_t dim = 0) {
    if (self.dim() == 0) detail::fail<shape_error>("split: expects at least a 1-dimensional tensor");
    if (split_size < 0)
        detail::fail<value_error>("split: expects split_size be non-negative, but got split_size=", split_size);
    const int64_t d = detail::wrap_dim(dim, self.dim(), "split");
    const int64_t size = self.sizes()[d];
    if (split_size == 0 && size != 0)
        detail::fail<value_error>("split: split_size can only be 0 if dimension size is 0, but got dimension size of ",
                                  size);
    // At least one piece: a split_size larger than the dim gives the whole tensor.
    const int64_t n = split_size == 0 ? 1 : std::max<int64_t>(size / split_size + (size % split_size != 0), 1);
    IntArray lengths(static_cast<size_t>(n), split_size);
    lengths.back() = size - split_size * (n - 1);
    return detail::split_views(self, d, lengths, false, "SplitBackward0");
}

/// torch.split_with_sizes: consecutive pieces of the given sizes, which must sum to the size of `dim`.
template <class T>
std::vector<Tensor<T>> split_with_sizes(const Tensor<T>& self, const IntArray& split_sizes, int64_t dim = 0) {
    if (self.dim() == 0) detail::fail<shape_error>("split_with_sizes: expects at least a 1-dimensional tensor");
    const int64_t d = detail::wrap_dim(dim, self.dim(), "split_with_sizes");
    int64_t total = 0;
    for (int64_t s : split_sizes) {
        if (s < 0)
            detail::fail<value_error>(
                "split_with_sizes: expects split_sizes have only non-negative entries, but got split_sizes=",
                split_sizes);
        total += s;
    }
    if (total != self.sizes()[d])
        detail::fail<value_error>("split_with_sizes: expects split_sizes to sum exactly to ", self.sizes()[d],
                                  " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
    return detail::split_views(self, d, split_sizes, false, "SplitWithSizesBackward0");
}
/// torch.split with a list of sizes: split_with_sizes. (A one-element braced list `{4}` picks
/// the split_size overload, as in LibTorch; pass IntArray{4} for a list.)
template <class T>
std::vector<Tensor<T>> split(const Tensor<T>& self, const IntArray& split_sizes, int64_t dim = 0) {
    return split_with_sizes(self, split_sizes, dim);
}

/// torch.chunk: `chunks` pieces of ceil(size / chunks) along `dim`, or fewer when the last
/// would be empty (a dim of size 0 gives `chunks` empty pieces).
template <class T>
std::vector<Tensor<T>> chunk(const Tensor<T>& self, int64_t chunks, int64_t dim = 0) {
    if (self.dim() == 0) detail::fail<shape_error>("chunk: expects at least a 1-dimensional tensor");
    if (chunks <= 0) detail::fail<value_error>("chunk: expects `chunks` to be greater than 0, got: ", chunks);
    const int64_t d = detail::wrap_dim(dim, self.dim(), "chunk");
    const int64_t size = self.sizes()[d];
    const int64_t split_size = size / chunks + (size % chunks != 0);
    // split(0) would give one piece: PyTorch keeps the number of chunks with split_with_sizes.
    if (size == 0) return split_with_sizes(self, IntArray(static_cast<size_t>(chunks), 0), d);
    return split(self, split_size, d);
}

/// torch.unbind: the slices along `dim`, each without that dim (select views).
template <class T>
std::vector<Tensor<T>> unbind(const Tensor<T>& self, int64_t dim = 0) {
    if (self.dim() == 0)
        detail::fail<index_error>("unbind: Dimension specified as ", dim, " but tensor has no dimensions");
    const int64_t d = detail::wrap_dim(dim, self.dim(), "unbind");
    return detail::split_views(self, d, IntArray(static_cast<size_t>(self.sizes()[d]), 1), true, "UnbindBackward0");
}

/// torch.tensor_split into `sections` pieces: the first size % sections have one element more.
template <class T>
std::vector<Tensor<T>> tensor_split(const Tensor<T>& self, int64_t sections, int64_t dim = 0) {
    if (self.dim() == 0)
        detail::fail<shape_error>("tensor_split: expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
    const int64_t d = detail::wrap_dim(dim, self.dim(), "tensor_split");
    if (sections <= 0) detail::fail<value_error>("tensor_split: number of sections must be larger than 0, got ", sections);
    const int64_t size = self.sizes()[d];
    std::vector<Tensor<T>> pieces;
    pieces.reserve(static_cast<size_t>(sections));
    for (int64_t i = 0, start = 0; i < sections; ++i) {
        const int64_t length = size / sections + (i < size % sections);
        pieces.push_back(self.slice(d, start, start + length));
        start += length;
    }
    return pieces;
}
/// torch.tensor_split at the given indices: self[:i0], self[i0:i1], ..., self[ik:] along `dim`,
/// with Python's slicing rules (negative indices count from the end; bounds are clamped).
template <class T>
std::vector<Tensor<T>> tensor_split(const Tensor<T>& self, const IntArray& indices, int64_t dim = 0) {
    if (self.dim() == 0)
        detail::fail<shape_error>("tensor_split: expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
    const int64_t d = detail::wrap_dim(dim, self.dim(), "tensor_split");
    std::vector<Tensor<T>> pieces;
    pieces.reserve(indices.size() + 1);
    int64_t start = 0;
    for (int64_t end : indices) {
        pieces.push_back(self.slice(d, start, end));
        start = end;
    }
    pieces.push_back(self.slice(d, start));
    return pieces;
}

// ---- Tensor's split methods ---------------------------------------------------------------

template <class T>
std::vector<Tensor<T>> Tensor<T>::split(int64_t split_size, int64_t dim) const {
    return tenet::split(*this, split_size, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::split(const IntArray& split_sizes, int64_t dim) const {
    return tenet::split_with_sizes(*this, split_sizes, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::split_with_sizes(const IntArray& split_sizes, int64_t dim) const {
    return tenet::split_with_sizes(*this, split_sizes, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::chunk(int64_t chunks, int64_t dim) const {
    return tenet::chunk(*this, chunks, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::unbind(int64_t dim) const {
    return tenet::unbind(*this, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::tensor_split(int64_t sections, int64_t dim) const {
    return tenet::tensor_split(*this, sections, dim);
}
template <class T>
std::vector<Tensor<T>> Tensor<T>::tensor_split(const IntArray& indices, int64_t dim) const {
    return tenet::tensor_split(*this, indices, dim);
}

}  // namespace tenet
