# Writes OUT: one add_test per Catch2 filename tag of BINARY (see TenetCatchFiles.cmake).
execute_process(COMMAND "${BINARY}" --filenames-as-tags --list-tags
    OUTPUT_VARIABLE tags RESULT_VARIABLE result)
# (Catch2 exits with the number of tags it listed.)
if(NOT result MATCHES "^[0-9]+$" OR NOT tags MATCHES "All available tags")
    message(FATAL_ERROR "tenet: listing the test files of ${BINARY} failed (${result}):\n${tags}")
endif()
string(REGEX MATCHALL "\\[#[A-Za-z0-9_.-]+\\]" file_tags "${tags}")
if(NOT file_tags)
    message(FATAL_ERROR "tenet: ${BINARY} lists no test files:\n${tags}")
endif()
set(script "")
foreach(tag IN LISTS file_tags)
    string(REGEX REPLACE "^\\[#(.*)\\]$" "\\1" name "${tag}")
    string(APPEND script
        "add_test([=[${PREFIX} ${name}]=] [=[${BINARY}]=] --filenames-as-tags [=[${tag}]=])\n"
        "set_tests_properties([=[${PREFIX} ${name}]=] PROPERTIES LABELS [=[${LABELS}]=])\n")
endforeach()
file(WRITE "${OUT}" "${script}")
