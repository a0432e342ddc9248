// <tenet/files.hpp> compiles, links and runs on its own: a tensor through .npy, .npz and .pt files.
#include <tenet/files.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

using namespace tenet;

int main() {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string npy = (dir / "tenet_header_files.npy").string();
    const std::string npz = (dir / "tenet_header_files.npz").string();
    const std::string pt = (dir / "tenet_header_files.pt").string();
    Tensor<float> x = arange<float>(6).reshape({2, 3});
    save_npy(npy, x.t());
    savez_compressed(npz, {{"x", x}});
    save(x, pt);
    const Tensor<float> a = load_npy<float>(npy), b = load_npz(npz).at(0).second.as<float>(), c = load<float>(pt);
    std::cout << a << "\n" << b << "\n" << c << "\n";
    std::remove(npy.c_str());
    std::remove(npz.c_str());
    std::remove(pt.c_str());
    return a.to_vector() == x.t().contiguous().to_vector() && b.to_vector() == x.to_vector() &&
                   c.to_vector() == x.to_vector()
               ? 0
               : 1;
}
