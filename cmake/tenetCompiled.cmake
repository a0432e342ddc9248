# tenet_add_compiled_library(<name> <library.cpp> <headers target>): the compiled library, a
# static library that holds tenet's fixed machinery (the backward engine, the evaluator's walk,
# views and geometry, copies, the nodes of views, copies and sums), compiled once from
# include/tenet/compiled/library.cpp instead of in every translation unit. Whatever links it
# is built in compiled mode (TENET_COMPILED=1, include/tenet/config.hpp). It is compiled in the
# build that uses it, with that build's compiler, flags and modes (TENET_AUTOGRAD,
# -march=..., -ffp-contract), so it always matches the TUs that link it. Used by tenet's own
# build (tenet::compiled, and the tests' copy) and by the installed package (component Compiled).
function(tenet_add_compiled_library name source headers_target)
    add_library(${name} STATIC EXCLUDE_FROM_ALL "${source}")
    target_link_libraries(${name} PUBLIC ${headers_target})
    target_compile_definitions(${name} PUBLIC TENET_COMPILED=1)
    target_compile_features(${name} PUBLIC cxx_std_20)
endfunction()
