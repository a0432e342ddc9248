# tenet_add_compiled_library(<name> <library.cpp> <headers target>): the compiled library, a
# static library that holds tenet's fixed machinery (the backward engine, the evaluator's walk,
# views and geometry, copies, the nodes of views, copies and sums, linalg's Eigen-backed kernels
# and GEMM), compiled once from include/tenet/compiled/ instead of in every translation unit. Whatever links it is built in
# compiled mode (TENET_COMPILED=1, include/tenet/config.hpp). It is compiled in the build that
# uses it, with that build's compiler, flags and modes (TENET_AUTOGRAD, -march=...,
# -ffp-contract), so it always matches the TUs that link it. Used by tenet's own build
# (tenet::compiled, and the tests' and benchmarks' copies) and by the installed package
# (component Compiled).
#
# Its sources: library.cpp (the fixed functions and most instantiations) and, generated here,
# one small TU per element type for the evaluator's walk (walk.cpp) and one per element type for
# linalg's Eigen-backed kernels (linalg.cpp: float, double, complex64, complex128).
function(tenet_add_compiled_library name source headers_target)
    get_filename_component(dir "${source}" DIRECTORY)
    set(sources "${source}")
    foreach(type bool uint8_t int8_t int16_t int32_t int64_t Half BFloat16 float double)
        set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/${name}/walk_${type}.cpp")
        file(CONFIGURE OUTPUT "${wrapper}"
             CONTENT "#define TENET_WALK_ELEMENT ${type}\n#include \"${dir}/walk.cpp\"\n")
        list(APPEND sources "${wrapper}")
    endforeach()
    foreach(pair "float;float;0" "double;double;0" "complex64;complex<float>;1" "complex128;complex<double>;1")
        list(GET pair 0 name_part)
        list(GET pair 1 type)
        list(GET pair 2 is_complex)
        set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/${name}/linalg_${name_part}.cpp")
        file(CONFIGURE OUTPUT "${wrapper}"
             CONTENT "#define TENET_LINALG_ELEMENT ${type}\n#define TENET_LINALG_COMPLEX ${is_complex}\n#include \"${dir}/linalg.cpp\"\n")
        list(APPEND sources "${wrapper}")
    endforeach()
    add_library(${name} STATIC EXCLUDE_FROM_ALL ${sources})
    target_link_libraries(${name} PUBLIC ${headers_target})
    target_compile_definitions(${name} PUBLIC TENET_COMPILED=1)
    target_compile_features(${name} PUBLIC cxx_std_20)
endfunction()
