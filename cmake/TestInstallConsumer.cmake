# Run as `cmake -D... -P TestInstallConsumer.cmake` (the ctest `install_consumer`).
#
# 1. installs the tenet build tree TENET_BINARY_DIR into WORK_DIR/prefix,
# 2. checks the installed package exports nothing of the build machine: no absolute path (the
#    OpenBLAS library was once exported by its full path), no TENET_HAVE_CBLAS, no nvcc flags,
# 3. configures CONSUMER_SOURCE_DIR/components against the prefix to check the find_package
#    components (Core alone; an unknown component is not found),
# 4. configures and builds the consumer project CONSUMER_SOURCE_DIR against that prefix only,
# 5. runs the consumer binaries (one header-only, one linked with tenet::compiled).
# Any failing step fails the test.
#
# Inputs: TENET_BINARY_DIR, TENET_SOURCE_DIR, CONSUMER_SOURCE_DIR, WORK_DIR, CXX_COMPILER, GENERATOR
# Optional: CONFIG (tenet's build configuration, installed), CONSUMER_CONFIG (the consumer's; CONFIG
# by default), GENERATOR_PLATFORM, EXPECTED_VERSION, EXPECT_OPENBLAS (ON/OFF: whether the package
# must find OpenBLAS on this machine, as tenet's own build did)
cmake_minimum_required(VERSION 3.20)

foreach(var TENET_BINARY_DIR TENET_SOURCE_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "TestInstallConsumer.cmake: -D${var}=... is required")
    endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs a command, echoes its output, and stops the test when it fails.
function(run_step what)
    message(STATUS "install_consumer: ${what}")
    execute_process(COMMAND ${ARGN}
        RESULT_VARIABLE rc
        OUTPUT_VARIABLE out
        ERROR_VARIABLE out)
    message("${out}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "install_consumer: ${what} failed (${rc})")
    endif()
endfunction()

set(config_args)
if(CONFIG)
    set(config_args --config "${CONFIG}")
endif()
if(NOT DEFINED CONSUMER_CONFIG)
    set(CONSUMER_CONFIG "${CONFIG}")
endif()
set(consumer_config_args)
if(CONSUMER_CONFIG)
    set(consumer_config_args --config "${CONSUMER_CONFIG}")
endif()

run_step("install tenet into ${prefix}"
    "${CMAKE_COMMAND}" --install "${TENET_BINARY_DIR}" --prefix "${prefix}" ${config_args})

# The exported targets: paths only relative to the install prefix (${_IMPORT_PREFIX}), nothing
# found on the build machine (OpenBLAS, Eigen, OpenMP are found again by tenetConfig.cmake on the
# consumer's machine) and none of the flags that are tenet's own business.
file(GLOB_RECURSE exported "${prefix}/*/tenetTargets*.cmake")
if(NOT exported)
    message(FATAL_ERROR "install_consumer: no tenetTargets*.cmake installed under ${prefix}")
endif()
foreach(file IN LISTS exported)
    file(READ "${file}" text)
    string(TOLOWER "${text}" lower)
    foreach(forbidden "openblas" "tenet_have_cblas" "--diag-suppress" "-std=c++" "${TENET_BINARY_DIR}"
                      "${TENET_SOURCE_DIR}")
        string(TOLOWER "${forbidden}" forbidden)
        string(FIND "${lower}" "${forbidden}" at)
        if(NOT at EQUAL -1)
            message(FATAL_ERROR "install_consumer: ${file} contains '${forbidden}':\n${text}")
        endif()
    endforeach()
    # Every value of an INTERFACE_* property: no element may be an absolute path.
    string(REGEX MATCHALL "INTERFACE_[A-Z_]+ \"[^\"]*\"" properties "${text}")
    foreach(property IN LISTS properties)
        if(property MATCHES "\"/|;/|\"[A-Za-z]:[/\\]")
            message(FATAL_ERROR "install_consumer: ${file} exports an absolute path: ${property}")
        endif()
    endforeach()
endforeach()
message(STATUS "install_consumer: the exported targets name no build-machine path or flag")

set(configure_args -G "${GENERATOR}")
if(GENERATOR_PLATFORM)
    list(APPEND configure_args -A "${GENERATOR_PLATFORM}")
endif()
if(CONSUMER_CONFIG)
    list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONSUMER_CONFIG}")
endif()
if(EXPECTED_VERSION)
    list(APPEND configure_args "-DTENET_EXPECTED_VERSION=${EXPECTED_VERSION}")
endif()
if(DEFINED EXPECT_OPENBLAS)
    if(EXPECT_OPENBLAS)
        list(APPEND configure_args -DTENET_EXPECT_OPENBLAS=TRUE)
    else()
        list(APPEND configure_args -DTENET_EXPECT_OPENBLAS=FALSE)
    endif()
endif()
run_step("configure the consumer"
    "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" ${configure_args}
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${prefix}"
    # Only the scratch prefix may satisfy find_package(tenet): no user/system package registry.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)

# The components, configured only (CONSUMER_SOURCE_DIR/components).
foreach(mode core unknown)
    run_step("check find_package(tenet) components (${mode})"
        "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}/components" -B "${WORK_DIR}/components-${mode}"
        -G "${GENERATOR}" "-DMODE=${mode}" "-DCMAKE_PREFIX_PATH=${prefix}"
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
endforeach()

# The package must come from the scratch prefix, not from a tenet installed elsewhere.
file(STRINGS "${build}/CMakeCache.txt" tenet_dir_line REGEX "^tenet_DIR:")
string(REGEX REPLACE "^tenet_DIR:[A-Z]+=" "" tenet_dir "${tenet_dir_line}")
file(REAL_PATH "${prefix}" real_prefix)
file(REAL_PATH "${tenet_dir}" real_tenet_dir)
string(FIND "${real_tenet_dir}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
    message(FATAL_ERROR
        "install_consumer: tenet was found in '${tenet_dir}', not under the prefix '${prefix}'")
endif()

# Two jobs: the consumer built with tenet::compiled compiles the library (eleven TUs) too.
run_step("build the consumer" "${CMAKE_COMMAND}" --build "${build}" --parallel 2 ${consumer_config_args})

# Single-config generators put the binary in the build root, multi-config ones in <CONFIG>/.
set(exe "${build}/tenet_consumer")
if(NOT EXISTS "${exe}" AND CONSUMER_CONFIG)
    set(exe "${build}/${CONSUMER_CONFIG}/tenet_consumer")
endif()
run_step("run the consumer" "${exe}")
get_filename_component(exe_dir "${exe}" DIRECTORY)
run_step("run the consumer built with tenet::compiled" "${exe_dir}/tenet_consumer_compiled")
