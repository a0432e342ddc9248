#pragma once
// Whether operations record autograd history on this thread, and LibTorch's RAII guards
// that switch it: `{ tenet::NoGradGuard g; auto y = x * 2; }` gives a y that does not
// require grad, as `with torch.no_grad():` does.

#include "tenet/config.hpp"

namespace tenet::inline TENET_ABI {

namespace autograd {
/// Per-thread recording switch (on by default), as PyTorch's GradMode.
struct GradMode {
    static bool is_enabled() { return enabled(); }
    static void set_enabled(bool on) { enabled() = on; }

private:
    static bool& enabled() {
        thread_local bool on = true;
        return on;
    }
};
}  // namespace autograd

/// Disables recording for its lifetime and restores the previous mode (torch::NoGradGuard).
class NoGradGuard {
public:
    NoGradGuard() : previous_(autograd::GradMode::is_enabled()) { autograd::GradMode::set_enabled(false); }
    ~NoGradGuard() { autograd::GradMode::set_enabled(previous_); }
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;

private:
    bool previous_;
};

/// Sets recording on or off for its lifetime (torch::AutoGradMode).
class AutoGradMode {
public:
    explicit AutoGradMode(bool enabled) : previous_(autograd::GradMode::is_enabled()) {
        autograd::GradMode::set_enabled(enabled);
    }
    ~AutoGradMode() { autograd::GradMode::set_enabled(previous_); }
    AutoGradMode(const AutoGradMode&) = delete;
    AutoGradMode& operator=(const AutoGradMode&) = delete;

private:
    bool previous_;
};

}  // namespace tenet
