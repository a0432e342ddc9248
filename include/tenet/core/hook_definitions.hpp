#pragma once
// The definitions of the autograd seam (core/hooks.hpp) for this program's mode: recording
// (autograd/hooks.hpp) or none (core/hooks_off.hpp). Each module header includes this last.

#include "tenet/config.hpp"

#if TENET_AUTOGRAD
#include "tenet/autograd/hooks.hpp"
#else
#include "tenet/core/hooks_off.hpp"
#endif
