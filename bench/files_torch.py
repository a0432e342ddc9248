"""NumPy's and PyTorch's side of bench/bench_files.cpp (issue 30): np.save / np.load and
torch.save / torch.load of the same 1 GiB float32 array, in the same directory (tmpfs, /dev/shm,
or $TENET_BENCH_FILES_DIR), one thread. Prints the median of REPS runs of each, in ms.

    /usr/bin/python3 bench/files_torch.py [REPS]
"""
import os
import statistics
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
directory = os.environ.get("TENET_BENCH_FILES_DIR", "/dev/shm")
n = 1 << 28
array = np.arange(n, dtype=np.float32) * np.float32(0.5)
tensor = torch.from_numpy(array)


def median_ms(fn):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


npy = os.path.join(directory, "numpy_bench.npy")
pt = os.path.join(directory, "torch_bench.pt")
rows = [
    ("F1 numpy.save", median_ms(lambda: np.save(npy, array))),
    ("F1 torch.save", median_ms(lambda: torch.save(tensor, pt))),
    ("F2 numpy.load", median_ms(lambda: np.load(npy))),
    ("F2 numpy.load mmap + sum", median_ms(lambda: np.load(npy, mmap_mode="c").sum(dtype=np.float32))),
    ("F2 torch.load", median_ms(lambda: torch.load(pt))),
]
for name, ms in rows:
    print(f"{name:28s} {ms:10.1f} ms")
os.remove(npy)
os.remove(pt)
