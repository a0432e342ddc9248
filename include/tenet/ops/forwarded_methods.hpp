#pragma once
// The definitions of the methods listed in TENET_FORWARDED_METHODS (core/value_methods.hpp):
// each calls the free function of its name on the value (an expression evaluated first).

#include "tenet/ops/gather.hpp"
#include "tenet/ops/histogram.hpp"
#include "tenet/ops/masks.hpp"
#include "tenet/ops/quantile.hpp"
#include "tenet/ops/reduce.hpp"
#include "tenet/ops/reshape_ops.hpp"
#include "tenet/ops/scan.hpp"
#include "tenet/ops/sort.hpp"
#include "tenet/ops/unique.hpp"

namespace tenet::inline TENET_ABI {

#define TENET_FORWARDED_METHOD(NAME)                                                                   \
    template <class D>                                                                                 \
    template <class... Args>                                                                           \
    auto ValueMethods<D>::NAME(const Args&... args) const {                                            \
        return tenet::NAME(detail::as_tensor_of<typename expr::node_t<D>::value_type>(self()), args...); \
    }
TENET_FORWARDED_METHODS(TENET_FORWARDED_METHOD)
#undef TENET_FORWARDED_METHOD

#define TENET_FORWARDED_LIST_METHOD(NAME)                                          \
    template <class D>                                                             \
    auto ValueMethods<D>::NAME(const IntArray& list) const {                       \
        return this->template NAME<IntArray>(list);                                \
    }                                                                              \
    template <class D>                                                             \
    auto ValueMethods<D>::NAME(const IntArray& list, const IntArray& list2) const { \
        return this->template NAME<IntArray, IntArray>(list, list2);               \
    }
TENET_FORWARDED_LIST_METHODS(TENET_FORWARDED_LIST_METHOD)
#undef TENET_FORWARDED_LIST_METHOD

#define TENET_FORWARDED_INPLACE_METHOD(NAME)         \
    template <class T>                               \
    template <class... Args>                         \
    Tensor<T>& Tensor<T>::NAME(const Args&... args) { \
        return tenet::NAME(*this, args...);          \
    }
TENET_FORWARDED_INPLACE_METHODS(TENET_FORWARDED_INPLACE_METHOD)
#undef TENET_FORWARDED_INPLACE_METHOD

}  // namespace tenet
