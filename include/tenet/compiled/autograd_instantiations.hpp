#pragma once
// autograd's part of the compiled library's instantiations (compiled/instantiations.hpp says
// how they work), included last by <tenet/autograd.hpp>.
#include "tenet/config.hpp"

#if TENET_COMPILED && TENET_AUTOGRAD && (defined(TENET_LIBRARY_SOURCE) || !TENET_DEVICE_EVALUATOR)
namespace tenet::inline TENET_ABI {

// Floating element types: the nodes of views, copies and sums, and the sum of a gradient back
// to a broadcast input's shape.
#define TENET_COMPILED_FLOATING(T)                                                                      \
    TENET_EXTERN_TEMPLATE template struct autograd::ViewNode<T>;                                        \
    TENET_EXTERN_TEMPLATE template struct autograd::CopyNode<T, T>;                                     \
    TENET_EXTERN_TEMPLATE template struct autograd::SumToNode<T>;                                       \
    TENET_EXTERN_TEMPLATE template Tensor<T> autograd::sum_to<T>(const Tensor<T>&, const IntArray&);    \
    TENET_EXTERN_TEMPLATE template Tensor<T> autograd::graph_sum_to<T>(const Tensor<T>&, const IntArray&);
TENET_COMPILED_FLOATING(Half)
TENET_COMPILED_FLOATING(BFloat16)
TENET_COMPILED_FLOATING(float)
TENET_COMPILED_FLOATING(double)
#undef TENET_COMPILED_FLOATING

}  // namespace tenet
#endif
