// One of the compiled library's TUs for linalg (compiled/linalg_instantiations.hpp): the
// definitions for the element type TENET_LINALG_ELEMENT, complex when TENET_LINALG_COMPLEX is 1,
// which the TU that includes this file defines (cmake/tenetCompiled.cmake generates one per
// element type).
#include "tenet/tenet.hpp"

#if !TENET_COMPILED || !defined(TENET_LINALG_ELEMENT)
#error "tenet: compiled/linalg.cpp is part of the compiled library; build it through tenet::compiled"
#endif

namespace tenet::inline TENET_ABI {
#if TENET_LINALG_COMPLEX
TENET_INSTANTIATE_LINALG_COMPLEX(TENET_LINALG_ELEMENT)
#else
TENET_INSTANTIATE_LINALG_REAL(TENET_LINALG_ELEMENT)
#endif
}  // namespace tenet
