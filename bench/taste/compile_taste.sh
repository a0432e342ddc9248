#!/usr/bin/env bash
# Compile-and-link wall time of the README's "A taste" program (examples/readme_taste.cpp),
# header-only and in compiled mode (linked with the compiled library, built once first and not
# counted), beside LibTorch's equivalent (readme_taste_torch.cpp), g++ -O2, REPS rounds
# alternated. Prints wall and user seconds per build.
#
#   bench/taste/compile_taste.sh          # REPS=3 CXX=g++ EIGEN_INC=/usr/include/eigen3
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CXX="${CXX:-g++}"
EIGEN_INC="${EIGEN_INC:-/usr/include/eigen3}"
TORCH_INC="${TORCH_INC:-/usr/include/torch/csrc/api/include}"
REPS="${REPS:-3}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

FLAGS=(-std=c++20 -O2 -I"$ROOT/include" -I"$ROOT/kernels" -I"$EIGEN_INC" -fopenmp)
echo "building the compiled library (not counted)"
"$CXX" "${FLAGS[@]}" -DTENET_COMPILED=1 -c "$ROOT/include/tenet/compiled/library.cpp" -o library.o
for t in bool uint8_t int8_t int16_t int32_t int64_t Half BFloat16 float double; do
    printf '#define TENET_WALK_ELEMENT %s\n#include "%s/include/tenet/compiled/walk.cpp"\n' "$t" "$ROOT" > "walk_$t.cpp"
    "$CXX" "${FLAGS[@]}" -DTENET_COMPILED=1 -c "walk_$t.cpp" -o "walk_$t.o"
done
ar rcs libtenet_compiled.a library.o walk_*.o

for _ in $(seq "$REPS"); do
    /usr/bin/time -f "tenet, header-only:      %e s wall, %U s user" \
        "$CXX" "${FLAGS[@]}" "$ROOT/examples/readme_taste.cpp" -o taste_header_only
    /usr/bin/time -f "tenet, tenet::compiled:  %e s wall, %U s user" \
        "$CXX" "${FLAGS[@]}" -DTENET_COMPILED=1 "$ROOT/examples/readme_taste.cpp" libtenet_compiled.a -o taste_compiled
    if [[ -f "$TORCH_INC/torch/torch.h" ]]; then
        /usr/bin/time -f "LibTorch:                %e s wall, %U s user" \
            "$CXX" -std=c++17 -O2 -isystem "$TORCH_INC" -D_GLIBCXX_USE_CXX11_ABI=1 "$HERE/readme_taste_torch.cpp" \
            -o taste_torch -ltorch -ltorch_cpu -lc10
    fi
done
./taste_header_only > header_only.txt
./taste_compiled > compiled.txt
cmp -s header_only.txt compiled.txt && echo "both tenet programs print the same"
