// The PyTorch-generated reduction cases (tests/ops/reduce_cases.inc) with every input on the
// device (tests/placement.hpp): values, dtypes and shapes as on the host.
#include "../ops/reduce_check.hpp"

TEST_CASE("device reduce: golden cases against PyTorch") {
#include "../ops/reduce_cases.inc"
}
