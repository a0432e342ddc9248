#!/usr/bin/python3
"""Writes tests/complex/complex_cases.txt: PyTorch's complex tensors as data.

tests/complex/test_complex.cpp reads it at run time. The line format is gen_stats.py's, a
complex tensor written as `complex64 ndim size... 2*numel re im re im ...` (its view_as_real's
values, the complex shape):

    input NAME TENSOR
    case unary op=OP x=NAME | RESULT
    case binary op=OP a=NAME b=NAME | RESULT          (b a tensor input)
    case scalar op=OP a=NAME s=REPR | RESULT          (s a Python complex or float number)
    case reduce op=OP x=NAME dim=D keepdim=K | RESULT
    case reduce op=norm|vector_norm x=NAME ord=P dim=D keepdim=K | RESULT   (real results)
    case make op=complex|polar a=NAME b=NAME | RESULT
    promote A B | RESULT_DTYPE                       (torch.promote_types)
    print repr x=NAME | REPR
    throws OP ARGS | MESSAGE

A REPR is PyTorch's repr with `torch.` written `tenet.` and each newline written `\\n`.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_complex.py
"""
import math
import pathlib

import torch

from golden_format import NAME, args_text, complex_text, tensor_text, value_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "complex" / "complex_cases.txt"
ALL = {**NAME, torch.complex64: "complex64", torch.complex128: "complex128", torch.uint8: "uint8",
       torch.int8: "int8", torch.int16: "int16", torch.float16: "float16", torch.bfloat16: "bfloat16"}

gen = torch.Generator().manual_seed(3131)
lines = []
inputs = {}


def ctext(t):
    """A tensor's text; a complex one as its (re, im) pairs under its complex shape."""
    return complex_text(t)


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {ctext(t)}")


def crandn(*shape, dtype=torch.complex64, scale=1.0):
    return (torch.randn(*shape, generator=gen, dtype=dtype) * scale)


# ---- Inputs -----------------------------------------------------------------------------------
add_input("a", crandn(2, 3))
add_input("b", crandn(3))
add_input("c", crandn(2, 3, scale=0.5))  # inside the unit disc: asin, acos, atanh on their principal branch
add_input("d", crandn(4, dtype=torch.complex128))
add_input("e", crandn(4, dtype=torch.complex128, scale=0.5))
add_input("z", torch.tensor([0j, 1 + 0j, -1 + 0j, 1j, -1j, 2 - 3j], dtype=torch.complex64))
add_input("f32", torch.randn(2, 3, generator=gen))
add_input("f64", torch.randn(3, generator=gen, dtype=torch.float64))
add_input("i64", torch.tensor([1, -2, 3]))
add_input("re", torch.randn(2, 3, generator=gen))
add_input("im", torch.randn(3, generator=gen))
add_input("re64", torch.randn(4, generator=gen, dtype=torch.float64))
add_input("im64", torch.randn(4, generator=gen, dtype=torch.float64))

# ---- Pointwise ---------------------------------------------------------------------------------
UNARY = {
    "neg": torch.neg, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "sin": torch.sin, "cos": torch.cos,
    "tanh": torch.tanh, "reciprocal": torch.reciprocal, "abs": torch.abs, "angle": torch.angle, "sgn": torch.sgn,
    "conj": lambda x: torch.conj(x).resolve_conj(), "conj_physical": torch.conj_physical,
    "rsqrt": torch.rsqrt, "log10": torch.log10, "tan": torch.tan, "sinh": torch.sinh, "cosh": torch.cosh,
    "asin": torch.asin, "acos": torch.acos, "atan": torch.atan, "asinh": torch.asinh, "acosh": torch.acosh,
    "atanh": torch.atanh, "sigmoid": torch.sigmoid, "square": torch.square,
}
# Ops tested in both precisions; the others in complex64 (tests/complex/test_complex.cpp instantiates them so).
BOTH = ["neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "reciprocal", "abs", "angle", "sgn", "conj"]
for op, f in UNARY.items():
    if op == "square":
        continue  # square is refused on complex by tenet (see test_complex.cpp)
    xs = ["a", "c"] + (["d", "e"] if op in BOTH else [])
    if op in ("abs", "angle", "sgn", "neg", "conj", "exp", "sqrt", "reciprocal"):
        xs.append("z")
    for x in xs:
        lines.append(f"case unary {args_text({'op': op, 'x': x})} | {ctext(f(inputs[x]))}")
# angle and sgn on real tensors (PyTorch's: pi for negatives, 0 otherwise; sign)
for op in ("angle", "sgn"):
    lines.append(f"case unary {args_text({'op': op, 'x': 'f32'})} | {ctext(UNARY[op](inputs['f32']))}")

BINARY = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "pow": torch.pow,
          "eq": torch.eq, "ne": torch.ne}
for op, f in BINARY.items():
    for a, b in [("a", "b"), ("a", "a"), ("d", "e"), ("a", "f32"), ("f64", "a"), ("i64", "b"), ("z", "z")]:
        if op == "pow" and (a, b) == ("z", "z"):
            continue  # 0 ** complex: std::pow and PyTorch's vectorised pow differ in the nan's sign bits
        lines.append(f"case binary {args_text({'op': op, 'a': a, 'b': b})} | {ctext(f(inputs[a], inputs[b]))}")
for op in ("add", "mul", "sub", "div", "pow"):
    for a, s in [("a", 2.5), ("a", 1j), ("f32", 1j), ("f64", 1j), ("i64", 0.5 - 2j)]:
        if op == "pow" and a != "a":
            continue
        lines.append(f"case scalar {args_text({'op': op, 'a': a, 's': repr(s)})} | {ctext(BINARY[op](inputs[a], s))}")

# ---- Creation -----------------------------------------------------------------------------------
for op, f in (("complex", torch.complex), ("polar", torch.polar)):
    for a, b in [("re", "im"), ("re64", "im64")]:
        lines.append(f"case make {args_text({'op': op, 'a': a, 'b': b})} | {ctext(f(inputs[a], inputs[b]))}")

# ---- Reductions --------------------------------------------------------------------------------
for op in ("sum", "mean", "prod"):
    for x in ("a", "d"):
        for dim, keep in [(None, False), (0, False), (-1, True)]:
            t = inputs[x]
            r = getattr(torch, op)(t) if dim is None else getattr(torch, op)(t, dim, keepdim=keep)
            lines.append(f"case reduce {args_text({'op': op, 'x': x, 'dim': 'none' if dim is None else dim, 'keepdim': keep})} | {ctext(r)}")
# torch.norm and torch.linalg.vector_norm of complex tensors: the norms of the moduli, real.
for op, f in (("norm", torch.norm), ("vector_norm", torch.linalg.vector_norm)):
    for x in ("a", "d"):
        for p, dim, keep in [(2.0, None, False), (1.0, 0, False), (float("inf"), -1, True), (0.0, None, False),
                             (3.0, 0, False), (float("-inf"), None, False)]:
            t = inputs[x]
            r = f(t, p) if dim is None else f(t, p, dim, keepdim=keep)
            kw = {"op": op, "x": x, "ord": p, "dim": "none" if dim is None else dim, "keepdim": keep}
            lines.append(f"case reduce {args_text(kw)} | {ctext(r)}")

# ---- Promotion ---------------------------------------------------------------------------------
REALS = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
         torch.bfloat16, torch.float32, torch.float64]
for c in (torch.complex64, torch.complex128):
    for r in REALS + [torch.complex64, torch.complex128]:
        lines.append(f"promote {ALL[r]} {ALL[c]} | {ALL[torch.promote_types(r, c)]}")
# A number with a tensor, and a 0-d tensor with a dimensioned one (torch.result_type).
for dt in (torch.float32, torch.float64, torch.int64, torch.bool):
    lines.append(f"result_type {ALL[dt]} number=complex | {ALL[torch.result_type(torch.ones(2, dtype=dt), 1j)]}")
for dt in (torch.float32, torch.float64, torch.int64):
    z = torch.tensor(1j)
    lines.append(f"result_type {ALL[dt]} zero_dim=complex64 | {ALL[torch.result_type(torch.ones(2, dtype=dt), z)]}")
for zt in (torch.float64, torch.int64):
    lines.append(f"result_type complex64 zero_dim={ALL[zt]} | "
                 f"{ALL[torch.result_type(torch.ones(2, dtype=torch.complex64), torch.tensor(1, dtype=zt))]}")
for s in (2.5, 3):
    lines.append(f"result_type complex64 number={type(s).__name__} | "
                 f"{ALL[torch.result_type(torch.ones(2, dtype=torch.complex64), s)]}")

# ---- Printing ----------------------------------------------------------------------------------
nan, inf = float("nan"), float("inf")
PRINTS = {
    "p_small": torch.tensor([1 + 2j, 3 - 4j]),
    "p_c128": torch.tensor([1.5 + 2j, -3e-5 - 4j], dtype=torch.complex128),
    "p_frac": torch.tensor([[0.5 + 0.25j, -1.125 + 3j], [2.0 - 0.0625j, 0j]]),
    "p_sci": torch.tensor([1e10 + 1j, 1e-3 - 2e5j]),
    "p_special": torch.complex(torch.tensor([nan, inf, -inf, 1.0]), torch.tensor([1.0, nan, -inf, inf])),
    "p_negzero": torch.complex(torch.tensor([0.0, -0.0, 1.0]), torch.tensor([-0.0, 0.0, -0.0])),
    "p_scalar": torch.tensor(2.5 - 1j),
    "p_scalar128": torch.tensor(-1j, dtype=torch.complex128),
    "p_empty": torch.zeros(0, dtype=torch.complex64),
    "p_empty128": torch.zeros(2, 0, dtype=torch.complex128),
    "p_wide": torch.complex(torch.arange(20.0) * 1.5, -torch.arange(20.0) / 3),
    "p_long": torch.complex(torch.arange(1200.0), torch.arange(1200.0) * -2),
    "p_3d": torch.complex(torch.arange(8.0).reshape(2, 2, 2), torch.ones(2, 2, 2)),
    "p_rand": crandn(3, 2, dtype=torch.complex128, scale=100.0),
}
for name, t in PRINTS.items():
    add_input(name, t)
    r = repr(t).replace("torch.", "tenet.").replace("\n", "\\n")
    lines.append(f"print repr {args_text({'x': name})} | {r}")

# ---- Errors ------------------------------------------------------------------------------------
def message(f):
    try:
        f()
    except RuntimeError as e:
        return str(e).splitlines()[0]
    raise AssertionError("expected an error")


VIEW_ERRORS = {
    "last_size": lambda: torch.view_as_complex(torch.ones(3, 3)),
    "last_stride": lambda: torch.view_as_complex(torch.ones(2, 2).t()),
    "offset": lambda: torch.view_as_complex(torch.ones(7)[1:].view(3, 2)),
    "stride": lambda: torch.view_as_complex(torch.ones(9).as_strided((3, 2), (3, 1))),
    "zero_dim": lambda: torch.view_as_complex(torch.ones(())),
}
for kind, f in VIEW_ERRORS.items():
    lines.append(f"throws view_as_complex {args_text({'kind': kind})} | {message(f)}")

OUT.parent.mkdir(exist_ok=True)
OUT.write_text("# Generated by tests/golden/gen_complex.py (PyTorch " + torch.__version__ + "); do not edit.\n" +
               "\n".join(lines) + "\n")
print(f"wrote {len(lines)} lines to {OUT}")
