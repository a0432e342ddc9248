# ctest mixed_autograd_modes: a program whose TUs were built with and without autograd must
# fail to link (include/tenet/config.hpp puts each mode in its own inline namespace), never
# run with two definitions of one entity. Compiles tests/mixed_modes/uses.cpp with autograd and
# defines_off.cpp with TENET_AUTOGRAD=0, links them, and passes only if the link fails on the
# undefined fill_with_ones(tenet::ag1::Tensor<float>&).
#
#   cmake -DCXX_COMPILER=... -DSOURCE_DIR=... -DINCLUDE_DIRS=... -DWORK_DIR=... -P TestMixedModes.cmake
file(MAKE_DIRECTORY "${WORK_DIR}")
set(includes)
foreach(dir IN LISTS INCLUDE_DIRS)
    list(APPEND includes "-I${dir}")
endforeach()
foreach(pair "uses.cpp;-DTENET_AUTOGRAD=1" "defines_off.cpp;-DTENET_AUTOGRAD=0")
    list(GET pair 0 source)
    list(GET pair 1 mode)
    execute_process(
        COMMAND "${CXX_COMPILER}" -std=c++20 -fopenmp ${mode} ${includes} -c "${SOURCE_DIR}/${source}"
                -o "${WORK_DIR}/${source}.o"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "mixed_autograd_modes: ${source} (${mode}) does not compile:\n${out}")
    endif()
endforeach()
execute_process(
    COMMAND "${CXX_COMPILER}" -fopenmp "${WORK_DIR}/uses.cpp.o" "${WORK_DIR}/defines_off.cpp.o" -o "${WORK_DIR}/mixed"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
    message(FATAL_ERROR "mixed_autograd_modes: TUs built with and without autograd linked into one program")
endif()
if(NOT out MATCHES "fill_with_ones\\(tenet::ag1::Tensor<float>&\\)")
    message(FATAL_ERROR "mixed_autograd_modes: the link failed for another reason:\n${out}")
endif()
message(STATUS "mixed_autograd_modes: the link fails as it must")
