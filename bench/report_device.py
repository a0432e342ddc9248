#!/usr/bin/env python3
"""Turns a tenet_device_bench JSON run into the RESULTS.md table: each benchmark's median time,
its bandwidth, and the ratio of that bandwidth to the device-to-device copy's (the bar is >= 0.85
for the fused pointwise rows).

    build-bench/bench/tenet_device_bench --benchmark_format=json --benchmark_repetitions=5 \\
        --benchmark_report_aggregates_only=true > bench/results_device.json
    python3 bench/report_device.py bench/results_device.json
"""
import json
import sys


def main(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    medians = {r["run_name"]: r for r in runs if r.get("aggregate_name") == "median"}
    if not medians:  # a run without repetitions
        medians = {r["name"]: r for r in runs}
    copy = medians.get("BM_D_copy")
    copy_bw = copy["bytes_per_second"] if copy else None
    print("| benchmark | median time (ms) | GB/s | ratio to copy bandwidth |")
    print("|---|---:|---:|---:|")
    for name, r in medians.items():
        bw = r.get("bytes_per_second", 0.0)
        ratio = "%.2f" % (bw / copy_bw) if copy_bw else "-"
        print("| %s | %.3f | %.1f | %s |" % (name[3:], r["real_time"], bw / 1e9, ratio))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/results_device.json")
