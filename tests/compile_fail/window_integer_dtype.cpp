// PyTorch refuses an integer dtype for a window ("hann_window expects floating point dtypes");
// tenet refuses it at compile time.
#include <tenet/ops.hpp>
#include <tenet/ops/windows.hpp>

int main() {
    auto w = tenet::hann_window(8, tenet::kInt64);
    return static_cast<int>(w.numel());
}
