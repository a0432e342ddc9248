#!/usr/bin/env python3
"""The build matrix's report (bench/build_matrix.sh): one table of CPU times per program and
build, the spelling ratios, the ported programs against PyTorch eager, and a plot.

    /usr/bin/python3 bench/report_matrix.py <out_dir> [<earlier_run_dir> ...]

Reads <out_dir>/<cell>.json (Google Benchmark, aggregates) for the six cells and
<out_dir>/torch.txt (programs_torch.py and polyfit_torch.py output), and the same files of any
earlier runs named after it (each time is then the best of the runs' medians: on a shared VM the
noise only ever adds time); writes <out_dir>/matrix.md and, with matplotlib, <out_dir>/matrix.png.
"""
import json
import os
import re
import sys

CELLS = [("O2_none", "-O2"), ("O2_avx2", "-O2 -mavx2 -mfma"), ("O2_native", "-O2 -march=native"),
         ("O3_none", "-O3"), ("O3_avx2", "-O3 -mavx2 -mfma"), ("O3_native", "-O3 -march=native")]

# (row label, benchmark name, PyTorch program name in torch.txt or None)
ROWS = [
    ("polyfit, tensors (the fifth program)", "BM_polyfit_tensors", "polyfit_tensors"),
    ("polyfit, autograd (`Tensor<float> y_pred`)", "BM_polyfit_autograd", "polyfit_autograd"),
    ("polyfit, autograd (`auto y_pred`)", "BM_polyfit_autograd_auto", "polyfit_autograd"),
    ("polyfit, autograd accumulating", "BM_polyfit_autograd_accumulate", "polyfit_autograd_accumulate"),
    ("W1 `a*b + c` into y, 2^20", "BM_W1into_tenet/1048576", None),
    ("W1, plain loop", "BM_W1into_plain/1048576", None),
    ("W2 `sigmoid(x)`, 2^20", "BM_W2_tenet/1048576", None),
    ("W2, plain loop", "BM_W2_plain/1048576", None),
    ("W8 fused backward, bias [n], 2^20", "BM_W8_tenet/1048576", None),
    ("W8, 0-d bias, 2^20", "BM_W8_tenet_scalar_bias/1048576", None),
    ("k-means (KeOps tutorial)", "BM_program_kmeans", "kmeans"),
    ("regression (pytorch/examples)", "BM_program_regression", "regression"),
    ("Mandelbrot (COMP3710 lab)", "BM_program_mandelbrot", "mandelbrot"),
    ("two-layer net (Learning PyTorch)", "BM_program_two_layer", "two_layer"),
]
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def medians(path):
    """benchmark name -> median CPU time in ms."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name = re.sub(r"/iterations:\d+|/repeats:\d+|_median$", "", b["name"])
        out[name] = b["cpu_time"] * UNIT_MS[b["time_unit"]]
    return out


def torch_times(path):
    """PyTorch program name -> CPU ms (programs_torch.py: "name  X ms CPU"; polyfit_torch.py:
    "polyfit_name  X ms wall  Y ms CPU")."""
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = re.match(r"(\w+)\s+([\d.]+) ms CPU", line)
        if m:
            out[m.group(1)] = float(m.group(2))
            continue
        m = re.match(r"(polyfit_\w+)\s+[\d.]+ ms wall\s+([\d.]+) ms CPU", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def fmt(ms):
    return "%.3g ms" % ms if ms >= 1 else "%.3g µs" % (ms * 1e3)


def best_of(maps):
    """Per key, the least value over the runs that have it."""
    out = {}
    for m in maps:
        for k, v in m.items():
            out[k] = min(v, out.get(k, v))
    return out


def main(out_dir, earlier_runs=()):
    """out_dir: where the table and the plot go; its runs and those of earlier_runs (folders with
    the same files from other runs) count, each cell the best of their medians."""
    runs = [out_dir, *earlier_runs]
    times = {}
    for cell, _ in CELLS:
        found = [medians(os.path.join(d, cell + ".json")) for d in runs if os.path.exists(os.path.join(d, cell + ".json"))]
        if found:
            times[cell] = best_of(found)
    torch = best_of([torch_times(os.path.join(d, "torch.txt")) for d in runs])
    cells = [c for c in CELLS if c[0] in times]
    lines = ["| program | " + " | ".join("`%s`" % flags for _, flags in cells) + " | worst / best |",
             "|---|" + "---:|" * (len(cells) + 1)]
    for label, bench, _ in ROWS:
        row = [times[c].get(bench) for c, _ in cells]
        if not any(row):
            continue
        known = [t for t in row if t]
        lines.append("| %s | %s | %.2f |" % (label, " | ".join(fmt(t) if t else "–" for t in row),
                                             max(known) / min(known)))
    lines += ["", "Spelling: `auto y_pred` / `Tensor<float> y_pred` (polyfit with autograd), and W8's 0-d bias / "
              "its bias [n]:", "",
              "| ratio | " + " | ".join("`%s`" % flags for _, flags in cells) + " |", "|---|" + "---:|" * len(cells)]
    for label, a, b in [("polyfit `auto` / `Tensor<float>`", "BM_polyfit_autograd_auto", "BM_polyfit_autograd"),
                        ("W8 0-d bias / bias [n]", "BM_W8_tenet_scalar_bias/1048576", "BM_W8_tenet/1048576")]:
        lines.append("| %s | %s |" % (label, " | ".join(
            "%.2f" % (times[c][a] / times[c][b]) if a in times[c] and b in times[c] else "–" for c, _ in cells)))
    if torch:
        lines += ["", "Against PyTorch eager (tenet's time / PyTorch's, below 1 is faster; the bar is <= 0.67, "
                  "1.5x PyTorch's speed):", "",
                  "| program | PyTorch 1.13 | " + " | ".join("`%s`" % flags for _, flags in cells) + " |",
                  "|---|---:|" + "---:|" * len(cells)]
        for label, bench, prog in ROWS:
            if prog and prog in torch:
                lines.append("| %s | %s | %s |" % (label, fmt(torch[prog]), " | ".join(
                    "%.2f" % (times[c][bench] / torch[prog]) if bench in times[c] else "–" for c, _ in cells)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "matrix.md"), "w") as f:
        f.write(text)
    print(text)
    plot(out_dir, cells, times, torch)


def plot(out_dir, cells, times, torch):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot")
        return
    rows = [(label, bench, prog) for label, bench, prog in ROWS if prog and prog in torch]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(cells)
    for k, (cell, flags) in enumerate(cells):
        speed = [torch[prog] / times[cell][bench] if bench in times[cell] else 0 for _, bench, prog in rows]
        ax.bar([i + k * width for i in range(len(rows))], speed, width, label=flags)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(1.5, color="red", linewidth=0.8, linestyle="--", label="bar: 1.5x PyTorch")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))])
    short = {"BM_polyfit_autograd": "polyfit autograd", "BM_polyfit_autograd_auto": "polyfit autograd, auto",
             "BM_polyfit_autograd_accumulate": "polyfit accumulating", "BM_polyfit_tensors": "polyfit, tensors"}
    ax.set_xticklabels([short.get(bench, label.split(" (")[0]) for label, bench, _ in rows], rotation=15, fontsize=8)
    ax.set_ylabel("speed relative to PyTorch 1.13 eager (higher is faster)")
    ax.set_title("tenet against PyTorch eager, one thread, six builds")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "matrix.png"), dpi=110)
    print("wrote", os.path.join(out_dir, "matrix.png"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-matrix", sys.argv[2:])
