# tenet_find_openblas(<target> [GLOBAL])
#
# Looks for OpenBLAS (the library and its cblas.h) and, when both are found, defines the
# imported INTERFACE target <target>: it links the library, adds cblas.h's directory and
# defines TENET_HAVE_CBLAS=1 and TENET_HAVE_OPENBLAS=1, which switch float/double matmul to
# cblas_sgemm/dgemm (include/tenet/linalg/gemm.hpp). Without them Eigen's GEMM serves.
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake), so an installed
# tenet uses the OpenBLAS of the machine it is consumed on, found there; nothing about the
# build machine's OpenBLAS is exported. The cache variables TENET_OPENBLAS_LIBRARY and
# TENET_CBLAS_INCLUDE_DIR can point it elsewhere.
include_guard(GLOBAL)

function(tenet_find_openblas target)
    if(TARGET ${target})
        return()
    endif()
    find_library(TENET_OPENBLAS_LIBRARY NAMES openblas DOC "OpenBLAS library used by tenet's matmul")
    find_path(TENET_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas DOC "Directory of OpenBLAS's cblas.h")
    if(NOT TENET_OPENBLAS_LIBRARY OR NOT TENET_CBLAS_INCLUDE_DIR)
        return()
    endif()
    if("GLOBAL" IN_LIST ARGN)
        add_library(${target} INTERFACE IMPORTED GLOBAL)
    else()
        add_library(${target} INTERFACE IMPORTED)
    endif()
    # An imported target's include directories are system directories for its users.
    set_target_properties(${target} PROPERTIES
        INTERFACE_LINK_LIBRARIES "${TENET_OPENBLAS_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${TENET_CBLAS_INCLUDE_DIR}"
        INTERFACE_COMPILE_DEFINITIONS "TENET_HAVE_CBLAS=1;TENET_HAVE_OPENBLAS=1")
endfunction()
