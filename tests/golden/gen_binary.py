#!/usr/bin/python3
"""Writes tests/expr/binary_cases.inc: PyTorch's element-wise binary and ternary ops
(expr/binary_ops.hpp) computed by real PyTorch over chosen inputs.

Inputs are declared once (name, dtype, shape, values) and built identically on both
sides. Each case is a pair: a Python expression evaluated here with torch over those
inputs, and the C++ expression that must give the same result. The .inc declares the
inputs with `BIN_INPUT(name, ctype, shape, values...)` and each case with
`BIN_CASE(label, ctype, expr, shape, values...)`; `ctype` is the result's element type,
checked at compile time. Floats are written as hex literals (exact), nan/inf by name.

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_binary.py
"""
import math
import pathlib

import torch

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "expr" / "binary_cases.inc"

CTYPE = {
    torch.bool: "bool", torch.uint8: "uint8_t", torch.int8: "int8_t", torch.int16: "int16_t",
    torch.int32: "int32_t", torch.int64: "int64_t", torch.float32: "float", torch.float64: "double",
}


def lit(v, dtype):
    if dtype == torch.bool:
        return "true" if v else "false"
    if dtype.is_floating_point:
        v = float(v)
        suffix = "f" if dtype == torch.float32 else ""
        if math.isnan(v):
            return "golden_nan<%s>()" % CTYPE[dtype]
        if math.isinf(v):
            return ("-" if v < 0 else "") + "golden_inf<%s>()" % CTYPE[dtype]
        return v.hex() + suffix
    v = int(v)
    if dtype == torch.int64 and v == -2**63:
        return "INT64_MIN"
    return "%d" % v + ("LL" if dtype == torch.int64 else "")


def values(t):
    return ", ".join(lit(v, t.dtype) for v in t.flatten().tolist())


def shape(t):
    return "(tenet::IntArray{" + ", ".join(str(s) for s in t.shape) + "})"


INPUTS = {}


def inp(name, dtype, sizes, vals):
    t = torch.tensor(vals, dtype=dtype).reshape(sizes)
    INPUTS[name] = t
    return t


# Integers with negative operands and no zero divisors.
ia = [-7, -6, -5, -1, 0, 1, 5, 6, 7, 9, -9, 13]
ib = [2, -2, 3, -3, 4, -4, 5, -5, 7, -7, 1, -1]
inp("i64a", torch.int64, [12], ia)
inp("i64b", torch.int64, [12], ib)
inp("i32a", torch.int32, [12], ia)
inp("i32b", torch.int32, [12], ib)
inp("i8a", torch.int8, [12], [-128, -100, -5, -1, 0, 1, 5, 100, 127, 64, -64, 33])
inp("i8b", torch.int8, [12], [3, -3, 7, -7, 2, -2, 127, -128, 5, 9, -9, 1])
inp("u8a", torch.uint8, [12], [0, 1, 2, 5, 7, 100, 200, 255, 128, 64, 3, 250])
inp("u8b", torch.uint8, [12], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 200, 255])
inp("ba", torch.bool, [12], [True, False] * 6)
inp("bb", torch.bool, [12], [True, True, False, False] * 3)
# Floats, including specials.
fa = [-7.5, -6.0, -5.25, -1.0, 0.0, -0.0, 5.5, 6.0, 7.0, math.inf, -math.inf, math.nan]
fb = [2.0, -2.0, 3.5, -3.0, 4.0, -4.0, 0.0, -0.5, math.inf, 2.0, -3.0, 1.0]
inp("f32a", torch.float32, [12], fa)
inp("f32b", torch.float32, [12], fb)
inp("f64a", torch.float64, [12], fa)
inp("f64b", torch.float64, [12], fb)
inp("f32p", torch.float32, [12], [0.5, 1.5, 2.0, 3.25, 10.0, 0.1, 7.0, 0.0, 1e-3, 100.0, 2.5, 9.0])
inp("f64p", torch.float64, [12], [0.5, 1.5, 2.0, 3.25, 10.0, 0.1, 7.0, 0.0, 1e-3, 100.0, 2.5, 9.0])
inp("f32w", torch.float32, [12], [0.0, 0.25, 0.5, 0.75, 1.0, -0.5, 1.5, 0.1, 0.9, 0.49, 0.51, 2.0])
# Broadcasting.
inp("i64col", torch.int64, [3, 1], [-7, 4, 9])
inp("i64row", torch.int64, [4], [2, -3, 5, -1])
inp("f32col", torch.float32, [3, 1], [-1.5, 0.25, 3.0])
inp("f64row", torch.float64, [4], [2.0, -0.75, 10.0, 1e-3])
# pow operands.
inp("pbase", torch.int64, [8], [2, -3, 7, 0, 1, -1, 10, 3])
inp("pexp", torch.int64, [8], [10, 3, 22, 0, 62, 7, 18, 40])
inp("pneg", torch.int64, [6], [-1, -2, -3, -1, 0, -5])
inp("pnegbase", torch.int64, [6], [1, -1, -1, 2, 5, 0])
inp("i32base", torch.int32, [6], [2, 3, -5, 100, 7, -2])
inp("i32exp", torch.int32, [6], [31, 20, 13, 5, 11, 31])
inp("u8base", torch.uint8, [6], [2, 3, 5, 255, 7, 16])
inp("sh", torch.int64, [8], [1, -8, 123456789, -1, 7, 2**40, -(2**40), 3])
inp("shn", torch.int64, [8], [0, 1, 3, 63, 2, 20, 5, 62])
inp("i8sh", torch.int8, [6], [1, -8, 127, -128, 3, 64])
inp("i8shn", torch.int8, [6], [0, 1, 3, 7, 6, 1])
inp("cond", torch.bool, [3, 1], [True, False, True])

T = {k: v for k, v in INPUTS.items()}

CASES = []  # (label, python lambda, C++ expression)


def case(label, py, cpp):
    CASES.append((label, py, cpp))


int_pairs = [("i64a", "i64b"), ("i32a", "i32b"), ("i8a", "i8b"), ("u8a", "u8b")]
float_pairs = [("f32a", "f32b"), ("f64a", "f64b")]
for a, b in int_pairs + float_pairs:
    case(f"floor_divide {a} {b}", lambda a=a, b=b: torch.floor_divide(T[a], T[b]), f"floor_divide({a}, {b})")
    case(f"remainder {a} {b}", lambda a=a, b=b: torch.remainder(T[a], T[b]), f"{a} % {b}")
    case(f"fmod {a} {b}", lambda a=a, b=b: torch.fmod(T[a], T[b]), f"fmod({a}, {b})")
    case(f"div trunc {a} {b}", lambda a=a, b=b: torch.div(T[a], T[b], rounding_mode="trunc"),
         f"div({a}, {b}, \"trunc\")")
    case(f"div floor {a} {b}", lambda a=a, b=b: torch.div(T[a], T[b], rounding_mode="floor"),
         f"{a}.div({b}, \"floor\")")
    case(f"maximum {a} {b}", lambda a=a, b=b: torch.maximum(T[a], T[b]), f"maximum({a}, {b})")
    case(f"minimum {a} {b}", lambda a=a, b=b: torch.minimum(T[a], T[b]), f"{a}.minimum({b})")
    case(f"logical_and {a} {b}", lambda a=a, b=b: torch.logical_and(T[a], T[b]), f"logical_and({a}, {b})")
    case(f"logical_or {a} {b}", lambda a=a, b=b: torch.logical_or(T[a], T[b]), f"logical_or({a}, {b})")
    case(f"logical_xor {a} {b}", lambda a=a, b=b: torch.logical_xor(T[a], T[b]), f"{a}.logical_xor({b})")
    case(f"add {a} {b}", lambda a=a, b=b: T[a] + T[b], f"{a} + {b}")
    case(f"sub {a} {b}", lambda a=a, b=b: T[a] - T[b], f"{a} - {b}")
    case(f"mul {a} {b}", lambda a=a, b=b: T[a] * T[b], f"{a} * {b}")
    case(f"div {a} {b}", lambda a=a, b=b: T[a] / T[b], f"{a} / {b}")
for a, b in int_pairs + [("ba", "bb")]:
    case(f"bitwise_and {a} {b}", lambda a=a, b=b: T[a] & T[b], f"{a} & {b}")
    case(f"bitwise_or {a} {b}", lambda a=a, b=b: T[a] | T[b], f"{a} | {b}")
    case(f"bitwise_xor {a} {b}", lambda a=a, b=b: T[a] ^ T[b], f"bitwise_xor({a}, {b})")
case("maximum bool", lambda: torch.maximum(T["ba"], T["bb"]), "maximum(ba, bb)")
case("logical_and bool", lambda: torch.logical_and(T["ba"], T["bb"]), "logical_and(ba, bb)")
for a, b in float_pairs:
    case(f"atan2 {a} {b}", lambda a=a, b=b: torch.atan2(T[a], T[b]), f"atan2({a}, {b})")
    case(f"hypot {a} {b}", lambda a=a, b=b: torch.hypot(T[a], T[b]), f"{a}.hypot({b})")
case("atan2 int", lambda: torch.atan2(T["i64a"], T["i64b"]), "atan2(i64a, i64b)")
# Scalars (weak), scalar first, mixed dtypes and promotion.
case("floor_divide scalar", lambda: T["i64a"] // 3, "floor_divide(i64a, 3)")
case("floor_divide neg scalar", lambda: T["i32a"] // -4, "floor_divide(i32a, -4)")
case("remainder scalar first", lambda: torch.remainder(17, T["i64b"]), "remainder(17, i64b)")
case("remainder float scalar", lambda: T["i64a"] % 2.5, "i64a % 2.5")
case("fmod float scalar", lambda: torch.fmod(T["f32a"], -2.5), "fmod(f32a, -2.5)")
case("floor_divide int8 uint8", lambda: torch.floor_divide(T["i8a"], T["u8b"]), "floor_divide(i8a, u8b)")
case("remainder int32 float64", lambda: T["i32a"] % T["f64b"], "i32a % f64b")
case("add int8 uint8", lambda: T["i8a"] + T["u8a"], "i8a + u8a")
case("mul int64 2.5", lambda: T["i64a"] * 2.5, "i64a * 2.5")
case("add int32 float64", lambda: T["i32a"] + T["f64a"], "i32a + f64a")
case("add bool int", lambda: T["ba"] + T["i64a"], "ba + i64a")
case("bitwise_and bool int", lambda: T["ba"] & T["i32a"], "ba & i32a")
case("bitwise_xor int scalar", lambda: T["u8a"] ^ 0x5A, "u8a ^ 0x5A")
case("maximum int float", lambda: torch.maximum(T["i64a"], T["f32b"]), "maximum(i64a, f32b)")
case("maximum scalar", lambda: torch.maximum(T["f64a"], torch.tensor(0.5, dtype=torch.float64)), "maximum(f64a, 0.5)")
case("add alpha", lambda: torch.add(T["f32a"], T["f32b"], alpha=3), "add(f32a, f32b, 3)")
case("add alpha int", lambda: torch.add(T["i64a"], T["i64b"], alpha=-4), "i64a.add(i64b, -4)")
case("sub alpha", lambda: torch.sub(T["f64a"], T["f64b"], alpha=0.5), "sub(f64a, f64b, 0.5)")
case("logical_xor int float", lambda: torch.logical_xor(T["i64a"], T["f32a"]), "logical_xor(i64a, f32a)")
# Broadcasting.
case("floor_divide broadcast", lambda: torch.floor_divide(T["i64col"], T["i64row"]), "floor_divide(i64col, i64row)")
case("remainder broadcast", lambda: T["i64col"] % T["i64row"], "i64col % i64row")
case("fmod broadcast mixed", lambda: torch.fmod(T["f32col"], T["f64row"]), "fmod(f32col, f64row)")
case("pow broadcast mixed", lambda: torch.pow(T["f32col"] * -1 + 4, T["f64row"]), "pow(f32col * -1 + 4, f64row)")
case("atan2 broadcast", lambda: torch.atan2(T["f32col"], T["f64row"]), "atan2(f32col, f64row)")
case("arctan2 method", lambda: T["f32a"].arctan2(T["f64b"]), "f32a.arctan2(f64b)")
case("true_divide method", lambda: T["i64a"].true_divide(T["i32b"]), "i64a.true_divide(i32b)")
# pow.
case("pow int tensors", lambda: torch.pow(T["pbase"], T["pexp"]), "pow(pbase, pexp)")
case("pow int negative exponents", lambda: torch.pow(T["pnegbase"], T["pneg"]), "pow(pnegbase, pneg)")
case("pow int32 overflow", lambda: torch.pow(T["i32base"], T["i32exp"]), "i32base.pow(i32exp)")
case("pow uint8 scalar", lambda: T["u8base"] ** 3, "pow(u8base, 3)")
case("pow int scalar", lambda: T["pbase"] ** 5, "pow(pbase, 5)")
case("pow scalar base", lambda: torch.pow(3, T["pexp"]), "pow(3, pexp)")
case("pow scalar base negative exponents", lambda: torch.pow(2, T["pneg"]), "pow(2, pneg)")
case("pow int float exponent", lambda: T["pbase"] ** 0.5, "pow(pbase, 0.5)")
case("pow float tensors", lambda: torch.pow(T["f32p"], T["f32w"]), "pow(f32p, f32w)")
case("pow float64 tensors", lambda: torch.pow(T["f64p"], T["f64a"]), "pow(f64p, f64a)")
case("pow float scalar", lambda: T["f64a"] ** 3, "pow(f64a, 3)")
case("pow float scalar 2.5", lambda: T["f32p"] ** 2.5, "f32p.pow(2.5)")
case("pow float base scalar", lambda: torch.pow(1.5, T["f32a"]), "pow(1.5, f32a)")
case("pow int float tensor", lambda: torch.pow(T["pbase"], T["f32w"][:8]), "pow(pbase, f32w.slice(0, 0, 8))")
# Bool and integer bases by floating exponents: float32 results (issue 26: pow of a bool tensor
# by 1.5 did not compile).
case("pow bool float exponent", lambda: torch.pow(torch.logical_and(T["ba"], T["bb"]), 1.5),
     "pow(logical_and(ba, bb), 1.5)")
case("pow bool float exponent 2", lambda: T["bb"] ** 2.0, "bb.pow(2.0)")
case("pow int32 float exponent 3", lambda: T["i32base"] ** 3.0, "pow(i32base, 3.0)")
case("pow uint8 negative float exponent", lambda: T["u8base"] ** -1.5, "pow(u8base, -1.5)")
# Shifts.
case("left shift", lambda: T["sh"] << T["shn"], "sh << shn")
case("right shift", lambda: T["sh"] >> T["shn"], "sh >> shn")
case("left shift int8", lambda: T["i8sh"] << T["i8shn"], "i8sh << i8shn")
case("right shift int8", lambda: torch.bitwise_right_shift(T["i8sh"], T["i8shn"]), "bitwise_right_shift(i8sh, i8shn)")
case("left shift scalar", lambda: T["sh"] << 3, "bitwise_left_shift(sh, 3)")
# lerp and where.
case("lerp tensor weight", lambda: torch.lerp(T["f32a"], T["f32p"], T["f32w"]), "lerp(f32a, f32p, f32w)")
case("lerp scalar weight", lambda: torch.lerp(T["f64p"], T["f64a"], 0.3), "lerp(f64p, f64a, 0.3)")
case("lerp scalar weight big", lambda: torch.lerp(T["f32p"], T["f32b"], 0.75), "f32p.lerp(f32b, 0.75)")
case("where broadcast", lambda: torch.where(T["cond"], T["i64row"], T["f32col"]), "where(cond, i64row, f32col)")
case("where scalar", lambda: torch.where(T["cond"], T["i8a"][:4], 2.5), "where(cond, i8a.slice(0, 0, 4), 2.5)")
case("where int8 uint8", lambda: torch.where(T["ba"], T["i8a"], T["u8a"]), "where(ba, i8a, u8a)")
case("where method", lambda: T["f64a"].where(T["ba"], T["f64b"]), "f64a.where(ba, f64b)")
# Comparisons as methods.
case("eq method", lambda: T["i64a"].eq(T["i32b"]), "i64a.eq(i32b)")
case("ge method", lambda: T["f32a"].ge(0), "f32a.ge(0)")


def main():
    lines = ["// Generated by tests/golden/gen_binary.py from PyTorch %s. Do not edit." % torch.__version__, ""]
    for name, t in INPUTS.items():
        lines.append("BIN_INPUT(%s, %s, %s, %s)" % (name, CTYPE[t.dtype], shape(t), values(t)))
    lines.append("")
    for label, py, cpp in CASES:
        r = py()
        lines.append("BIN_CASE(\"%s\", %s, (%s), %s, %s)" % (label, CTYPE[r.dtype], cpp, shape(r), values(r)))
    OUT.write_text("\n".join(lines) + "\n")
    print("wrote", OUT, len(CASES), "cases")


main()
