# tenet_find_vqsort(<target> [GLOBAL])
#
# Looks for Highway's vqsort (Debian libhwy-dev: hwy/contrib/sort/vqsort.h, libhwy_contrib and
# libhwy) and, when found, defines the imported INTERFACE target <target>: it links the libraries,
# adds the include directory and defines TENET_HAVE_VQSORT=1, which makes sort, argsort, topk and
# the other sorting ops (include/tenet/ops/sort.hpp) sort with vqsort. Without it they use
# std::sort on the same packed keys: the same results, slower.
#
# Used by tenet's own build and by the installed package (tenetConfig.cmake, component Sort), as
# tenetOpenBLAS.cmake is. The cache variables TENET_HWY_INCLUDE_DIR, TENET_HWY_LIBRARY and
# TENET_HWY_CONTRIB_LIBRARY can point it elsewhere.
include_guard(GLOBAL)

function(tenet_find_vqsort target)
    if(TARGET ${target})
        return()
    endif()
    find_path(TENET_HWY_INCLUDE_DIR hwy/contrib/sort/vqsort.h DOC "Directory of Highway's headers")
    find_library(TENET_HWY_CONTRIB_LIBRARY NAMES hwy_contrib DOC "Highway's contrib library (vqsort)")
    find_library(TENET_HWY_LIBRARY NAMES hwy DOC "Highway's library")
    if(NOT TENET_HWY_INCLUDE_DIR OR NOT TENET_HWY_CONTRIB_LIBRARY OR NOT TENET_HWY_LIBRARY)
        return()
    endif()
    if("GLOBAL" IN_LIST ARGN)
        add_library(${target} INTERFACE IMPORTED GLOBAL)
    else()
        add_library(${target} INTERFACE IMPORTED)
    endif()
    set_target_properties(${target} PROPERTIES
        INTERFACE_LINK_LIBRARIES "${TENET_HWY_CONTRIB_LIBRARY};${TENET_HWY_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${TENET_HWY_INCLUDE_DIR}"
        INTERFACE_COMPILE_DEFINITIONS "TENET_HAVE_VQSORT=1")
endfunction()
