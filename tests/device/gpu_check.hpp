#pragma once
// Shared by the stand-alone GPU check programs (tests/device/*_on_gpu.cu; CI has no GPU).
#include <tenet/tenet.hpp>
#include <cstddef>
#include <cstdint>

/// How many elements of g differ from expected(flat index); an undefined g counts as one.
template <class T, class F>
int mismatches(const tenet::Tensor<T>& g, F expected) {
    if (!g.defined()) return 1;
    auto v = g.cpu().contiguous().to_vector();
    int bad = 0;
    for (size_t k = 0; k < v.size(); ++k) bad += v[k] != expected(static_cast<int64_t>(k));
    return bad;
}
