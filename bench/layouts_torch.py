#!/usr/bin/python3
"""PyTorch 1.13's side of bench/bench_layouts.cpp: torch.sparse.mm of a [2^16, 2^16] COO matrix
with 2^20 random nonzeros (coalesced) and a dense [2^16, 64] float32, on 1 and 2 threads; prints
the median of 15 runs in ms. Run: /usr/bin/python3 bench/layouts_torch.py"""
import statistics
import time

import torch

g = torch.Generator().manual_seed(11)
n, nnz, k = 1 << 16, 1 << 20, 64
s = torch.sparse_coo_tensor(torch.randint(0, n, (2, nnz), generator=g), torch.randn(nnz, generator=g), (n, n)).coalesce()
d = torch.randn(n, k, generator=g)
for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.sparse.mm(s, d)
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        torch.sparse.mm(s, d)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"torch.sparse.mm threads={threads}: median {statistics.median(times):.1f} ms")
