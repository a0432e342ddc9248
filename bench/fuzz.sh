#!/usr/bin/env bash
# Fuzzes tenet's loaders with libFuzzer (clang-14 with its fuzzer runtime, Debian
# libclang-rt-14-dev): every harness tests/fuzz/fuzz_<format>.cpp is built with
# -fsanitize=fuzzer,address,undefined and run for FUZZ_SECONDS (default 300) seconds on one core,
# starting from a copy of its committed seed corpus tests/fuzz/corpus/<format>/. Prints, per
# harness, the executions, the corpus size reached and whether anything crashed; a crash leaves
# its input in the work directory (crash-*) and makes the script fail. The committed corpora are
# replayed by the unit tests (tests/fuzz/test_fuzz_corpus.cpp), under ASan + UBSan in CI.
#
#   bench/fuzz.sh [format...]      e.g. bench/fuzz.sh npy pt;   FUZZ_SECONDS=60 bench/fuzz.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${FUZZ_SECONDS:-300}
work=${FUZZ_WORK:-$(mktemp -d /tmp/tenet-fuzz.XXXXXX)}
formats=("$@")
if ((${#formats[@]} == 0)); then
    for h in tests/fuzz/fuzz_*.cpp; do
        f=$(basename "$h" .cpp)
        formats+=("${f#fuzz_}")
    done
fi
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Iinclude -Ikernels -I/usr/include/eigen3 -I/usr/include/hdf5/serial
       -DTENET_HAVE_LIBZIP=1 -DTENET_HAVE_DLPACK=1)
failed=0
printf '%-8s %12s %8s %s\n' format executions corpus result
for format in "${formats[@]}"; do
    harness=tests/fuzz/fuzz_$format.cpp
    [[ -f $harness ]] || { echo "fuzz.sh: no harness $harness" >&2; exit 1; }
    mkdir -p "$work/$format/corpus"
    cp -r tests/fuzz/corpus/"$format"/. "$work/$format/corpus/" 2>/dev/null || true
    clang++-14 "${flags[@]}" "$harness" -o "$work/$format/fuzzer" -lzip
    log=$work/$format/log
    if (cd "$work/$format" && ./fuzzer -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 corpus) >"$log" 2>&1; then
        result="0 crashes"
    else
        result="FAILED (see $log)"
        failed=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    size=$(find "$work/$format/corpus" -type f | wc -l)
    printf '%-8s %12s %8s %s\n' "$format" "$runs" "$size" "$result"
done
echo "fuzz.sh: work directory $work"
exit $failed
