// <tenet/hdf5.hpp> compiles, links and runs on its own: a dataset written and read back.
#include <tenet/hdf5.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

using namespace tenet;

int main() {
    const std::string path = (std::filesystem::temp_directory_path() / "tenet_header_hdf5.h5").string();
    std::remove(path.c_str());
    Tensor<double> x = arange(12).to<double>().reshape({3, 4});
    save_h5(path, "group/x", x);
    const Tensor<double> y = load_h5<double>(path, "group/x");
    std::cout << y << "\n";
    std::remove(path.c_str());
    return x.to_vector() == y.to_vector() ? 0 : 1;
}
