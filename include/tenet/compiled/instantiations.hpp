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

// Every element type: copies between devices and layouts, and the evaluator's walk over the
// destination and up to 8 leaves (geometry, rows, chunks, tiles, streaming stores, threads),
// which calls the expression's own kernel through SpanKernel.
#define TENET_COMPILED_WALK(T, L)                                                                        \
    TENET_EXTERN_TEMPLATE template void detail::run_expression_loops<T, L>(                              \
        const Tensor<T>&, const std::array<const TensorBase*, L>&, const detail::SpanKernel<T, L>&);
#define TENET_COMPILED_ELEMENT(T)                                                                        \
    TENET_EXTERN_TEMPLATE template Tensor<T>& Tensor<T>::copy_data_<T>(const Tensor<T>&);               \
    TENET_EXTERN_TEMPLATE template void detail::copy_between_devices<T, T>(const Tensor<T>&, const Tensor<T>&); \
    TENET_COMPILED_WALK(T, 1) TENET_COMPILED_WALK(T, 2) TENET_COMPILED_WALK(T, 3) TENET_COMPILED_WALK(T, 4)   \
    TENET_COMPILED_WALK(T, 5) TENET_COMPILED_WALK(T, 6) TENET_COMPILED_WALK(T, 7) TENET_COMPILED_WALK(T, 8)
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
#undef TENET_COMPILED_WALK

}  // namespace tenet
#endif
