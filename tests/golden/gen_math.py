#!/usr/bin/env python3
"""Generates tests/expr/math_cases.inc: element-wise unary math evaluated by PyTorch.

Run with a Python that has PyTorch (the checked-in file came from PyTorch 1.13):
    /usr/bin/python3 tests/golden/gen_math.py

For every op and every input dtype PyTorch accepts (float32, float64, int64, bool), the
inputs and PyTorch's outputs are written as exact C++ literals (hex floats; float32
values are exact float literals with an `f` suffix, so the C++ side has the same bits).
Each case becomes a TEST_CASE calling check_golden() from tests/expr/test_math.cpp,
which checks the free function, the Tensor method, the expression method and, where
the result type can be cast back to the input type (PyTorch's canCast), the in-place
method and the free in-place function. The C++ side also checks the result dtype
statically: the output vector's element type is PyTorch's result dtype.
"""
import math
import re
import os

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "expr", "math_cases.inc")

NAN, INF = float("nan"), float("inf")

# Inputs shared by every floating op: zeros, integers and halves (rounding ties), domain
# edges, tiny (including a float32 subnormal) and huge magnitudes, nan and infinities.
COMMON = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.25, 0.7, -0.7, 0.71, 0.9, -0.99,
          0.999, 0.9999999, 1.0000001, -1.0000001, 2.0, 3.0, 3.7, -3.7, 5.5, -5.5, 10.0, -10.0, 19.5,
          20.5, 25.0, 50.0, 88.0, 89.0, -87.0, -104.0, 100.0, -100.0, 1e-3, -1e-3, 1e-7, -1e-7,
          1e-20, 1e-38, 1e-40, 1e5, -1e5, 12345.5, 8388607.5, 8388609.0, 1e10, 1e30, -1e30, 3.0e38,
          -3.0e38, math.pi, -math.pi / 2, NAN, INF, -INF]
FLOAT64_EXTRA = [0.1, 1 - 1e-15, 700.0, 710.0, -745.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1e18 + 0.5]
INT64 = [0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, 127, -128, 255, 65535, 123456789, -987654321, 2**31,
         2**40 + 1, 2**53 + 1, 2**62, 2**63 - 1, -2**63]
BOOL = [False, True]

DTYPES = {
    "float32": (torch.float32, "float"),
    "float64": (torch.float64, "double"),
    "int64": (torch.int64, "int64_t"),
    "bool": (torch.bool, "bool"),
}
CPP_OF = {torch.float32: "float", torch.float64: "double", torch.int64: "int64_t", torch.bool: "bool"}


def inputs(dtype_name):
    if dtype_name == "float32":
        return COMMON
    if dtype_name == "float64":
        return COMMON + FLOAT64_EXTRA
    if dtype_name == "int64":
        return INT64
    return BOOL


def literal(v, dtype):
    if dtype == torch.bool:
        return "true" if v else "false"
    if dtype == torch.int64:
        return "INT64_MIN" if v == -2**63 else str(int(v))
    suffix = "f" if dtype == torch.float32 else ""
    if math.isnan(v):
        return "kNaN" + suffix
    if math.isinf(v):
        return ("-" if v < 0 else "") + "kInf" + suffix
    # Shortest exact hex: drop trailing zero digits of the mantissa.
    text = re.sub(r"\.?0+p", "p", float.hex(float(v)))
    return text + suffix


def can_cast(src, dst):
    """PyTorch's canCast: no floating -> integral, no non-bool -> bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    if src != torch.bool and dst == torch.bool:
        return False
    return True


# (label, torch function, C++ name, C++ argument text, ulps; 0 = exact, in-place form exists)
def op(label, fn, name, args="", ulps=4, inplace=True, input_ulps=0):
    return dict(label=label, fn=fn, name=name, args=args, ulps=ulps, inplace=inplace, input_ulps=input_ulps)


# Inputs where PyTorch's own CPU kernel is off and tenet gives the correctly rounded
# (C library) value instead; left out of the comparison (listed in the generated file's header).
KNOWN_DIFFERENCES = {
    ("sinh", "float32", 89.0): "PyTorch overflows to inf (exp(89) overflows float); true value 2.2448e38",
    ("cosh", "float32", 89.0): "PyTorch overflows to inf (exp(89) overflows float); true value 2.2448e38",
    ("sinh", "float64", 710.0): "PyTorch overflows to inf (exp(710) overflows double); true value 1.117e308",
    ("cosh", "float64", 710.0): "PyTorch overflows to inf (exp(710) overflows double); true value 1.117e308",
    ("log1p", "float32", 3.0e38): "PyTorch's vectorised log1p (SLEEF) gives inf; true value 88.5968",
}


EXACT = 0
OPS = [
    op("abs", torch.abs, "abs", ulps=EXACT),
    op("sign", torch.sign, "sign", ulps=EXACT),
    op("ceil", torch.ceil, "ceil", ulps=EXACT),
    op("floor", torch.floor, "floor", ulps=EXACT),
    op("round", torch.round, "round", ulps=EXACT),
    op("trunc", torch.trunc, "trunc", ulps=EXACT),
    op("sqrt", torch.sqrt, "sqrt", ulps=EXACT),
    op("rsqrt", torch.rsqrt, "rsqrt"),
    op("square", torch.square, "square", ulps=EXACT),
    op("reciprocal", torch.reciprocal, "reciprocal", ulps=EXACT),
    op("exp", torch.exp, "exp"),
    op("exp2", torch.exp2, "exp2"),
    op("expm1", torch.expm1, "expm1"),
    op("log", torch.log, "log"),
    op("log2", torch.log2, "log2"),
    op("log10", torch.log10, "log10"),
    op("log1p", torch.log1p, "log1p"),
    op("sin", torch.sin, "sin"),
    op("cos", torch.cos, "cos"),
    op("tan", torch.tan, "tan"),
    op("asin", torch.asin, "asin"),
    op("acos", torch.acos, "acos"),
    op("atan", torch.atan, "atan"),
    op("sinh", torch.sinh, "sinh"),
    op("cosh", torch.cosh, "cosh"),
    op("tanh", torch.tanh, "tanh"),
    op("asinh", torch.asinh, "asinh"),
    op("acosh", torch.acosh, "acosh"),
    op("atanh", torch.atanh, "atanh"),
    op("sigmoid", torch.sigmoid, "sigmoid"),
    op("relu", torch.relu, "relu", ulps=EXACT),
    # gelu's 1 + erf(x / sqrt 2) cancels for negative x, in PyTorch as in tenet (same
    # formula), so the error is relative to |x|: allow 2 ulps of the input as well.
    op("gelu", F.gelu, "gelu", input_ulps=2),
    op("gelu tanh", lambda x: F.gelu(x, approximate="tanh"), "gelu", '"tanh"', input_ulps=2),
    op("silu", F.silu, "silu"),
    op("softplus", F.softplus, "softplus"),
    op("softplus beta 2 threshold 5", lambda x: F.softplus(x, beta=2, threshold=5), "softplus", "2.0, 5.0"),
    op("erf", torch.erf, "erf"),
    op("erfc", torch.erfc, "erfc"),
    op("erfinv", torch.erfinv, "erfinv"),
    op("isnan", torch.isnan, "isnan", ulps=EXACT, inplace=False),
    op("isinf", torch.isinf, "isinf", ulps=EXACT, inplace=False),
    op("isfinite", torch.isfinite, "isfinite", ulps=EXACT, inplace=False),
    op("nan_to_num", torch.nan_to_num, "nan_to_num", ulps=EXACT),
    op("nan_to_num custom", lambda x: torch.nan_to_num(x, nan=1.5, posinf=100.0, neginf=-100.0), "nan_to_num",
       "1.5, 100.0, -100.0", ulps=EXACT),
    # Integer bounds (C++ int literals, as Python ints): integer tensors stay integer.
    op("clamp", lambda x: torch.clamp(x, -5, 100), "clamp", "-5, 100", ulps=EXACT),
    op("clamp crossed bounds", lambda x: torch.clamp(x, 2, 1), "clamp", "2, 1", ulps=EXACT),
    op("clamp min only", lambda x: torch.clamp(x, min=3), "clamp", "3", ulps=EXACT),
    op("clamp max only", lambda x: torch.clamp(x, max=3), "clamp", "std::nullopt, 3", ulps=EXACT),
    op("clamp_min", lambda x: torch.clamp_min(x, -2), "clamp_min", "-2", ulps=EXACT),
    op("clamp_max", lambda x: torch.clamp_max(x, 2), "clamp_max", "2", ulps=EXACT),
    # Floating bounds (C++ double literals): they take part in type promotion, so integer and
    # bool tensors give float32, and their in-place forms are refused (not generated).
    op("clamp fractional", lambda x: torch.clamp(x, -0.5, 0.75), "clamp", "-0.5, 0.75", ulps=EXACT),
    op("clamp float bounds", lambda x: torch.clamp(x, 0.5, 2.5), "clamp", "0.5, 2.5", ulps=EXACT),
    op("clamp min int max float", lambda x: torch.clamp(x, 1, 2.5), "clamp", "1, 2.5", ulps=EXACT),
    op("clamp float min only", lambda x: torch.clamp(x, min=1.5), "clamp", "1.5", ulps=EXACT),
    op("clamp float max only", lambda x: torch.clamp(x, max=0.25), "clamp", "std::nullopt, 0.25", ulps=EXACT),
    op("clamp_min float", lambda x: torch.clamp_min(x, 0.5), "clamp_min", "0.5", ulps=EXACT),
    op("clamp_max float", lambda x: torch.clamp_max(x, 0.75), "clamp_max", "0.75", ulps=EXACT),
    op("clamp nan min", lambda x: torch.clamp(x, NAN, 1.0), "clamp", "kNaN, 1.0", ulps=EXACT),
    op("clamp nan max", lambda x: torch.clamp(x, -1.0, NAN), "clamp", "-1.0, kNaN", ulps=EXACT),
    op("clamp_min nan", lambda x: torch.clamp_min(x, NAN), "clamp_min", "kNaN", ulps=EXACT),
    op("clamp_max nan", lambda x: torch.clamp_max(x, NAN), "clamp_max", "kNaN", ulps=EXACT),
    op("logical_not", torch.logical_not, "logical_not", ulps=EXACT),
    op("bitwise_not", torch.bitwise_not, "bitwise_not", ulps=EXACT),
]


def lambdas(spec, cpp_in, inplace):
    name, args = spec["name"], spec["args"]
    comma_args = (", " + args) if args else ""
    parts = [
        f"[](const auto& t) {{ return tenet::{name}(t{comma_args}); }}",
        f"[](const auto& t) {{ return t.{name}({args}); }}",
        f"[](const auto& t) {{ return tenet::cast<{cpp_in}>(t).{name}({args}); }}",
    ]
    if inplace:
        parts.append(f"[](auto& t) -> auto& {{ return t.{name}_({args}); }}")
        parts.append(f"[](auto& t) -> auto& {{ return tenet::{name}_(t{comma_args}); }}")
    else:
        parts += ["nullptr", "nullptr"]
    return parts


def wrap(items, indent):
    lines, line = [], indent
    for item in items:
        piece = item + ", "
        if len(line) + len(piece) > 110:
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line.rstrip().rstrip(","))
    return "\n".join(lines)


def main():
    out = ["// Generated by tests/golden/gen_math.py from PyTorch " + torch.__version__ + ". Do not edit.",
           "// Each case: inputs, PyTorch's outputs (exact literals), tolerance in ulps (0: exact).", ""]
    count = 0
    skipped = []
    for spec in OPS:
        for dname, (dtype, cpp_in) in DTYPES.items():
            values = inputs(dname)
            x = torch.tensor(values, dtype=dtype)
            try:
                y = spec["fn"](x)
            except RuntimeError:
                continue  # PyTorch rejects this dtype; tenet rejects it at compile time
            xs, ys = x.tolist(), y.tolist()
            skip = [i for i, v in enumerate(values)
                    if (spec["label"], dname, v) in KNOWN_DIFFERENCES]
            for i in reversed(skip):
                skipped.append(f'{spec["label"]} {dname} at {values[i]!r}: '
                               + KNOWN_DIFFERENCES[(spec["label"], dname, values[i])])
                del xs[i], ys[i]
            x = torch.tensor(xs, dtype=dtype)
            cpp_out = CPP_OF[y.dtype]
            inplace = spec["inplace"] and can_cast(y.dtype, dtype)
            ulps = spec["ulps"] if y.dtype.is_floating_point else 0
            out.append(f'TEST_CASE("math: golden {spec["label"]} {dname}") {{')
            out.append(f"    const std::vector<{cpp_in}> x = {{")
            out.append(wrap([literal(v, dtype) for v in xs], "        "))
            out.append("    };")
            out.append(f"    const std::vector<{cpp_out}> y = {{")
            out.append(wrap([literal(v, y.dtype) for v in ys], "        "))
            out.append("    };")
            ls = lambdas(spec, cpp_in, inplace)
            out.append(f"    check_golden(x, y, {ulps}, {spec['input_ulps']},")
            out.append(",\n".join("                 " + l for l in ls) + ");")
            out.append("}")
            out.append("")
            count += 1
    header = ["// Inputs left out (PyTorch's kernel is inaccurate there; tenet follows the C library):"]
    header += ["//   " + line for line in skipped]
    out[2:2] = header + [""]
    with open(OUT, "w") as f:
        f.write("\n".join(out))
    print(f"wrote {count} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
