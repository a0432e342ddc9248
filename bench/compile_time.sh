#!/usr/bin/env bash
# Compile-time cost of one translation unit that evaluates a 5-op elementwise expression,
# y = (a*b + c) * d - e / f, in tenet (<tenet/tenet.hpp>), Eigen's Tensor module
# (<unsupported/Eigen/CXX11/Tensor>), Eigen's Array (<Eigen/Core>, for reference) and
# LibTorch (<torch/torch.h>, only when its headers are found). Prints the median wall-clock
# seconds of 3 compiles of each (-c only, no link), with the flags tenet_bench uses.
#
#   bench/compile_time.sh            # from the repository root or anywhere
#   CXX=clang++ CXXFLAGS="-O2" bench/compile_time.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CXX="${CXX:-g++}"
CXXFLAGS="${CXXFLAGS:--std=c++20 -O3 -march=native}"
EIGEN_INC="${EIGEN_INC:-/usr/include/eigen3}"
TORCH_INC="${TORCH_INC:-/usr/include/torch/csrc/api/include}"
REPS=3

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/tenet_tu.cpp" <<'CPP'
#include <tenet/tenet.hpp>
tenet::Tensor<float> f(const tenet::Tensor<float>& a, const tenet::Tensor<float>& b, const tenet::Tensor<float>& c,
                       const tenet::Tensor<float>& d, const tenet::Tensor<float>& e, const tenet::Tensor<float>& g) {
    tenet::Tensor<float> y = (a * b + c) * d - e / g;
    return y;
}
CPP

cat > "$WORK/eigen_tensor_tu.cpp" <<'CPP'
#include <unsupported/Eigen/CXX11/Tensor>
using T1 = Eigen::Tensor<float, 1>;
T1 f(const T1& a, const T1& b, const T1& c, const T1& d, const T1& e, const T1& g) {
    T1 y = (a * b + c) * d - e / g;
    return y;
}
CPP

cat > "$WORK/eigen_array_tu.cpp" <<'CPP'
#include <Eigen/Core>
using A1 = Eigen::ArrayXf;
A1 f(const A1& a, const A1& b, const A1& c, const A1& d, const A1& e, const A1& g) {
    A1 y = (a * b + c) * d - e / g;
    return y;
}
CPP

cat > "$WORK/torch_tu.cpp" <<'CPP'
#include <torch/torch.h>
torch::Tensor f(const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& c, const torch::Tensor& d,
                const torch::Tensor& e, const torch::Tensor& g) {
    torch::Tensor y = (a * b + c) * d - e / g;
    return y;
}
CPP

# median of REPS compile times, in seconds
time_compile() {
    local src="$1"; shift
    local times=()
    for _ in $(seq "$REPS"); do
        local t0 t1
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        if ! "$CXX" $CXXFLAGS "$@" -c "$src" -o "$WORK/out.o"; then
            echo "compile_time.sh: $src failed to compile" >&2
            exit 1
        fi
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc -l)")
    done
    printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (REPS + 1) / 2 ))p"
}

printf '%-40s %s\n' "translation unit ($CXX $CXXFLAGS)" "median of $REPS, s"
# tenet's linear algebra sits on Eigen (and cblas.h when OpenBLAS is there), as in its CMake target.
TENET_FLAGS=(-I"$ROOT/include" -I"$EIGEN_INC" -fopenmp)
if [[ -f /usr/include/x86_64-linux-gnu/cblas.h || -f /usr/include/cblas.h ]]; then
    TENET_FLAGS+=(-DTENET_HAVE_CBLAS=1 -DTENET_HAVE_OPENBLAS=1)
fi
tenet_seconds=$(time_compile "$WORK/tenet_tu.cpp" "${TENET_FLAGS[@]}") || exit 1
printf '%-40s %.2f\n' "tenet <tenet/tenet.hpp>" "$tenet_seconds"
if [[ -f "$EIGEN_INC/unsupported/Eigen/CXX11/Tensor" ]]; then
    printf '%-40s %.2f\n' "Eigen Tensor module" "$(time_compile "$WORK/eigen_tensor_tu.cpp" -I"$EIGEN_INC")"
    printf '%-40s %.2f\n' "Eigen Array <Eigen/Core> (reference)" "$(time_compile "$WORK/eigen_array_tu.cpp" -I"$EIGEN_INC")"
else
    echo "Eigen not found at $EIGEN_INC (set EIGEN_INC); skipped"
fi
if [[ -f "$TORCH_INC/torch/torch.h" ]]; then
    printf '%-40s %.2f\n' "LibTorch <torch/torch.h>" "$(time_compile "$WORK/torch_tu.cpp" -I"$TORCH_INC" -D_GLIBCXX_USE_CXX11_ABI=1)"
else
    echo "LibTorch headers not found at $TORCH_INC (set TORCH_INC); skipped"
fi
