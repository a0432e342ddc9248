#!/usr/bin/python3
"""Writes tests/ops/reduce_cases.inc: PyTorch's reductions over chosen tensors.

Inputs (float32, float64, int64, int32, bool, uint8; 0-d, 1-D, 2-D, 3-D, empty, with NaN
and inf) are generated here with a fixed seed and written as exact literals. Every case
is one reduction (sum, mean, prod, amax, amin, max, min, argmax, argmin, any, all, norm)
over all elements, one dim (negative too) or a list of dims, with and without keepdim.
The generator records PyTorch's result (dtype, sizes, row-major values) or the exception
type, and emits one `reduce_case::check(...)` or `CHECK_THROWS_AS(...)` per case; the
comparison rules are in tests/ops/test_reduce.cpp.

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_reduce.py
"""
import math
import pathlib

import torch

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "ops" / "reduce_cases.inc"

CPP = {torch.float32: "float", torch.float64: "double", torch.int64: "int64_t", torch.int32: "int32_t",
       torch.bool: "bool", torch.uint8: "uint8_t"}
NAME = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.int32: "int32",
        torch.bool: "bool", torch.uint8: "uint8"}


def lit(v, dtype):
    if dtype == torch.bool:
        return "true" if v else "false"
    if dtype.is_floating_point:
        v = float(v)
        if math.isnan(v):
            return "reduce_case::kNaN"
        if math.isinf(v):
            return "reduce_case::kInf" if v > 0 else "-reduce_case::kInf"
        return v.hex()
    return f"{int(v)}LL"


def shape_lit(shape):
    return "{" + ", ".join(str(s) for s in shape) + "}"


gen = torch.Generator().manual_seed(1234)


def make(dtype, shape, nan=False):
    n = math.prod(shape)
    if dtype.is_floating_point:
        t = (torch.randn(n, generator=gen, dtype=torch.float64) * 3).to(dtype)
        if n >= 4:
            t[1] = t[3]  # a tie for argmax/argmin
        if nan and n >= 6:
            t[2] = float("nan")
            t[5] = float("inf")
    elif dtype == torch.bool:
        t = torch.randint(0, 2, (n,), generator=gen).bool()
    elif dtype == torch.uint8:
        t = torch.randint(0, 10, (n,), generator=gen).to(dtype)
    else:
        t = torch.randint(-6, 7, (n,), generator=gen).to(dtype)
    return t.reshape(shape)


INPUTS = {  # C++ name -> tensor
    "f0d": make(torch.float32, ()),
    "f1": make(torch.float32, (7,)),
    "f2": make(torch.float32, (3, 4)),
    "f3": make(torch.float32, (2, 3, 4)),
    "fnan": make(torch.float32, (3, 4), nan=True),
    "fe": make(torch.float32, (0, 3)),
    "d3": make(torch.float64, (2, 3, 5)),
    "d1": make(torch.float64, (1000,)),
    "l2": make(torch.int64, (3, 4)),
    "l3": make(torch.int64, (2, 3, 4)),
    "i2": make(torch.int32, (4, 5)),
    "b2": make(torch.bool, (3, 4)),
    "u2": make(torch.uint8, (2, 3)),
    "le": make(torch.int64, (2, 0)),
}
# Non-contiguous views of the inputs, to exercise strided walks.
VIEWS = {"f3t": ("f3", lambda t: t.transpose(0, 2), "f3.transpose(0, 2)"),
         "l2t": ("l2", lambda t: t.t(), "l2.t()")}

cases = []  # (python text, C++ expression, kind)


def dims_variants(ndim):
    if ndim == 0:
        return [None, 0, -1]
    out = [None]
    out += list(range(ndim)) + [-1]
    if ndim >= 2:
        out.append([0, -1])
    if ndim == 3:
        out.append([2, 0])
    return out


def cpp_dims(d):
    if isinstance(d, list):
        return "tenet::IntArray{" + ", ".join(str(x) for x in d) + "}"
    return str(d)


def add(name, tensor, method, dims, keepdim, extra=()):
    """method(x, *extra, dim=dims, keepdim=keepdim) in torch; x.method(extra..., dims, keepdim) in C++."""
    pyargs = [repr(e) for e in extra]
    cargs = []
    for e in extra:
        cargs.append("reduce_case::kInf" if e == math.inf else "-reduce_case::kInf" if e == -math.inf else repr(float(e)))
    if dims is not None:
        pyargs.append(f"dim={dims!r}")
        cargs.append(cpp_dims(dims))
        if keepdim:
            pyargs.append("keepdim=True")
            cargs.append("true")
    if method == "norm":
        pytext = f"torch.norm({name}, {', '.join(pyargs)})"
        fn = lambda: torch.norm(tensor, *extra, **({"dim": dims, "keepdim": keepdim} if dims is not None else {}))
    else:
        pytext = f"{name}.{method}({', '.join(pyargs)})"
        fn = lambda: getattr(tensor, method)(*extra, **({"dim": dims, "keepdim": keepdim} if dims is not None else {}))
    cpp = f"{name}.{method}({', '.join(cargs)})"
    try:
        r = fn()
    except IndexError:
        cases.append((pytext, cpp, ("throws", "tenet::index_error")))
        return
    except RuntimeError as e:
        msg = str(e)
        kind = "tenet::dtype_error" if ("dtype" in msg or "floating point" in msg) else "tenet::error"
        cases.append((pytext, cpp, ("throws", kind)))
        return
    if isinstance(r, tuple):
        cases.append((pytext + ".values", cpp + ".values", ("value", r.values)))
        cases.append((pytext + ".indices", cpp + ".indices", ("value", r.indices)))
    else:
        cases.append((pytext, cpp, ("value", r)))


ALL_TENSORS = dict(INPUTS)
for vname, (src, f, _) in VIEWS.items():
    ALL_TENSORS[vname] = f(INPUTS[src])

for name, t in ALL_TENSORS.items():
    fl = t.dtype.is_floating_point
    for d in dims_variants(t.dim()):
        for keepdim in ([False, True] if d is not None else [False]):
            for m in ["sum", "prod", "amax", "amin", "any", "all"] + (["mean"] if fl or d is None else []):
                if m in ("amax", "amin") and d is None:
                    continue
                if m in ("any", "all", "prod") and isinstance(d, list):
                    continue  # torch 1.13's any/all/prod take one dim
                add(name, t, m, d, keepdim)
            if not isinstance(d, list):
                for m in ["max", "min"] + ([] if t.dtype == torch.bool else ["argmax", "argmin"]):
                    if d is None and m in ("max", "min"):
                        add(name, t, m, None, False)
                    else:
                        add(name, t, m, d, keepdim)
            if fl:
                ps = [2, 1, math.inf, -math.inf, 0, 3, 0.5] if (d is None or d == -1) else [2]
                for p in ps:
                    add(name, t, "norm", d, keepdim, extra=(p,))
    if fl and t.dim() > 0:
        add(name, t, "amax", [], False)  # dim=[]: every dim
        add(name, t, "sum", [], True)
    if not fl:
        add(name, t, "norm", None, False, extra=(2,))

lines = [f"// Generated by tests/golden/gen_reduce.py from PyTorch {torch.__version__}; do not edit.",
         f"// {len(cases)} reduction cases over the inputs defined first.",
         "// Inputs: name, C++ element type, sizes, row-major values."]
for name, t in INPUTS.items():
    vals = ", ".join(lit(v, t.dtype) for v in t.flatten().tolist())
    lines.append(f"const auto {name} = reduce_case::make<{CPP[t.dtype]}>({shape_lit(t.shape)}, {{{vals}}});")
for vname, (src, f, cpp) in VIEWS.items():
    lines.append(f"const auto {vname} = {cpp};")
for py, cpp, (kind, r) in cases:
    if kind == "throws":
        lines.append(f"CHECK_THROWS_AS(reduce_case::discard({cpp}), {r});  // torch: {py}")
        continue
    vals = ", ".join(lit(v, r.dtype) for v in r.flatten().tolist())
    lines.append(f'reduce_case::check(R"tenet({py})tenet", {cpp}, "{NAME[r.dtype]}", {shape_lit(r.shape)}, '
                 f"{{{vals}}});")
OUT.write_text("\n".join(lines) + "\n")
print(f"wrote {OUT} ({len(cases)} cases)")
