#pragma once
// TensorOptions: the run-time options of creation functions (LibTorch's name).
// The element type is not among them: it is static, chosen by a dtype tag
// (`zeros({2, 3}, kFloat64)`) or a template argument (`zeros<double>({2, 3})`).

#include "tenet/config.hpp"
#include <memory>

#include "tenet/core/device.hpp"
#include "tenet/core/dimname.hpp"

namespace tenet::inline TENET_ABI {

class TensorOptions {
public:
    TensorOptions() = default;
    TensorOptions(Device d) : device_(d) {}           // NOLINT: implicit, as in LibTorch
    TensorOptions(DeviceType t) : device_(t) {}       // NOLINT
    TensorOptions(const char* d) : device_(d) {}      // NOLINT

    TensorOptions device(Device d) const {
        TensorOptions o = *this;
        o.device_ = d;
        return o;
    }
    Device device() const { return device_; }

    /// PyTorch's names=: the created tensor's dim names (`TensorOptions().names({"N", "C"})`,
    /// std::nullopt for an unnamed dim); checked by the creation function.
    TensorOptions names(DimnameList n) const {
        TensorOptions o = *this;
        o.names_ = std::make_shared<const DimnameList>(std::move(n));
        return o;
    }
    /// The names given, or null (most options name nothing: one pointer to copy).
    const DimnameList* names() const { return names_.get(); }

private:
    Device device_ = Device(DeviceType::CPU);
    std::shared_ptr<const DimnameList> names_;
};

/// `tenet::device("cpu")` builds options, as `torch::device(...)` does.
inline TensorOptions device(Device d) { return TensorOptions(d); }

}  // namespace tenet
