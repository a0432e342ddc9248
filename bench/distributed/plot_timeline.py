#!/usr/bin/env python3
"""Plots the bucket timeline bench_distributed writes (TENET_BENCH_TIMELINE=file.csv): each
bucket's all-reduce, from when its last gradient was ready to when it completed, against the
backward pass. Usage: plot_timeline.py timeline.csv out.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
end = float(rows[0]["backward_end_ms"])
fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * len(rows)))
ax.barh(len(rows), end, left=0, color="#bbbbbb", label="backward pass (loss.backward())")
for i, r in enumerate(rows):
    ready, finished = float(r["ready_ms"]), float(r["finished_ms"])
    ax.barh(len(rows) - 1 - i, finished - ready, left=ready, color="#3b75af",
            label="bucket all-reduce" if i == 0 else None)
    ax.text(finished + end * 0.01, len(rows) - 1 - i, f'{int(r["bytes"]) / 2**20:.1f} MiB', va="center", fontsize=8)
ax.set_yticks(range(len(rows) + 1))
ax.set_yticklabels([f"bucket {r['bucket']}" for r in reversed(rows)] + ["backward"])
ax.set_xlabel("ms since backward started")
ax.set_title(f"DistributedDataParallel: bucket all-reduces during backward ({rows[0]['world']} processes)")
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2, fontsize=8)
ax.set_xlim(0, end * 1.12)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
