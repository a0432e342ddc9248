#pragma once
// The Tensor methods an expression has by being a value. In PyTorch `x.mm(w1).clamp_min(0)` is a
// tensor, so `.mm(w2)`, `.reshape({2, 3})`, `.t()` or `.item()` may follow it; in tenet it is an
// expression node (lazy, fused). ExpressionBase (expr/node.hpp) derives from
// EvaluatingMethods<Derived>, which gives every node the Tensor methods that are not lazy:
//
//   * queries that need only the shape and the element type, answered WITHOUT evaluating:
//     sizes(), size(d), dim(), ndim(), numel(), dtype(), scalar_type(), element_size(),
//     itemsize(), nbytes(), is_floating_point() (shape() and device() are the node's own);
//   * every other value method of Tensor (TENET_EVALUATING_METHODS below): the expression is
//     evaluated ONCE into a new tensor, `derived().eval()` (recorded by autograd as any
//     evaluation: gradients flow through it to the expression's leaves), and the Tensor method
//     is called on that tensor. Results are returned by value: a view of the evaluated tensor
//     (`(a + b).t()`) holds its storage, and `e(i, j)` returns the element, not a reference.
//
// The element-wise math, arithmetic and reductions stay lazy: they are ExpressionBase's own
// methods (declared in expr/node.hpp) and do not appear here. In-place methods (add_, copy_,
// unsqueeze_, ...), writes (assign, index_put_, fill_), pointers into the data (data_ptr,
// storage) and autograd state (requires_grad_, grad, backward) are left out on purpose: an
// expression has no storage of its own to write to or to hold a gradient.
//
// One forwarding template per name keeps the compile cost to a declaration per name: nothing
// is instantiated unless it is called. Explicit template arguments are passed on
// (`e.to<double>()`, `e.item<int64_t>()`). Braced lists cannot be forwarded by a template, so
// the methods whose Tensor overloads take sizes or dims (`e.reshape({2, 3})`, `e.split({1, 2})`)
// have an IntArray overload, and those that also take one integer (split, tensor_split, flip)
// an int64_t one, so that a one-element list (`e.split({4})`) resolves as Tensor's does.

#include "tenet/config.hpp"
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

/// The value methods of Tensor that evaluate the expression once and call the Tensor method.
#define TENET_EVALUATING_METHODS(X)                                                                  \
    /* data */ X(item) X(to_vector) X(tolist)                                                        \
    /* views */ X(view) X(reshape) X(view_as) X(reshape_as) X(flatten) X(squeeze) X(unsqueeze)     \
    X(transpose) X(t) X(permute) X(expand) X(expand_as) X(narrow) X(select) X(slice)                \
    /* copies */ X(contiguous) X(clone) X(to) X(cuda) X(cpu) X(type_as) X(detach)                  \
    /* linear algebra */ X(matmul) X(mm) X(bmm) X(mv) X(dot) X(vdot) X(outer) X(ger) X(cross)      \
    X(trace) X(diag) X(tril) X(triu)                                                                \
    /* splits (views of the evaluated tensor) and reversals */ X(split) X(split_with_sizes)        \
    X(chunk) X(unbind) X(tensor_split) X(flip) X(fliplr) X(flipud)

/// Those of them that Tensor overloads for sizes or dims given as a braced list.
#define TENET_EVALUATING_SIZES_METHODS(X) \
    X(view) X(reshape) X(permute) X(expand) X(split) X(split_with_sizes) X(tensor_split) X(flip)
/// Those that Tensor also overloads for one integer (so `e.split({4})` is split(4), as on a Tensor).
#define TENET_EVALUATING_INTEGER_METHODS(X) X(split) X(tensor_split) X(flip)

/// CRTP base of ExpressionBase: see the file comment.
template <class Derived>
struct EvaluatingMethods {
    // ---- Queries: from the expression's shape and type, without evaluating -------------
    const IntArray& sizes() const { return self().shape(); }
    int64_t size(int64_t d) const { return sizes()[detail::wrap_dim(d, dim(), "size")]; }
    int64_t dim() const { return static_cast<int64_t>(sizes().size()); }
    int64_t ndim() const { return dim(); }
    int64_t numel() const {
        int64_t n = 1;
        for (int64_t s : sizes()) n *= s;
        return n;
    }
    DType dtype() const { return dtype_of<typename Derived::value_type>; }
    DType scalar_type() const { return dtype(); }
    int64_t element_size() const { return dtype().itemsize(); }
    int64_t itemsize() const { return element_size(); }
    int64_t nbytes() const { return numel() * element_size(); }
    bool is_floating_point() const { return dtype().is_floating_point(); }

    // ---- Value methods: evaluate once, then call the Tensor method ---------------------
#define TENET_EVALUATING_METHOD(NAME)                                           \
    template <class... U, class... A>                                           \
    auto NAME(A&&... args) const {                                              \
        if constexpr (sizeof...(U) == 0) return self().eval().NAME(std::forward<A>(args)...); \
        else return self().eval().template NAME<U...>(std::forward<A>(args)...);              \
    }
#define TENET_EVALUATING_SIZES_METHOD(NAME)                                            \
    template <class... A>                                                              \
    auto NAME(const IntArray& sizes_or_dims, A&&... args) const {                      \
        return self().eval().NAME(sizes_or_dims, std::forward<A>(args)...);            \
    }
#define TENET_EVALUATING_INTEGER_METHOD(NAME)                                          \
    template <class... A>                                                              \
    auto NAME(int64_t n, A&&... args) const {                                          \
        return self().eval().NAME(n, std::forward<A>(args)...);                        \
    }
    TENET_EVALUATING_METHODS(TENET_EVALUATING_METHOD)
    TENET_EVALUATING_SIZES_METHODS(TENET_EVALUATING_SIZES_METHOD)
    TENET_EVALUATING_INTEGER_METHODS(TENET_EVALUATING_INTEGER_METHOD)
#undef TENET_EVALUATING_METHOD
#undef TENET_EVALUATING_SIZES_METHOD
#undef TENET_EVALUATING_INTEGER_METHOD

    /// LibTorch's indexing on the value: `(a + b).index({Slice(), 0})`.
    auto index(std::initializer_list<TensorIndex> indices) const { return self().eval().index(indices); }
    /// The row `e[i]` of the value.
    auto operator[](int64_t i) const { return self().eval()[i]; }
    /// Element (i, j, ...) of the value, by value.
    template <std::integral... I>
    auto operator()(I... indices) const {
        return typename Derived::value_type(self().eval()(indices...));
    }

private:
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace tenet
