#!/usr/bin/env python3
"""Matmul suite (W6) report: medians, GFLOP/s and ratios to the best of Eigen and OpenBLAS.

    build-bench/bench/tenet_bench --benchmark_filter=W6 --benchmark_format=json \\
        --benchmark_repetitions=5 --benchmark_report_aggregates_only=true > bench/results_matmul.json
    python3 bench/report_matmul.py bench/results_matmul.json

Prints the Markdown table of bench/RESULTS.md's "Matmul (W6)" section. Names are
BM_W6_<impl>/<n> (square n x n) and BM_W6batch_<impl>/<n> (64 products of n x n). The
reference of a row is the faster of `eigen` and `openblas` for that size; ratio = reference
time / time, so >= 0.9 meets the bar and > 1 is faster. Times are medians of CPU time.
"""

import json
import re
import sys
from collections import OrderedDict

NAME_RE = re.compile(r"^BM_(W6|W6batch)_([a-z]+)/(\d+)$")


def main() -> int:
    data = json.load(open(sys.argv[1]))
    rows = OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        m = NAME_RE.match(b.get("run_name", b["name"]))
        if not m:
            continue
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        rows.setdefault((m.group(1), int(m.group(3))), OrderedDict())[m.group(2)] = (
            b["cpu_time"] * scale, b.get("GFLOPS"))
    print("| workload | implementation | median time | GFLOP/s | ratio to best of Eigen/OpenBLAS |")
    print("|---|---|---:|---:|---:|")
    for (workload, n), impls in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        refs = [impls[k][0] for k in ("eigen", "openblas") if k in impls]
        best = min(refs) if refs else None
        label = f"{n}x{n}" if workload == "W6" else f"64 x ({n}x{n})"
        order = ["tenet", "eigen", "openblas", "torch"]
        for impl, (t, gflops) in sorted(impls.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 9):
            time = f"{t / 1e6:.2f} ms" if t >= 1e6 else f"{t / 1e3:.2f} µs"
            ratio = f"{best / t:.2f}" if best else "—"
            print(f"| W6 {label} | {impl} | {time} | {gflops:.1f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
