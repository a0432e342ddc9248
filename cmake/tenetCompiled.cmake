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
# _tenet_compiled_wrapper(<out var> <file> <defines> <source>): a generated TU that defines
# <defines> (one "#define" line each) and includes <source>; its path is appended to <out var>.
function(_tenet_compiled_wrapper out file defines source)
    set(content "")
    foreach(define IN LISTS defines)
        string(APPEND content "#define ${define}\n")
    endforeach()
    file(CONFIGURE OUTPUT "${file}" CONTENT "${content}#include \"${source}\"\n")
    set(${out} ${${out}} "${file}" PARENT_SCOPE)
endfunction()

function(tenet_add_compiled_library name source headers_target)
    get_filename_component(dir "${source}" DIRECTORY)
    set(sources "${source}")
    set(generated "${CMAKE_CURRENT_BINARY_DIR}/${name}")
    foreach(type bool uint8_t int8_t int16_t int32_t int64_t Half BFloat16 float double)
        _tenet_compiled_wrapper(sources "${generated}/walk_${type}.cpp" "TENET_WALK_ELEMENT ${type}" "${dir}/walk.cpp")
    endforeach()
    foreach(pair "float,float,0" "double,double,0" "complex64,complex<float>,1" "complex128,complex<double>,1")
        string(REPLACE "," ";" pair "${pair}")
        list(GET pair 0 file_part)
        list(GET pair 1 type)
        list(GET pair 2 is_complex)
        _tenet_compiled_wrapper(sources "${generated}/linalg_${file_part}.cpp"
                                "TENET_LINALG_ELEMENT ${type};TENET_LINALG_COMPLEX ${is_complex}" "${dir}/linalg.cpp")
    endforeach()
    add_library(${name} STATIC EXCLUDE_FROM_ALL ${sources})
    target_link_libraries(${name} PUBLIC ${headers_target})
    target_compile_definitions(${name} PUBLIC TENET_COMPILED=1)
    target_compile_features(${name} PUBLIC cxx_std_20)
endfunction()
