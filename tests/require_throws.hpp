#pragma once
// The exception type and the message, checked on two evaluations of `expr` (Catch2 v2's
// REQUIRE_THROWS_MATCHES wants an exception matcher; Contains is a string matcher).
#include <catch2/catch.hpp>

#define TENET_REQUIRE_THROWS(expr, type, matcher) \
    do {                                          \
        REQUIRE_THROWS_AS(expr, type);            \
        REQUIRE_THROWS_WITH(expr, matcher);       \
    } while (false)
