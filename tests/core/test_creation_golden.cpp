// Creation functions against real PyTorch 1.13 (golden_creation.inc, written by
// tests/golden/gen_core.py): arange, linspace, logspace, eye, full, zeros/ones,
// tensor() dtype inference and the *_like functions. Metadata and integer values are
// exact. Floating ranges computed by PyTorch in another precision (float32 linspace
// and logspace compute in float, tenet in double) carry a relative tolerance of 1e-6
// (about one float32 ulp); every other value is compared bit for bit.
#include "golden_check.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

TEST_CASE("creation: golden cases from PyTorch") {
#include "golden_creation.inc"
}

// fill_ and zero_ write every element, contiguous or strided (zero bytes go to memset; any other
// value, -0.0 included, to the vectorised loop): the values by definition of fill.
TEST_CASE("creation: fill_ and zero_ write every element, -0.0 keeps its sign") {
    auto f = tenet::empty({1000, 3});
    f.fill_(-0.0f);
    for (float v : f.to_vector()) CHECK((v == 0.0f && std::signbit(v)));
    f.fill_(2.5f);
    for (float v : f.to_vector()) CHECK(v == 2.5f);
    f.t().zero_();  // strided
    for (float v : f.to_vector()) CHECK((v == 0.0f && !std::signbit(v)));
    auto i = tenet::full({7}, int64_t{-1});
    i.zero_();
    CHECK(i.to_vector() == std::vector<int64_t>(7, 0));
    auto h = tenet::empty({5}, tenet::kFloat16);
    h.fill_(1.5);
    CHECK(h.to(tenet::kFloat32).to_vector() == std::vector<float>(5, 1.5f));
}

}}  // namespace TENET_TEST_FILE
