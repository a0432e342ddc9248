# The optional dependencies of tenet's interop and file formats, each found as an imported
# INTERFACE target that adds its include directory, links its library and defines a macro:
#
#   tenet_find_libzip(<target> [GLOBAL])  libzip (Debian libzip-dev; deflate through zlib):
#       TENET_HAVE_LIBZIP=1. Needed by <tenet/files.hpp> (.npz archives and PyTorch's .pt files).
#   tenet_find_hdf5(<target> [GLOBAL])    HDF5's C library (Debian libhdf5-dev):
#       TENET_HAVE_HDF5=1. Needed by <tenet/hdf5.hpp>.
#   tenet_find_dlpack(<target> [GLOBAL])  DLPack's header (Debian libdlpack-dev):
#       TENET_HAVE_DLPACK=1. Needed by <tenet/interop/dlpack.hpp>.
#   tenet_find_kissfft(<target> [GLOBAL]) kissfft's C++ header kissfft/kissfft.hh (Debian
#       libkissfft-dev; BSD-3): TENET_HAVE_KISSFFT=1. Needed by <tenet/fft.hpp> (the default FFT engine).
#   tenet_find_fftw(<target> [GLOBAL])    FFTW 3, double and single precision (Debian libfftw3-dev;
#       GPL: opt in), through pkg-config's fftw3 and fftw3f or else by name: TENET_HAVE_FFTW=1.
#       <tenet/fft.hpp> then plans its transforms with FFTW.
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake, components Files,
# HDF5, DLPack, FFT and FFTW), as tenetVQSort.cmake is. The cache variables TENET_LIBZIP_INCLUDE_DIR,
# TENET_LIBZIP_LIBRARY, TENET_HDF5_INCLUDE_DIR, TENET_HDF5_LIBRARY, TENET_DLPACK_INCLUDE_DIR,
# TENET_KISSFFT_INCLUDE_DIR, TENET_FFTW_INCLUDE_DIR, TENET_FFTW_LIBRARY and TENET_FFTWF_LIBRARY
# can point them elsewhere.
include_guard(GLOBAL)

function(_tenet_interface_target target includes libraries definition)
    if("GLOBAL" IN_LIST ARGN)
        add_library(${target} INTERFACE IMPORTED GLOBAL)
    else()
        add_library(${target} INTERFACE IMPORTED)
    endif()
    set_target_properties(${target} PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${includes}"
        INTERFACE_LINK_LIBRARIES "${libraries}"
        INTERFACE_COMPILE_DEFINITIONS "${definition}")
endfunction()

function(tenet_find_libzip target)
    if(TARGET ${target})
        return()
    endif()
    find_path(TENET_LIBZIP_INCLUDE_DIR zip.h DOC "Directory of libzip's zip.h")
    find_library(TENET_LIBZIP_LIBRARY NAMES zip DOC "libzip")
    if(TENET_LIBZIP_INCLUDE_DIR AND TENET_LIBZIP_LIBRARY)
        _tenet_interface_target(${target} "${TENET_LIBZIP_INCLUDE_DIR}" "${TENET_LIBZIP_LIBRARY}"
                                "TENET_HAVE_LIBZIP=1" ${ARGN})
    endif()
endfunction()

function(tenet_find_hdf5 target)
    if(TARGET ${target})
        return()
    endif()
    # Found directly rather than by FindHDF5, which needs the C language enabled in the project.
    # Debian keeps the serial build under hdf5/serial.
    find_path(TENET_HDF5_INCLUDE_DIR hdf5.h PATH_SUFFIXES hdf5/serial DOC "Directory of HDF5's hdf5.h")
    find_library(TENET_HDF5_LIBRARY NAMES hdf5_serial hdf5 PATH_SUFFIXES hdf5/serial DOC "HDF5's C library")
    if(TENET_HDF5_INCLUDE_DIR AND TENET_HDF5_LIBRARY)
        _tenet_interface_target(${target} "${TENET_HDF5_INCLUDE_DIR}" "${TENET_HDF5_LIBRARY}"
                                "TENET_HAVE_HDF5=1" ${ARGN})
    endif()
endfunction()

function(tenet_find_dlpack target)
    if(TARGET ${target})
        return()
    endif()
    find_path(TENET_DLPACK_INCLUDE_DIR dlpack/dlpack.h DOC "Directory above DLPack's dlpack/dlpack.h")
    if(TENET_DLPACK_INCLUDE_DIR)
        _tenet_interface_target(${target} "${TENET_DLPACK_INCLUDE_DIR}" "" "TENET_HAVE_DLPACK=1" ${ARGN})
    endif()
endfunction()

function(tenet_find_kissfft target)
    if(TARGET ${target})
        return()
    endif()
    find_path(TENET_KISSFFT_INCLUDE_DIR kissfft/kissfft.hh DOC "Directory above kissfft's kissfft/kissfft.hh")
    if(TENET_KISSFFT_INCLUDE_DIR)
        _tenet_interface_target(${target} "${TENET_KISSFFT_INCLUDE_DIR}" "" "TENET_HAVE_KISSFFT=1" ${ARGN})
    endif()
endfunction()

function(tenet_find_fftw target)
    if(TARGET ${target})
        return()
    endif()
    # pkg-config's answer first (its directories as hints), then the usual places by name.
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
        pkg_check_modules(_TENET_FFTW QUIET fftw3 fftw3f)
    endif()
    find_path(TENET_FFTW_INCLUDE_DIR fftw3.h HINTS ${_TENET_FFTW_INCLUDE_DIRS} DOC "Directory of FFTW's fftw3.h")
    find_library(TENET_FFTW_LIBRARY NAMES fftw3 HINTS ${_TENET_FFTW_LIBRARY_DIRS} DOC "FFTW, double precision")
    find_library(TENET_FFTWF_LIBRARY NAMES fftw3f HINTS ${_TENET_FFTW_LIBRARY_DIRS} DOC "FFTW, single precision")
    if(TENET_FFTW_INCLUDE_DIR AND TENET_FFTW_LIBRARY AND TENET_FFTWF_LIBRARY)
        _tenet_interface_target(${target} "${TENET_FFTW_INCLUDE_DIR}" "${TENET_FFTW_LIBRARY};${TENET_FFTWF_LIBRARY}"
                                "TENET_HAVE_FFTW=1" ${ARGN})
    endif()
endfunction()
