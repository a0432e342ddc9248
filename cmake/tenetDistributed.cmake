# MPI for <tenet/distributed.hpp> (tenet::distributed, the package component Distributed):
#
#   tenet_find_mpi(<target> [GLOBAL])  an MPI library (Debian libopenmpi-dev; any MPI that
#       CMake's FindMPI finds): an imported INTERFACE target that links it and defines
#       TENET_HAVE_MPI=1 (and OMPI_SKIP_MPICXX=1: tenet uses MPI's C API).
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake), as tenetFiles.cmake is.
include_guard(GLOBAL)

function(tenet_find_mpi target)
    if(TARGET ${target})
        return()
    endif()
    find_package(MPI QUIET COMPONENTS CXX)
    if(NOT MPI_CXX_FOUND)
        return()
    endif()
    if("GLOBAL" IN_LIST ARGN)
        add_library(${target} INTERFACE IMPORTED GLOBAL)
    else()
        add_library(${target} INTERFACE IMPORTED)
    endif()
    set_target_properties(${target} PROPERTIES
        INTERFACE_LINK_LIBRARIES MPI::MPI_CXX
        INTERFACE_COMPILE_DEFINITIONS "TENET_HAVE_MPI=1;OMPI_SKIP_MPICXX=1")
endfunction()
