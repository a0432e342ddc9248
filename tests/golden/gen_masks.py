#!/usr/bin/python3
"""Writes tests/ops/masks_cases.txt: PyTorch's masks, conditions and shape operations as data.

tests/ops/test_masks_golden.cpp reads it at run time. The line format is gen_stats.py's:

    input NAME TENSOR
    case OP ARGS | RESULT [| RESULT]
    throws OP ARGS | ERROR
    grad OP ARGS | WEIGHTS | GRADIENT | GRAD_FN

ARGS are `key=value` words: x=NAME (and mask, source, vt, y, z, reps) name inputs, lists are
comma lists (`empty` for none). A view's result is followed by its geometry, an int64 tensor
of its strides and then its storage offset (PyTorch's .stride() and .storage_offset()).
`pre=t` applies x.transpose(0, -1) and `pre=n` x.narrow(0, 1, size - 1) first, so views of
views are checked too. Tuple results (nonzero_tuple, where) are written stacked.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_masks.py
"""
import math
import pathlib

import torch

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "ops" / "masks_cases.txt"

ERRORS = {RuntimeError: "runtime_error", IndexError: "index_error", ValueError: "value_error"}

gen = torch.Generator().manual_seed(2911)


def make(dtype, shape, zeros=False):
    n = math.prod(shape)
    if dtype.is_floating_point:
        t = (torch.randn(n, generator=gen, dtype=torch.float64) * 2).to(dtype)
        if zeros and n >= 6:
            t[1] = 0
            t[4] = 0
    elif dtype == torch.bool:
        t = torch.randint(0, 2, (n,), generator=gen).bool()
    else:
        t = torch.randint(-3, 4, (n,), generator=gen).to(dtype)
    return t.reshape(shape)


INPUTS = {
    "f0d": make(torch.float32, ()),
    "f1": make(torch.float32, (5,)),
    "f2": make(torch.float32, (3, 4), zeros=True),
    "f3": make(torch.float32, (2, 3, 4), zeros=True),
    "fe": make(torch.float32, (0, 3)),
    "d3": make(torch.float64, (2, 3, 4), zeros=True),
    "l2": make(torch.int64, (3, 4)),
    "b2": make(torch.bool, (3, 4)),
    "g1": make(torch.float32, (3,)),
    "g2": make(torch.float32, (2,)),
    "h2": make(torch.float32, (2, 2)),
    "m2": make(torch.bool, (3, 4)),
    "mrow": make(torch.bool, (4,)),
    "mcol": make(torch.bool, (3, 1)),
    "m3": make(torch.bool, (2, 3, 4)),
    "m0d": torch.tensor(True),
    "mbad": make(torch.bool, (3, 5)),
    "mall": torch.ones(3, 4, dtype=torch.bool),
    "me": make(torch.bool, (0, 3)),
    "vt": torch.tensor(2.5),
    "vt1": torch.tensor([2.5]),
    "reps": torch.tensor([2, 0, 1]),
    "reps4": torch.tensor([1, 3, 0, 2]),
    "reps1": torch.tensor([2]),
    "repsneg": torch.tensor([1, -1, 2]),
}
for dt, tag in ((torch.float32, "f"), (torch.float64, "d"), (torch.int64, "l"), (torch.bool, "b")):
    INPUTS[f"src_{tag}"] = make(dt, (30,))
    INPUTS[f"srcs_{tag}"] = make(dt, (3,))
TAG = {torch.float32: "f", torch.float64: "d", torch.int64: "l", torch.bool: "b"}

lines = []


TENSOR_ARGS = ("x", "mask", "source", "vt", "y", "z", "reps")


def tensor_args(kw):
    return {k: (INPUTS[v] if k in TENSOR_ARGS else v) for k, v in kw.items()}


def geometry(t):
    return torch.tensor(list(t.stride()) + [t.storage_offset()], dtype=torch.int64)


def pre(x, p):
    if p == "t":
        return x.transpose(0, -1)
    if p == "n":
        return x.narrow(0, 1, x.size(0) - 1)
    return x


def record(op, fn, kw, grad=True, view=False):
    """One case: fn(**tensors) under PyTorch, its result(s) (a view's with its geometry) or its
    exception; and the gradient of sum(first result * weights) with respect to x."""
    text = f"{op} {args_text(kw)}"

    def run(targs):
        p = targs.pop("pre", None)
        targs["x"] = pre(targs["x"], p)
        r = fn(**targs)
        rs = list(r) if isinstance(r, (tuple, list)) else [r]
        if view:
            rs = [part for t in rs for part in (t, geometry(t))]
        return rs

    try:
        rs = run(tensor_args(kw))
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {text} | {ERRORS[type(e)]}")
        return
    lines.append(f"case {text} | " + " | ".join(tensor_text(t) for t in rs))
    x = INPUTS[kw["x"]]
    if not grad or not x.dtype.is_floating_point or x.numel() == 0:
        return
    xg = x.detach().clone().requires_grad_()
    targs = tensor_args(kw)
    targs["x"] = xg
    out = run(targs)[0]
    if not out.requires_grad:  # a result PyTorch makes anew (combinations with r = 0)
        return
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    (out * w).sum().backward()
    lines.append(f"grad {text} | {tensor_text(w)} | {tensor_text(xg.grad)} | {type(out.grad_fn).__name__}")


ALL = ["f0d", "f1", "f2", "f3", "fe", "d3", "l2", "b2"]

# ---- masked_fill, masked_select, masked_scatter --------------------------------------------
MASKS = {"f2": ["m2", "mrow", "mcol", "m0d", "m3", "mbad", "mall"], "l2": ["m2", "mcol"], "b2": ["m2", "mrow"],
         "d3": ["m3", "mrow", "mcol"], "f3": ["m3", "mcol"], "f0d": ["m0d", "m2"], "fe": ["me", "mrow"],
         "f1": ["m2"]}
for name, masks in MASKS.items():
    tag = TAG[INPUTS[name].dtype]
    for m in masks:
        record("masked_fill", lambda x, mask, value: torch.masked_fill(x, mask, value),
               {"x": name, "mask": m, "value": -1.5})
        record("masked_fill", lambda x, mask, vt: torch.masked_fill(x, mask, vt), {"x": name, "mask": m, "vt": "vt"})
        record("masked_fill_", lambda x, mask, value: x.clone().masked_fill_(mask, value),
               {"x": name, "mask": m, "value": 7})
        record("masked_select", lambda x, mask: torch.masked_select(x, mask), {"x": name, "mask": m})
        for src in (f"src_{tag}", f"srcs_{tag}"):
            record("masked_scatter", lambda x, mask, source: torch.masked_scatter(x, mask, source),
                   {"x": name, "mask": m, "source": src})
            record("masked_scatter_", lambda x, mask, source: x.clone().masked_scatter_(mask, source),
                   {"x": name, "mask": m, "source": src})
record("masked_fill", lambda x, mask, vt: torch.masked_fill(x, mask, vt), {"x": "f2", "mask": "m2", "vt": "vt1"})
record("masked_select", lambda x, mask: torch.masked_select(x, mask), {"x": "f2", "mask": "m2", "pre": "n"})
record("masked_fill", lambda x, mask, value: torch.masked_fill(x, mask, value),
       {"x": "f2", "mask": "m3", "value": 3, "pre": "t"})


def value_grad(x, mask, vt):
    """The gradient of a 0-d value tensor (masked_fill's second differentiable input)."""
    v = vt.detach().clone().requires_grad_()
    out = torch.masked_fill(x.detach(), mask, v)
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    return torch.autograd.grad((out * w).sum(), v)[0]


for name, m in (("f2", "m2"), ("f2", "mcol"), ("f2", "m3"), ("d3", "mrow")):
    record("masked_fill_value_grad", value_grad, {"x": name, "mask": m, "vt": "vt"}, grad=False)


def source_grad(x, mask, source):
    """The gradient of masked_scatter's source (its second differentiable input)."""
    src = source.detach().clone().requires_grad_()
    out = torch.masked_scatter(x.detach(), mask, src)
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    return torch.autograd.grad((out * w).sum(), src)[0]


for name, m, src in (("f2", "m2", "src_f"), ("f2", "mcol", "src_f"), ("f2", "m3", "src_f"), ("d3", "mrow", "src_d"),
                     ("f2", "mall", "src_f")):
    record("masked_scatter_source_grad", source_grad, {"x": name, "mask": m, "source": src}, grad=False)

# ---- nonzero, argwhere, where(cond), count_nonzero -----------------------------------------
for name in ALL:
    record("nonzero", lambda x: torch.nonzero(x), {"x": name}, grad=False)
    record("argwhere", lambda x: torch.argwhere(x), {"x": name}, grad=False)
    record("nonzero_tuple", lambda x: torch.stack(torch.nonzero(x, as_tuple=True)), {"x": name}, grad=False)
    record("where", lambda x: torch.stack(torch.where(x)), {"x": name}, grad=False)
    record("count_nonzero", lambda x: torch.count_nonzero(x), {"x": name}, grad=False)
    nd = INPUTS[name].dim()
    for d in list(range(-nd, nd)) + ([[0, nd - 1]] if nd >= 2 else []) + [[nd], [0, 0]]:
        dims = d if isinstance(d, list) else [d]
        record("count_nonzero", lambda x, dim: torch.count_nonzero(x, dim), {"x": name, "dim": dims}, grad=False)
record("nonzero", lambda x: torch.nonzero(x), {"x": "f3", "pre": "t"}, grad=False)

# ---- views: movedim, swapaxes, diagonal, broadcast_to, ravel, *_as ------------------------
for name in ["f3", "d3", "l2", "f2"]:
    nd = INPUTS[name].dim()
    for s, d in [(0, -1), (-1, 0), (1, 1), ([0, 1], [2, 0]), ([0, 1], [1, 0]), ([0], [1, 2]), ([0, 0], [1, 2]),
                 (nd, 0)]:
        for p in (None, "t"):
            single = not isinstance(s, list)
            record("movedim", lambda x, src, dst, single: torch.movedim(x, src[0], dst[0]) if single else
                   torch.movedim(x, src, dst),
                   {"x": name, "src": [s] if single else s, "dst": [d] if single else d, "single": single,
                    **({"pre": p} if p else {})}, view=True)
    for a, b in [(0, 1), (-1, 0), (1, 1), (0, nd)]:
        record("swapaxes", lambda x, a, b: torch.swapaxes(x, a, b), {"x": name, "a": a, "b": b, "pre": "n"},
               view=True)
        record("swapdims", lambda x, a, b: torch.swapdims(x, a, b), {"x": name, "a": a, "b": b}, view=True)
    for off in (0, 1, -2, 5):
        for d1, d2 in [(0, 1), (-1, -2), (0, -1), (1, 1), (0, nd)]:
            for p in ([None, "t", "n"] if (d1, d2) == (0, 1) else [None]):
                record("diagonal", lambda x, offset, dim1, dim2: torch.diagonal(x, offset, dim1, dim2),
                       {"x": name, "offset": off, "dim1": d1, "dim2": d2, **({"pre": p} if p else {})}, view=True)
for name, shape in [("f1", [3, 5]), ("f1", [2, 1, 5]), ("f1", [-1]), ("f1", [3, -1]), ("f1", [4]), ("f2", [2, 3, 4]),
                    ("f2", [4, 4]), ("f0d", [2, 3]), ("l2", [2, -1, 4])]:
    for p in [None, "t"] if INPUTS[name].dim() >= 2 else [None]:
        record("broadcast_to", lambda x, shape: torch.broadcast_to(x, shape),
               {"x": name, "shape": shape, **({"pre": p} if p else {})}, view=True)
for name in ["f2", "f3", "f0d", "l2"]:
    for p in [None, "t", "n"] if INPUTS[name].dim() >= 1 else [None]:
        record("ravel", lambda x: torch.ravel(x), {"x": name, **({"pre": p} if p else {})}, view=True)
for name, y in [("f1", "f2"), ("g1", "mcol"), ("f2", "f3"), ("f2", "g1")]:
    record("expand_as", lambda x, y: x.expand_as(y), {"x": name, "y": y}, view=True)
for name, y, p in [("f2", "m2", "t"), ("f2", "l2", None), ("f2", "m3", None), ("f2", "src_f", None)]:
    kw = {"x": name, "y": y, **({"pre": p} if p else {})}
    record("view_as", lambda x, y: x.view_as(y), kw, view=True)
    record("reshape_as", lambda x, y: x.reshape_as(y), kw, view=y != "l2" or p is None)

# ---- diag_embed -------------------------------------------------------------------------
for name in ["f1", "f2", "d3", "l2", "b2", "f0d"]:
    for off, d1, d2 in [(0, -2, -1), (1, 0, 1), (-2, 0, 2), (0, 2, 0), (1, 1, 1), (0, 0, 4)]:
        record("diag_embed", lambda x, offset, dim1, dim2: torch.diag_embed(x, offset, dim1, dim2),
               {"x": name, "offset": off, "dim1": d1, "dim2": d2})

# ---- copies: roll, repeat, tile, repeat_interleave, rot90 ---------------------------------
for name in ["f1", "f2", "f3", "l2", "b2", "fe", "f0d"]:
    nd = INPUTS[name].dim()
    for shifts, dims in [([1], [0]), ([-1], [-1]), ([7], [0]), ([2], []), ([-13], []), ([1, 2], [0, 1]),
                         ([0, 0], [0, 1]), ([1, 2], [0]), ([1, 1], []), ([1], [nd])]:
        record("roll", lambda x, shifts, dims: torch.roll(x, shifts, dims),
               {"x": name, "shifts": shifts, "dims": dims, **({"pre": "t"} if name == "f3" else {})})
    for sizes in [[2], [1, 2], [2, 1, 3], [3, 2], [0, 2], [2, 2, 2, 2], [], [-1, 2]]:
        record("repeat", lambda x, sizes: x.repeat(sizes), {"x": name, "sizes": sizes})
        record("tile", lambda x, sizes: torch.tile(x, sizes), {"x": name, "sizes": sizes})
    for reps in ([2, 0, -1] if name in ("f2", "f3", "f0d") else [3]):
        record("repeat_interleave", lambda x, repeats: torch.repeat_interleave(x, repeats), {"x": name, "repeats": reps})
        for d in range(-nd, nd + 1):
            record("repeat_interleave", lambda x, repeats, dim: torch.repeat_interleave(x, repeats, dim),
                   {"x": name, "repeats": reps, "dim": d})
for name, reps, d in [("f2", "reps", 0), ("f2", "reps4", 1), ("f2", "reps1", 1), ("l2", "reps", 0),
                      ("d3", "reps", 1), ("f2", "reps", 1), ("f2", "repsneg", 0), ("f1", "reps1", None),
                      ("f2", "reps4", -1)]:
    kw = {"x": name, "reps": reps, **({"dim": d} if d is not None else {})}
    record("repeat_interleave_t", lambda x, reps, dim=None: torch.repeat_interleave(x, reps, dim), kw)
for reps in ["reps", "reps4", "repsneg"]:
    record("repeat_interleave_r", lambda x: torch.repeat_interleave(x), {"x": reps}, grad=False)
for name in ["f2", "f3", "l2", "b2", "f1"]:
    for k in [1, 2, 3, -1, 0, 5]:
        for dims in [[0, 1], [-1, 0], [0, 0], [0], [0, 5]]:
            if dims != [0, 1] and k not in (1, -1):
                continue
            record("rot90", lambda x, k, dims: torch.rot90(x, k, dims), {"x": name, "k": k, "dims": dims})

# ---- tril_indices, triu_indices (x unused) --------------------------------------------------
for r, c in [(3, 3), (4, 3), (3, 5), (0, 3), (1, 1), (-1, 2), (3, -2)]:
    for off in (0, 1, -1, 2, -4, 7):
        for op in ("tril_indices", "triu_indices"):
            fn = getattr(torch, op)
            record(op, lambda x, row, col, offset, fn=fn: fn(row, col, offset),
                   {"x": "f0d", "row": r, "col": c, "offset": off}, grad=False)

# ---- meshgrid, cartesian_prod, block_diag, combinations, broadcast_shapes -----------------
for names in [["f1"], ["f1", "g1"], ["g1", "f1", "g2"], ["f0d", "g1"], ["f1", "f2"], ["g2", "f0d", "g1"]]:
    kw = {"x": names[0], **({"y": names[1]} if len(names) > 1 else {}), **({"z": names[2]} if len(names) > 2 else {})}
    for indexing in ("ij", "xy", "yx"):
        record("meshgrid", lambda x, y=None, z=None, indexing="ij":
               torch.meshgrid(*[t for t in (x, y, z) if t is not None], indexing=indexing),
               {**kw, "indexing": indexing}, view=True)
    record("cartesian_prod", lambda x, y=None, z=None: torch.cartesian_prod(*[t for t in (x, y, z) if t is not None]),
           kw)
    record("block_diag", lambda x, y=None, z=None: torch.block_diag(*[t for t in (x, y, z) if t is not None]), kw)
record("block_diag", lambda x, y, z: torch.block_diag(x, y, z), {"x": "f2", "y": "fe", "z": "h2"})
record("block_diag", lambda x, y: torch.block_diag(x, y), {"x": "h2", "y": "f3"})
record("block_diag", lambda x, y: torch.block_diag(x, y), {"x": "l2", "y": "reps"}, grad=False)
for name in ["f1", "g1", "l2", "f2", "fe", "reps4", "b2"]:
    for r in ((2, 1, 3, 0, 6, -1) if name in ("f1", "fe") else (2, 3)):
        for wr in (False, True):
            record("combinations", lambda x, r, with_replacement: torch.combinations(x, r, with_replacement),
                   {"x": name, "r": r, "with_replacement": wr})
for shapes in ["2,1;3", "1;2,3;4,1,1", "2;3", ";", "0,1;3", "2;-1", "5"]:
    parsed = [[int(v) for v in s.split(",") if v] for s in shapes.split(";")]
    record("broadcast_shapes", lambda x, shapes, parsed=parsed:
           torch.tensor(list(torch.broadcast_shapes(*parsed)), dtype=torch.int64),
           {"x": "f0d", "shapes": shapes.replace(";", "/") or "/"}, grad=False)

header = [f"# Generated by tests/golden/gen_masks.py from PyTorch {torch.__version__}; do not edit.",
          f"# {sum(1 for l in lines if not l.startswith('grad'))} cases, "
          f"{sum(1 for l in lines if l.startswith('grad'))} gradients."]
inputs = [f"input {name} {tensor_text(t)}" for name, t in INPUTS.items()]
OUT.write_text("\n".join(header + inputs + lines) + "\n")
print(f"wrote {OUT} ({len(lines)} lines)")
