#pragma once
// Device: where a tensor's storage lives. `cpu`, `cuda:N` or `meta`, parsed from strings
// as PyTorch parses them ("cpu", "cuda", "cuda:1", "meta"). A meta tensor has sizes, strides
// and a dtype but no data (core/meta.hpp): how a model's shapes are checked for free.

#include "tenet/config.hpp"
#include <cctype>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "tenet/core/errors.hpp"

namespace tenet::inline TENET_ABI {

enum class DeviceType : int8_t { CPU, CUDA, Meta };

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
/// PyTorch's meta device: tensors with a shape, strides and a dtype but no data.
inline constexpr DeviceType kMeta = DeviceType::Meta;

class Device {
public:
    /// A device type with an optional index; -1 means "the current device" (as PyTorch).
    /// The index is stored in 8 bits, as LibTorch's DeviceIndex: a Device is 2 bytes and an
    /// optional<Device> fits a register (every expression node asks its operands' device).
    constexpr Device(DeviceType type = DeviceType::CPU, int index = -1)  // NOLINT
        : type_(type), index_(static_cast<int8_t>(index)) {
        if (index < -1 || index > kMaxIndex)
            detail::fail<device_error>("Device: device index must be -1 or in [0, ", int(kMaxIndex), "], got ",
                                       index);
    }
    static constexpr int8_t kMaxIndex = 127;
    /// Parses "cpu", "cuda", "cuda:N", "meta" ("meta:N" parses too; a tensor created there is on
    /// "meta", as in PyTorch).
    Device(std::string_view spec) { *this = parse(spec); }  // NOLINT: implicit, as torch::Device
    Device(const char* spec) : Device(std::string_view(spec)) {}  // NOLINT

    constexpr DeviceType type() const { return type_; }
    constexpr int index() const { return index_; }
    constexpr bool has_index() const { return index_ >= 0; }
    constexpr bool is_cpu() const { return type_ == DeviceType::CPU; }
    constexpr bool is_cuda() const { return type_ == DeviceType::CUDA; }
    /// The meta device: storage without a buffer (torch.device("meta")).
    constexpr bool is_meta() const { return type_ == DeviceType::Meta; }

    std::string str() const {
        std::string s = is_cpu() ? "cpu" : is_cuda() ? "cuda" : "meta";
        if (has_index()) {
            s += ':';
            s += std::to_string(int(index_));
        }
        return s;
    }
    friend constexpr bool operator==(Device a, Device b) { return a.type_ == b.type_ && a.index_ == b.index_; }
    friend std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }

private:
    static Device parse(std::string_view spec) {
        const auto colon = spec.find(':');
        const std::string_view name = spec.substr(0, colon);
        DeviceType type;
        if (name == "cpu") type = DeviceType::CPU;
        else if (name == "cuda") type = DeviceType::CUDA;
        else if (name == "meta") type = DeviceType::Meta;
        else detail::fail<device_error>("Device: expected one of cpu, cuda, meta device type at start of device string: ",
                                        spec);
        if (colon == std::string_view::npos) return Device(type);
        const std::string_view digits = spec.substr(colon + 1);
        bool ok = !digits.empty() && digits.size() < 9;
        for (char c : digits) ok = ok && std::isdigit(static_cast<unsigned char>(c));
        if (!ok) detail::fail<device_error>("Device: invalid device string: '", spec, "'");
        const int index = std::stoi(std::string(digits));
        if (type == DeviceType::CPU && index != 0)
            detail::fail<device_error>("Device: CPU device index must be -1 or zero, got ", index);
        return Device(type, index);
    }

    DeviceType type_;
    int8_t index_;
};

namespace detail {
/// The error for an op that has no meta rule in tenet (one that would need the data).
[[noreturn]] inline void fail_not_on_meta(const char* op) {
    fail<device_error>(op, ": not supported on meta tensors in tenet (a meta tensor has a shape but no data)");
}
}  // namespace detail

}  // namespace tenet
