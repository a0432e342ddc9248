# tenet_catch_file_tests(<target> PREFIX <prefix> LABELS <labels>...): registers the Catch2 binary
# <target> with ctest as one test per file of test cases (Catch2's filename tags, `--filenames-as-tags`): a .cpp, or
# the generated .inc it includes. ctest then starts a few dozen processes instead of one per test
# case (about 25 s of the README's test command on 2 cores); every case still runs, and a failure
# names its case in the output. One case alone: `build/tests/tenet_tests "<case name>"`.
#
# ENVIRONMENT <var=value>...: set for each of these tests. FILES <tag>...: only these files (their
# tags without `[#` and `]`); a binary can be registered more than once, with different prefixes.
#
# The files are listed after each build (TenetCatchFilesList.cmake), as catch_discover_tests does.
function(tenet_catch_file_tests target)
    cmake_parse_arguments(ARG "" "PREFIX" "LABELS;FILES;ENVIRONMENT" ${ARGN})
    string(MAKE_C_IDENTIFIER "${target}_${ARG_PREFIX}" stem)
    set(list_file "${CMAKE_CURRENT_BINARY_DIR}/${stem}_file_tests.cmake")
    set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${stem}_file_tests_include.cmake")
    # Lists cross the command line with `|` between items.
    string(REPLACE ";" "|" files "${ARG_FILES}")
    string(REPLACE ";" "|" environment "${ARG_ENVIRONMENT}")
    add_custom_command(TARGET ${target} POST_BUILD
        COMMAND ${CMAKE_COMMAND} "-DBINARY=$<TARGET_FILE:${target}>" "-DPREFIX=${ARG_PREFIX}"
                "-DLABELS=${ARG_LABELS}" "-DENVIRONMENT=${environment}" "-DFILES=${files}" "-DOUT=${list_file}"
                -P "${PROJECT_SOURCE_DIR}/cmake/TenetCatchFilesList.cmake"
        BYPRODUCTS "${list_file}"
        VERBATIM)
    # Before the first build there is no list: a failing placeholder says so.
    file(WRITE "${include_file}"
        "if(EXISTS \"${list_file}\")\n"
        "    include(\"${list_file}\")\n"
        "else()\n"
        "    add_test(${stem}_NOT_BUILT ${stem}_NOT_BUILT)\n"
        "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
