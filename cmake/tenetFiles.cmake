# The optional dependencies of tenet's interop and file formats, each found as an imported
# INTERFACE target that adds its include directory, links its library and defines a macro:
#
#   tenet_find_libzip(<target> [GLOBAL])  libzip (Debian libzip-dev; deflate through zlib):
#       TENET_HAVE_LIBZIP=1. Needed by <tenet/files.hpp> (.npz archives and PyTorch's .pt files).
#   tenet_find_hdf5(<target> [GLOBAL])    HDF5's C library (Debian libhdf5-dev):
#       TENET_HAVE_HDF5=1. Needed by <tenet/hdf5.hpp>.
#   tenet_find_dlpack(<target> [GLOBAL])  DLPack's header (Debian libdlpack-dev):
#       TENET_HAVE_DLPACK=1. Needed by <tenet/interop/dlpack.hpp>.
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake, components Files,
# HDF5 and DLPack), as tenetVQSort.cmake is. The cache variables TENET_LIBZIP_INCLUDE_DIR,
# TENET_LIBZIP_LIBRARY, TENET_HDF5_INCLUDE_DIR, TENET_HDF5_LIBRARY and TENET_DLPACK_INCLUDE_DIR
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
