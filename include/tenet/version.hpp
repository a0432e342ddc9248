#pragma once
// tenet's version.

#include "tenet/config.hpp"
#include <string>

#define TENET_VERSION_MAJOR 0
#define TENET_VERSION_MINOR 1
#define TENET_VERSION_PATCH 0

namespace tenet::inline TENET_ABI {
/// The library version as "major.minor.patch".
inline std::string version() {
    return std::to_string(TENET_VERSION_MAJOR) + "." + std::to_string(TENET_VERSION_MINOR) + "." +
           std::to_string(TENET_VERSION_PATCH);
}
}  // namespace tenet
