#pragma once
// tenet's files module: NumPy's .npy and .npz files (io/npy.hpp, io/npz.hpp) and PyTorch's .pt
// files (io/pt.hpp: tenet::save and tenet::load, as torch.save and torch.load).
// Needs libzip (Debian libzip-dev; found by cmake/tenetFiles.cmake, which defines
// TENET_HAVE_LIBZIP); not part of <tenet/tenet.hpp>.

#include "tenet/config.hpp"

#if !TENET_HAVE_LIBZIP
#error "<tenet/files.hpp> needs libzip (Debian libzip-dev); see cmake/tenetFiles.cmake"
#endif

#include "tenet/core.hpp"
#include "tenet/io/npy.hpp"
#include "tenet/io/npz.hpp"
#include "tenet/io/pt.hpp"
