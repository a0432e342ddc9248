#!/usr/bin/python3
"""Writes tests/ops/index_cases.txt: PyTorch's index ops, gather and scatter as data.

tests/ops/test_index_golden.cpp reads it at run time. The line format is gen_stats.py's (input,
case, throws, grad). Keys: x, self, src, source and index name inputs; a grad line differentiates
with respect to the input named x, so a case about src's gradient names src `x` and the tensor
written into `self`. An error is written as the tenet error it stands for: PyTorch's IndexError
and its "out of bounds" / "out of range" RuntimeErrors as index_error, other RuntimeErrors as
value_error.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_index.py
"""
import math
import os
import pathlib

import torch

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "ops" / "index_cases.txt"

gen = torch.Generator().manual_seed(2929)


def make(dtype, shape):
    n = math.prod(shape)
    if dtype.is_floating_point:
        t = (torch.randn(n, generator=gen, dtype=torch.float64) * 2).to(dtype)
    elif dtype == torch.bool:
        t = torch.randint(0, 2, (n,), generator=gen).bool()
    else:
        t = torch.randint(-6, 7, (n,), generator=gen)
    return t.reshape(shape)


def idx(*v):
    return torch.tensor(v, dtype=torch.int64)


INPUTS = {
    "f0d": make(torch.float32, ()),
    "f1": make(torch.float32, (5,)),
    "f2": make(torch.float32, (3, 4)),
    "d3": make(torch.float64, (2, 3, 4)),
    "l2": make(torch.int64, (3, 4)),
    "b2": make(torch.bool, (3, 4)),
    "fe": make(torch.float32, (0, 3)),
    # sources: larger than the indices they go with
    "s2": make(torch.float32, (3, 4)),
    "sd3": make(torch.float64, (2, 3, 4)),
    "sl2": make(torch.int64, (3, 4)),
    "sb2": make(torch.bool, (3, 4)),
    "s0d": make(torch.float32, ()),
    "s1": make(torch.float32, (5,)),
    "v0d_d": make(torch.float64, ()),
    # sources of the indices' shapes (PyTorch 1.13's src gradient is grad.gather(dim, index): a
    # src larger than its index fails in backward)
    "s_f2_d0": make(torch.float32, (2, 4)),
    "s_f2_d1": make(torch.float32, (3, 3)),
    "s_d3_d1": make(torch.float64, (2, 2, 3)),
    "s_d3_d2": make(torch.float64, (2, 3, 2)),
    # index_add/copy sources: x's shape with the dim's size the index's length
    "src_f2_d0": make(torch.float32, (4, 4)),
    "src_f2_d1": make(torch.float32, (3, 3)),
    "src_d3_d1": make(torch.float64, (2, 4, 4)),
    "src_l2_d0": make(torch.int64, (4, 4)),
    "src_b2_d1": make(torch.bool, (3, 3)),
    "src_f2_bad": make(torch.float32, (4, 3)),
    "src_f1": make(torch.float32, (4,)),
    "src_f2_e": make(torch.float32, (0, 4)),
    # 1-D indices
    "i_dup": idx(2, 0, 2, 1),  # duplicates
    "i3": idx(2, 0, 1),  # a permutation of 3
    "i_e": torch.zeros(0, dtype=torch.int64),
    "i_neg": idx(-1, 0),
    "i_big": idx(0, 3),  # 3: out of range for a dim of 3
    "i_big4": idx(1, 4),  # 4: out of range for a dim of 4
    "i0d": torch.tensor(1),
    "i2d": idx(0, 1, 0, 1).reshape(2, 2),
    # gather/scatter indices (x's rank)
    "g_f2_d0": torch.tensor([[2, 0, 1, 2], [0, 0, 2, 1]]),  # (2, 4), values < 3
    "g_f2_d1": torch.tensor([[3, 0, 3], [1, 2, 0], [0, 0, 1]]),  # (3, 3), values < 4
    "g_f2_big": torch.tensor([[2, 0], [0, 3]]),  # 3 out of range along dim 0
    "g_f2_neg": torch.tensor([[1, -1]]),
    "g_f2_wide": torch.tensor([[0, 1, 2, 0, 1]]),  # (1, 5): wider than x's 4 columns
    "g_1d": idx(0, 2),
    "g_e": torch.zeros(0, 4, dtype=torch.int64),
    "g_d3_d1": torch.tensor([[[2, 0, 1], [1, 1, 0]], [[0, 2, 2], [2, 1, 0]]]),  # (2, 2, 3)
    "g_d3_d2": torch.tensor([[[3, 0], [1, 3], [2, 2]], [[0, 1], [3, 3], [1, 0]]]),  # (2, 3, 2)
    "g_0d": torch.tensor(0),
    "g_f1": idx(4, 0, 4, 2, 1, 3),  # for a 1-D x of 5
    # scatter indices without duplicates along the dim (scatter's order for duplicates is unspecified)
    "u_f2_d0": torch.tensor([[2, 0, 1, 2], [0, 1, 2, 1]]),
    "u_f2_d1": torch.tensor([[3, 0, 1], [1, 2, 0], [0, 3, 1]]),
    "u_d3_d2": torch.tensor([[[3, 0], [1, 3], [2, 0]], [[0, 1], [3, 2], [1, 0]]]),
    # take / put indices (flat)
    "t_ok": torch.tensor([[0, 11, 5], [-1, -12, 3]]),
    "t_big": idx(12),
    "t_nd": idx(1, 5, -2, 0),
    "t_neg": idx(-13),
    "t_dup": idx(1, 5, 1, -11),
    "t_src": make(torch.float32, (4,)),
    "t_src6": make(torch.float32, (2, 3)),
    "t_srcd": make(torch.float64, (4,)),
    "t_srcl": make(torch.int64, (4,)),
    # take_along_dim: broadcast against x
    "a_f2_d1": torch.tensor([[3, 0], [1, 1], [2, 0]]),
    "a_bcast": torch.tensor([[1], [3]]).reshape(2, 1, 1),  # broadcast against (3, 4) along dim 1
    "a_row": torch.tensor([[2, 0, 1, 1]]),  # (1, 4) along dim 0
    "f14": make(torch.float32, (1, 4)),  # take_along_dim broadcasts x to the indices' rows
    "sb2_4": make(torch.bool, (4,)),
}

lines = []
DEBUG = os.environ.get("DEBUG")  # DEBUG=1: print PyTorch's messages of the refused cases


def classify(e):
    """The tenet error a PyTorch error stands for: an index out of range (of a dim, of a tensor, into
    an empty dim) is index_error; a dtype without a kernel dtype_error; wrong ranks, shapes and
    arguments are value_error."""
    msg = str(e)
    if any(w in msg for w in ("out of bounds", "out of range", "empty tensor", "should be positive")):
        return "index_error"
    if "not implemented for" in msg:  # a dtype the kernel lacks
        return "dtype_error"
    return "value_error"


TENSOR_ARGS = ("x", "self", "src", "source", "index", "value_t")


def tensors(kw):
    return {k: (INPUTS[v].clone() if k in TENSOR_ARGS else v) for k, v in kw.items()}


def record(op, fn, kw, grad=True):
    """One case: fn(**tensors) under PyTorch, its result or its exception; and x's gradient."""
    text = f"{op} {args_text(kw)}"
    try:
        r = fn(**tensors(kw))
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {text} | {classify(e)}")
        if DEBUG:
            print(type(e).__name__, text, "::", str(e).splitlines()[0])
        return
    lines.append(f"case {text} | {tensor_text(r)}")
    x = INPUTS[kw["x"]]
    if not grad or not x.dtype.is_floating_point or x.numel() == 0:
        return
    t = tensors(kw)
    t["x"] = t["x"].requires_grad_()
    out = fn(**t)
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    try:
        (out * w).sum().backward()
    except (RuntimeError, IndexError) as e:
        # Not implemented, or PyTorch 1.13's backward fails (a comment, read by no test)
        lines.append(f"# no gradient for {text}: {str(e).splitlines()[0]}")
        return
    lines.append(f"grad {text} | {tensor_text(w)} | {tensor_text(t['x'].grad)} | {type(out.grad_fn).__name__}")


# ---- index_select ------------------------------------------------------------------------------
sel = lambda x, dim, index: torch.index_select(x, dim, index)
for name, dims in (("f2", (0, 1, -1, -2)), ("d3", (1, 2)), ("l2", (0,)), ("b2", (1,)), ("fe", (1,))):
    for d in dims:
        for i in ("i3", "i_dup", "i_e", "i0d"):
            record("index_select", sel, {"x": name, "dim": d, "index": i})
record("index_select", sel, {"x": "f1", "dim": 0, "index": "g_f1"})
record("index_select", sel, {"x": "f0d", "dim": 0, "index": "i0d"})
record("index_select", sel, {"x": "f0d", "dim": 0, "index": "g_0d"})
# (Not a 0-d x with an empty index: PyTorch 1.13 returns a 0-d tensor of uninitialised memory.)
for bad in ("i_neg", "i_big", "i2d"):
    record("index_select", sel, {"x": "f2", "dim": 0, "index": bad})
record("index_select", sel, {"x": "f2", "dim": 2, "index": "i3"})
record("index_select", sel, {"x": "fe", "dim": 0, "index": "i3"})

# ---- gather ------------------------------------------------------------------------------------
ga = lambda x, dim, index: torch.gather(x, dim, index)
for name in ("f2", "l2", "b2"):
    record("gather", ga, {"x": name, "dim": 0, "index": "g_f2_d0"})
    record("gather", ga, {"x": name, "dim": 1, "index": "g_f2_d1"})
    record("gather", ga, {"x": name, "dim": -1, "index": "g_f2_d1"})
record("gather", ga, {"x": "d3", "dim": 1, "index": "g_d3_d1"})
record("gather", ga, {"x": "d3", "dim": 2, "index": "g_d3_d2"})
record("gather", ga, {"x": "d3", "dim": -2, "index": "g_d3_d1"})
record("gather", ga, {"x": "f1", "dim": 0, "index": "g_f1"})
record("gather", ga, {"x": "f0d", "dim": 0, "index": "g_0d"})
record("gather", ga, {"x": "f2", "dim": 0, "index": "g_e"})
record("gather", ga, {"x": "f2", "dim": 1, "index": "g_f2_wide"})  # wider only along dim: allowed
for bad, d in (("g_f2_big", 0), ("g_f2_neg", 1), ("g_f2_wide", 0), ("g_1d", 0), ("g_f2_d0", 2), ("g_d3_d1", 0)):
    record("gather", ga, {"x": "f2", "dim": d, "index": bad})
record("gather", ga, {"x": "f0d", "dim": 0, "index": "i0d"})

# ---- take_along_dim ----------------------------------------------------------------------------
tad = lambda x, index, dim=None: torch.take_along_dim(x, index, dim)
for name in ("f2", "l2", "b2"):
    record("take_along_dim", tad, {"x": name, "index": "a_f2_d1", "dim": 1})
    record("take_along_dim", tad, {"x": name, "index": "t_dup"})
record("take_along_dim", tad, {"x": "f2", "index": "a_row", "dim": 0})
record("take_along_dim", tad, {"x": "f2", "index": "a_bcast", "dim": 1})
record("take_along_dim", tad, {"x": "f2", "index": "a_bcast", "dim": -1})
record("take_along_dim", tad, {"x": "d3", "index": "g_d3_d2", "dim": 2})
record("take_along_dim", tad, {"x": "f14", "index": "a_f2_d1", "dim": 1})
record("take_along_dim", tad, {"x": "f14", "index": "a_f2_d1", "dim": -1})
record("take_along_dim", tad, {"x": "f2", "index": "g_f2_d1"})
record("take_along_dim", tad, {"x": "f2", "index": "g_1d", "dim": 0})  # rank differs
record("take_along_dim", tad, {"x": "f2", "index": "g_f2_wide", "dim": 0})  # no broadcast 5 vs 4
record("take_along_dim", tad, {"x": "f2", "index": "g_f2_big", "dim": 0})
record("take_along_dim", tad, {"x": "f2", "index": "a_f2_d1", "dim": 2})

# ---- take --------------------------------------------------------------------------------------
tk = lambda x, index: torch.take(x, index)
for name in ("f2", "l2", "b2"):
    for i in ("t_ok", "t_dup", "i_e", "g_0d"):
        record("take", tk, {"x": name, "index": i})
record("take", tk, {"x": "d3", "index": "g_d3_d1"})
record("take", tk, {"x": "f0d", "index": "g_0d"})
for bad in ("t_big", "t_neg"):
    record("take", tk, {"x": "f2", "index": bad})
record("take", tk, {"x": "fe", "index": "g_0d"})
record("take", tk, {"x": "fe", "index": "i_e"})

# ---- scatter, scatter_add ----------------------------------------------------------------------
sc = lambda dim, index, src=None, x=None, self=None: torch.scatter(x if self is None else self, dim, index,
                                                               src if self is None else x)
scv = lambda x, dim, index, value: torch.scatter(x, dim, index, value)
scr = lambda x, dim, index, src, reduce: torch.scatter(x, dim, index, src, reduce=reduce)
scvr = lambda x, dim, index, value, reduce: torch.scatter(x, dim, index, value, reduce=reduce)
sca = lambda dim, index, src=None, x=None, self=None: torch.scatter_add(x if self is None else self, dim, index,
                                                                    src if self is None else x)
sc_ = lambda dim, index, src=None, x=None, self=None: (x if self is None else self).clone().scatter_(
    dim, index, src if self is None else x)
sca_ = lambda dim, index, src=None, x=None, self=None: (x if self is None else self).clone().scatter_add_(
    dim, index, src if self is None else x)
for x, s in (("f2", "s2"), ("l2", "sl2"), ("b2", "sb2")):
    for d, i in ((0, "u_f2_d0"), (1, "u_f2_d1"), (-1, "u_f2_d1")):
        record("scatter", sc, {"x": x, "dim": d, "index": i, "src": s})
        record("scatter_", sc_, {"x": x, "dim": d, "index": i, "src": s})
        if x != "b2":
            record("scatter", scv, {"x": x, "dim": d, "index": i, "value": 2.5 if x == "f2" else 3})
        record("scatter_add", sca, {"x": x, "dim": d, "index": i.replace("u_", "g_"), "src": s})
        record("scatter_add_", sca_, {"x": x, "dim": d, "index": i.replace("u_", "g_"), "src": s})
        if x != "b2":
            for red in ("add", "multiply"):
                record("scatter", scr, {"x": x, "dim": d, "index": i.replace("u_", "g_"), "src": s, "reduce": red})
                record("scatter", scvr, {"x": x, "dim": d, "index": i.replace("u_", "g_"), "value": 2,
                                         "reduce": red})
record("scatter", sc, {"x": "d3", "dim": 2, "index": "u_d3_d2", "src": "sd3"})
record("scatter_add", sca, {"x": "d3", "dim": 1, "index": "g_d3_d1", "src": "sd3"})
record("scatter_add", sca, {"x": "d3", "dim": 2, "index": "g_d3_d2", "src": "sd3"})
# src's gradient: src named x
record("scatter", sc, {"self": "f2", "dim": 0, "index": "u_f2_d0", "x": "s_f2_d0"})
record("scatter", sc, {"self": "d3", "dim": 2, "index": "u_d3_d2", "x": "s_d3_d2"})
record("scatter_add", sca, {"self": "f2", "dim": 1, "index": "g_f2_d1", "x": "s_f2_d1"})
record("scatter_add", sca, {"self": "d3", "dim": 1, "index": "g_d3_d1", "x": "s_d3_d1"})
record("scatter", sc, {"x": "f0d", "dim": 0, "index": "g_0d", "src": "s0d"})
record("scatter", sc, {"x": "f1", "dim": 0, "index": "g_1d", "src": "s1"})
record("scatter", sc, {"x": "f2", "dim": 0, "index": "g_e", "src": "s2"})
record("scatter_add", sca, {"x": "f2", "dim": 0, "index": "g_e", "src": "s2"})
for bad, d, s in (("g_f2_big", 0, "s2"), ("g_f2_neg", 1, "s2"), ("g_f2_wide", 0, "s2"), ("g_f2_wide", 1, "s2"),
                  ("g_1d", 0, "s2"), ("g_f2_d0", 0, "src_f2_d1"), ("g_f2_d0", 2, "s2")):
    record("scatter", sc, {"x": "f2", "dim": d, "index": bad, "src": s})
    record("scatter_add", sca, {"x": "f2", "dim": d, "index": bad, "src": s})
record("scatter", scv, {"x": "f2", "dim": 0, "index": "g_f2_big", "value": 1.0})
record("scatter", scr, {"x": "f2", "dim": 0, "index": "g_f2_d0", "src": "s2", "reduce": "max"})

# ---- scatter_reduce ----------------------------------------------------------------------------
sr = lambda dim, index, src=None, reduce=None, include_self=True, x=None, self=None: torch.scatter_reduce(
    x if self is None else self, dim, index, src if self is None else x, reduce, include_self=include_self)
sr_ = lambda dim, index, src=None, reduce=None, include_self=True, x=None, self=None: (x if self is None else self).clone(
).scatter_reduce_(dim, index, src if self is None else x, reduce, include_self=include_self)
for red in ("sum", "prod", "mean", "amax", "amin"):
    for inc in (True, False):
        # (src of the index's shape: PyTorch 1.13's scatter_reduce backward fails on a larger one)
        for x, s0, s1 in (("f2", "s_f2_d0", "s_f2_d1"), ("l2", "sl2", "sl2")):
            record("scatter_reduce", sr, {"x": x, "dim": 0, "index": "g_f2_d0", "src": s0, "reduce": red,
                                          "include_self": inc})
            record("scatter_reduce", sr, {"x": x, "dim": 1, "index": "g_f2_d1", "src": s1, "reduce": red,
                                          "include_self": inc})
        record("scatter_reduce", sr, {"x": "d3", "dim": 2, "index": "g_d3_d2", "src": "s_d3_d2", "reduce": red,
                                      "include_self": inc})
        record("scatter_reduce", sr, {"self": "f2", "dim": 1, "index": "g_f2_d1", "x": "s_f2_d1", "reduce": red,
                                      "include_self": inc})
        record("scatter_reduce_", sr_, {"x": "f2", "dim": 0, "index": "g_f2_d0", "src": "s_f2_d0", "reduce": red,
                                        "include_self": inc})
# bool: sum is or, prod and, amax or, amin and; mean has no bool kernel
for red in ("sum", "prod", "mean", "amax", "amin"):
    record("scatter_reduce", sr, {"x": "b2", "dim": 1, "index": "g_f2_d1", "src": "sb2", "reduce": red,
                                  "include_self": red != "prod"})
record("scatter_reduce", sr, {"x": "f2", "dim": 0, "index": "g_f2_d0", "src": "s2", "reduce": "max",
                              "include_self": True})
record("scatter_reduce", sr, {"x": "f2", "dim": 0, "index": "g_f2_big", "src": "s2", "reduce": "sum",
                              "include_self": True})
record("scatter_reduce", sr, {"x": "f2", "dim": 0, "index": "g_e", "src": "s2", "reduce": "amax",
                              "include_self": False})

# ---- index_add, index_copy, index_fill, index_reduce --------------------------------------------
ia = lambda dim, index, source=None, alpha=1, x=None, self=None: torch.index_add(
    x if self is None else self, dim, index, source if self is None else x, alpha=alpha)
ia_ = lambda dim, index, source=None, alpha=1, x=None, self=None: (x if self is None else self).clone().index_add_(
    dim, index, source if self is None else x, alpha=alpha)
ic = lambda dim, index, source=None, x=None, self=None: torch.index_copy(
    x if self is None else self, dim, index, source if self is None else x)
ic_ = lambda dim, index, source=None, x=None, self=None: (x if self is None else self).clone().index_copy_(
    dim, index, source if self is None else x)
ifl = lambda x, dim, index, value: torch.index_fill(x, dim, index, value)
ifl_ = lambda x, dim, index, value: x.clone().index_fill_(dim, index, value)
ir = lambda dim, index, source=None, reduce=None, include_self=True, x=None, self=None: torch.index_reduce(
    x if self is None else self, dim, index, source if self is None else x, reduce, include_self=include_self)
ir_ = lambda dim, index, source=None, reduce=None, include_self=True, x=None, self=None: (x if self is None else self).clone(
).index_reduce_(dim, index, source if self is None else x, reduce, include_self=include_self)
ADD = (("f2", 0, "i_dup", "src_f2_d0"), ("f2", 1, "i3", "src_f2_d1"), ("f2", -1, "i3", "src_f2_d1"),
       ("d3", 1, "i_dup", "src_d3_d1"), ("l2", 0, "i_dup", "src_l2_d0"), ("f2", 0, "i_e", "src_f2_e"))
for x, d, i, s in ADD:
    for alpha in (1, 2):
        record("index_add", ia, {"x": x, "dim": d, "index": i, "source": s, "alpha": alpha})
    record("index_add_", ia_, {"x": x, "dim": d, "index": i, "source": s, "alpha": 1})
    for red in ("prod", "mean", "amax", "amin"):
        for inc in (True, False):
            record("index_reduce", ir, {"x": x, "dim": d, "index": i, "source": s, "reduce": red, "include_self": inc})
    record("index_reduce_", ir_, {"x": x, "dim": d, "index": i, "source": s, "reduce": "amax", "include_self": True})
    record("index_fill", ifl, {"x": x, "dim": d, "index": i, "value": -2})
    record("index_fill_", ifl_, {"x": x, "dim": d, "index": i, "value": 1.5 if x != "l2" else 4})
record("index_add", ia, {"self": "f2", "dim": 0, "index": "i_dup", "x": "src_f2_d0", "alpha": 2})
record("index_add", ia, {"self": "d3", "dim": 1, "index": "i_dup", "x": "src_d3_d1", "alpha": 1})
record("index_reduce", ir, {"self": "f2", "dim": 1, "index": "i3", "x": "src_f2_d1", "reduce": "amax",
                            "include_self": True})
# (no duplicates: index_copy's order for them is unspecified)
for x, d, i, s in (("f2", 1, "i3", "src_f2_d1"), ("b2", 1, "i3", "src_b2_d1"), ("f2", 0, "i_e", "src_f2_e")):
    record("index_copy", ic, {"x": x, "dim": d, "index": i, "source": s})
    record("index_copy_", ic_, {"x": x, "dim": d, "index": i, "source": s})
record("index_copy", ic, {"self": "f2", "dim": 1, "index": "i3", "x": "src_f2_d1"})
for red in ("prod", "mean", "amax", "amin"):
    record("index_reduce", ir, {"x": "b2", "dim": 1, "index": "i3", "source": "src_b2_d1", "reduce": red,
                                "include_self": red != "amin"})
record("index_add", ia, {"x": "b2", "dim": 1, "index": "i3", "source": "src_b2_d1", "alpha": 1})
# a 0-d tensor value (value_t), differentiable: its gradient with the value named x
iflt = lambda dim, index, value_t=None, x=None, self=None: torch.index_fill(
    x if self is None else self, dim, index, value_t if self is None else x)
record("index_fill", iflt, {"x": "f2", "dim": 1, "index": "i_dup", "value_t": "s0d"})
record("index_fill", iflt, {"self": "f2", "dim": 1, "index": "i_dup", "x": "s0d"})
record("index_fill", iflt, {"self": "d3", "dim": -1, "index": "i3", "x": "v0d_d"})
record("index_fill", iflt, {"self": "f2", "dim": 0, "index": "i_e", "x": "s0d"})
record("index_fill", iflt, {"x": "f2", "dim": 1, "index": "i3", "value_t": "s1"})
record("index_fill", ifl, {"x": "b2", "dim": 1, "index": "i3", "value": 1})
record("index_fill", ifl, {"x": "f0d", "dim": 0, "index": "g_0d", "value": 3})
record("index_add", ia, {"x": "f1", "dim": 0, "index": "i_dup", "source": "src_f1", "alpha": 1})
for op, f in (("index_add", ia), ("index_copy", ic)):
    record(op, f, {"x": "f2", "dim": 0, "index": "i_neg", "source": "s_f2_d0"})
    record(op, f, {"x": "f2", "dim": 0, "index": "i_big", "source": "s_f2_d0"})
    record(op, f, {"x": "f2", "dim": 1, "index": "i3", "source": "src_f2_bad"})  # source's dim size != index's
    record(op, f, {"x": "f2", "dim": 0, "index": "i2d", "source": "src_f2_d0"})
    record(op, f, {"x": "f2", "dim": 0, "index": "i3", "source": "src_f1"})
    record(op, f, {"x": "f2", "dim": 2, "index": "i3", "source": "src_f2_d1"})
record("index_add", ia, {"x": "f2", "dim": 1, "index": "i_big4", "source": "src_f2_bad"})
record("index_copy", ic, {"x": "f2", "dim": 0, "index": "i3", "source": "src_f2_d0"})  # 3 indices, 4 slices
record("index_fill", ifl, {"x": "f2", "dim": 1, "index": "i_big4", "value": 1})
record("index_fill", ifl, {"x": "f2", "dim": 1, "index": "i_neg", "value": 1})
record("index_reduce", ir, {"x": "f2", "dim": 0, "index": "i_dup", "source": "src_f2_d0", "reduce": "sum",
                            "include_self": True})
record("index_reduce", ir, {"x": "f2", "dim": 0, "index": "i_big", "source": "s_f2_d0", "reduce": "amax",
                            "include_self": True})

# ---- put_ ----------------------------------------------------------------------------------------
pt = lambda index, source=None, accumulate=False, x=None, self=None: (x if self is None else self).clone().put_(
    index, source if self is None else x, accumulate=accumulate)
for acc in (False, True):
    record("put_", pt, {"x": "f2", "index": "t_dup" if acc else "t_nd", "source": "t_src",
                        "accumulate": acc})
    record("put_", pt, {"x": "d3", "index": "t_dup" if acc else "t_nd", "source": "t_srcd", "accumulate": acc})
    record("put_", pt, {"x": "l2", "index": "t_dup" if acc else "t_nd", "source": "t_srcl", "accumulate": acc})
    record("put_", pt, {"x": "f2", "index": "t_ok", "source": "t_src6", "accumulate": acc})
    record("put_", pt, {"self": "d3", "index": "t_dup" if acc else "t_nd", "x": "t_srcd", "accumulate": acc})
    record("put_", pt, {"x": "f2", "index": "i3", "source": "s1", "accumulate": acc})
    record("put_", pt, {"x": "f2", "index": "t_big", "source": "s0d", "accumulate": acc})
    record("put_", pt, {"x": "f2", "index": "t_ok", "source": "t_src", "accumulate": acc})
record("put_", pt, {"x": "f2", "index": "i_e", "source": "src_f2_e", "accumulate": False})
record("put_", pt, {"x": "b2", "index": "t_dup", "source": "sb2_4", "accumulate": True})

header = [f"# Generated by tests/golden/gen_index.py from PyTorch {torch.__version__}; do not edit.",
          f"# {sum(1 for l in lines if not l.startswith('grad'))} cases, "
          f"{sum(1 for l in lines if l.startswith('grad'))} gradients."]
inputs = [f"input {name} {tensor_text(t)}" for name, t in INPUTS.items()]
OUT.write_text("\n".join(header + inputs + lines) + "\n")
print(f"wrote {OUT} ({len(lines)} lines)")
