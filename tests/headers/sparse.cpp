// <tenet/sparse.hpp> compiles, links and runs on its own: a sparse matrix times a dense one,
// coalesce and a print.
#include <tenet/sparse.hpp>

#include <iostream>

using namespace tenet;

int main() {
    const auto s = sparse_coo_tensor(tensor<int64_t>({{0, 1, 0}, {1, 0, 1}}), tensor<float>({1.0f, 2.0f, 3.0f}), {2, 2});
    const Tensor<float> y = mm(s, ones<float>({2, 1}));
    const bool ok = y.to_vector() == std::vector<float>{4.0f, 2.0f} && s.coalesce()._nnz() == 2 &&
                    s.layout() == kSparseCOO;
    std::cout << s.coalesce() << "\n" << (ok ? "ok" : "failed") << "\n";
    return ok ? 0 : 1;
}
