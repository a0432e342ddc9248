# MPI for <tenet/distributed.hpp> (tenet::distributed, the package component Distributed):
#
#   tenet_find_mpi(<target> [GLOBAL])  an MPI library (Debian libopenmpi-dev; any MPI that
#       CMake's FindMPI finds): an imported INTERFACE target that links it and defines
#       TENET_HAVE_MPI=1 (and OMPI_SKIP_MPICXX=1: tenet uses MPI's C API).
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake), as tenetFiles.cmake is.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/tenetFiles.cmake)  # _tenet_interface_target

function(tenet_find_mpi target)
    if(TARGET ${target})
        return()
    endif()
    find_package(MPI QUIET COMPONENTS CXX)
    if(NOT MPI_CXX_FOUND)
        return()
    endif()
    _tenet_interface_target(${target} "" MPI::MPI_CXX "TENET_HAVE_MPI=1;OMPI_SKIP_MPICXX=1" ${ARGN})
endfunction()
