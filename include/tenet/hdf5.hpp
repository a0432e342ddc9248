#pragma once
// tenet's HDF5 module: tensors as HDF5 datasets through HDF5's C library (save_h5, load_h5 of
// whole datasets or hyperslabs, chunked and gzip-compressed layouts, attributes, h5_datasets).
// Needs HDF5's C library (Debian libhdf5-dev; found by cmake/tenetFiles.cmake, which defines
// TENET_HAVE_HDF5); not part of <tenet/tenet.hpp>.

#include "tenet/config.hpp"

#if !TENET_HAVE_HDF5
#error "<tenet/hdf5.hpp> needs HDF5's C library (Debian libhdf5-dev); see cmake/tenetFiles.cmake"
#endif

#include "tenet/core.hpp"
#include "tenet/io/hdf5.hpp"
