// Creation functions against real PyTorch 1.13 (golden_creation.inc, written by
// tests/golden/gen_core.py): arange, linspace, logspace, eye, full, zeros/ones,
// tensor() dtype inference and the *_like functions. Metadata and integer values are
// exact. Floating ranges computed by PyTorch in another precision (float32 linspace
// and logspace compute in float, tenet in double) carry a relative tolerance of 1e-6
// (about one float32 ulp); every other value is compared bit for bit.
#include "golden_check.hpp"

TEST_CASE("creation: golden cases from PyTorch") {
#include "golden_creation.inc"
}
