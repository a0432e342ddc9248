# Must-not-compile tests.
#
#   include(cmake/TenetCompileFail.cmake)
#   tenet_add_compile_fail_test(NAME SOURCE EXPECTED_REGEX)
#
# adds the ctest `compile_fail.NAME`, which runs the C++ compiler with -fsyntax-only on SOURCE
# (C++20, tenet's include/ directory) and PASSES only if the compilation FAILS and the compiler's
# output matches EXPECTED_REGEX (e.g. the text of a static_assert). A source that compiles, or
# that fails for another reason, fails the test.
#
# This same file is also the runner: ctest calls it in script mode (cmake -P) with the per-test
# parameters in a generated file, so regexes need no shell or list escaping.

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
    # ---- runner (cmake -DPARAMS=<file> -P TenetCompileFail.cmake) ----
    include("${PARAMS}")
    execute_process(
        COMMAND "${COMPILER}" ${FLAGS} -fsyntax-only "-I${INCLUDE_DIR}" "${SOURCE}"
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_VARIABLE out)
    if(rc EQUAL 0)
        message(FATAL_ERROR "compile_fail: ${SOURCE} compiled, but it must not")
    endif()
    if(NOT out MATCHES "${EXPECTED_REGEX}")
        message("${out}")
        message(FATAL_ERROR
            "compile_fail: ${SOURCE} failed to compile, but the output does not match "
            "'${EXPECTED_REGEX}' (compiler output above)")
    endif()
    message(STATUS "compile_fail: ${SOURCE} failed to compile as expected")
    return()
endif()

# ---- configure time ----
set(_TENET_COMPILE_FAIL_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")
get_filename_component(_TENET_COMPILE_FAIL_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../include"
    ABSOLUTE)

function(tenet_add_compile_fail_test NAME SOURCE EXPECTED_REGEX)
    get_filename_component(source "${SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(flags -std=c++20)
    # tenet's headers include Eigen (linalg/): pass its include directories on.
    if(TARGET Eigen3::Eigen)
        get_target_property(eigen_includes Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
        foreach(dir IN LISTS eigen_includes)
            list(APPEND flags "-I${dir}")
        endforeach()
    endif()
    if(CMAKE_CXX_FLAGS)
        separate_arguments(user_flags NATIVE_COMMAND "${CMAKE_CXX_FLAGS}")
        list(PREPEND flags ${user_flags})
    endif()

    # Bracket arguments keep the regex and paths verbatim.
    set(params "${CMAKE_CURRENT_BINARY_DIR}/compile_fail_${NAME}.cmake")
    file(WRITE "${params}"
        "set(COMPILER [==[${CMAKE_CXX_COMPILER}]==])\n"
        "set(FLAGS [==[${flags}]==])\n"
        "set(INCLUDE_DIR [==[${_TENET_COMPILE_FAIL_INCLUDE_DIR}]==])\n"
        "set(SOURCE [==[${source}]==])\n"
        "set(EXPECTED_REGEX [==[${EXPECTED_REGEX}]==])\n")

    add_test(NAME compile_fail.${NAME}
        COMMAND "${CMAKE_COMMAND}" "-DPARAMS=${params}" -P "${_TENET_COMPILE_FAIL_SCRIPT}")
    set_tests_properties(compile_fail.${NAME} PROPERTIES LABELS compile_fail)
endfunction()
