// The "A taste" snippet of README.md, compiled and run as a test so the README stays true.
#include <tenet/tenet.hpp>
#include <iostream>
using namespace tenet;
using namespace tenet::indexing;

int main() {
    auto points = tensor({{4.0, 1.0}, {5.0, 3.0}, {2.0, 1.0}});  // float32, as in PyTorch
    std::cout << points << "\n";                 // tensor([[4., 1.], [5., 3.], [2., 1.]]) (3 rows)
    std::cout << points.stride() << "\n";        // [2, 1]
    auto pt = points.t();                        // a view: no copy
    std::cout << pt.stride() << pt.is_contiguous() << "\n";  // [1, 2]0
    points[1][0] = 10.0;                          // writes through the view
    auto t = arange(12).view({3, 4});            // int64
    t.index({Slice(), 2}) = 7;                    // t[:, 2] = 7
    std::cout << t.index({Slice(None, None, 2), -1}) << "\n";  // tensor([ 3, 11])
    std::cout << t.to(kFloat16) << "\n";         // ... dtype=tenet.float16)
    manual_seed(0);
    std::cout << randn({2, 2}, kFloat64) << "\n";
    try { t.view({5, 5}); } catch (const shape_error& e) { std::cout << e.what() << "\n"; }
}                                                // view: shape [5, 5] is invalid for input of size 12
