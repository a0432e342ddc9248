#!/usr/bin/env bash
# Compile-time cost of tenet beside Eigen's Tensor module (and LibTorch when its headers are
# found): translation units that assign one, or ten distinct, 5-op elementwise float
# expressions to new tensors. tenet is measured through <tenet/tenet.hpp> with autograd on
# (the default) and off (TENET_AUTOGRAD=0), header-only and in compiled mode (TENET_COMPILED=1:
# the TU of a program linked with tenet::compiled; the library's own TU is measured once, last),
# and through the module header <tenet/expr.hpp>.
# Prints, per TU, the median user CPU seconds of REPS compiles (-c only, no link), the peak
# compiler memory, the object's code size, and the ratio to Eigen Tensor's TU of the same
# expressions. The bars of issue 17 are read from this table (bench/RESULTS.md).
#
#   bench/compile_time.sh                       # from the repository root or anywhere
#   CXX=clang++ CXXFLAGS="-std=c++20 -O3" REPS=5 bench/compile_time.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CXX="${CXX:-g++}"
CXXFLAGS="${CXXFLAGS:--std=c++20 -O2}"
EIGEN_INC="${EIGEN_INC:-/usr/include/eigen3}"
TORCH_INC="${TORCH_INC:-/usr/include/torch/csrc/api/include}"
REPS="${REPS:-3}"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Ten distinct 5-op expressions of six operands; the one-expression TUs use the first.
EXPRESSIONS=(
    "(a * b + c) * d - e / g"
    "(a + b) * (c - d) + e * g"
    "a * b * c + d * e - g"
    "(a - b) / (c + d) * e + g"
    "a / b + c / d - e * g"
    "(a * a + b) * (c * d - e) + g"
    "a - (b * c - d) / e * g"
    "(a + b + c) * d / e - g"
    "a * (b - c) * (d + e) - g"
    "(a / b - c) * d + e + g"
)

# write_tu FILE PRELUDE TYPE COUNT: COUNT functions, each assigning one expression to a new TYPE.
write_tu() {
    local file="$1" prelude="$2" type="$3" count="$4"
    {
        echo "$prelude"
        for ((k = 0; k < count; ++k)); do
            echo "$type f$k(const $type& a, const $type& b, const $type& c, const $type& d, const $type& e, const $type& g) {"
            echo "    $type y = ${EXPRESSIONS[$k]};"
            echo "    return y;"
            echo "}"
        done
    } > "$file"
}
for n in 1 10; do
    write_tu "$WORK/tenet_$n.cpp" "#include <tenet/tenet.hpp>
using T1 = tenet::Tensor<float>;" T1 "$n"
    write_tu "$WORK/tenet_expr_$n.cpp" "#include <tenet/expr.hpp>
using T1 = tenet::Tensor<float>;" T1 "$n"
    write_tu "$WORK/eigen_$n.cpp" "#include <unsupported/Eigen/CXX11/Tensor>
using T1 = Eigen::Tensor<float, 1>;" T1 "$n"
    write_tu "$WORK/torch_$n.cpp" "#include <torch/torch.h>
using T1 = torch::Tensor;" T1 "$n"
done

# measure SRC FLAGS...: "user_seconds peak_MB code_KB", medians of REPS compiles.
measure() {
    local src="$1"; shift
    local users=() mems=()
    for _ in $(seq "$REPS"); do
        # shellcheck disable=SC2086
        if ! /usr/bin/time -f "%U %M" -o "$WORK/time.txt" "$CXX" $CXXFLAGS "$@" -c "$src" -o "$WORK/out.o" 2> "$WORK/err.txt"; then
            cat "$WORK/err.txt" >&2
            echo "compile_time.sh: $src failed to compile" >&2
            exit 1
        fi
        read -r user mem < <(tail -1 "$WORK/time.txt")
        users+=("$user"); mems+=("$mem")
    done
    local med=$(( (REPS + 1) / 2 ))
    local user mem text
    user=$(printf '%s\n' "${users[@]}" | sort -g | sed -n "${med}p")
    mem=$(printf '%s\n' "${mems[@]}" | sort -g | sed -n "${med}p")
    text=$(size "$WORK/out.o" | awk 'NR == 2 { print $1 }')
    echo "$user $(( mem / 1024 )) $(( text / 1024 ))"
}

TENET_FLAGS=(-I"$ROOT/include" -I"$ROOT/kernels" -I"$EIGEN_INC" -fopenmp)
if [[ ! -f "$EIGEN_INC/unsupported/Eigen/CXX11/Tensor" ]]; then
    echo "compile_time.sh: Eigen not found at $EIGEN_INC (set EIGEN_INC)" >&2
    exit 1
fi

declare -A EIGEN_USER
row() {  # row LABEL N SRC FLAGS...
    local label="$1" n="$2" src="$3"; shift 3
    read -r user mem text < <(measure "$src" "$@")
    printf '%-52s %8.2f %8s %8s %8.2f\n' "$label" "$user" "$mem" "$text" "$(echo "$user / ${EIGEN_USER[$n]}" | bc -l)"
}

echo "$CXX $CXXFLAGS; median of $REPS compiles; ratio: user CPU s / Eigen Tensor's TU of the same expressions"
printf '%-52s %8s %8s %8s %8s\n' "translation unit" "user s" "peak MB" "code KB" "ratio"
for n in 1 10; do
    read -r user mem text < <(measure "$WORK/eigen_$n.cpp" -I"$EIGEN_INC")
    EIGEN_USER[$n]=$user
    printf '%-52s %8.2f %8s %8s %8.2f\n' "Eigen Tensor, $n expression(s)" "$user" "$mem" "$text" 1
    row "tenet <tenet/tenet.hpp>, $n, autograd on" "$n" "$WORK/tenet_$n.cpp" "${TENET_FLAGS[@]}"
    row "tenet <tenet/tenet.hpp>, $n, autograd on, compiled" "$n" "$WORK/tenet_$n.cpp" "${TENET_FLAGS[@]}" -DTENET_COMPILED=1
    row "tenet <tenet/tenet.hpp>, $n, TENET_AUTOGRAD=0" "$n" "$WORK/tenet_$n.cpp" "${TENET_FLAGS[@]}" -DTENET_AUTOGRAD=0
    row "tenet <tenet/tenet.hpp>, $n, TENET_AUTOGRAD=0, compiled" "$n" "$WORK/tenet_$n.cpp" "${TENET_FLAGS[@]}" -DTENET_AUTOGRAD=0 -DTENET_COMPILED=1
    row "tenet <tenet/expr.hpp>, $n, autograd on" "$n" "$WORK/tenet_expr_$n.cpp" "${TENET_FLAGS[@]}"
    row "tenet <tenet/expr.hpp>, $n, TENET_AUTOGRAD=0" "$n" "$WORK/tenet_expr_$n.cpp" "${TENET_FLAGS[@]}" -DTENET_AUTOGRAD=0
    row "tenet <tenet/expr.hpp>, $n, TENET_AUTOGRAD=0, compiled" "$n" "$WORK/tenet_expr_$n.cpp" "${TENET_FLAGS[@]}" -DTENET_AUTOGRAD=0 -DTENET_COMPILED=1
    if [[ -f "$TORCH_INC/torch/torch.h" ]]; then
        row "LibTorch <torch/torch.h>, $n" "$n" "$WORK/torch_$n.cpp" -I"$TORCH_INC" -I/usr/include -D_GLIBCXX_USE_CXX11_ABI=1
    fi
done
# The compiled library itself (tenet::compiled's one TU), compiled once per build in compiled mode.
read -r user mem text < <(measure "$ROOT/include/tenet/compiled/library.cpp" "${TENET_FLAGS[@]}" -DTENET_COMPILED=1)
printf '%-52s %8.2f %8s %8s\n' "the compiled library (once per build)" "$user" "$mem" "$text"
if [[ ! -f "$TORCH_INC/torch/torch.h" ]]; then
    echo "(LibTorch headers not found at $TORCH_INC: set TORCH_INC to add its rows)"
fi
