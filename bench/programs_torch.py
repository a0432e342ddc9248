#!/usr/bin/env python3
"""The ported programs of bench/bench_programs.cpp in PyTorch eager, one thread (issue 26).

Each is the public program as its source writes it, at the larger size issue 26 names:

- kmeans: the KeOps tutorial "K-means clustering" (plain PyTorch version): float64, D = 2,
  K = 50, 10 iterations, N = 100,000 points (10x the tutorial's 10,000).
- regression: pytorch/examples regression/main.py: a Linear(4, 1) fitted to a degree-4
  polynomial with smooth_l1_loss and `param.data.add_(-0.1 * param.grad)`, a batch of 960
  (30x the example's 32), a fixed 1000 steps (the example stops at a random step).
- mandelbrot: the UQ COMP3710 lab's Mandelbrot set with torch complex numbers, 200 iterations,
  a grid of 1161 x 1340 points (5x the lab's 520 x 600; step 0.00224 instead of 0.005).
  `mandelbrot_pairs` is the same program with the complex numbers as real pairs, as tenet has
  to write it (tenet has no complex dtype yet).
- two_layer: "Learning PyTorch with Examples", the autograd two-layer net: N = 64, D_in = 1000,
  H = 100, D_out = 10, 500 steps, mm / clamp(min=0) / mm, float32.
- polyfit_tensors: the same tutorial's polynomial fit with gradients by hand, polyfit_torch.py's
  `tensors` (100,000 points, 2000 steps).

    /usr/bin/python3 bench/programs_torch.py [program ...]

Prints the median of 3 runs' CPU times (this process; the steadier figure on a loaded VM) and
wall times, and a value of each result to compare with tenet's.
"""
import os
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # one thread, BLAS included
    os.environ.setdefault(_var, "1")
import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polyfit_torch  # noqa: E402  (the polynomial fits: polyfit_torch.tensors)

torch.set_num_threads(1)

KMEANS_N, KMEANS_D, KMEANS_K, KMEANS_ITERS = 100000, 2, 50, 10
REGRESSION_BATCH, REGRESSION_STEPS, POLY_DEGREE = 960, 1000, 4
MANDEL_STEP, MANDEL_ITERS = 0.00224, 200
NET_N, NET_IN, NET_H, NET_OUT, NET_STEPS = 64, 1000, 100, 10, 500


def kmeans():
    torch.manual_seed(0)
    x = 0.7 * torch.randn(KMEANS_N, KMEANS_D, dtype=torch.float64) + 0.3
    N, D = x.shape
    c = x[:KMEANS_K, :].clone()
    x_i = x.view(N, 1, D)
    c_j = c.view(1, KMEANS_K, D)
    for i in range(KMEANS_ITERS):
        D_ij = ((x_i - c_j) ** 2).sum(-1)
        cl = D_ij.argmin(dim=1).long().view(-1)
        c.zero_()
        c.scatter_add_(0, cl[:, None].repeat(1, D), x)
        Ncl = torch.bincount(cl, minlength=KMEANS_K).type_as(c).view(KMEANS_K, 1)
        c /= Ncl
    return c.sum().item()


def regression():
    torch.manual_seed(0)
    W_target = torch.randn(POLY_DEGREE, 1) * 5
    b_target = torch.randn(1) * 5

    def make_features(x):
        x = x.unsqueeze(1)
        return torch.cat([x ** i for i in range(1, POLY_DEGREE + 1)], 1)

    def f(x):
        return x.mm(W_target) + b_target.item()

    def get_batch(batch_size):
        random = torch.randn(batch_size)
        x = make_features(random)
        return x, f(x)

    fc = torch.nn.Linear(W_target.size(0), 1)
    loss = 0.0
    for _ in range(REGRESSION_STEPS):
        batch_x, batch_y = get_batch(REGRESSION_BATCH)
        fc.zero_grad()
        output = torch.nn.functional.smooth_l1_loss(fc(batch_x), batch_y)
        loss = output.item()
        output.backward()
        for param in fc.parameters():
            param.data.add_(-0.1 * param.grad)
    return loss


def mandel_grid():
    y = torch.arange(-1.3, 1.3, MANDEL_STEP, dtype=torch.float64).float()
    x = torch.arange(-2.0, 1.0, MANDEL_STEP, dtype=torch.float64).float()
    Y, X = torch.meshgrid(y, x, indexing="ij")
    return X, Y


def mandelbrot():
    x, y = mandel_grid()
    z = torch.complex(x, y)
    zs = z.clone()
    ns = torch.zeros_like(z)
    for i in range(MANDEL_ITERS):
        zs_ = zs * zs + z
        not_diverged = torch.abs(zs_) < 4.0
        ns += not_diverged
        zs = zs_
    return ns.real.sum().item()


def mandelbrot_pairs():
    x, y = mandel_grid()
    zr, zi = x.clone(), y.clone()
    ns = torch.zeros_like(x)
    for i in range(MANDEL_ITERS):
        zr_ = zr * zr - zi * zi + x
        zi_ = 2 * zr * zi + y
        not_diverged = torch.sqrt(zr_ * zr_ + zi_ * zi_) < 4.0
        ns += not_diverged
        zr, zi = zr_, zi_
    return ns.sum().item()


def two_layer():
    torch.manual_seed(0)
    x = torch.randn(NET_N, NET_IN)
    y = torch.randn(NET_N, NET_OUT)
    w1 = torch.randn(NET_IN, NET_H, requires_grad=True)
    w2 = torch.randn(NET_H, NET_OUT, requires_grad=True)
    learning_rate = 1e-6
    loss_value = 0.0
    for t in range(NET_STEPS):
        y_pred = x.mm(w1).clamp(min=0).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        loss_value = loss.item()
        loss.backward()
        with torch.no_grad():
            w1 -= learning_rate * w1.grad
            w2 -= learning_rate * w2.grad
            w1.grad.zero_()
            w2.grad.zero_()
    return loss_value


PROGRAMS = {"kmeans": kmeans, "regression": regression, "mandelbrot": mandelbrot,
            "mandelbrot_pairs": mandelbrot_pairs, "two_layer": two_layer,
            "polyfit_tensors": lambda: polyfit_torch.tensors(polyfit_torch.STEPS)}


def median_of_3(f):
    wall, cpu = [], []
    for _ in range(3):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = f()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return sorted(wall)[1], sorted(cpu)[1], value


if __name__ == "__main__":
    names = sys.argv[1:] or list(PROGRAMS)
    print("PyTorch %s, %d thread" % (torch.__version__, torch.get_num_threads()))
    for name in names:
        wall, cpu, value = median_of_3(PROGRAMS[name])
        print("%-18s %9.1f ms CPU %9.1f ms wall   (value %.6g)" % (name, cpu * 1e3, wall * 1e3, value))
