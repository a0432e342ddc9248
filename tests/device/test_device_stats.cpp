// The PyTorch-generated statistics, softmax and loss cases (tests/ops/test_stats_golden.cpp) on
// the device: inputs placed there by tests/placement.hpp (TENET_TEST_DEVICE).
#include "../ops/test_stats_golden.cpp"
