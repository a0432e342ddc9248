#pragma once
// tenet's interop module: zero-copy bridges to other libraries' memory.
//   <tenet/interop/eigen.hpp>   to_eigen, to_eigen_vector, from_eigen / tensor_from (Eigen 3.4,
//                               always available: Eigen is a dependency of tenet)
//   <tenet/interop/span.hpp>    span(t): a contiguous host tensor as std::span<T>
//   <tenet/interop/dlpack.hpp>  to_dlpack, from_dlpack: included only when TENET_HAVE_DLPACK is
//                               set, i.e. when CMake found DLPack's header (Debian libdlpack-dev;
//                               target tenet::tenet defines it, see cmake/tenetFiles.cmake)
// Not part of <tenet/tenet.hpp>: include this header (or one of the above) explicitly.

#include "tenet/config.hpp"
#include "tenet/core.hpp"
#include "tenet/interop/eigen.hpp"
#include "tenet/interop/span.hpp"
#if TENET_HAVE_DLPACK
#include "tenet/interop/dlpack.hpp"
#endif
