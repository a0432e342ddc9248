#pragma once
// The autograd seam: every point where an operation of the core, expr, ops or linalg layers
// reaches autograd. Those layers call only the hooks declared here; they never include
// autograd/.
//
// Two sets of definitions exist, chosen program-wide by TENET_AUTOGRAD (tenet/config.hpp):
//   - autograd on: autograd/hooks.hpp (assignments, views, copies, reductions, joins, flips),
//     autograd/products.hpp (matmul and the products) and autograd/decompositions.hpp;
//   - autograd off: core/hooks_off.hpp, which evaluates and records nothing.
// The module headers (tenet/core.hpp, tenet/expr.hpp, ...) include the definitions their
// operations need, so each compiles and links on its own.
//
// The hooks are templates: a hook that a program never calls is never compiled.

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tenet/config.hpp"
#include <initializer_list>
#include "tenet/core/int_array.hpp"

namespace tenet::inline TENET_ABI {

template <class T>
class Tensor;
class TensorBase;
namespace autograd {
struct Node;
}

/// A lazy expression node (see expr/node.hpp): anything with a value_type that marks itself.
template <class E>
concept TensorExpression = std::remove_cvref_t<E>::is_tenet_expression;

namespace detail {

struct ReducePlan;  // ops/reducers.hpp
struct JoinPlan;    // ops/join.hpp

/// How an expression's result meets its destination.
enum class AssignMode {
    Fresh,        ///< the destination is new: allocate it with the expression's shape
    Out,          ///< PyTorch's out=: reuse the storage when shape fits, else reallocate
    Into,         ///< write into the existing view, broadcasting the expression to its shape
    IntoNoAlias,  ///< as Into, but the caller promises no leaf overlaps the destination
};

/// The reductions: one per row of the table ops/reductions.def, and the norms.
enum class ReduceKind {
#define TENET_REDUCTION(NAME, Reducer, DTYPES, DERIVATIVE, BACKWARD_ALL, BACKWARD_DIMS) NAME,
#define TENET_CORRECTED_REDUCTION(NAME, Reducer, DERIVATIVE, BACKWARD) NAME,
#include "tenet/ops/reductions.def"
    Norm,
};

/// How a product's result depends on its operands (autograd/products.hpp has the gradients).
enum class ProductKind {
    Matmul,    ///< torch.matmul's rules (dot, mv, mm, bmm and broadcast batches)
    BatchSum,  ///< addbmm: the sum over the batch of a[i] @ b[i]
    Outer,     ///< addr: the outer product of two vectors
};

/// dst = src converted to T, both on one device (a cast expression evaluated there; needs
/// the device evaluator). Not a hook: defined in backend/host/evaluate.hpp.
template <class T, class U>
void convert_on_device(const Tensor<T>& dst, const Tensor<U>& src);

// ---- Assignment ---------------------------------------------------------------------------
/// Evaluates `e` into `dst` in one pass (detail::run_assign), recording it for autograd when
/// an input requires grad.
template <class T, class E>
void evaluate_into(Tensor<T>& dst, const E& e, AssignMode mode);
/// dst.assign(src) for a tensor src: as the expression of src alone.
template <class T, class U>
void assign_tensor(Tensor<T>& dst, const Tensor<U>& src);

// ---- Views, copies and in-place writes of the core ---------------------------------------
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

// ---- Reductions (ops/reduce.hpp) ----------------------------------------------------------
/// Records sum/mean of `x` (a tensor or an expression).
template <class X, class R>
void record_reduction(const X& x, const Tensor<R>& result, const ReducePlan& plan, bool mean);
/// Records prod, amax/amin/max/min over all elements, and the norms.
template <ReduceKind K, class X, class R>
void record_value_reduction(const X& x, const Tensor<R>& result, const ReducePlan& plan, double p, const char* name);
/// Records max(dim)/min(dim) (values with their indices).
template <class X, class V>
void record_index_reduction(const X& x, const Tensor<V>& values, const Tensor<int64_t>& indices, int64_t dim,
                            bool keepdim, const char* name);
/// sum()/mean() (result type V) over all elements of an expression whose gradient autograd
/// will want: the value and the gradients of the inputs in ONE pass. Empty when that path
/// does not apply (no gradient wanted, broadcast or strided inputs, a bare tensor).
template <class V, class X>
std::optional<Tensor<V>> sum_with_gradients(const X& x, bool mean);

// ---- Joins, splits and flips (ops/join.hpp, ops/flip.hpp) --------------------------------
/// Records `result`, the join of `inputs` by `plan`, as one node named `name`.
template <class R, class L>
void record_join(const Tensor<R>& result, const L& inputs, const JoinPlan& plan, const char* name);
/// Records `pieces`, views of `base` along `dim` with the given lengths (unbind: selected
/// indices), as the outputs of one node named `name`.
template <class T>
void record_split(const Tensor<T>& base, const std::vector<Tensor<T>>& pieces, int64_t dim, const IntArray& lengths,
                  bool unbind, const char* name);
/// Records `result` = flip(input, dims).
template <class T>
void record_flip(const Tensor<T>& input, const Tensor<T>& result, const IntArray& dims);

// ---- Operations with a backward of their own (ops/softmax.hpp, ops/scan.hpp, nn/) ---------
/// Records `result` = the op `name` of `inputs` (floating tensors; undefined ones are skipped).
/// backward(grad) gives each input's gradient (a std::array of TensorBase, one per input, of
/// its shape and dtype; undefined: zero) from the result's. backward holds what it saved (detached
/// tensors: the result itself must not hold its node); those listed in `saved` are checked for
/// in-place writes before it runs, as PyTorch does. Not recorded: create_graph refuses the node.
template <class T, class Backward, class... In>
void record_function(const char* name, const Tensor<T>& result, std::initializer_list<TensorBase> saved,
                     Backward backward, const In&... inputs);

// ---- Linear algebra (linalg/) -------------------------------------------------------------
// Each records `result` when an operand requires grad (linalg_records); otherwise does nothing.
/// result = beta * input + alpha * product(a, b); an undefined input means no added term.
template <class T>
void record_product(const char* name, ProductKind kind, const Tensor<T>& result, const Tensor<T>& a,
                    const Tensor<T>& b, const Tensor<T>& input, double beta, double alpha);
/// result = A^-1.
template <class T>
void record_inv(const Tensor<T>& A, const Tensor<T>& result);
/// result = det(A).
template <class T>
void record_det(const Tensor<T>& A, const Tensor<T>& result);
/// logabsdet = log|det(A)| (the sign has no gradient).
template <class T>
void record_slogdet(const Tensor<T>& A, const Tensor<T>& logabsdet);
/// X = solve(A, B); `vector`: B and X are batches of vectors (no trailing k dim).
template <class T>
void record_solve(const Tensor<T>& A, const Tensor<T>& B, const Tensor<T>& X, bool vector);
/// eigenvalues L and eigenvectors V of symmetric A; V may be undefined (eigvalsh).
template <class T>
void record_eigh(const Tensor<T>& A, const Tensor<T>& L, const Tensor<T>& V);
/// A = U diag(S) Vh (U and Vh full or reduced).
template <class T>
void record_svd(const Tensor<T>& A, const Tensor<T>& U, const Tensor<T>& S, const Tensor<T>& Vh);
/// S = svdvals(A).
template <class T>
void record_svdvals(const Tensor<T>& A, const Tensor<T>& S);
/// result = tril(A, k) (Lower) or triu(A, k).
template <bool Lower, class T>
void record_triangle(const Tensor<T>& A, const Tensor<T>& result, int64_t k);
/// L = cholesky(A) (upper: L holds U = L^T).
template <class T>
void record_cholesky(const Tensor<T>& A, const Tensor<T>& L, bool upper);

}  // namespace detail
}  // namespace tenet::inline TENET_ABI
