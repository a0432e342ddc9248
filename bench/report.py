#!/usr/bin/env python3
"""Pointwise suite (W1-W7) report: medians, ratios to the plain loop, a Markdown table, a plot.

Reads Google Benchmark JSON written with aggregates, or runs tenet_bench to produce it:

    # run the suite (5 repetitions, medians) and report
    python3 bench/report.py --run build-bench/bench/tenet_bench
    # or report an existing run
    build-bench/bench/tenet_bench --benchmark_filter=W --benchmark_format=json \\
        --benchmark_repetitions=5 --benchmark_report_aggregates_only=true > pointwise.json
    python3 bench/report.py pointwise.json

Writes bench/results_pointwise.md (the table) and bench/pointwise.png (bar chart of
throughput ratios to the plain loop, log scale). The plot needs matplotlib
(`apt-get install python3-matplotlib`, then run it with /usr/bin/python3 if `python3` is another
interpreter such as pyenv, or `pip install matplotlib`); without it the table is
still written and the plot is skipped with a note.

Benchmark names follow BM_<workload>_<implementation>/<args>. The baseline of a workload is
its `plain` row; "fresh" workloads (W1fresh, W7fresh: a new result every iteration) are
compared with the plain loop writing into an existing buffer (W1into / W7into), the floor.
ratio = baseline time / time, so > 1 is faster than the plain loop. Times are medians of
the benchmark thread's CPU time by default (--metric real for wall clock).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))

# Fresh-result workloads are measured against the into-existing plain loop.
BASELINE_WORKLOAD = {"W1fresh": "W1into", "W7fresh": "W7into"}

DESCRIPTION = {
    "W1into": "y = a*b + c into existing y",
    "W1fresh": "Tensor y = a*b + c (fresh result)",
    "W2": "y = sigmoid(a*b + c)*d - 0.5*a",
    "W3": "Y = (X + bias[1,N]) * scale[B,1], 4096x4096",
    "W4": "Y = A.t() + B, 4096x4096",
    "W5": "s = sum(a*b + c)",
    "W7into": "c = a + b, 16 elements, into existing",
    "W7fresh": "c = a + b, 16 elements, fresh result",
}

NAME_RE = re.compile(r"^BM_(W\d+(?:into|fresh)?)_([A-Za-z0-9_]+?)(?:/(.*))?$")


def run_bench(binary: str, extra: list[str]) -> dict:
    cmd = [binary, "--benchmark_filter=W", "--benchmark_format=json", "--benchmark_repetitions=5",
           "--benchmark_report_aggregates_only=true", *extra]
    print("running:", " ".join(cmd), file=sys.stderr)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


IMPL_ORDER = ["tenet", "plain", "plain_malloc", "plain_fastmath", "plain_naive", "eigen", "eigen_logistic",
              "eigen_tensor", "torch", "torch_eager"]


def load_rows(data: dict, metric: str = "cpu") -> "OrderedDict[tuple[str, str], dict]":
    """(workload, args) -> {impl: {time_ns, bytes_per_second, items_per_second}}, medians."""
    rows: OrderedDict = OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        m = NAME_RE.match(name)
        if not m:
            continue
        workload, impl, args = m.group(1), m.group(2), m.group(3) or ""
        if workload == "W6":
            continue  # the matmul suite: bench/report_matmul.py
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        rows.setdefault((workload, args), OrderedDict())[impl] = {
            "time_ns": b[f"{metric}_time"] * scale,
            "bytes_per_second": b.get("bytes_per_second"),
            "items_per_second": b.get("items_per_second"),
        }
    # Random interleaving shuffles the JSON: order workloads W1..W7 (largest N first) and
    # implementations as IMPL_ORDER, so every run's table and plot read the same way.
    def workload_key(item):
        (workload, args), _ = item
        m = re.match(r"W(\d+)(.*)", workload)
        num, form = (int(m.group(1)), m.group(2)) if m else (99, workload)
        return (num, form != "into", form, -int(args or 0))

    def impl_key(impl):
        return (IMPL_ORDER.index(impl) if impl in IMPL_ORDER else len(IMPL_ORDER), impl)

    return OrderedDict(
        (key, OrderedDict(sorted(impls.items(), key=lambda kv: impl_key(kv[0]))))
        for key, impls in sorted(rows.items(), key=workload_key))


def fmt_time(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.1f} ns"


def fmt_args(workload: str, args: str) -> str:
    if not args:
        return ""
    n = int(args)
    k = n.bit_length() - 1
    return f"N=2^{k}" if n == 1 << k else f"N={n}"


def build_table(rows) -> tuple[str, list]:
    lines = ["| workload | implementation | median time | GB/s | ratio to plain |",
             "|---|---|---:|---:|---:|"]
    plot = []  # (group label, impl, ratio)
    for (workload, args), impls in rows.items():
        base_impls = rows.get((BASELINE_WORKLOAD.get(workload, workload), args), {})
        base = base_impls.get("plain")
        label = workload + (f" {fmt_args(workload, args)}" if args else "")
        for impl, r in impls.items():
            ratio = base["time_ns"] / r["time_ns"] if base else None
            gbs = r["bytes_per_second"] / 1e9 if r["bytes_per_second"] else None
            desc = DESCRIPTION.get(workload, workload)
            gbs_s = f"{gbs:.2f}" if gbs is not None else "—"
            ratio_s = f"{ratio:.2f}" if ratio is not None else "—"
            lines.append(f"| {label}: {desc} | {impl} | {fmt_time(r['time_ns'])} | {gbs_s} | {ratio_s} |")
            if ratio is not None:
                plot.append((label, impl, ratio))
    return "\n".join(lines) + "\n", plot


def make_plot(plot, path: str, title: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found (apt-get install python3-matplotlib); skipping the plot", file=sys.stderr)
        return False
    groups = list(OrderedDict.fromkeys(g for g, _, _ in plot))
    impls = list(OrderedDict.fromkeys(i for _, i, _ in plot))
    colors = {}
    cmap = plt.get_cmap("tab10" if len(impls) <= 10 else "tab20")
    for k, impl in enumerate(impls):
        colors[impl] = cmap(k % cmap.N)
    fig, ax = plt.subplots(figsize=(max(10, 1.3 * len(groups)), 5.5))
    width = 0.8
    for gi, g in enumerate(groups):
        members = [(i, r) for gg, i, r in plot if gg == g]
        w = width / len(members)
        for k, (impl, ratio) in enumerate(members):
            x = gi - width / 2 + (k + 0.5) * w
            ax.bar(x, ratio, w * 0.95, color=colors[impl], label=impl)
    handles, labels = ax.get_legend_handles_labels()
    uniq = OrderedDict(zip(labels, handles))
    ax.legend(uniq.values(), uniq.keys(), fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("throughput ratio to plain loop (log; >1 = faster)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="?", help="Google Benchmark JSON (aggregates); omit with --run")
    ap.add_argument("--run", metavar="TENET_BENCH", help="run this tenet_bench binary first")
    ap.add_argument("--save-json", metavar="PATH", help="with --run: keep the JSON here")
    ap.add_argument("--metric", choices=["cpu", "real"], default="cpu",
                    help="cpu (default): CPU time of the benchmark thread, robust to other load on a shared "
                         "machine, right for the one-thread runs; real: wall clock (use it with TENET_BENCH_THREADS>1)")
    ap.add_argument("--out", default=os.path.join(HERE, "results_pointwise.md"), help="Markdown table")
    ap.add_argument("--plot", default=os.path.join(HERE, "pointwise.png"), help="plot image")
    args, extra = ap.parse_known_args()
    if args.run:
        data = run_bench(args.run, extra)
        if args.save_json:
            with open(args.save_json, "w") as f:
                json.dump(data, f, indent=1)
    elif args.json:
        with open(args.json) as f:
            text = f.read()
        # --benchmark_format=json on stdout may be preceded by stray log lines.
        data = json.loads(text[text.index("{"):])
    else:
        ap.error("give a JSON file or --run TENET_BENCH")
    rows = load_rows(data, args.metric)
    if not rows:
        print("no W* benchmarks in the input", file=sys.stderr)
        return 1
    table, plot = build_table(rows)
    ctx = data.get("context", {})
    header = (f"<!-- generated by bench/report.py from a {ctx.get('date', '?')} run on "
              f"{ctx.get('host_name', '?')}, {ctx.get('num_cpus', '?')} CPUs, "
              f"library build {ctx.get('library_build_type', '?')}, {args.metric} time -->\n")
    with open(args.out, "w") as f:
        f.write(header + table)
    print(table)
    print(f"wrote {args.out}", file=sys.stderr)
    make_plot(plot, args.plot, f"tenet pointwise suite: ratio to plain loop, median of 5 ({args.metric} time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
