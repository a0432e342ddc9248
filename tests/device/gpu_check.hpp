#pragma once
// Shared by the stand-alone GPU check programs (tests/device/*_on_gpu.cu; CI has no GPU).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <tenet/tenet.hpp>

/// How many elements of g differ from expected(flat index); an undefined g counts as one.
template <class T, class F>
int mismatches(const tenet::Tensor<T>& g, F expected) {
    if (!g.defined())
        return 1;
    auto v = g.cpu().contiguous().to_vector();
    int bad = 0;
    for (size_t k = 0; k < v.size(); ++k)
        bad += v[k] != expected(static_cast<int64_t>(k));
    return bad;
}

/// The checks that failed so far (compare counts them).
inline int failures = 0;

/// Compares a device result with the host's: within 1e-5 relative (float32: the device folds
/// in another order) or 1e-12 (float64), NaN for NaN; prints one line and counts a failure.
template <class T>
void compare(const char* what, const tenet::Tensor<T>& device, const tenet::Tensor<T>& host) {
    const double rtol = sizeof(T) == 4 ? 1e-5 : 1e-12;
    int bad = 0;
    if (!device.defined() || device.sizes() != host.sizes()) {
        bad = 1;
    } else {
        const auto d = device.cpu().contiguous().to_vector(), h = host.contiguous().to_vector();
        for (size_t k = 0; k < d.size(); ++k) {
            const double a = d[k], e = h[k];
            if (std::isnan(e) ? !std::isnan(a) : std::abs(a - e) > rtol * std::max(1.0, std::abs(e)))
                ++bad;
        }
    }
    std::printf("%-40s %s: %d mismatches\n", what, sizeof(T) == 4 ? "float32" : "float64", bad);
    failures += bad != 0;
}

/// A check program's main: `check(cuda)` for float and double on the GPU; exit 0 when every
/// comparison held, 1 when one failed, 77 without a GPU (ctest's "skipped").
template <class Check>
int run_on_gpu(Check&& check) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line out before a failure could end the run
    if (!tenet::cuda_is_available()) {
        std::printf("no GPU\n");
        return 77;
    }
    const tenet::Device cuda("cuda");
    check.template operator()<float>(cuda);
    check.template operator()<double>(cuda);
    std::printf("%s\n", failures ? "FAILED" : "all within tolerance");
    return failures ? 1 : 0;
}
