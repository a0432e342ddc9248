#pragma once
// Zero-copy bridges between tenet tensors and Eigen 3.4 dense objects, both ways.
//
// to_eigen / to_eigen_vector: an Eigen::Map over a host tensor's memory with the tensor's
// strides (any layout of a 2-D or 1-D tensor; tenet has no negative strides). from_eigen /
// tensor_from: a tensor over an Eigen object's memory (Matrix, Array, Map, Ref, Block — anything
// with direct access), respecting RowMajor and ColMajor. Nothing is copied either way: writes
// through one side are seen by the other, as with PyTorch's numpy() and from_numpy().
//
// Writes made through an Eigen map do not bump the tensor's version counter (PyTorch's writes
// through a NumPy array do not either): don't modify, through a map, a tensor that autograd
// saved for backward. Half and BFloat16 are not Eigen scalars: only arithmetic element types
// (bool, the integers, float, double) cross the bridge.

#include "tenet/config.hpp"
#include <memory>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI {

/// The element types Eigen can hold: tenet's arithmetic ones (not Half, not BFloat16).
template <class T>
concept EigenElement = Element<T> && std::is_arithmetic_v<T>;

/// What to_eigen returns: a row-major dynamic matrix map with run-time outer (row) and inner
/// (column) strides, in elements.
template <class T>
using EigenMatrixMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
                                  Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
/// What to_eigen_vector returns: a dynamic column-vector map with a run-time inner stride.
template <class T>
using EigenVectorMap =
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>, Eigen::Unaligned, Eigen::InnerStride<Eigen::Dynamic>>;

namespace detail {

inline void check_eigen_source(const TensorBase& t, int64_t ndim, const char* op, const char* other) {
    if (!t.device().is_cpu())
        fail<device_error>(op, ": the tensor of shape ", t.sizes(), " is on ", t.device(),
                           "; Eigen maps host memory: copy it with .cpu() first");
    if (t.dim() != ndim)
        fail<shape_error>(op, ": expected a ", ndim, "-D tensor, got one of shape ", t.sizes(), " (", t.dim(),
                          "-D)", other);
}

template <class T>
inline constexpr bool eigen_scalar_ok = EigenElement<T>;

}  // namespace detail

/// A writable Eigen map over a 2-D host tensor's elements, sharing its memory (PyTorch's
/// `t.numpy()` for Eigen): row-major, outer stride = stride(0), inner stride = stride(1), so any
/// 2-D layout (transposed, sliced, expanded) is viewed as is. An expanded tensor's zero stride
/// makes several entries one element: read it freely, but writes through it alias. The tensor's
/// memory must outlive the map (a map does not hold the tensor). shape_error for a tensor that
/// is not 2-D (to_eigen_vector takes 1-D), device_error for a device tensor.
template <class T>
EigenMatrixMap<T> to_eigen(const Tensor<T>& t) {
    static_assert(detail::eigen_scalar_ok<T>,
                  "tenet: to_eigen: Half and BFloat16 are not Eigen scalars; convert to a named tensor of float "
                  "first (auto f = t.to<float>(); to_eigen(f))");
    detail::check_eigen_source(t, 2, "to_eigen", t.dim() == 1 ? "; use to_eigen_vector for a 1-D tensor" : "");
    using Stride = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
    return EigenMatrixMap<T>(t.data_ptr(), t.size(0), t.size(1), Stride(t.stride(0), t.stride(1)));
}

/// A writable Eigen column-vector map over a 1-D host tensor (inner stride = stride(0)), sharing
/// its memory; as to_eigen otherwise. shape_error unless 1-D, device_error for a device tensor.
template <class T>
EigenVectorMap<T> to_eigen_vector(const Tensor<T>& t) {
    static_assert(detail::eigen_scalar_ok<T>,
                  "tenet: to_eigen_vector: Half and BFloat16 are not Eigen scalars; convert to a named tensor of "
                  "float first (auto f = t.to<float>(); to_eigen_vector(f))");
    detail::check_eigen_source(t, 1, "to_eigen_vector", t.dim() == 2 ? "; use to_eigen for a 2-D tensor" : "");
    return EigenVectorMap<T>(t.data_ptr(), t.size(0), Eigen::InnerStride<Eigen::Dynamic>(t.stride(0)));
}

/// A host tensor over an Eigen object's memory, without copying (PyTorch's torch.from_numpy):
/// a vector type (Eigen's IsVectorAtCompileTime: VectorXd, RowVector3f, ...) gives a 1-D tensor
/// of its size(), anything else a 2-D tensor of [rows(), cols()] whose strides follow the
/// object's innerStride()/outerStride() and its RowMajor or ColMajor order. It takes any
/// writable Eigen object with direct access (Matrix, Array, Map, Ref, Block of those):
///  - an lvalue (a named matrix, a Map, a Block): the tensor shares the memory and does NOT own
///    it. The matrix must outlive the tensor and every view of it (torch.from_numpy keeps the
///    array alive; in C++ that is the caller's job), and must not be resized meanwhile.
///  - an rvalue Matrix or Array (`from_eigen(std::move(m))`, `from_eigen(Eigen::MatrixXd(expr))`):
///    moved (a const one, as `expr.eval()` returns, copied) into the tensor's storage, which owns
///    it and frees it with the last view. Safe.
///  - an rvalue view (`from_eigen(m.block(0, 0, 2, 2))`, a temporary Map or Ref): shares the
///    memory it views, which must outlive the tensor.
/// Expressions without direct access (`a + b`) and read-only objects (const, Map<const ...>)
/// are compile errors: evaluate into a Matrix first.
template <class E>
    requires std::is_base_of_v<Eigen::DenseBase<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>
auto from_eigen(E&& m) {
    using D = std::remove_cvref_t<E>;
    using T = typename D::Scalar;
    static_assert(detail::eigen_scalar_ok<T>,
                  "tenet: from_eigen: the scalar type must be one of tenet's arithmetic element types (bool, "
                  "uint8_t, int8_t, int16_t, int32_t, int64_t, float, double)");
    static_assert((D::Flags & Eigen::DirectAccessBit) != 0,
                  "tenet: from_eigen: the Eigen object has no direct access to its memory (an expression such as "
                  "a + b): evaluate it first, from_eigen(Eigen::MatrixXd(expr))");
    // An rvalue Matrix or Array is taken over (moved; copied when const, as `expr.eval()` is).
    constexpr bool owning = std::is_base_of_v<Eigen::PlainObjectBase<D>, D> && !std::is_lvalue_reference_v<E>;
    static_assert(owning || (!std::is_const_v<std::remove_reference_t<E>> && (D::Flags & Eigen::LvalueBit) != 0),
                  "tenet: from_eigen: tensors are writable, so the Eigen object must be (not const, not a "
                  "Map<const ...>); copy read-only data into a Matrix first");
    IntArray sizes, strides;
    if constexpr (D::IsVectorAtCompileTime) {
        sizes = {static_cast<int64_t>(m.size())};
        strides = {static_cast<int64_t>(m.innerStride())};
    } else {
        sizes = {static_cast<int64_t>(m.rows()), static_cast<int64_t>(m.cols())};
        const auto inner = static_cast<int64_t>(m.innerStride()), outer = static_cast<int64_t>(m.outerStride());
        strides = D::IsRowMajor ? IntArray{outer, inner} : IntArray{inner, outer};
    }
    if constexpr (owning) {
        // The storage's deleter holds the moved matrix: it is freed exactly once, by whichever of
        // the storage or this frame (if from_blob throws) drops the last reference.
        auto owner = std::make_shared<D>(std::move(m));
        T* data = owner->data();
        return from_blob(data, sizes, strides, [owner](void*) mutable { owner.reset(); });
    } else {
        return from_blob(m.data(), sizes, strides);
    }
}

/// Another name for from_eigen (the same function): `tensor_from(map)`.
template <class E>
    requires std::is_base_of_v<Eigen::DenseBase<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>
auto tensor_from(E&& m) {
    return from_eigen(std::forward<E>(m));
}

}  // namespace tenet
