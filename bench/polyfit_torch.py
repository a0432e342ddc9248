#!/usr/bin/env python3
"""The polynomial-fit programs of bench/bench_polyfit.cpp in PyTorch eager, one thread.

"Learning PyTorch with Examples": y = sin(x) fitted by a + b x + c x^2 + d x^3 at 100,000
points, 2000 steps, the tensors version (gradients by hand) and the autograd version
(backward, .grad reset each step, or accumulated across steps). Best of 3 per program.

    /usr/bin/python3 bench/polyfit_torch.py [steps]
"""
import math
import sys
import time

import torch

torch.set_num_threads(1)
POINTS = 100000
STEPS = int(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else 2000
LR = 1e-6 * 2000.0 / POINTS  # the tutorial's 1e-6 is for 2000 points


def tensors(steps):
    torch.manual_seed(0)
    x = torch.linspace(-math.pi, math.pi, POINTS, dtype=torch.float)
    y = torch.sin(x)
    a, b, c, d = (torch.randn((), dtype=torch.float) for _ in range(4))
    loss = 0.0
    for t in range(steps):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum().item()
        grad_y_pred = 2.0 * (y_pred - y)
        grad_a = grad_y_pred.sum()
        grad_b = (grad_y_pred * x).sum()
        grad_c = (grad_y_pred * x ** 2).sum()
        grad_d = (grad_y_pred * x ** 3).sum()
        a -= LR * grad_a
        b -= LR * grad_b
        c -= LR * grad_c
        d -= LR * grad_d
    return loss


def autograd(steps, reset=True):
    torch.manual_seed(0)
    x = torch.linspace(-math.pi, math.pi, POINTS, dtype=torch.float)
    y = torch.sin(x)
    a, b, c, d = (torch.randn((), dtype=torch.float, requires_grad=True) for _ in range(4))
    loss = 0.0
    for t in range(steps):
        y_pred = a + b * x + c * x.pow(2) + d * x.pow(3)
        loss = (y_pred - y).pow(2).sum()
        loss_value = loss.item()
        loss.backward()
        with torch.no_grad():
            a -= LR * a.grad
            b -= LR * b.grad
            c -= LR * c.grad
            d -= LR * d.grad
            if reset:
                a.grad = None
                b.grad = None
                c.grad = None
                d.grad = None
    return loss_value


def best_of_3(f, *args):
    """Best wall time and best CPU time (this process) of 3 runs: on a loaded machine the CPU
    time is the steadier figure, and Google Benchmark reports both for tenet."""
    times, cpu = [], []
    for _ in range(3):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = f(*args)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(times), min(cpu), value


if __name__ == "__main__":
    print("PyTorch %s, %d thread, %d points, %d steps" % (torch.__version__, torch.get_num_threads(), POINTS, STEPS))
    for name, f, args in [("tensors", tensors, (STEPS,)), ("autograd", autograd, (STEPS,)),
                          ("autograd_accumulate", autograd, (STEPS, False))]:
        t, cpu, value = best_of_3(f, *args)
        print("polyfit_%-20s %9.1f ms wall %9.1f ms CPU   (last loss %.6g)" % (name, t * 1e3, cpu * 1e3, value))
