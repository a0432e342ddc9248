// Views, indexing, copies and writes through views against real PyTorch 1.13:
// golden_views.inc is written by tests/golden/gen_core.py, which evaluates each case's
// Python twin with torch and records sizes, strides, storage offset, is_contiguous,
// dtype and values. Everything is compared exactly.
#include "golden_check.hpp"

#include <cmath>
#include <limits>

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("views: golden cases from PyTorch (views, indexing, clone, writes through views)") {
    using namespace tenet::indexing;
#include "golden_views.inc"
}

}}  // namespace TENET_TEST_FILE
