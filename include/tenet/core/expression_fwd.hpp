#pragma once
// What the core layer knows of expressions: how to recognise one, and the evaluation
// entry point that the expr/ layer defines. Lets `Tensor<T> y = a * b + c;` and
// `y.assign(expr)` be spelled in the core without the core including expr/.

#include <type_traits>

namespace tenet {

template <class T>
class Tensor;

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
/// Evaluates `e` into `dst` in one pass. Defined in expr/evaluate.hpp.
template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode);
}  // namespace detail
}  // namespace tenet
