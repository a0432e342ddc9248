// One of the compiled library's TUs for the evaluator's walk (compiled/instantiations.hpp): the
// definitions for the element type TENET_WALK_ELEMENT, which the TU that includes this file
// defines (cmake/tenetCompiled.cmake generates one per element type). Small on purpose: the
// optimiser then treats the walk as it does in a user's TU.
#include "tenet/expr.hpp"

#if !TENET_COMPILED || !defined(TENET_WALK_ELEMENT)
#error "tenet: compiled/walk.cpp is part of the compiled library; build it through tenet::compiled"
#endif

namespace tenet::inline TENET_ABI {
TENET_INSTANTIATE_WALK(TENET_WALK_ELEMENT)
}  // namespace tenet
