#!/usr/bin/python3
"""Writes tests/ops/stats_cases.txt: PyTorch's statistics, scans, softmax and losses as data.

The cases are data that tests/ops/test_stats_golden.cpp reads at run time (one compiled call per
op and dtype, however many cases), not generated C++. Inputs are drawn here with a fixed seed
and written exactly (floats as hex). Each line is one of

    input NAME TENSOR
    case OP ARGS | RESULT [| RESULT]
    throws OP ARGS | ERROR
    grad OP ARGS | WEIGHTS | GRADIENT | GRAD_FN

where TENSOR is `dtype ndim size... numel value...`, ARGS are `key=value` words (x=NAME names
an input; dims are comma lists, `none` for none), and a grad line is the gradient of
sum(OP(x) * WEIGHTS) with respect to x, with the grad_fn name of OP's result.

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_stats.py
"""
import math
import pathlib

import torch
import torch.nn.functional as F

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "ops" / "stats_cases.txt"

ERRORS = {RuntimeError: "runtime_error", IndexError: "index_error", ValueError: "value_error"}

gen = torch.Generator().manual_seed(2811)


def make(dtype, shape, special=False, low=-6, high=7):
    n = math.prod(shape)
    if dtype.is_floating_point:
        t = (torch.randn(n, generator=gen, dtype=torch.float64) * 2).to(dtype)
        if n >= 4:
            t[1] = t[3]  # a tie
        if special and n >= 7:
            t[2] = float("nan")
            t[5] = float("inf")
            t[6] = -float("inf")
    elif dtype == torch.bool:
        t = torch.randint(0, 2, (n,), generator=gen).bool()
    else:
        t = torch.randint(low, high, (n,), generator=gen).to(dtype)
    return t.reshape(shape)


INPUTS = {
    "f0d": make(torch.float32, ()),
    "f1": make(torch.float32, (7,)),
    "f2": make(torch.float32, (3, 4)),
    "f3": make(torch.float32, (2, 3, 4)),
    "fnan": make(torch.float32, (3, 4), special=True),
    "fe": make(torch.float32, (0, 3)),
    "d3": make(torch.float64, (2, 3, 5)),
    "dbig": (torch.randn(200, generator=gen, dtype=torch.float64) + 1e4),  # variance of a large mean
    "l2": make(torch.int64, (3, 4)),
    "b2": make(torch.bool, (3, 4)),
    # losses: logits [N, C], targets, weights
    "logits": make(torch.float64, (5, 4)),
    "logits32": make(torch.float32, (5, 4)),
    "logits3": make(torch.float64, (2, 4, 3)),  # [N, C, d1]
    "cls": torch.tensor([3, 0, 1, 3, 2]),
    "cls_ignore": torch.tensor([3, -100, 1, 3, 2]),
    "cls_bad": torch.tensor([3, 0, 4, 3, 2]),
    "cls3": torch.tensor([[0, 3, 1], [2, 2, 0]]),
    "cw": torch.tensor([0.5, 1.0, 2.0, 1.5], dtype=torch.float64),
    "probs": torch.softmax(make(torch.float64, (5, 4)), 1),
    "pred": make(torch.float64, (3, 4)),
    "target": make(torch.float64, (3, 4)),
    "unit": torch.rand(3, 4, generator=gen, dtype=torch.float64) * 0.9 + 0.05,
    "unit_target": torch.rand(3, 4, generator=gen, dtype=torch.float64),
}
FLOATS = ["f0d", "f1", "f2", "f3", "fnan", "fe", "d3"]

lines = []


TENSOR_ARGS = ("x", "y", "target", "weight", "prepend", "append", "sorter", "qt", "bins_t", "cmin", "cmax")


def tensor_args(kw):
    return {k: (INPUTS[v] if k in TENSOR_ARGS else v) for k, v in kw.items()}


def record(op, fn, kw, grad=True):
    """One case: fn(**tensors) under PyTorch, its result(s) or its exception; and its gradient."""
    text = f"{op} {args_text(kw)}"
    try:
        r = fn(**tensor_args(kw))
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {text} | {ERRORS[type(e)]}")
        return
    rs = r if isinstance(r, tuple) else (r,)
    lines.append(f"case {text} | " + " | ".join(tensor_text(t) for t in rs))
    x = INPUTS[kw["x"]]
    if not grad or not x.dtype.is_floating_point or x.numel() == 0:
        return
    xg = x.detach().clone().requires_grad_()
    targs = tensor_args(kw)
    targs["x"] = xg
    out = fn(**targs)
    out = out[0] if isinstance(out, tuple) else out
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    try:
        (out * w).sum().backward()
    except RuntimeError as e:
        if "not implemented" not in str(e):
            raise
        lines.append(f"nograd {text}")
        return
    lines.append(f"grad {text} | {tensor_text(w)} | {tensor_text(xg.grad)} | {type(out.grad_fn).__name__}")


def dim_variants(nd):
    v = [None]
    for d in range(-nd, nd):
        v.append(d)
    if nd >= 2:
        v.append([0, nd - 1])
    return v


# ---- The reductions table's new rows ---------------------------------------------------------
for name in FLOATS + ["l2", "b2", "dbig"]:
    t = INPUTS[name]
    fl = t.dtype.is_floating_point
    for d in dim_variants(t.dim()) if name != "dbig" else [None, 0]:
        for keepdim in ([False, True] if d is not None else [False]):
            dk = {} if d is None else {"dim": d if isinstance(d, list) else [d], "keepdim": keepdim}
            record("nansum", lambda x, dim=None, keepdim=False: torch.nansum(x) if dim is None else
                   torch.nansum(x, dim, keepdim), {"x": name, **dk})
            record("nanmean", lambda x, dim=None, keepdim=False: torch.nanmean(x) if dim is None else
                   torch.nanmean(x, dim, keepdim), {"x": name, **dk}, grad=name != "fnan")
            if d is not None:
                record("logsumexp", lambda x, dim, keepdim: torch.logsumexp(x, dim, keepdim), {"x": name, **dk},
                       grad=name != "fnan")
            for correction in [1, 0, 2]:
                for op, f in (("var", torch.var), ("std", torch.std), ("var_mean", torch.var_mean),
                              ("std_mean", torch.std_mean)):
                    if (d is None or not fl) and correction != 1:
                        continue
                    if not fl and d is not None and d != 0:
                        continue  # one refusal per form is enough
                    # PyTorch 1.13's VarBackward0 fails on a 0-d input's gradient: no grad line there.
                    g = t.dim() > 0 and not op.endswith("_mean") and name != "dbig"
                    record(op, lambda x, dim=None, keepdim=False, correction=1, f=f:
                           f(x, dim=dim, correction=correction, keepdim=keepdim),
                           {"x": name, **dk, "correction": correction}, grad=g)

# ---- softmax, log_softmax, softmin -------------------------------------------------------------
for name in ["f1", "f2", "f3", "fnan", "d3", "fe"]:
    t = INPUTS[name]
    for d in range(-t.dim(), t.dim()):
        for op, f in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax),
                      ("softmin", F.softmin)):
            record(op, lambda x, dim, f=f: f(x, dim), {"x": name, "dim": d}, grad=name != "fnan")
record("softmax", lambda x, dim: torch.softmax(x, dim), {"x": "f0d", "dim": 0})
record("softmax", lambda x, dim: torch.softmax(x, dim), {"x": "f2", "dim": 2})

# ---- activations of the element-wise table -------------------------------------------------------
# (Not at x = +-3 exactly: PyTorch 1.13's vectorised hardswish backward takes x < 3 there, its scalar
# loop x <= 3, so its gradient at 3 depends on the element's position.)
INPUTS["act"] = torch.linspace(-6.1, 6.1, 23, dtype=torch.float64)
INPUTS["act32"] = torch.linspace(-30.0, 30.0, 17)
for name in ["act", "act32", "fnan", "f2", "fe"]:
    for op, f in (("log_sigmoid", F.logsigmoid), ("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish),
                  ("mish", F.mish)):
        record(op, lambda x, f=f: f(x), {"x": name}, grad=name != "fnan")

# The activations with parameters (expr/activations.hpp); "act" has exact zeros and +-1, +-6.
INPUTS["actb"] = torch.tensor([-7.0, -6.0, -1.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.0, 6.0, 8.0], dtype=torch.float64)
for name in ["act", "act32", "actb", "fnan", "f2", "fe"]:
    g = name != "fnan"
    for lo, hi in ((-1.0, 1.0), (0.0, 6.0), (-2.5, 0.5), (1.0, 1.0)):
        record("hardtanh", lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val),
               {"x": name, "min_val": lo, "max_val": hi}, grad=g)
    record("relu6", lambda x: F.relu6(x), {"x": name}, grad=g)
    for slope in [0.01, 0.2, -0.5]:
        record("leaky_relu", lambda x, negative_slope: F.leaky_relu(x, negative_slope),
               {"x": name, "negative_slope": slope}, grad=g)
    for alpha in [1.0, 0.5, 2.0]:
        record("elu", lambda x, alpha: F.elu(x, alpha), {"x": name, "alpha": alpha}, grad=g)
        record("celu", lambda x, alpha: F.celu(x, alpha), {"x": name, "alpha": alpha}, grad=g)
    record("selu", lambda x: F.selu(x), {"x": name}, grad=g)
    for th, value in ((0.0, -1.0), (1.0, 0.5)):
        record("threshold", lambda x, threshold, value: F.threshold(x, threshold, value),
               {"x": name, "threshold": th, "value": value}, grad=g)
record("hardtanh", lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val),
       {"x": "f2", "min_val": 1.0, "max_val": -1.0}, grad=False)
record("celu", lambda x, alpha: F.celu(x, alpha), {"x": "f2", "alpha": 0.0}, grad=False)

# clamp with tensor bounds (broadcast), one of them possibly none.
INPUTS["lo2"] = make(torch.float32, (3, 4)) - 0.5
INPUTS["hi2"] = INPUTS["lo2"] + torch.rand(3, 4, generator=gen) * 2
INPUTS["lorow"] = torch.tensor([-1.0, -0.5, 0.0, 0.25])
INPUTS["hicol"] = torch.tensor([[0.5], [1.0], [1.5]])
INPUTS["lonan"] = torch.tensor([-1.0, float("nan"), 0.0, 0.25])
INPUTS["lol"] = torch.tensor([-2, 0, 1, -5])
INPUTS["hil"] = torch.tensor([[3], [1], [4]])
INPUTS["hi2swap"] = INPUTS["lo2"] - 1.0  # max < min
for x, lo, hi in (("f2", "lo2", "hi2"), ("f2", "lorow", "hicol"), ("f2", "lorow", None), ("f2", None, "hicol"),
                  ("fnan", "lorow", "hicol"), ("f2", "lonan", "hicol"), ("l2", "lol", "hil"), ("f2", "lo2", "hi2swap"),
                  ("f3", "lorow", "hicol")):
    record("clamp_t", lambda x, cmin=None, cmax=None: torch.clamp(x, min=cmin, max=cmax),
           {"x": x, **({"cmin": lo} if lo else {}), **({"cmax": hi} if hi else {})},
           grad=x != "fnan" and lo != "lonan")

# ---- closeness -------------------------------------------------------------------------------------
INPUTS["near"] = INPUTS["fnan"] * (1 + 1e-6 * torch.arange(12).reshape(3, 4)) + torch.tensor([1e-9, 0, 0, 2e-5])
INPUTS["lnear"] = INPUTS["l2"] + torch.tensor([0, 1, 0, 0] * 3).reshape(3, 4)
for x, y in (("fnan", "near"), ("fnan", "fnan"), ("l2", "lnear")):
    for rtol, atol, equal_nan in ((1e-5, 1e-8, False), (0.0, 0.0, False), (1e-3, 0.0, True), (0.0, 1e-4, False)):
        record("isclose", lambda x, y, rtol, atol, equal_nan: torch.isclose(x, y, rtol, atol, equal_nan),
               {"x": x, "y": y, "rtol": rtol, "atol": atol, "equal_nan": equal_nan}, grad=False)
for name in ["fnan", "l2", "b2", "f0d"]:
    record("signbit", lambda x: torch.signbit(x), {"x": name}, grad=False)

# ---- cumsum, cumprod ---------------------------------------------------------------------------
for name in ["f1", "f2", "f3", "fnan", "d3", "fe", "l2", "b2", "f0d"]:
    t = INPUTS[name]
    for d in range(-max(t.dim(), 1), max(t.dim(), 1)):
        record("cumsum", lambda x, dim: torch.cumsum(x, dim), {"x": name, "dim": d}, grad=name != "fnan")
        record("cumprod", lambda x, dim: torch.cumprod(x, dim), {"x": name, "dim": d}, grad=name != "fnan")
# Distinct values for the gradients of cummax and cummin (at a tie PyTorch's index moves on).
INPUTS["uscan"] = (torch.randperm(12, generator=gen).to(torch.float64) - 6).reshape(3, 4) * 0.5
for name in ["f1", "f2", "f3", "fnan", "d3", "fe", "l2", "f0d", "uscan"]:
    t = INPUTS[name]
    for d in range(-max(t.dim(), 1), max(t.dim(), 1)):
        record("cummax", lambda x, dim: torch.cummax(x, dim), {"x": name, "dim": d}, grad=name == "uscan")
        record("cummin", lambda x, dim: torch.cummin(x, dim), {"x": name, "dim": d}, grad=name == "uscan")
        if t.dtype.is_floating_point:
            record("logcumsumexp", lambda x, dim: torch.logcumsumexp(x, dim), {"x": name, "dim": d},
                   grad=name != "fnan")
for name in ["f2", "f3", "fnan", "l2", "b2", "d3"]:
    t = INPUTS[name]
    for d in range(-t.dim(), t.dim()):
        for n in [1, 2, 3]:
            record("diff", lambda x, n, dim: torch.diff(x, n, dim), {"x": name, "n": n, "dim": d},
                   grad=name not in ("fnan", "l2", "b2"))
record("diff", lambda x, n, dim, prepend, append: torch.diff(x, n, dim, prepend=prepend, append=append),
       {"x": "f2", "n": 1, "dim": 1, "prepend": "f2", "append": "f2"}, grad=False)
zeros = torch.tensor([[2.0, 0.0, 3.0, 0.0, 5.0], [1.5, 0.0, 2.0, 4.0, 1.0]], dtype=torch.float64)
INPUTS["zeros"] = zeros
record("cumprod", lambda x, dim: torch.cumprod(x, dim), {"x": "zeros", "dim": 1})
record("cumsum", lambda x, dim: torch.cumsum(x, dim), {"x": "f2", "dim": 2})

# ---- sorting and order statistics ------------------------------------------------------------
def unique_values(dtype, shape, nan=False):
    """Distinct values (no ties: PyTorch's topk, kthvalue and median pick among ties as their
    selection algorithm happens to), optionally with NaNs."""
    n = math.prod(shape)
    t = (torch.randperm(n, generator=gen).to(torch.float64) - n / 2) * 0.75
    if nan:
        t[1] = float("nan")
        t[n - 3] = float("nan")
    return t.to(dtype).reshape(shape)


INPUTS["u2"] = unique_values(torch.float32, (4, 6))
INPUTS["ud3"] = unique_values(torch.float64, (3, 2, 5))
INPUTS["unan"] = unique_values(torch.float32, (3, 5), nan=True)
INPUTS["ul2"] = torch.randperm(12, generator=gen).reshape(3, 4) - 6
for name in ["f1", "f2", "f3", "fnan", "d3", "fe", "l2", "b2", "f0d", "u2"]:
    t = INPUTS[name]
    for d in range(-max(t.dim(), 1), max(t.dim(), 1)):
        for desc in [False, True]:
            record("sort", lambda x, dim, descending: torch.sort(x, dim=dim, descending=descending, stable=True),
                   {"x": name, "dim": d, "descending": desc}, grad=name != "fnan")
            record("argsort", lambda x, dim, descending: torch.argsort(x, dim=dim, descending=descending, stable=True),
                   {"x": name, "dim": d, "descending": desc}, grad=False)
for name in ["f2", "fnan", "l2"]:
    record("msort", lambda x: torch.msort(x), {"x": name}, grad=name != "fnan")
for name in ["u2", "ud3", "ul2", "unan"]:
    t = INPUTS[name]
    for d in range(-t.dim(), t.dim()):
        n = t.shape[d]
        for k in [0, 1, 3, n, n + 1]:
            for largest in [True, False]:
                record("topk", lambda x, k, dim, largest: torch.topk(x, k, dim, largest),
                       {"x": name, "k": k, "dim": d, "largest": largest}, grad=name != "unan")
        for k in [0, 1, 2, n, n + 1]:
            for keepdim in [False, True]:
                record("kthvalue", lambda x, k, dim, keepdim: torch.kthvalue(x, k, dim, keepdim),
                       {"x": name, "k": k, "dim": d, "keepdim": keepdim}, grad=name != "unan")
        for keepdim in [False, True]:
            record("median", lambda x, dim, keepdim: torch.median(x, dim, keepdim),
                   {"x": name, "dim": d, "keepdim": keepdim}, grad=name != "unan")
            record("nanmedian", lambda x, dim, keepdim: torch.nanmedian(x, dim, keepdim),
                   {"x": name, "dim": d, "keepdim": keepdim}, grad=name != "unan")
    record("median", lambda x: torch.median(x), {"x": name}, grad=name != "unan")
    record("nanmedian", lambda x: torch.nanmedian(x), {"x": name}, grad=name != "unan")
record("median", lambda x: torch.median(x), {"x": "fe"})
record("median", lambda x, dim, keepdim: torch.median(x, dim, keepdim), {"x": "fe", "dim": 0, "keepdim": False})

# ---- searchsorted and bucketize ------------------------------------------------------------------
INPUTS["seq"] = torch.tensor([-2.0, -0.5, -0.5, 0.0, 1.0, 1.0, 1.0, 3.5])
INPUTS["seqd"] = INPUTS["seq"].to(torch.float64)
INPUTS["seq2"] = torch.sort(make(torch.float32, (3, 5)), dim=1).values
INPUTS["seqnan"] = torch.tensor([-1.0, 0.0, 2.0, float("nan"), float("nan")])
INPUTS["seql"] = torch.tensor([-3, 0, 0, 2, 5, 9])
INPUTS["vals"] = torch.tensor([[-3.0, -0.5, 0.0, 1.0], [1.5, 3.5, 4.0, float("nan")]])
INPUTS["valsd"] = INPUTS["vals"].to(torch.float64)
INPUTS["vals2"] = make(torch.float32, (3, 4))
INPUTS["valsl"] = torch.tensor([-4, 0, 1, 2, 9, 10])
INPUTS["vals3"] = make(torch.float32, (2, 3, 4))
INPUTS["unsorted"] = torch.tensor([3.5, -0.5, 1.0, -2.0, 0.0, 1.0, -0.5, 1.0])
INPUTS["sorter"] = torch.argsort(INPUTS["unsorted"], stable=True)
INPUTS["unsorted2"] = make(torch.float32, (3, 5))
INPUTS["sorter2"] = torch.argsort(INPUTS["unsorted2"], dim=1, stable=True)
INPUTS["sorter_bad"] = torch.tensor([0, 1, 2])
for x, y in (("seq", "vals"), ("seqd", "valsd"), ("seq2", "vals2"), ("seqnan", "vals"), ("seql", "valsl"),
             ("seq", "fe"), ("seq2", "vals3"), ("seq2", "vals")):
    for side in [None, "left", "right"]:
        for right in [False, True]:
            kw = {"x": x, "y": y, "right": right}
            if side:
                kw["side"] = side
            record("searchsorted", lambda x, y, right, side=None: torch.searchsorted(x, y, right=right, side=side),
                   kw, grad=False)
for x, v in (("seq", 1.0), ("seq", -7.25), ("seql", 2), ("seq2", 0.5)):
    record("searchsorted", lambda x, value, right: torch.searchsorted(x, value, right=right),
           {"x": x, "value": v, "right": True}, grad=False)
for x, y, sorter in (("unsorted", "vals", "sorter"), ("unsorted2", "vals2", "sorter2"), ("unsorted", "vals", "sorter_bad"),
                     ("unsorted2", "vals2", "sorter")):
    for side in ["left", "right"]:
        record("searchsorted", lambda x, y, side, sorter: torch.searchsorted(x, y, side=side, sorter=sorter),
               {"x": x, "y": y, "side": side, "sorter": sorter}, grad=False)
for x, b in (("vals", "seq"), ("valsd", "seqd"), ("valsl", "seql"), ("vals3", "seq"), ("f0d", "seq"), ("vals", "seq2")):
    for right in [False, True]:
        record("bucketize", lambda x, y, right: torch.bucketize(x, y, right=right), {"x": x, "y": b, "right": right},
               grad=False)

# ---- unique, unique_consecutive -------------------------------------------------------------------
# (NaN only in unique_consecutive's input: PyTorch 1.13's unique sorts NaNs with `<`, which puts
# them anywhere; tenet sorts them last, each NaN its own value.)
INPUTS["rep"] = torch.tensor([2.0, -1.0, 2.0, 0.0, -0.0, 3.5, -1.0, 2.0, 0.0, 3.5])
INPUTS["repnan"] = torch.tensor([2.0, -1.0, -1.0, 0.0, -0.0, float("nan"), float("nan"), 2.0])
INPUTS["repl"] = torch.randint(-3, 4, (3, 5), generator=gen)
INPUTS["repl2"] = torch.tensor([[1, 2, 1, 2], [0, 5, 0, 5], [1, 2, 1, 2]])
INPUTS["repd"] = torch.tensor([[1.5, 0.5, 1.5], [1.5, 0.5, 1.5], [-2.0, 0.5, -2.0], [1.5, 0.5, 1.5]], dtype=torch.float64)
INPUTS["runs"] = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
INPUTS["runs2"] = torch.tensor([[1, 1, 0, 0, 1], [2, 2, 3, 3, 2]])
for name in ["rep", "repl", "repl2", "repd", "runs", "runs2", "b2", "fe", "f0d", "repnan"]:
    for inv in [False, True]:
        for cnt in [False, True]:
            if name != "repnan":
                record("unique", lambda x, return_inverse, return_counts:
                   torch.unique(x, sorted=True, return_inverse=return_inverse, return_counts=return_counts),
                       {"x": name, "return_inverse": inv, "return_counts": cnt}, grad=False)
            record("unique_consecutive", lambda x, return_inverse, return_counts:
                   torch.unique_consecutive(x, return_inverse=return_inverse, return_counts=return_counts),
                   {"x": name, "return_inverse": inv, "return_counts": cnt}, grad=False)
            t = INPUTS[name]
            for d in range(-t.dim(), t.dim()) if name != "repnan" else []:
                record("unique", lambda x, return_inverse, return_counts, dim:
                       torch.unique(x, sorted=True, return_inverse=return_inverse, return_counts=return_counts, dim=dim),
                       {"x": name, "return_inverse": inv, "return_counts": cnt, "dim": d}, grad=False)
                record("unique_consecutive", lambda x, return_inverse, return_counts, dim:
                       torch.unique_consecutive(x, return_inverse=return_inverse, return_counts=return_counts, dim=dim),
                       {"x": name, "return_inverse": inv, "return_counts": cnt, "dim": d}, grad=False)
record("unique", lambda x, dim: torch.unique(x, dim=dim), {"x": "repl", "dim": 2}, grad=False)
# Many integers from a narrow range (tenet counts them instead of sorting); drawn from a generator
# of their own, so that the inputs after them stay as they were.
INPUTS["ulong"] = torch.randint(-70, 180, (80, 64), generator=torch.Generator().manual_seed(2811))
INPUTS["ulong"][3, 5], INPUTS["ulong"][70, 1] = -120, 300  # a range wider than the draws, with gaps
for inv, cnt in [(False, False), (True, True)]:
    record("unique", lambda x, return_inverse, return_counts:
           torch.unique(x, sorted=True, return_inverse=return_inverse, return_counts=return_counts),
           {"x": "ulong", "return_inverse": inv, "return_counts": cnt}, grad=False)

# ---- bincount, histc, histogram ------------------------------------------------------------------
INPUTS["counts"] = torch.tensor([1, 4, 1, 0, 7, 4, 4])
INPUTS["counts_neg"] = torch.tensor([1, -1, 2])
INPUTS["counts_empty"] = torch.tensor([], dtype=torch.int64)
INPUTS["counts2"] = torch.tensor([[1, 2], [0, 1]])
INPUTS["cw7"] = torch.linspace(-1.0, 2.0, 7)
INPUTS["cw7d"] = torch.linspace(-1.0, 2.0, 7, dtype=torch.float64)
INPUTS["cw7l"] = torch.arange(7)
INPUTS["cw3"] = torch.ones(3)
for name in ["counts", "counts_neg", "counts2", "counts_empty", "f1", "b2"]:
    for minlength in [0, 3, 10, -1]:
        record("bincount", lambda x, minlength: torch.bincount(x, minlength=minlength), {"x": name, "minlength": minlength},
               grad=False)
        for w in ["cw7", "cw7d", "cw7l", "cw3"]:
            if name != "counts" and w != "cw7" or name == "counts_empty":
                continue  # (PyTorch 1.13 gives an empty input's weighted counts as int64, not as the weights' type)
            record("bincount", lambda x, weight, minlength: torch.bincount(x, weight, minlength=minlength),
                   {"x": name, "weight": w, "minlength": minlength}, grad=False)
record("bincount", lambda x: torch.bincount(x), {"x": "fe"}, grad=False)
INPUTS["hx"] = torch.tensor([0.0, 1.0, 1.0, 2.5, 3.0, 4.0, 5.0, -1.0, 6.0, 1e-7])
INPUTS["hxd"] = make(torch.float64, (4, 5))
INPUTS["hconst"] = torch.full((4,), 2.0)
INPUTS["hedges"] = torch.tensor([-1.0, 0.5, 1.0, 3.0, 4.5])
INPUTS["hedges_bad"] = torch.tensor([[0.0, 1.0]])
INPUTS["hw"] = torch.linspace(0.5, 2.0, 10)
# (fnan only where its range is the data's, which is not finite: with a given range, PyTorch 1.13's
# histc counts a NaN in the first bin, where its documentation and tenet ignore it.)
for name in ["hx", "hxd", "hconst", "f2", "fnan", "fe", "l2"]:
    for bins, lo, hi in ((4, 0.0, 0.0), (5, 0.0, 5.0), (3, -1.0, 1.0), (1, 0.0, 0.0), (0, 0.0, 1.0), (4, 2.0, 1.0)):
        if name == "fnan" and lo != hi:
            continue
        record("histc", lambda x, bins, min, max: torch.histc(x, bins, min, max), {"x": name, "bins": bins, "min": lo, "max": hi},
               grad=False)
for name in ["hx", "hxd", "hconst", "f2", "fe"]:
    for bins in [4, 1]:
        for rng in [None, (0.0, 5.0), (1.0, 1.0)]:
            for density in [False, True]:
                kw = {"x": name, "bins": bins, "density": density}
                if rng:
                    kw["range"] = list(rng)
                record("histogram", lambda x, bins, density, range=None: torch.histogram(x, bins, range=range, density=density),
                       kw, grad=False)
    for density in [False, True]:
        if INPUTS[name].dtype == torch.float32:
            record("histogram", lambda x, bins_t, density: torch.histogram(x, bins_t, density=density),
                   {"x": name, "bins_t": "hedges", "density": density}, grad=False)
record("histogram", lambda x, bins, weight, density: torch.histogram(x, bins, weight=weight, density=density),
       {"x": "hx", "bins": 4, "weight": "hw", "density": False}, grad=False)
record("histogram", lambda x, bins, weight, density: torch.histogram(x, bins, weight=weight, density=density),
       {"x": "hx", "bins": 4, "weight": "hw", "density": True}, grad=False)
record("histogram", lambda x, bins_t, density: torch.histogram(x, bins_t, density=density),
       {"x": "hx", "bins_t": "hedges_bad", "density": False}, grad=False)
record("histogram", lambda x, bins, density: torch.histogram(x, bins, density=density),
       {"x": "hx", "bins": -1, "density": False}, grad=False)

# ---- quantile, nanquantile, mode, aminmax ------------------------------------------------------------
INPUTS["q3"] = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0])
INPUTS["q3d"] = INPUTS["q3"].to(torch.float64)
INPUTS["qbad"] = torch.tensor([0.5, 1.5])
INPUTS["q2d"] = torch.tensor([[0.5]])
for name in ["f1", "f2", "f3", "fnan", "d3", "u2", "unan", "fe", "f0d"]:
    t = INPUTS[name]
    qt = "q3d" if t.dtype == torch.float64 else "q3"
    for interp in ["linear", "lower", "higher", "nearest", "midpoint"]:
        for d in [None] + sorted({0, -1} if t.dim() else {0}):
            for keepdim in ([False, True] if d is not None else [False]):
                for op, f in (("quantile", torch.quantile), ("nanquantile", torch.nanquantile)):
                    for q in ([0.3, "t"] if interp == "linear" or name == "u2" else ["t"]):
                        kw = {"x": name}
                        if q == "t":
                            kw["qt"] = qt
                        else:
                            kw["q"] = q
                        kw.update({"dim": d, "keepdim": keepdim, "interpolation": interp})
                        record(op, lambda x, dim, keepdim, interpolation, q=None, qt=None, f=f:
                               f(x, q if qt is None else qt, dim=dim, keepdim=keepdim, interpolation=interpolation),
                               kw, grad=name not in ("fnan", "unan") and interp in ("linear", "midpoint"))
for q in [-0.1, 1.5]:
    record("quantile", lambda x, q: torch.quantile(x, q), {"x": "f2", "q": q}, grad=False)
record("quantile", lambda x, qt: torch.quantile(x, qt), {"x": "f2", "qt": "qbad"}, grad=False)
record("quantile", lambda x, qt: torch.quantile(x, qt), {"x": "f2", "qt": "q2d"}, grad=False)
# (A q of another dtype than x's cannot be written in tenet: both are Tensor<T>.)
record("quantile", lambda x, q, interpolation: torch.quantile(x, q, interpolation=interpolation),
       {"x": "f2", "q": 0.5, "interpolation": "cubic"}, grad=False)
record("quantile", lambda x, q, dim: torch.quantile(x, q, dim=dim), {"x": "f2", "q": 0.5, "dim": 2}, grad=False)
record("quantile", lambda x, q: torch.quantile(x, q), {"x": "l2", "q": 0.5}, grad=False)
INPUTS["modes"] = torch.tensor([[2.0, 1.0, 2.0, 3.0, 1.0, 5.0], [4.0, 4.0, -1.0, -1.0, -1.0, 4.0],
                                [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]])
INPUTS["modesl"] = torch.tensor([[3, 1, 3, 1, 2], [0, 0, 0, 5, 5], [7, 7, 1, 1, 1]])
# (No NaN: PyTorch 1.13's mode sorts with `<`, which puts NaNs anywhere. Rows of at most 16: its
# std::sort is then an insertion sort, stable, and the index it returns is the last occurrence's,
# as tenet's always is.)
for name in ["modes", "modesl", "f1", "f3", "b2", "f0d", "fe"]:
    t = INPUTS[name]
    for d in range(-max(t.dim(), 1), max(t.dim(), 1)):
        for keepdim in [False, True]:
            record("mode", lambda x, dim, keepdim: torch.mode(x, dim, keepdim), {"x": name, "dim": d, "keepdim": keepdim},
                   grad=name in ("modes", "f1", "f3"))
for name in ["f1", "f2", "f3", "fnan", "l2", "b2", "f0d", "fe", "d3"]:
    t = INPUTS[name]
    for d in [None] + list(range(-max(t.dim(), 1), max(t.dim(), 1))):
        # (not 0-d with keepdim: PyTorch 1.13 resizes its 0-d result to [1] there, with a warning)
        for keepdim in ([False, True] if d is not None and t.dim() > 0 else [False]):
            record("aminmax", lambda x, dim, keepdim: torch.aminmax(x, dim=dim, keepdim=keepdim),
                   {"x": name, "dim": d, "keepdim": keepdim}, grad=False)

# ---- losses ------------------------------------------------------------------------------------
for red in ["mean", "sum", "none"]:
    record("mse_loss", lambda x, target, reduction: F.mse_loss(x, target, reduction=reduction),
           {"x": "pred", "target": "target", "reduction": red})
    record("l1_loss", lambda x, target, reduction: F.l1_loss(x, target, reduction=reduction),
           {"x": "pred", "target": "target", "reduction": red})
    for x, tgt in (("logits", "cls"), ("logits32", "cls"), ("logits3", "cls3"), ("logits", "cls_ignore")):
        for weight in [None, "cw"]:
            kw = {"x": x, "target": tgt, "reduction": red}
            if weight and INPUTS[x].dtype == torch.float64:
                kw["weight"] = weight
            record("nll_loss", lambda x, target, reduction, weight=None:
                   F.nll_loss(torch.log_softmax(x, 1), target, weight=weight, reduction=reduction), kw)
            for ls in [0.0, 0.2]:
                record("cross_entropy", lambda x, target, reduction, weight=None, label_smoothing=0.0:
                       F.cross_entropy(x, target, weight=weight, reduction=reduction, label_smoothing=label_smoothing),
                       {**kw, "label_smoothing": ls})
    record("cross_entropy", lambda x, target, reduction, label_smoothing=0.0:
           F.cross_entropy(x, target, reduction=reduction, label_smoothing=label_smoothing),
           {"x": "logits", "target": "probs", "reduction": red, "label_smoothing": 0.1})
    record("binary_cross_entropy", lambda x, target, reduction: F.binary_cross_entropy(x, target, reduction=reduction),
           {"x": "unit", "target": "unit_target", "reduction": red})
    record("binary_cross_entropy_with_logits",
           lambda x, target, reduction: F.binary_cross_entropy_with_logits(x, target, reduction=reduction),
           {"x": "pred", "target": "unit_target", "reduction": red})
record("cross_entropy", lambda x, target, reduction: F.cross_entropy(x, target, reduction=reduction),
       {"x": "logits", "target": "cls_bad", "reduction": "mean"})
record("nll_loss", lambda x, target, reduction: F.nll_loss(x, target, reduction=reduction),
       {"x": "logits", "target": "cls_bad", "reduction": "mean"})

header = [f"# Generated by tests/golden/gen_stats.py from PyTorch {torch.__version__}; do not edit.",
          f"# {sum(1 for l in lines if not l.startswith('grad'))} cases, "
          f"{sum(1 for l in lines if l.startswith('grad'))} gradients."]
inputs = [f"input {name} {tensor_text(t)}" for name, t in INPUTS.items()]
OUT.write_text("\n".join(header + inputs + lines) + "\n")
print(f"wrote {OUT} ({len(lines)} lines)")
