// The PyTorch-generated statistics, softmax and loss cases (tests/ops/test_stats_golden.cpp) on
// the device: inputs placed there by tests/placement.hpp (TENET_TEST_DEVICE).
#define TENET_STATS_ON_DEVICE 1
#include "../ops/test_stats_golden.cpp"
