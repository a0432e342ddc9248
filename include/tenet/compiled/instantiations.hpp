#pragma once
// The element-type instantiations that the compiled library (tenet::compiled) holds: in
// compiled mode (TENET_COMPILED=1) users' TUs see them as explicit instantiation declarations
// (`extern template`) and the library's TU as definitions, so each is compiled once. This file
// holds the core and expression layers' (included last by <tenet/expr.hpp>, where every member
// they name is defined); autograd_instantiations.hpp holds autograd's.
//
// Only code that is the same in every TU belongs here: nothing that depends on the device
// evaluator (TENET_DEVICE_EVALUATOR, on in nvcc and emulation TUs), which the library, built by
// the host compiler, lacks. Such TUs see no declarations and instantiate what they use; their
// copies are then identical to the library's.
#include "tenet/config.hpp"

#if TENET_COMPILED && (defined(TENET_LIBRARY_SOURCE) || !TENET_DEVICE_EVALUATOR)
namespace tenet::inline TENET_ABI {

// The evaluator's walk over the destination and up to 8 leaves (geometry, rows, chunks, tiles,
// streaming stores, threads), which calls the expression's own kernel through SpanKernel. Its
// definitions are compiled apart, one small TU per element type (compiled/walk.cpp, instantiating
// TENET_INSTANTIATE_WALK): compiled inside the library's large TU, GCC's inliner, which limits
// how much a large unit may grow, left W4's tiled loop 13% slower than in a user's TU.
#define TENET_COMPILED_WALK(PREFIX, T, L)                                                               \
    PREFIX template void detail::run_expression_loops<T, L>(const Tensor<T>&,                            \
                                                            const std::array<const TensorBase*, L>&,     \
                                                            const detail::SpanKernel<T, L>&);
#define TENET_COMPILED_WALKS(PREFIX, T)                                                                 \
    TENET_COMPILED_WALK(PREFIX, T, 1) TENET_COMPILED_WALK(PREFIX, T, 2) TENET_COMPILED_WALK(PREFIX, T, 3) \
    TENET_COMPILED_WALK(PREFIX, T, 4) TENET_COMPILED_WALK(PREFIX, T, 5) TENET_COMPILED_WALK(PREFIX, T, 6) \
    TENET_COMPILED_WALK(PREFIX, T, 7) TENET_COMPILED_WALK(PREFIX, T, 8)
/// The walk's definitions for element type T (compiled/walk.cpp).
#define TENET_INSTANTIATE_WALK(T) TENET_COMPILED_WALKS(, T)

// Every element type: copies between devices and layouts, and the walk (declared).
#define TENET_COMPILED_ELEMENT(T)                                                                        \
    TENET_EXTERN_TEMPLATE template Tensor<T>& Tensor<T>::copy_data_<T>(const Tensor<T>&);               \
    TENET_EXTERN_TEMPLATE template void detail::copy_between_devices<T, T>(const Tensor<T>&, const Tensor<T>&); \
    TENET_COMPILED_WALKS(extern, T)
TENET_COMPILED_ELEMENT(bool)
TENET_COMPILED_ELEMENT(uint8_t)
TENET_COMPILED_ELEMENT(int8_t)
TENET_COMPILED_ELEMENT(int16_t)
TENET_COMPILED_ELEMENT(int32_t)
TENET_COMPILED_ELEMENT(int64_t)
TENET_COMPILED_ELEMENT(Half)
TENET_COMPILED_ELEMENT(BFloat16)
TENET_COMPILED_ELEMENT(float)
TENET_COMPILED_ELEMENT(double)
#undef TENET_COMPILED_ELEMENT

}  // namespace tenet
#endif
