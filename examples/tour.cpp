#include <tenet/tenet.hpp>
#include <iostream>
int main() { std::cout << "tenet " << tenet::version() << "\n"; }
