#!/usr/bin/env python3
"""PyTorch's side of bench/bench_fft.cpp (pocketfft inside LibTorch 1.13), one thread: F1 complex64
fft of 2^20, F2 complex64 fft of the prime 1,000,003, F3 rfft along the last dim of a [1024, 4096]
float32 tensor. Median of `reps` timed calls after a warm-up (the Python call costs microseconds;
the transforms take milliseconds).

    /usr/bin/python3 bench/fft_torch.py [reps]
"""
import statistics
import sys
import time

import torch

torch.set_num_threads(1)
REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 15


def median_ms(fn):
    """The medians of wall and CPU time (on a loaded machine, CPU time is the steadier)."""
    fn()
    wall, cpu = [], []
    for _ in range(REPS):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return f"{statistics.median(wall):8.2f} ms wall {statistics.median(cpu):8.2f} ms CPU"


g = torch.Generator().manual_seed(1)
x1 = torch.randn(1 << 20, dtype=torch.complex64, generator=g)
x2 = torch.randn(1000003, dtype=torch.complex64, generator=g)
x3 = torch.randn(1024, 4096, dtype=torch.float32, generator=g)
print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
print(f"F1 fft 2^20 complex64:        {median_ms(lambda: torch.fft.fft(x1))}")
print(f"F2 fft 1000003 complex64:     {median_ms(lambda: torch.fft.fft(x2))}")
print(f"F3 rfft [1024, 4096] float32: {median_ms(lambda: torch.fft.rfft(x3, dim=-1))}")
