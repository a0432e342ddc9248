#!/usr/bin/python3
"""Writes tests/fft/fft_cases.txt: torch.fft's transforms as data.

tests/fft/test_fft.cpp reads it at run time. The line format is gen_stats.py's, a complex
tensor written as gen_complex.py writes it (golden_format.complex_text):

    input NAME TENSOR
    case OP x=NAME view=V n=N dim=D norm=NORM | RESULT              (fft ifft rfft irfft hfft ihfft)
    case OP x=NAME view=V s=S dim=DIMS norm=NORM | RESULT           (fft2 ... irfftn, hfft2 ... ihfftn)
    throws OP x=NAME ... | ERROR_TYPE MESSAGE

view: none, t (x.transpose(0, -1)), or step (x[..., ::2]): the transform of a strided view.
n=none, s=none, dim=none and norm=none leave PyTorch's default (an fft2's dim=none: (-2, -1)).

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_fft.py
"""
import pathlib

import torch

from golden_format import args_text, complex_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "fft" / "fft_cases.txt"

gen = torch.Generator().manual_seed(31)
lines = []
inputs = {}


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {complex_text(t)}")


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=gen, dtype=dtype)


add_input("r8", randn(8))
add_input("r7", randn(7))
add_input("r13", randn(13, dtype=torch.float64))  # a prime length: Bluestein
add_input("r45", randn(4, 5))
add_input("r66", randn(6, 6, dtype=torch.float64))
add_input("r234", randn(2, 3, 4, dtype=torch.float64))
add_input("i5", torch.tensor([3, -1, 4, 1, -5]))
add_input("b4", torch.tensor([True, False, True, True]))
add_input("c8", randn(8, dtype=torch.complex64))
add_input("c9", randn(9, dtype=torch.complex128))
add_input("c34", randn(3, 4, dtype=torch.complex64))
add_input("c235", randn(2, 3, 5, dtype=torch.complex128))
add_input("c1", randn(1, dtype=torch.complex64))
add_input("e04", torch.zeros(0, 4))
add_input("s0", torch.tensor(1.5))


def viewed(x, view):
    if view == "t":
        return x.transpose(0, -1)
    if view == "step":
        return x[..., ::2]
    return x


NORMS = [None, "backward", "ortho", "forward"]


def norms_for(i, view):
    """Every norm for the first (n, dim) or (s, dim) of an input; one for the rest and for views."""
    if view != "none":
        return ["ortho"]
    return NORMS if i == 0 else [[None, "forward", "ortho"][i % 3]]

F = torch.fft

# ---- 1-D ----------------------------------------------------------------------------------------
ONE_D = {
    "fft": ["r8", "r7", "r13", "r45", "i5", "b4", "c8", "c9", "c34", "c235"],
    "ifft": ["r8", "r13", "r45", "c8", "c9", "c34", "c235"],
    "rfft": ["r8", "r7", "r13", "r45", "r66", "r234", "i5", "b4"],
    "ihfft": ["r8", "r7", "r13", "r45", "r234"],
    "irfft": ["c8", "c9", "c34", "c235", "r8"],
    "hfft": ["c8", "c9", "c34", "c235"],
}
for op, names in ONE_D.items():
    fn = getattr(F, op)
    for x in names:
        t = inputs[x]
        size = t.shape[-1]
        combos = [(None, -1), (size - 2, -1), (size + 3, -1), (1, -1)]  # default, trimmed, padded, one point
        if op in ("irfft", "hfft"):
            combos += [(2 * size - 1, -1), (5, -1)]  # odd outputs
        if t.dim() > 1:
            combos += [(None, 0), (None, -2), (7, 0)]
        views = ["none"] + (["t"] if t.dim() > 1 else []) + (["step"] if size > 4 else [])
        for view in views:
            v = viewed(t, view)
            for i, (n, dim) in enumerate(combos if view == "none" else [(None, -1), (5, 0)]):
                if dim >= v.dim() or (n is not None and n < 1):
                    continue
                for norm in norms_for(i, view):
                    r = fn(v, n=n, dim=dim, norm=norm)
                    kw = {"x": x, "view": view, "n": n, "dim": dim, "norm": norm}
                    lines.append(f"case {op} {args_text(kw)} | {complex_text(r)}")

# ---- 2-D and n-D --------------------------------------------------------------------------------
N_D = {
    "fft2": ["r45", "r66", "c34", "c235", "r234"],
    "ifft2": ["r45", "c34", "c235"],
    "rfft2": ["r45", "r66", "r234"],
    "irfft2": ["c34", "c235", "r45"],
    "fftn": ["r45", "r234", "c34", "c235", "r8"],
    "ifftn": ["r45", "c34", "c235"],
    "rfftn": ["r45", "r66", "r234", "r8"],
    "irfftn": ["c34", "c235", "r45", "c8"],
    "hfft2": ["c34", "c235", "r45"],
    "ihfft2": ["r45", "r66", "r234"],
    "hfftn": ["c34", "c235", "r45", "c8"],
    "ihfftn": ["r45", "r66", "r234", "r8"],
}
for op, names in N_D.items():
    fn = getattr(F, op)
    two = op.endswith("2")
    for x in names:
        t = inputs[x]
        nd = t.dim()
        combos = [(None, None)]
        if nd >= 2:
            combos += [([3, 6], None), ([-1, 4], None), ([5, 2], [0, 1]), (None, [1, 0]), ([4, 3], [-1, 0])]
        if nd >= 3:
            combos += [(None, [0, 2]), ([3, 2, 7], [2, 0, 1])] if not two else [(None, [0, 2])]
            if not two:
                combos += [([6], None), (None, [-3])]
        if nd == 1 and not two:
            combos += [([11], None), ([5], [0])]
        views = ["none"] + (["t"] if nd > 1 else []) + (["step"] if nd > 1 else [])
        for view in views:
            v = viewed(t, view)
            for i, (s, dim) in enumerate(combos if view == "none" else [(None, None)]):
                if two and s is not None and dim is None and len(s) != 2:
                    continue
                for norm in norms_for(i, view):
                    kwargs = {"s": s, "norm": norm}
                    if dim is not None:
                        kwargs["dim"] = dim
                    r = fn(v, **kwargs)
                    kw = {"x": x, "view": view, "s": s, "dim": dim, "norm": norm}
                    lines.append(f"case {op} {args_text(kw)} | {complex_text(r)}")

# ---- fftshift and ifftshift of complex tensors ----------------------------------------------------
for op in ["fftshift", "ifftshift"]:
    for x, dim in [("c8", None), ("c9", None), ("c34", None), ("c34", [0]), ("c235", [1, 2])]:
        r = getattr(F, op)(inputs[x], dim=dim)
        lines.append(f"case {op} {args_text({'x': x, 'view': 'none', 'dim': dim})} | {complex_text(r)}")


# ---- PyTorch's refusals ------------------------------------------------------------------------
def throws(op, kw, call):
    try:
        call()
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {op} {args_text(kw)} | {type(e).__name__} {str(e).splitlines()[0]}")
    else:
        raise AssertionError((op, kw))


def one_d(op, x, n=None, dim=-1, norm=None):
    throws(op, {"x": x, "view": "none", "n": n, "dim": dim, "norm": norm},
           lambda: getattr(F, op)(inputs[x], n=n, dim=dim, norm=norm))


def n_d(op, x, s=None, dim=None, norm=None):
    kwargs = {"s": s, "norm": norm}
    if dim is not None:
        kwargs["dim"] = dim
    throws(op, {"x": x, "view": "none", "s": s, "dim": dim, "norm": norm}, lambda: getattr(F, op)(inputs[x], **kwargs))


for op in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]:
    one_d(op, "r8", n=0)
    one_d(op, "r8", n=-3)
    one_d(op, "r8", dim=1)
    one_d(op, "r45", dim=-3)
    one_d(op, "r8", norm="sideways")
one_d("fft", "e04", dim=0)      # no points along the dim
one_d("irfft", "c1")            # default n = 2 (1 - 1) = 0
one_d("hfft", "c1")
one_d("rfft", "e04", dim=0)
for op in ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn",
           "ihfftn"]:
    n_d(op, "r45", s=[2], dim=[0, 1])        # s and dim lengths differ
    n_d(op, "r45", dim=[0, 0])               # repeated dims
    n_d(op, "r45", dim=[1, -1])
    n_d(op, "r45", dim=[0, 2])               # out of range
    n_d(op, "r45", s=[0, 3], dim=[0, 1])     # no points
    n_d(op, "r45", s=[3, 4], dim=[0, 1], norm="ORTHO")
n_d("fftn", "r45", s=[2, 3, 4])              # more s values than dims
n_d("rfftn", "r45", s=[2, 3, 4])
n_d("rfftn", "r45", dim=[])                  # no axis
n_d("irfftn", "r45", dim=[])
n_d("irfftn", "c1")                          # last size 2 (1 - 1) = 0
n_d("irfft2", "r45", s=[3, -2])
n_d("ihfftn", "r45", dim=[])
n_d("hfftn", "r45", dim=[])
n_d("hfftn", "c1")
n_d("hfft2", "r45", s=[3, -2])

head = [f"# Generated by tests/golden/gen_fft.py from PyTorch {torch.__version__}; do not edit."]
OUT.write_text("\n".join(head + lines) + "\n")
print(f"wrote {OUT}: {len(lines)} lines")
