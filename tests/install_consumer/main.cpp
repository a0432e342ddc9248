// Compiled against the installed headers only; returns 0 when the library is usable.
#include <tenet/tenet.hpp>

#include <iostream>
#include <string>

int main() {
    const std::string version{tenet::version()};
    if (version.empty()) {
        std::cerr << "tenet::version() is empty\n";
        return 1;
    }
    std::cout << "tenet " << version << " found and usable\n";
    return 0;
}
