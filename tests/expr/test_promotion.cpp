// Type promotion against PyTorch's table (tests/golden/gen_promotion.py): every pair of
// the ten element types, and every element type with a bool, int and floating scalar.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <type_traits>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

#include "promotion_table.inc"

TEST_CASE("promotion: the compile-time table matches PyTorch") {
    // The checks are static_asserts in promotion_table.inc; reaching here means they hold.
    STATIC_REQUIRE(std::is_same_v<tenet::promote_t<uint8_t, int8_t>, int16_t>);
    STATIC_REQUIRE(std::is_same_v<tenet::promote_scalar_t<int64_t, double>, float>);
}

}}  // namespace TENET_TEST_FILE
