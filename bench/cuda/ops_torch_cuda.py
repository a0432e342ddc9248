#!/usr/bin/env python3
"""PyTorch (CUDA) on bench/cuda/bench_device_ops.cu's rows: the same sizes and operations, device
time from CUDA events around each call, the median of --reps calls after a warm-up. Run it on the
GPU machine beside tenet_device_bench, in the same session, so the two tables compare:

    python3 bench/cuda/ops_torch_cuda.py --reps 30
"""
import argparse
import statistics

import torch


def timed(fn, reps):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def rows():
    dev = "cuda"
    g = torch.Generator(device="cpu").manual_seed(0)
    x_fft = torch.randn(1 << 20, dtype=torch.complex64, generator=g).to(dev)
    x_rows = torch.randn(1024, 4096, generator=g).to(dev)
    large = torch.randn(1 << 24, generator=g).to(dev)
    sort_rows = torch.randn(4096, 1024, generator=g).to(dev)
    table = torch.randn(1 << 22, 16, generator=g).to(dev)
    picked = torch.randint(0, 1 << 22, (1 << 20,), generator=g).to(dev)
    side = torch.randn(4096, 4096, generator=g).to(dev)
    at = torch.randint(0, 4096, (4096, 4096), generator=g).to(dev)
    mask = large > 0
    slots = torch.zeros(1 << 16, device=dev)
    upd_at = torch.randint(0, 1 << 16, (1 << 20,), generator=g).to(dev)
    upd_val = torch.randn(1 << 20, generator=g).to(dev)
    cx = torch.randn(1 << 24, dtype=torch.complex64, generator=g).to(dev)
    phase = (torch.rand(1 << 24, generator=g) * 6.283185307).to(dev)
    y = torch.empty_like(cx)
    return [
        ("DF1_fft", lambda: torch.fft.fft(x_fft)),
        ("DF3_rfft_rows", lambda: torch.fft.rfft(x_rows)),
        ("DS1_sort", lambda: torch.sort(large)),
        ("DS2_sort_rows", lambda: torch.sort(sort_rows, 1)),
        ("DS4_cumsum", lambda: torch.cumsum(large, 0)),
        ("DI1_index_select", lambda: torch.index_select(table, 0, picked)),
        ("DI2_gather", lambda: torch.gather(side, 1, at)),
        ("DI3_mask_index", lambda: large[mask]),
        ("DI4_index_put_accumulate", lambda: slots.index_put_((upd_at,), upd_val, accumulate=True)),
        ("DC1_rotate", lambda: torch.mul(cx, torch.exp(1j * phase), out=y)),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    print("PyTorch %s, %s" % (torch.__version__, torch.cuda.get_device_name()))
    print("| row | PyTorch median (ms) |")
    print("|---|---:|")
    for name, fn in rows():
        print("| %s | %.4f |" % (name, timed(fn, args.reps)))


if __name__ == "__main__":
    main()
