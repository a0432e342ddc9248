#pragma once
// tenet's dtypes and ReduceOps as MPI datatypes and operations. float16 and bfloat16, which
// MPI lacks, are 2-byte datatypes with user-defined reductions computed in float; bool
// reduces with the logical operations (SUM and MAX are OR, PRODUCT and MIN are AND).
// Called on the MPI thread only (mpi_engine.hpp).

#include "tenet/config.hpp"
#include <algorithm>
#include <cstdint>
#include <string>

#include "tenet/core/dtype.hpp"
#include "tenet/core/half.hpp"
#include "tenet/distributed/mpi_engine.hpp"

namespace tenet::inline TENET_ABI::distributed::detail {

/// A 2-byte MPI datatype per 16-bit float, committed on first use.
template <class T>
MPI_Datatype reduced_float_datatype() {
    static MPI_Datatype type = [] {
        MPI_Datatype t;
        MPI_Type_contiguous(2, MPI_BYTE, &t);
        MPI_Type_commit(&t);
        return t;
    }();
    return type;
}

/// The MPI datatype of d's elements.
inline MPI_Datatype mpi_datatype(DType d) {
    switch (d.scalar_type()) {
        case ScalarType::Bool: return MPI_C_BOOL;
        case ScalarType::UInt8: return MPI_UINT8_T;
        case ScalarType::Int8: return MPI_INT8_T;
        case ScalarType::Int16: return MPI_INT16_T;
        case ScalarType::Int32: return MPI_INT32_T;
        case ScalarType::Int64: return MPI_INT64_T;
        case ScalarType::Float16: return reduced_float_datatype<Half>();
        case ScalarType::BFloat16: return reduced_float_datatype<BFloat16>();
        case ScalarType::Float32: return MPI_FLOAT;
        case ScalarType::Float64: return MPI_DOUBLE;
        case ScalarType::ComplexFloat: return MPI_C_FLOAT_COMPLEX;
        case ScalarType::ComplexDouble: return MPI_C_DOUBLE_COMPLEX;
    }
    return MPI_BYTE;
}

/// inout[i] = combine(in[i], inout[i]) for a 16-bit float, computed in float.
template <class T, ReduceOp Op>
void reduced_float_reduction(void* in, void* inout, int* length, MPI_Datatype*) {
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (int i = 0; i < *length; ++i) {
        const float x = a[i], y = b[i];
        float r = x + y;
        if constexpr (Op == ReduceOp::PRODUCT) r = x * y;
        if constexpr (Op == ReduceOp::MIN) r = std::min(x, y);
        if constexpr (Op == ReduceOp::MAX) r = std::max(x, y);
        b[i] = T(r);
    }
}

template <class T, ReduceOp Op>
MPI_Op reduced_float_op() {
    static MPI_Op op = [] {
        MPI_Op o;
        MPI_Op_create(&reduced_float_reduction<T, Op>, /*commute=*/1, &o);
        return o;
    }();
    return op;
}

template <class T>
MPI_Op reduced_float_op(ReduceOp op) {
    switch (op) {
        case ReduceOp::PRODUCT: return reduced_float_op<T, ReduceOp::PRODUCT>();
        case ReduceOp::MIN: return reduced_float_op<T, ReduceOp::MIN>();
        case ReduceOp::MAX: return reduced_float_op<T, ReduceOp::MAX>();
        default: return reduced_float_op<T, ReduceOp::SUM>();  // SUM, and AVG's sum
    }
}

/// Refuses the ReduceOps a dtype cannot take, as PyTorch does: `op` names the caller.
inline void check_reduce_op(ReduceOp op, DType d, const std::string& name) {
    const bool bitwise = op == ReduceOp::BAND || op == ReduceOp::BOR || op == ReduceOp::BXOR;
    if (bitwise && d.is_floating_point())
        tenet::detail::fail<dtype_error>(name, ": ReduceOp.", reduce_op_name(op),
                                         " needs an integral or bool tensor, got ", d);
    if (op == ReduceOp::AVG && !d.is_floating_point())
        tenet::detail::fail<dtype_error>(name, ": ReduceOp.AVG needs a floating point tensor, got ", d);
}

/// The MPI operation that combines d's elements by op (AVG: the sum, divided afterwards).
inline MPI_Op mpi_op(ReduceOp op, DType d) {
    switch (d.scalar_type()) {
        case ScalarType::Bool:
            switch (op) {
                case ReduceOp::SUM:
                case ReduceOp::MAX:
                case ReduceOp::BOR: return MPI_LOR;
                case ReduceOp::BXOR: return MPI_LXOR;
                default: return MPI_LAND;  // PRODUCT, MIN, BAND
            }
        case ScalarType::Float16: return reduced_float_op<Half>(op);
        case ScalarType::BFloat16: return reduced_float_op<BFloat16>(op);
        default: break;
    }
    switch (op) {
        case ReduceOp::PRODUCT: return MPI_PROD;
        case ReduceOp::MIN: return MPI_MIN;
        case ReduceOp::MAX: return MPI_MAX;
        case ReduceOp::BAND: return MPI_BAND;
        case ReduceOp::BOR: return MPI_BOR;
        case ReduceOp::BXOR: return MPI_BXOR;
        default: return MPI_SUM;  // SUM, AVG
    }
}

/// MPI counts are ints: a larger buffer is refused with the operation's name.
inline int mpi_count(int64_t n, const std::string& op) {
    if (n > INT32_MAX)
        tenet::detail::fail<value_error>(op, ": ", n, " elements exceed MPI's count limit (", INT32_MAX,
                                         "); split the tensor");
    return static_cast<int>(n);
}

}  // namespace tenet::distributed::detail
