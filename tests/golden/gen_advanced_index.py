#!/usr/bin/python3
"""Writes tests/core/advanced_index_cases.txt: PyTorch's advanced indexing (x[...] and index_put_
with index tensors and masks among slices, None, Ellipsis and integers) as data, read at run time
by tests/core/test_advanced_index_golden.cpp. The line format is gen_stats.py's.

An index list is the argument `spec`: entries separated by `;`, each `i<int>` (an integer),
`s<start>:<stop>:<step>` (a slice; empty parts omitted, `s:` is `:`), `n` (None), `e` (Ellipsis) or `t<NAME>`
(the index tensor or mask input NAME). index_put_ cases (`put`) write `values` into a copy of x
(accumulate or not) and give the copy.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_advanced_index.py
"""
import math
import pathlib

import torch

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "core" / "advanced_index_cases.txt"
gen = torch.Generator().manual_seed(3001)


def rand(dtype, *shape):
    n = math.prod(shape)
    if dtype.is_floating_point:
        return (torch.randn(n, generator=gen, dtype=torch.float64) * 2).to(dtype).reshape(shape)
    return torch.randint(-9, 10, (n,), generator=gen).reshape(shape)


INPUTS = {
    "f3": rand(torch.float32, 2, 3, 4),
    "d2": rand(torch.float64, 4, 5),
    "l2": rand(torch.int64, 3, 4),
    "f1": rand(torch.float32, 6),
    "i1": torch.tensor([1, 0, 1]),
    "i1neg": torch.tensor([-1, 1]),
    "i2": torch.tensor([[0, 1], [1, 0]]),
    "ib": torch.tensor([1, 0]),
    "i0d": torch.tensor(1),
    "iempty": torch.tensor([], dtype=torch.int64),
    "i32": torch.tensor([1, 2], dtype=torch.int32),
    "ioob": torch.tensor([0, 3]),
    "m3": rand(torch.float32, 2, 3, 4) > 0,
    "m23": torch.tensor([[True, False, True], [False, False, True]]),
    "m2": torch.tensor([True, False]),
    "m4": torch.tensor([False, True, True, False]),
    "m45": rand(torch.float64, 4, 5) > 0.5,
    "mbad": torch.tensor([True, False, True]),
    "mrow": torch.tensor([True, False, True, True]),
    "m6": torch.tensor([True, True, False, False, True, False]),
    "mt0d": torch.tensor(True),
    "v1": torch.tensor([10.0]),
    "vrow": torch.tensor([1.5, -2.0, 3.0, 0.25]),
    "vl": torch.tensor([7]),
    # one index tensor into a 1-D tensor (tenet's direct path): duplicates, negatives, out of range
    "iv": torch.tensor([4, -1, 0, 4, 2]),
    "ibig": torch.tensor([2, 7]),
    "v5": torch.tensor([1.5, -2.0, 3.0, 0.25, 8.0]),
}
lines = []


def parse(spec):
    out = []
    for e in spec.split(";"):
        if e == "n":
            out.append(None)
        elif e == "e":
            out.append(Ellipsis)
        elif e[0] == "i":
            out.append(int(e[1:]))
        elif e[0] == "s":
            parts = [int(v) if v else None for v in e[1:].split(":")]
            out.append(slice(*(parts + [None] * (3 - len(parts)))))
        else:
            out.append(INPUTS[e[1:]])
    return tuple(out)


def record(op, x, spec, grad=True, **kw):
    args = {"x": x, "spec": spec, **kw}
    text = f"{op} {args_text(args)}"

    def run(t):
        if op == "index":
            return t[parse(spec)]
        out = t.clone()
        v = INPUTS[kw["values"]].to(t.dtype)
        if kw["accumulate"]:  # (Python's index_put_ takes index tensors only)
            return out.index_put_(parse(spec), v, accumulate=True)
        out[parse(spec)] = v
        return out

    try:
        r = run(INPUTS[x])
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {text} | {'index_error' if isinstance(e, IndexError) or 'out of bounds' in str(e) else 'value_error'}")
        return
    lines.append(f"case {text} | {tensor_text(r)}")
    t = INPUTS[x]
    if not grad or op != "index" or not t.dtype.is_floating_point or r.numel() == 0:
        return
    xg = t.detach().clone().requires_grad_()
    out = run(xg)
    w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
    (out * w).sum().backward()
    lines.append(f"grad {text} | {tensor_text(w)} | {tensor_text(xg.grad)} | {type(out.grad_fn).__name__}")


# Positions, alone and with slices, None, Ellipsis and integers (adjacent and separated).
for spec in ["ti1", "ti1neg", "ti2", "ti0d", "tiempty", "ti32", "s:;ti1", "e;ti1", "ti1;ti2", "ti1;s:;ti1",
             "s:;ti2;tib", "ti2;s:;tib", "i1;s:;ti1", "i0;ti1", "n;ti1", "ti1;n", "s::2;ti1;s1:3:", "ti1;i1",
             "ti1;ti1;ti1", "tioob", "s:;s:;tioob", "ti1;s:;s:;s:"]:
    record("index", "f3", spec)
for spec in ["ti1", "s:;ti1neg", "tib;ti2", "ti2;tib"]:
    record("index", "d2", spec)
    record("index", "l2", spec)
# Masks, alone and mixed.
for spec in ["tm3", "tm23", "tm2", "s:;s:;tm4", "tm2;s:;tm4", "tm23;ti1", "e;tm4", "tmbad", "tm2;tm23",
             "tmt0d", "i1;tm23", "tm2;n"]:
    record("index", "f3", spec)
for spec in ["tm45", "tm4", "s:;tmrow"]:
    record("index", "d2", spec)
record("index", "f1", "tm6")
record("index", "l2", "tmrow")  # a mask of 4 on a dim of 3
# index_put_, with and without accumulate (duplicates add up).
for x, spec, values in [("f3", "ti1", "v1"), ("f3", "tm3", "v1"), ("f3", "s:;s:;tm4", "v1"), ("d2", "tm45", "v1"),
                        ("d2", "ti1", "vrow"), ("d2", "tib;ti2", "v1"), ("f1", "tm6", "v1"), ("l2", "ti1", "vl"),
                        ("f3", "tioob", "v1"), ("d2", "s:;ti1", "vrow"), ("f1", "tiv", "v5"), ("f1", "tiv", "v1"),
                        ("f1", "tibig", "v1"), ("l2", "s:;tiv", "vl")]:
    for acc in [False, True] if all(e[0] == "t" for e in spec.split(";")) else [False]:
        record("put", x, spec, values=values, accumulate=acc)

header = [f"# Generated by tests/golden/gen_advanced_index.py from PyTorch {torch.__version__}; do not edit."]
inputs = [f"input {name} {tensor_text(t)}" for name, t in INPUTS.items()]
OUT.write_text("\n".join(header + inputs + lines) + "\n")
print(f"wrote {OUT} ({len(lines)} lines)")
