#!/usr/bin/python3
"""Writes tests/quantized/quantized_cases.txt: PyTorch's quantized tensors as data.

tests/quantized/test_quantized.cpp reads it at run time. The line format is gen_stats.py's:

    input NAME TENSOR
    case quantize x=NAME scale=S zp=Z dtype=D | INT_REPR | DEQUANTIZED
    case quantize_per_channel x=NAME scales=NAME zps=NAME axis=A dtype=D | INT_REPR | DEQUANTIZED
    case add|mul a=NAME sa= za= b=NAME sb= zb= scale= zp= dtype=D | INT_REPR
    print OP ARGS | REPR
    throws OP ARGS | MESSAGE

INT_REPR is written as int64. The operands of add and mul are quantize_per_tensor(a, sa, za) and
(b, sb, zb); their sizes are multiples of 64, so PyTorch runs its AVX2 kernels on every element
(tenet's arithmetic is those kernels', see include/tenet/quantized/arithmetic.hpp). A REPR is
PyTorch's repr with `torch.` written `tenet.` and each newline written `\\n`.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_quantized.py
"""
import pathlib

import torch

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "quantized" / "quantized_cases.txt"
DTYPES = {"quint8": torch.quint8, "qint8": torch.qint8, "qint32": torch.qint32}

gen = torch.Generator().manual_seed(3301)
lines = []
inputs = {}


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {tensor_text(t)}")


def randn(*shape, scale=1.0):
    return torch.randn(*shape, generator=gen) * scale


# Inputs: random values at several magnitudes, exact ties (k + 0.5 at power-of-two scales),
# values past every dtype's range, and the non-finite values.
add_input("r1", randn(64, scale=3.0))
add_input("r2", randn(3, 4, 5))
add_input("r3", randn(2, 3, 4, scale=100.0))
add_input("ties", torch.arange(-20, 21, dtype=torch.float32) * 0.25 + 0.125)
add_input("wide", torch.tensor([1e9, -1e9, 3e38, -3e38, 1e20, -1e20, 4e9, 2.5, -2.5, 0.0, -0.0, 1e-30]))
add_input("special", torch.tensor([float("inf"), float("-inf"), float("nan"), 1.0]))
add_input("s0", torch.tensor(1.5))
add_input("e0", torch.zeros(0))
add_input("e2", torch.zeros(2, 0))
add_input("a64", randn(2, 64, scale=2.0))
add_input("b64", randn(2, 64, scale=2.0))
add_input("c16", randn(4, 16, scale=50.0))
add_input("d16", randn(4, 16, scale=50.0))
# Broadcast operands: the inner dims stay whole AVX2 blocks, or broadcast one value across one.
add_input("b64row", randn(64, scale=2.0))
add_input("b64col", randn(2, 1, scale=2.0))
add_input("d16row", randn(16, scale=50.0))
add_input("d16col", randn(4, 1, scale=50.0))

for x in ["r1", "r2", "r3", "ties", "wide", "special", "s0", "e0", "e2"]:
    for dt in DTYPES:
        for scale, zp in [(0.1, 0), (0.25, 3), (0.0173, -7), (2.0, 100), (1e-3, 1000000), (3.0e-5, -5)]:
            lo, hi = torch.iinfo(DTYPES[dt]).min if dt != "quint8" else 0, torch.iinfo(DTYPES[dt]).max if dt != "quint8" else 255
            if dt == "qint32":
                lo, hi = -2**31, 2**31 - 1
            if dt == "qint8":
                lo, hi = -128, 127
            if not lo <= zp <= hi:
                continue
            q = torch.quantize_per_tensor(inputs[x], scale, zp, DTYPES[dt])
            kw = {"x": x, "scale": scale, "zp": zp, "dtype": dt}
            lines.append(f"case quantize {args_text(kw)} | {tensor_text(q.int_repr().long())} | {tensor_text(q.dequantize())}")
            if x in ("r2", "s0", "e0", "e2", "ties"):
                r = repr(q).replace("torch.", "tenet.").replace("\n", "\\n")
                lines.append(f"print quantize {args_text(kw)} | {r}")

add_input("sc3", torch.tensor([0.013, 0.07, 1.7], dtype=torch.float64))
add_input("sc4", torch.tensor([0.25, 0.0031, 0.5, 0.1], dtype=torch.float64))
add_input("sc5", torch.tensor([0.02, 0.03, 0.05, 0.07, 0.11], dtype=torch.float64))
add_input("sc2", torch.tensor([0.5, 0.03], dtype=torch.float64))
add_input("zp3", torch.tensor([3, -5, 0]))
add_input("zp4", torch.tensor([1, 0, 7, 2]))
add_input("zp5", torch.tensor([0, 1, 2, 3, 4]))
add_input("zp2", torch.tensor([10, 20]))
for x, axis, sc, zp in [("r2", 0, "sc3", "zp3"), ("r2", 1, "sc4", "zp4"), ("r2", 2, "sc5", "zp5"),
                        ("r3", 0, "sc2", "zp2"), ("r3", 2, "sc4", "zp4"), ("ties", 0, None, None)]:
    if sc is None:
        continue
    for dt in DTYPES:
        zps = inputs[zp]
        if dt == "quint8":
            zps = zps.abs()
            name = zp + "u"
            if name not in inputs:
                add_input(name, zps)
            zpn = name
        else:
            zpn = zp
        q = torch.quantize_per_channel(inputs[x], inputs[sc], inputs[zpn], axis, DTYPES[dt])
        kw = {"x": x, "scales": sc, "zps": zpn, "axis": axis, "dtype": dt}
        lines.append(f"case quantize_per_channel {args_text(kw)} | {tensor_text(q.int_repr().long())} | {tensor_text(q.dequantize())}")
        if x == "r2" and axis == 0:
            r = repr(q).replace("torch.", "tenet.").replace("\n", "\\n")
            lines.append(f"print quantize_per_channel {args_text(kw)} | {r}")

BROADCAST = [("a64", "b64row", ["quint8", "qint8"]), ("a64", "b64col", ["quint8", "qint8"]),
             ("b64row", "a64", ["quint8"]), ("c16", "d16row", ["qint32"]), ("d16col", "c16", ["qint32"])]
for a, b, dts in [("a64", "b64", ["quint8", "qint8"]), ("c16", "d16", ["qint32"])] + BROADCAST:
    for dt in dts:
        for sa, za, sb, zb, scale, zp in [(0.05, 10, 0.03, 20, 0.07, 30), (0.02, 0, 0.02, 0, 0.04, 0),
                                          (0.1, 3, 0.013, -2, 0.3, 5), (0.5, 100, 0.25, 50, 0.01, 127)]:
            if dt == "quint8":
                za, zb, zp = abs(za), abs(zb), abs(zp)
            if dt == "qint32":
                sa, sb = sa * 100, sb * 100
            qa = torch.quantize_per_tensor(inputs[a], sa, za, DTYPES[dt])
            qb = torch.quantize_per_tensor(inputs[b], sb, zb, DTYPES[dt])
            kw = {"a": a, "sa": sa, "za": za, "b": b, "sb": sb, "zb": zb, "scale": scale, "zp": zp, "dtype": dt}
            for op in ("add", "mul"):
                # PyTorch computes into the first operand's shape and resizes it when the
                # operands broadcast past it (with a warning); the values are the broadcast's.
                r = getattr(torch.ops.quantized, op)(qa, qb, scale, zp)
                lines.append(f"case {op} {args_text(kw)} | {tensor_text(r.int_repr().long())}")

# PyTorch's own refusals (tenet's messages differ; the kind of error is checked).
for kw in [{"x": "r1", "scale": 0.1, "zp": 300, "dtype": "quint8"}, {"x": "r1", "scale": 0.1, "zp": -1, "dtype": "quint8"},
           {"x": "r1", "scale": 0.1, "zp": -129, "dtype": "qint8"}, {"x": "r1", "scale": 0.1, "zp": 128, "dtype": "qint8"}]:
    try:
        torch.quantize_per_tensor(inputs[kw["x"]], kw["scale"], kw["zp"], DTYPES[kw["dtype"]])
    except RuntimeError as e:
        lines.append(f"throws quantize {args_text(kw)} | {str(e).splitlines()[0]}")
    else:
        raise AssertionError(kw)
for kw in [{"x": "r2", "scales": "sc3", "zps": "zp3", "axis": 3, "dtype": "qint8"},
           {"x": "r2", "scales": "sc3", "zps": "zp3", "axis": -1, "dtype": "qint8"},
           {"x": "r2", "scales": "sc4", "zps": "zp3", "axis": 0, "dtype": "qint8"},
           {"x": "r2", "scales": "sc4", "zps": "zp4", "axis": 0, "dtype": "qint8"},
           {"x": "r2", "scales": "sc3", "zps": "zp3", "axis": 0, "dtype": "quint8"}]:
    try:
        torch.quantize_per_channel(inputs[kw["x"]], inputs[kw["scales"]], inputs[kw["zps"]], kw["axis"], DTYPES[kw["dtype"]])
    except RuntimeError as e:
        lines.append(f"throws quantize_per_channel {args_text(kw)} | {str(e).splitlines()[0]}")
    else:
        raise AssertionError(kw)

head = [f"# Generated by tests/golden/gen_quantized.py from PyTorch {torch.__version__}; do not edit."]
OUT.write_text("\n".join(head + lines) + "\n")
print(f"wrote {OUT}: {len(lines)} lines")
