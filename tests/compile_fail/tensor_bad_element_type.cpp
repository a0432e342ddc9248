// Must not compile: std::string is not a tensor element type.
#include <tenet/tenet.hpp>

#include <string>

int main() {
    tenet::Tensor<std::string> t;
    (void)t;
}
