#!/usr/bin/env bash
# The build matrix of issue 26: the same programs built in the six ways users build them,
# {-O2, -O3} x {no -march, -mavx2 -mfma, -march=native}, run one after another on one thread,
# with PyTorch eager's times of the ported programs measured in the same session.
#
#   bench/build_matrix.sh [out_dir]        (default: build-matrix/)
#   SKIP_BUILD=1 bench/build_matrix.sh ... (runs the binaries of an earlier call again)
#
# Per cell it builds one binary from bench_polyfit.cpp, bench_autograd.cpp (W8),
# bench_pointwise.cpp (W1, W2) and bench_programs.cpp (g++, Google Benchmark, OpenBLAS, Highway's
# vqsort as CMake finds them), runs the matrix's benchmarks into <out>/<cell>.json, runs
# bench/programs_torch.py and bench/polyfit_torch.py into <out>/torch.txt, then writes the table
# and the plot (bench/report_matrix.py: <out>/matrix.md, <out>/matrix.png).
# Needs: g++, libbenchmark-dev, libeigen3-dev, libopenblas-dev, libhwy-dev, python3-torch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-build-matrix}
mkdir -p "$out"
jobs=${JOBS:-2}

common=(-std=c++20 -fopenmp -DNDEBUG -I"$root/include" -I/usr/include/eigen3 -DTENET_HAVE_CBLAS=1
        -DTENET_HAVE_OPENBLAS=1 -DTENET_HAVE_VQSORT=1)
libs=(-lbenchmark -lbenchmark_main -lopenblas -lhwy_contrib -lhwy -lpthread)
sources=(bench_polyfit.cpp bench_autograd.cpp bench_pointwise.cpp bench_programs.cpp)
cells=("O2:" "O2:-mavx2 -mfma" "O2:-march=native" "O3:" "O3:-mavx2 -mfma" "O3:-march=native")

cell_name() {  # "O2:-mavx2 -mfma" -> O2_avx2
    local opt=${1%%:*} arch=${1#*:}
    case "$arch" in "") echo "${opt}_none" ;; "-march=native") echo "${opt}_native" ;; *) echo "${opt}_avx2" ;; esac
}

# Every object of every cell, $jobs compiles at a time.
build_cell() {
    local cell=$1 name opt arch
    name=$(cell_name "$cell"); opt=-${cell%%:*}; arch=${cell#*:}
    mkdir -p "$out/$name"
    local objects=()
    for src in "${sources[@]}"; do
        # shellcheck disable=SC2086
        g++ "${common[@]}" $opt $arch -c "$here/$src" -o "$out/$name/${src%.cpp}.o" &
        objects+=("$out/$name/${src%.cpp}.o")
        while (( $(jobs -rp | wc -l) >= jobs )); do wait -n; done
    done
    # The plain loops' -ffast-math TU (W2's vectorised-exp reference), as tenet_bench builds it.
    # shellcheck disable=SC2086
    g++ "${common[@]}" $opt $arch -ffast-math -c "$here/bench_plain_kernels.cpp" -o "$out/$name/plain.o"
    wait
    # shellcheck disable=SC2086
    g++ $opt $arch -fopenmp "${objects[@]}" "$out/$name/plain.o" -o "$out/$name/bench" "${libs[@]}"
}

filter='BM_polyfit|BM_W1into_(tenet|plain)/1048576|BM_W2_(tenet|plain)/1048576|BM_W8_tenet(_scalar_bias)?/1048576|BM_program'
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then  # SKIP_BUILD=1: run the binaries built before again
    for cell in "${cells[@]}"; do
        name=$(cell_name "$cell")
        echo "==> building $name ($cell)"
        build_cell "$cell"
    done
fi
for cell in "${cells[@]}"; do
    name=$(cell_name "$cell")
    echo "==> running $name"
    "$out/$name/bench" --benchmark_filter="$filter" --benchmark_repetitions=5 \
        --benchmark_report_aggregates_only=true --benchmark_format=json > "$out/$name.json"
done
echo "==> PyTorch eager"
{
    /usr/bin/python3 "$here/programs_torch.py"
    /usr/bin/python3 "$here/polyfit_torch.py"
} | tee "$out/torch.txt"
/usr/bin/python3 "$here/report_matrix.py" "$out"
