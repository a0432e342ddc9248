#pragma once
// What the core layer knows of expressions: how to recognise one, and the evaluation
// entry point that the expr/ layer defines. Lets `Tensor<T> y = a * b + c;` and
// `y.assign(expr)` be spelled in the core without the core including expr/.

#include <string>
#include <type_traits>

namespace tenet {

template <class T>
class Tensor;
namespace autograd {
struct Node;
}

/// A lazy expression node (see expr/node.hpp): anything with a value_type that marks itself.
template <class E>
concept TensorExpression = std::remove_cvref_t<E>::is_tenet_expression;

namespace detail {
/// How an expression's result meets its destination.
enum class AssignMode {
    Fresh,   ///< the destination is new: allocate it with the expression's shape
    Out,     ///< PyTorch's out=: reuse the storage when shape fits, else reallocate
    Into,    ///< write into the existing view, broadcasting the expression to its shape
    IntoNoAlias,  ///< as Into, but the caller promises no leaf overlaps the destination
};
/// Evaluates `e` into `dst` in one pass, recording it for autograd when an input requires
/// grad. Defined in autograd/record.hpp (the evaluation itself is expr/evaluate.hpp).
template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode);
/// dst.assign(src) for a tensor src: as the expression of src alone. Defined with evaluate_into.
template <class T, class U>
void assign_tensor(Tensor<T>& dst, const Tensor<U>& src);
/// dst = src converted to T, both on one device (a cast expression evaluated there; needs
/// the device evaluator). Defined in expr/evaluate.hpp.
template <class T, class U>
void convert_on_device(const Tensor<T>& dst, const Tensor<U>& src);

// Autograd hooks of the core's own operations, defined in autograd/record.hpp. They are
// templates so that the core can call them without including the layer above it.
/// Records `view` (made from `base` by the named view op) when base requires grad.
template <class T>
void record_view(const Tensor<T>& base, const Tensor<T>& view, const char* backward_name);
/// Records `copy` as a differentiable copy of `source` (clone, contiguous, to).
template <class T, class U>
void record_copy(const Tensor<U>& source, const Tensor<T>& copy);
/// copy_: dst's values now come from src (recorded when either takes part in autograd).
template <class T, class U>
void record_copy_into(const Tensor<T>& dst, const Tensor<U>& src);
/// fill_/zero_ are about to overwrite dst: refused for a leaf that requires grad.
template <class T>
void record_overwrite(const Tensor<T>& dst, const char* backward_name);
/// ", requires_grad=True" / ", grad_fn=<MulBackward0>" / "" for printing.
template <class T>
std::string autograd_repr(const Tensor<T>& t);
}  // namespace detail
}  // namespace tenet
