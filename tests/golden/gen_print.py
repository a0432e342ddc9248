#!/usr/bin/python3
"""Generates tests/io/print_cases.inc: tensors and the text PyTorch's repr gives for them.

Run with the system Python that has torch (1.13):  /usr/bin/python3 tests/golden/gen_print.py

Each case holds m values (the stored elements, exactly) that fill a tensor of the
given shape cyclically (element k is values[k % m]), so summarised tensors of many
elements need only a few literals. An optional view ("transpose 0 1; narrow 1 1 2")
is then applied, the same way in Python and in tests/io/test_print.cpp. The expected
text is repr(tensor) with "torch." replaced by "tenet.".

A case may give print options: a list of keyword sets, passed one after another to
torch.set_printoptions before the repr (and to tenet::set_printoptions by the test), so
that later calls show what earlier ones leave in force. Every case starts from and returns to
the defaults (profile="default", sci_mode=None). A repr that raises (RuntimeError) is written
as nullptr: the test expects tenet::value_error.
"""
import math
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "io", "print_cases.inc")

DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
}

cases = []
gen = torch.Generator().manual_seed(1234)


def case(name, dtype, shape, values, view="", opts=()):
    cases.append((name, dtype, tuple(shape), list(values), view, [dict(o) for o in opts]))


def randn(n, scale=1.0):
    return (torch.randn(n, generator=gen, dtype=torch.float64) * scale).tolist()


def randint(n, lo, hi):
    return torch.randint(lo, hi, (n,), generator=gen, dtype=torch.int64).tolist()


nan, inf = math.nan, math.inf

# ---- float32 ------------------------------------------------------------------------------
case("f32 0-d fraction", "float32", (), [3.5])
case("f32 0-d integer", "float32", (), [3.0])
case("f32 0-d negative zero", "float32", (), [-0.0])
case("f32 0-d nan", "float32", (), [nan])
case("f32 0-d -inf", "float32", (), [-inf])
case("f32 0-d tiny", "float32", (), [1e-5])
case("f32 0-d huge", "float32", (), [123456789.0])
case("f32 1-D fractions", "float32", (3,), [1.5, 2.25, -3.125])
case("f32 1-D integers", "float32", (3,), [1.0, 2.0, 3.0])
case("f32 zeros", "float32", (2,), [0.0, 0.0])
case("f32 signed zeros", "float32", (3,), [0.0, -0.0, 0.0])
case("f32 negative zero among integers", "float32", (3,), [-0.0, 1.0, 2.0])
case("f32 only nonfinite", "float32", (3,), [nan, inf, -inf])
case("f32 integers with nonfinite", "float32", (5,), [1.0, nan, inf, -inf, -0.0])
case("f32 fractions with nonfinite", "float32", (3,), [1.5, nan, -inf])
case("f32 sci large", "float32", (2,), [1e10, 1.5])
case("f32 sci tiny", "float32", (2,), [1e-5, 1.5])
case("f32 sci ratio", "float32", (2,), [0.001, 2.5])
case("f32 min 1e-4", "float32", (2,), [1e-4, 1.5])
case("f32 min just above 1e-4", "float32", (2,), [0.00011, 0.05])
case("f32 1e8 integer", "float32", (2,), [1e8, 1.0e6])
case("f32 above 1e8 integer", "float32", (2,), [123456789.0, 1e6])
case("f32 int mode ratio", "float32", (2,), [1.0, 2000.0])
case("f32 sci with nonfinite", "float32", (4,), [1e-5, nan, inf, -2.5])
case("f32 sci negative exponents", "float32", (3,), [-1e-30, 3e-38, 1.0])
case("f32 max", "float32", (2,), [3.4028234663852886e38, -1.0])
case("f32 subnormal", "float32", (2,), [1e-45, 1.0])
case("f32 rounding", "float32", (4,), [0.00005, 0.99995, 1.23455, 2.5])
case("f32 2-D", "float32", (4, 5), randn(20))
case("f32 3-D", "float32", (2, 3, 4), randn(24))
case("f32 4-D", "float32", (2, 2, 2, 3), randn(24))
case("f32 size-1 dims", "float32", (1, 1, 1), [2.5])
case("f32 row vector", "float32", (1, 5), randn(5))
case("f32 column vector", "float32", (5, 1), randn(5, 100))
case("f32 long row wraps", "float32", (30,), randn(30))
case("f32 long integer row wraps", "float32", (100,), [float(i) for i in range(100)])
case("f32 2-D long rows wrap", "float32", (3, 20), randn(60))
case("f32 3-D long rows wrap", "float32", (2, 2, 17), randn(68, 1000))
case("f32 sci long row", "float32", (20,), randn(20, 1e-6))
case("f32 summarised 1-D", "float32", (2000,), [float(i) for i in range(2000)])
case("f32 summarised 1-D 1001", "float32", (1001,), randn(37))
case("f32 summarised 2-D", "float32", (50, 50), randn(41))
case("f32 summarised 2-D tall", "float32", (2000, 2), randn(13))
case("f32 summarised 2-D wide", "float32", (3, 1000), randn(29))
case("f32 summarised 3-D", "float32", (20, 20, 20), randn(43))
case("f32 summarised 3-D inner", "float32", (2, 3, 1000), randn(31, 1e5))
case("f32 summarised 4-D", "float32", (8, 8, 8, 8), randn(53))
case("f32 summarised one million", "float32", (1000000,), randn(97))
case("f32 summarised hides outliers", "float32", (1, 2000), [1.5] * 100 + [1e20] + [2.5] * 99)
case("f32 not summarised at 1000", "float32", (10, 100), randn(23))

# ---- float64 ------------------------------------------------------------------------------
case("f64 tenths", "float64", (3,), [0.1, 0.2, 0.3])
case("f64 thirds", "float64", (2,), [1 / 3, 2 / 3])
case("f64 ties", "float64", (4,), [1.00005, 1.00015, 2.00025, 0.12345])
case("f64 0-d", "float64", (), [math.pi])
case("f64 0-d integer", "float64", (), [-7.0])
case("f64 extremes", "float64", (2,), [2.5e-308, 1e308])
case("f64 int mode sci", "float64", (2,), [1e300, 1.0])
case("f64 big integer", "float64", (1,), [1e20])
case("f64 integers below 1e8", "float64", (3,), [99999999.0, -12345678.0, 1.0])
case("f64 2-D", "float64", (3, 3), randn(9))
case("f64 row 5", "float64", (5,), randn(5))
case("f64 row 6", "float64", (6,), randn(6))
case("f64 row 7", "float64", (7,), [-1.2345] * 7)
case("f64 row 8", "float64", (8,), [-1.2345] * 8)
case("f64 row 9", "float64", (9,), [-1.2345] * 9)
case("f64 row 10", "float64", (10,), [-1.2345] * 10)
case("f64 sci row 6", "float64", (6,), [-1.5e-20] * 6)
case("f64 sci row 7", "float64", (7,), [-1.5e-20] * 7)
case("f64 summarised 2-D", "float64", (100, 100), randn(59, 1e-3))
case("f64 nonfinite", "float64", (2, 2), [nan, -inf, 0.5, -0.0])

# ---- float16 / bfloat16 -------------------------------------------------------------------
case("f16 0-d", "float16", (), [1.5])
case("f16 values", "float16", (4,), [1.5, 2.0, 65504.0, -0.0001])
case("f16 rounding", "float16", (3,), [0.1, 0.2, 0.3])
case("f16 nonfinite", "float16", (4,), [nan, inf, -inf, 1.0])
case("f16 2-D", "float16", (3, 4), randn(12))
case("f16 subnormal", "float16", (2,), [6e-8, 1.0])
case("f16 summarised", "float16", (40, 40), randn(17))
case("f16 empty", "float16", (3, 0), [])
case("bf16 0-d", "bfloat16", (), [3.0])
case("bf16 values", "bfloat16", (3,), [1e30, -2.5, 0.1])
case("bf16 fractions", "bfloat16", (4,), [0.1, 0.2, 0.3, 1.7])
case("bf16 nonfinite", "bfloat16", (3,), [nan, -inf, 7.0])
case("bf16 3-D", "bfloat16", (2, 2, 3), randn(12))
case("bf16 summarised", "bfloat16", (1500,), randn(11))

# ---- integers -----------------------------------------------------------------------------
case("i8 extremes", "int8", (3,), [-128, 127, 0])
case("u8 extremes", "uint8", (3,), [0, 255, 7])
case("u8 0-d", "uint8", (), [200])
case("i16 extremes", "int16", (2,), [-32768, 32767])
case("i32 extremes", "int32", (3,), [-2147483648, 2147483647, 5])
case("i32 0-d", "int32", (), [-7])
case("i64 extremes", "int64", (3,), [-(2**63), 2**63 - 1, 0])
case("i64 0-d", "int64", (), [5])
case("i64 2-D", "int64", (3, 4), randint(12, -1000, 1000))
case("i64 long row wraps", "int64", (50,), list(range(50)))
case("i64 big long row wraps", "int64", (12,), randint(12, -(2**62), 2**62))
case("i32 3-D", "int32", (2, 3, 4), randint(24, -50, 50))
case("i16 4-D", "int16", (2, 1, 2, 3), randint(12, -300, 300))
case("i8 summarised", "int8", (30, 40), randint(19, -128, 128))
case("u8 summarised 3-D", "uint8", (10, 10, 11), randint(23, 0, 256))
case("i64 summarised 4-D", "int64", (10, 10, 10, 10), list(range(1009)))
case("i32 row wrap with suffix", "int32", (16,), randint(16, -10**8, 10**8))

# ---- bool ---------------------------------------------------------------------------------
case("bool 0-d", "bool", (), [True])
case("bool 1-D", "bool", (3,), [True, False, True])
case("bool all true", "bool", (2,), [True, True])
case("bool 2-D", "bool", (3, 3), [True, False, False, True])
case("bool long row", "bool", (20,), [True, False, True])
case("bool summarised", "bool", (2000,), [False, True, True])

# ---- empty --------------------------------------------------------------------------------
case("empty f32 1-D", "float32", (0,), [])
case("empty f32 0x3", "float32", (0, 3), [])
case("empty f64 1-D", "float64", (0,), [])
case("empty i32 1-D", "int32", (0,), [])
case("empty i64 1-D", "int64", (0,), [])
case("empty bool 2x0x3", "bool", (2, 0, 3), [])
case("empty i8 0x0", "int8", (0, 0), [])
case("empty u8 4x0", "uint8", (4, 0), [])
case("empty bf16 1-D", "bfloat16", (0,), [])
case("empty f32 long shape", "float32", (1000, 1000, 0, 12345678), [])

# ---- views --------------------------------------------------------------------------------
case("view transpose", "float32", (3, 4), randn(12), "transpose 0 1")
case("view narrow", "float32", (4, 5), randn(20), "narrow 1 1 3")
case("view select", "int64", (3, 4), list(range(12)), "select 0 1")
case("view slice step", "float64", (4, 6), randn(24), "slice 1 0 6 2")
case("view expand", "int32", (3, 1), [1, 2, 3], "expand 3 4")
case("view permute 3-D", "float32", (2, 3, 4), randn(24), "permute 2 0 1")
case("view summarised transpose", "float32", (100, 30), randn(47), "transpose 0 1")
case("view select to 0-d", "float32", (3,), [1.25, 2.5, 3.75], "select 0 2")
case("view narrow to empty", "int16", (3, 4), list(range(12)), "narrow 1 2 0")

# ---- print options (torch.set_printoptions) -----------------------------------------------
fr = [1.12345, -2.5, 0.333333, 10.0625]  # fractions: fixed notation
tiny = [1e-5, 2.5, -0.000123]  # automatic scientific notation
ints = [1.0, -20.0, 300.0]  # integral floats: int mode
big_ints = [1e10, 2.0, -3.0]  # integral floats in scientific notation
r12 = randn(12)
r24 = randn(24)
r60 = randn(60)

# precision
for p in (0, 1, 2, 6, 8, 10):
    case(f"opt precision {p} fractions", "float32", (4,), fr, opts=[{"precision": p}])
for p in (0, 2, 8):
    case(f"opt precision {p} sci auto", "float32", (3,), tiny, opts=[{"precision": p}])
    case(f"opt precision {p} int mode", "float32", (3,), ints, opts=[{"precision": p}])
case("opt precision 2 f64 2-D", "float64", (3, 4), r12, opts=[{"precision": 2}])
case("opt precision 7 f64 thirds", "float64", (3,), [1 / 3, 2 / 3, -1 / 7], opts=[{"precision": 7}])
case("opt precision 12 f64 0-d", "float64", (), [math.pi], opts=[{"precision": 12}])
case("opt precision 0 0-d", "float32", (), [2.5], opts=[{"precision": 0}])
case("opt precision 0 ties", "float64", (4,), [0.5, 1.5, 2.5, -3.5], opts=[{"precision": 0}])
case("opt precision 1 f16", "float16", (4,), [0.1, 0.2, 1.7, -3.3], opts=[{"precision": 1}])
case("opt precision 6 bf16", "bfloat16", (3,), [0.1, 1e-3, 7.25], opts=[{"precision": 6}])
case("opt precision 3 nonfinite", "float32", (4,), [1.5, nan, inf, -inf], opts=[{"precision": 3}])
case("opt precision 2 summarised", "float32", (40, 40), randn(17), opts=[{"precision": 2}])
case("opt precision on int64", "int64", (3,), [1, -20, 300], opts=[{"precision": 1}])
case("opt precision 8 wraps", "float64", (12,), r12, opts=[{"precision": 8}])

# sci_mode, alone and with precision
case("opt sci on fractions", "float32", (4,), fr, opts=[{"sci_mode": True}])
case("opt sci on integers", "float32", (3,), ints, opts=[{"sci_mode": True}])
case("opt sci on zeros", "float32", (3,), [0.0, -0.0, 0.0], opts=[{"sci_mode": True}])
case("opt sci on nonfinite only", "float32", (3,), [nan, inf, 0.0], opts=[{"sci_mode": True}])
case("opt sci on with nonfinite", "float32", (4,), [1.5, nan, -inf, 0.0], opts=[{"sci_mode": True}])
case("opt sci on 0-d", "float64", (), [123.456], opts=[{"sci_mode": True}])
case("opt sci on f16", "float16", (3,), [0.5, 1.0, 2048.0], opts=[{"sci_mode": True}])
case("opt sci on 2-D", "float32", (3, 4), r12, opts=[{"sci_mode": True}])
case("opt sci on precision 2", "float32", (4,), fr, opts=[{"precision": 2, "sci_mode": True}])
case("opt sci on precision 0", "float32", (4,), fr, opts=[{"precision": 0, "sci_mode": True}])
case("opt sci on precision 9", "float64", (3,), tiny, opts=[{"precision": 9, "sci_mode": True}])
case("opt sci on int mode precision 1", "float32", (3,), ints, opts=[{"precision": 1, "sci_mode": True}])
case("opt sci off tiny", "float32", (3,), tiny, opts=[{"sci_mode": False}])
case("opt sci off tiny precision 8", "float32", (3,), tiny, opts=[{"precision": 8, "sci_mode": False}])
case("opt sci off big integers", "float32", (3,), big_ints, opts=[{"sci_mode": False}])
case("opt sci off huge", "float64", (2,), [1e20, 0.5], opts=[{"sci_mode": False}])
case("opt sci off ratio", "float32", (2,), [0.001, 2.5], opts=[{"sci_mode": False}])
case("opt sci off summarised outlier", "float32", (1, 2000), [1.5] * 100 + [1e20] + [2.5] * 99,
     opts=[{"sci_mode": False}])
case("opt sci off fractions unchanged", "float32", (4,), fr, opts=[{"sci_mode": False}])
case("opt sci on wraps", "float64", (10,), r60[:10], opts=[{"sci_mode": True, "linewidth": 50}])
case("opt sci on int64", "int64", (3,), [1, -20, 300], opts=[{"sci_mode": True}])

# threshold and edgeitems
case("opt threshold 5 arange", "int64", (10,), list(range(10)), opts=[{"threshold": 5}])
case("opt threshold 5 at 5", "int64", (5,), list(range(5)), opts=[{"threshold": 5}])
case("opt threshold 0 small", "float32", (2, 3), [1.5, 2.5, 3.5], opts=[{"threshold": 0}])
case("opt threshold 0 0-d", "float32", (), [1.5], opts=[{"threshold": 0}])
case("opt threshold -1 empty", "float32", (0, 2), [], opts=[{"threshold": -1}])
case("opt threshold 10.5", "float32", (11,), fr, opts=[{"threshold": 10.5}])
case("opt threshold 11.5", "float32", (11,), fr, opts=[{"threshold": 11.5}])
case("opt threshold 10 edgeitems 1 1-D", "float32", (20,), r60[:20], opts=[{"threshold": 10, "edgeitems": 1}])
case("opt threshold 10 edgeitems 1 2-D", "float32", (5, 6), r60[:30], opts=[{"threshold": 10, "edgeitems": 1}])
case("opt threshold 10 edgeitems 1 3-D", "int32", (3, 4, 5), randint(60, -99, 99),
     opts=[{"threshold": 10, "edgeitems": 1}])
case("opt threshold 10 edgeitems 1 4-D", "float64", (3, 3, 3, 3), r24, opts=[{"threshold": 10, "edgeitems": 1}])
case("opt edgeitems 1 outliers hidden", "float32", (7,), [1e-8, 1.5, 2.5, 3.5, 4.5, 5.5, 1e9],
     opts=[{"threshold": 3, "edgeitems": 2}])
case("opt edgeitems 5 summarised", "float32", (2000,), [float(i) for i in range(23)], opts=[{"edgeitems": 5}])
case("opt edgeitems 2 2-D", "int64", (50, 50), list(range(97)), opts=[{"edgeitems": 2}])
case("opt edgeitems 100 not cut", "int16", (30, 40), randint(19, -300, 300),
     opts=[{"edgeitems": 100, "threshold": 10}])
case("opt edgeitems 2 exactly 2x", "float32", (4, 5), r24[:20], opts=[{"threshold": 1, "edgeitems": 2}])
case("opt edgeitems 0 1-D", "float32", (8,), fr, opts=[{"threshold": 3, "edgeitems": 0}])
case("opt edgeitems 0 1-D int", "int32", (5,), [1, 2, 3, 4, 5], opts=[{"threshold": 3, "edgeitems": 0}])
case("opt edgeitems 0 2-D raises", "float32", (3, 4), r12, opts=[{"threshold": 3, "edgeitems": 0}])
case("opt edgeitems 0 not summarised", "float32", (3, 4), r12, opts=[{"edgeitems": 0}])
case("opt threshold 5 bool", "bool", (4, 4), [True, False, False], opts=[{"threshold": 5, "edgeitems": 1}])
case("opt threshold 7 f16", "float16", (9,), [0.5, 1e-4, 3.0], opts=[{"threshold": 7}])
case("opt threshold 7 bf16 2-D", "bfloat16", (3, 9), randn(13), opts=[{"threshold": 7}])
case("opt threshold 2 view", "float32", (4, 6), r24, "transpose 0 1", opts=[{"threshold": 2, "edgeitems": 1}])

# linewidth
for w in (1, 20, 40, 120):
    case(f"opt linewidth {w} f32 row", "float32", (12,), r12, opts=[{"linewidth": w}])
case("opt linewidth 0", "int64", (5,), [1, 22, 333, 4, 5], opts=[{"linewidth": 0}])
case("opt linewidth -5", "float32", (3,), fr, opts=[{"linewidth": -5}])
case("opt linewidth 30 2-D", "float64", (3, 8), r24, opts=[{"linewidth": 30}])
case("opt linewidth 30 3-D", "int32", (2, 2, 9), randint(36, -1000, 1000), opts=[{"linewidth": 30}])
case("opt linewidth 200 long row", "float32", (30,), r60[:30], opts=[{"linewidth": 200}])
case("opt linewidth 25 suffix wraps", "int8", (4,), [1, 2, 3, 4], opts=[{"linewidth": 25}])
case("opt linewidth 35 suffix", "float64", (3,), fr[:3], opts=[{"linewidth": 35}])
case("opt linewidth 40 summarised", "float32", (3, 1000), randn(29), opts=[{"linewidth": 40}])
case("opt linewidth 15 bool", "bool", (7,), [True, False], opts=[{"linewidth": 15}])
case("opt linewidth 10 empty", "int32", (0, 3), [], opts=[{"linewidth": 10}])
case("opt linewidth 12 0-d f64", "float64", (), [1.5], opts=[{"linewidth": 12}])

# profiles
case("opt profile short", "float32", (4,), fr, opts=[{"profile": "short"}])
case("opt profile short summarised", "float32", (50, 50), randn(41), opts=[{"profile": "short"}])
case("opt profile short 1-D", "int64", (2000,), list(range(29)), opts=[{"profile": "short"}])
case("opt profile full 1001", "int16", (1001,), randint(37, -9, 9), opts=[{"profile": "full"}])
case("opt profile full 2-D", "int32", (40, 30), randint(31, -9, 9), opts=[{"profile": "full"}])
case("opt profile default", "float32", (2000,), [float(i) for i in range(31)], opts=[{"profile": "default"}])
case("opt profile short precision 5", "float32", (4,), fr, opts=[{"profile": "short", "precision": 5}])
case("opt profile full threshold 10", "int64", (20,), list(range(20)), opts=[{"profile": "full", "threshold": 10}])
case("opt profile short sci", "float32", (4,), fr, opts=[{"profile": "short", "sci_mode": True}])
case("opt profile short linewidth 30", "float64", (40, 40), randn(23), opts=[{"profile": "short", "linewidth": 30}])

# successive calls: unset fields stay, sci_mode returns to automatic, a profile resets the four
case("opt seq precision stays", "float32", (12,), r12, opts=[{"precision": 2}, {"linewidth": 30}])
case("opt seq sci resets", "float32", (4,), fr, opts=[{"sci_mode": True}, {"precision": 3}])
case("opt seq sci kept when passed", "float32", (4,), fr, opts=[{"sci_mode": True}, {"precision": 3, "sci_mode": True}])
case("opt seq profile default resets", "float32", (2000,), [float(i) * 0.5 for i in range(19)],
     opts=[{"precision": 1, "threshold": 10, "edgeitems": 1, "linewidth": 20, "sci_mode": True}, {"profile": "default"}])
case("opt seq full then threshold", "int64", (30,), list(range(30)), opts=[{"profile": "full"}, {"threshold": 10}])
case("opt seq short then default precision", "float32", (2000,), randn(7),
     opts=[{"profile": "short"}, {"precision": 4}])
case("opt seq sci off then empty call", "float32", (3,), tiny, opts=[{"sci_mode": False}, {}])


def apply_view(t, view):
    for op in filter(None, (s.strip() for s in view.split(";"))):
        name, *args = op.split()
        a = [int(x) for x in args]
        if name == "transpose":
            t = t.transpose(a[0], a[1])
        elif name == "narrow":
            t = t.narrow(a[0], a[1], a[2])
        elif name == "select":
            t = t.select(a[0], a[1])
        elif name == "slice":
            idx = [slice(None)] * t.dim()
            idx[a[0]] = slice(a[1], a[2], a[3])
            t = t[tuple(idx)]
        elif name == "expand":
            t = t.expand(*a)
        elif name == "permute":
            t = t.permute(*a)
        else:
            raise ValueError(op)
    return t


def float_literal(x):
    if math.isnan(x):
        return "NAN_V"
    if math.isinf(x):
        return "INF_V" if x > 0 else "-INF_V"
    return repr(x)


def int_literal(x):
    if x == -(2**63):
        return "INT64_MIN_V"
    return str(int(x))


def options_literal(opts):
    """The list of set_printoptions calls as C++ PrintOptions initialisers, fields in declaration order."""
    order = ["precision", "threshold", "edgeitems", "linewidth", "profile", "sci_mode"]
    items = []
    for o in opts:
        fields = []
        for k in order:
            if k not in o:
                continue
            v = o[k]
            if k == "profile":
                lit = c_string(v)
            elif k == "sci_mode":
                lit = "true" if v else "false"
            elif k == "threshold":
                lit = float_literal(float(v))
            else:
                lit = str(int(v))
            fields.append(f".{k} = {lit}")
        assert set(o) <= set(order), o
        items.append("tenet::PrintOptions{" + ", ".join(fields) + "}")
    return "{" + ", ".join(items) + "}"


def printed(t, opts):
    """repr(t) after the given set_printoptions calls (None if it raises); back to the defaults after."""
    torch.set_printoptions(profile="default")
    try:
        for o in opts:
            torch.set_printoptions(**o)
        return repr(t).replace("torch.", "tenet.")
    except RuntimeError:
        return None
    finally:
        torch.set_printoptions(profile="default")


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    arrays = []
    rows = []
    for k, (name, dtype, shape, values, view, opts) in enumerate(cases):
        dt = DTYPES[dtype]
        data = torch.tensor(values, dtype=dt) if values else torch.empty(0, dtype=dt)
        n = math.prod(shape)
        if n == 0:
            full = torch.empty(shape, dtype=dt)
            stored = []
        else:
            full = data[torch.arange(n) % data.numel()].reshape(shape)
            stored = data.tolist()
        t = apply_view(full, view)
        expected = printed(t, opts)
        if dt.is_floating_point:
            lits = [float_literal(x) for x in stored]
            kind = "double"
        else:
            lits = [int_literal(x) for x in stored]
            kind = "int64_t"
        arr = f"case{k}_values"
        body = ", ".join(lits) if lits else ("0" if kind == "int64_t" else "0.0")
        arrays.append(f"static const {kind} {arr}[] = {{{body}}};")
        shape_lit = "{" + ", ".join(str(s) for s in shape) + "}"
        fptr = arr if kind == "double" else "nullptr"
        iptr = arr if kind == "int64_t" else "nullptr"
        rows.append(
            f"    {{{c_string(name)}, {c_string(dtype)}, {shape_lit}, {fptr}, {iptr}, {len(lits)}, "
            f"{c_string(view)}, {options_literal(opts)},\n     {c_string(expected) if expected is not None else 'nullptr'}}},"
        )
    with open(OUT, "w") as f:
        f.write("// Generated by tests/golden/gen_print.py from PyTorch " + torch.__version__ + "; do not edit.\n")
        f.write("// Included by tests/io/test_print.cpp, which defines PrintCase, NAN_V, INF_V and INT64_MIN_V.\n")
        f.write("// Each case: name, dtype, shape, values, count, view, set_printoptions calls, repr (nullptr: raises).\n\n")
        for a in arrays:
            f.write(a + "\n")
        f.write("\nstatic const PrintCase print_cases[] = {\n")
        f.write("\n".join(rows))
        f.write("\n};\n")
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
