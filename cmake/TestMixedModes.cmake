# ctest mixed_modes: a program whose TUs were built in different modes (with and without
# autograd; compiled and header-only) must fail to link (include/tenet/config.hpp puts each mode
# in its own inline namespace), never run with two definitions of one entity. Compiles
# tests/mixed_modes/uses.cpp in one mode and defines_off.cpp in the other, links them, and passes
# only if the link fails on the undefined fill_with_ones(tenet::<uses.cpp's mode>::Tensor<float>&).
#
#   cmake -DCXX_COMPILER=... -DSOURCE_DIR=... -DINCLUDE_DIRS=... -DWORK_DIR=... -P TestMixedModes.cmake
file(MAKE_DIRECTORY "${WORK_DIR}")
set(includes)
foreach(dir IN LISTS INCLUDE_DIRS)
    list(APPEND includes "-I${dir}")
endforeach()
# check_mixed(<name> <uses.cpp's flags> <defines_off.cpp's flags> <the undefined symbol>)
function(check_mixed name uses_mode defines_mode symbol)
    foreach(pair "uses.cpp;${uses_mode}" "defines_off.cpp;${defines_mode}")
        list(GET pair 0 source)
        list(GET pair 1 mode)
        execute_process(
            COMMAND "${CXX_COMPILER}" -std=c++20 -fopenmp ${mode} ${includes} -c "${SOURCE_DIR}/${source}"
                    -o "${WORK_DIR}/${name}-${source}.o"
            RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "${name}: ${source} (${mode}) does not compile:\n${out}")
        endif()
    endforeach()
    execute_process(
        COMMAND "${CXX_COMPILER}" -fopenmp "${WORK_DIR}/${name}-uses.cpp.o" "${WORK_DIR}/${name}-defines_off.cpp.o"
                -o "${WORK_DIR}/${name}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(rc EQUAL 0)
        message(FATAL_ERROR "${name}: TUs built in different modes linked into one program")
    endif()
    if(NOT out MATCHES "${symbol}")
        message(FATAL_ERROR "${name}: the link failed for another reason:\n${out}")
    endif()
    message(STATUS "${name}: the link fails as it must")
endfunction()

# With and without autograd.
check_mixed(mixed_autograd_modes -DTENET_AUTOGRAD=1 -DTENET_AUTOGRAD=0 "fill_with_ones\\(tenet::ag1::Tensor<float>&\\)")
# Compiled mode (tenet::compiled) and header-only mode.
check_mixed(mixed_compiled_modes -DTENET_COMPILED=1 -DTENET_COMPILED=0 "fill_with_ones\\(tenet::ag1c::Tensor<float>&\\)")

