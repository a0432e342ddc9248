#!/usr/bin/env python3
"""Turns a tenet_device_bench JSON run into RESULTS.md's tables.

Pointwise rows (bench_device.cu): each median time, its bandwidth, and the ratio of that
bandwidth to the device-to-device copy's (the bar is >= 0.85 for the fused pointwise rows).
Operation rows (bench_device_ops.cu): tenet's median beside its twin's (cuFFT, CUB or a hand
kernel) and, given the output of bench/cuda/ops_torch_cuda.py from the same session, PyTorch
CUDA's; ratios are the other's time over tenet's (above 1: tenet is faster).

    tenet_device_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \\
        --benchmark_out=bench/results_device.json --benchmark_out_format=json
    python3 bench/cuda/ops_torch_cuda.py > torch_cuda.txt
    python3 bench/report_device.py bench/results_device.json [torch_cuda.txt]
"""
import json
import re
import sys


def medians(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    picked = [r for r in runs if r.get("aggregate_name") == "median"] or runs
    out = {}
    for r in picked:
        if r.get("error_occurred"):
            continue
        name = r.get("run_name", r["name"]).split("/")[0]
        out[name[3:] if name.startswith("BM_") else name] = r
    return out


def torch_medians(path):
    rows = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\|\s*(\w+)\s*\|\s*([0-9.]+)\s*\|", line)
            if m:
                rows[m.group(1)] = float(m.group(2))
    return rows


def main(path, torch_path=None):
    rows = medians(path)
    torch = torch_medians(torch_path) if torch_path else {}
    copy_bw = rows.get("D_copy", {}).get("bytes_per_second")
    print("| benchmark | median time (ms) | GB/s | ratio to copy bandwidth |")
    print("|---|---:|---:|---:|")
    for name, r in rows.items():
        if not name.startswith("D_"):
            continue
        bw = r.get("bytes_per_second", 0.0)
        ratio = "%.2f" % (bw / copy_bw) if copy_bw and bw else "-"
        print("| %s | %.3f | %.1f | %s |" % (name, r["real_time"], bw / 1e9, ratio))
    print()
    print("| row | tenet (ms) | twin | twin (ms) | twin / tenet | PyTorch CUDA (ms) | PyTorch / tenet |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name, r in rows.items():
        if not name.endswith("_tenet") or name.startswith("D_"):
            continue
        base = name[: -len("_tenet")]
        twin = next(((k[len(base) + 1:], v) for k, v in rows.items() if k.startswith(base + "_") and k != name), None)
        t = r["real_time"]
        twin_text = "%s | %.4f | %.2f" % (twin[0], twin[1]["real_time"], twin[1]["real_time"] / t) if twin else "- | - | -"
        pt = torch.get(base)
        torch_text = "%.4f | %.2f" % (pt, pt / t) if pt else "- | -"
        print("| %s | %.4f | %s | %s |" % (base, t, twin_text, torch_text))
    failed = [r["name"] for r in json.load(open(path))["benchmarks"] if r.get("error_occurred")]
    for name in sorted(set(failed)):
        print("skipped: %s" % name)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/results_device.json", sys.argv[2] if len(sys.argv) > 2 else None)
