// LibTorch's equivalent of examples/readme_taste.cpp (the README's "A taste"), for bench/taste/compile_taste.sh.
#include <torch/torch.h>
#include <iostream>
using namespace torch::indexing;

int main() {
    auto points = torch::tensor({{4.0, 1.0}, {5.0, 3.0}, {2.0, 1.0}}, torch::kFloat32);
    std::cout << points << "\n";
    std::cout << points.strides() << "\n";
    auto pt = points.t();
    std::cout << pt.strides() << pt.is_contiguous() << "\n";
    points[1][0] = 10.0;
    auto t = torch::arange(12).view({3, 4});
    t.index_put_({Slice(), 2}, 7);
    std::cout << t.index({Slice(None, None, 2), -1}) << "\n";
    std::cout << t.to(torch::kFloat16) << "\n";
    torch::manual_seed(0);
    std::cout << torch::randn({2, 2}, torch::kFloat64) << "\n";
    try { t.view({5, 5}); } catch (const c10::Error& e) { std::cout << e.what_without_backtrace() << "\n"; }
}
