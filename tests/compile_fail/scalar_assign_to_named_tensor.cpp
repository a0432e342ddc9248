// Must not compile: `t = 5;` on a named tensor would silently rebind it in Python terms.
#include <tenet/tenet.hpp>

int main() {
    auto t = tenet::zeros({3});
    t = 5;
}
