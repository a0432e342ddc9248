// The compiled library (CMake target tenet::compiled): the one translation unit that defines
// tenet's fixed machinery, which the headers only declare in compiled mode (TENET_COMPILED=1,
// include/tenet/config.hpp): the functions marked TENET_FIXED, and the explicit instantiations
// listed under TENET_EXTERN_TEMPLATE beside each template. It is compiled in the user's build,
// with the user's flags and modes, so that it always matches the TUs that link it.
#define TENET_LIBRARY_SOURCE 1
#include "tenet/tenet.hpp"

#if !TENET_COMPILED
#error "tenet: compiled/library.cpp is the compiled library's source; build it with TENET_COMPILED=1 (the tenet::compiled target)"
#endif
