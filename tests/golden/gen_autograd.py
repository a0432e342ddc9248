#!/usr/bin/env python3
"""Generates tests/autograd/autograd_cases.inc: gradients and grad_fn names from PyTorch.

Run with a Python that has PyTorch (the checked-in file came from PyTorch 1.13):
    /usr/bin/python3 tests/golden/gen_autograd.py

Every case computes, in float64, loss = (f(inputs) * weights).sum() with fixed weights
(so each output element gets a different upstream gradient) and records the gradient of
every input, plus the name of f's grad_fn. The C++ side builds the same f with tenet's
expression operators and compares (tests/autograd/test_autograd_golden.cpp).
"""
import math
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "autograd", "autograd_cases_%d.inc")
PARTS = 4  # one test translation unit each (test_autograd_golden_<k>.cpp), to keep compiles short

torch.manual_seed(0)


def values(shape, lo, hi, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=g, dtype=torch.float64) * (hi - lo) + lo)


def lit(t):
    return "{" + ", ".join(float(v).hex() for v in t.reshape(-1).tolist()) + "}"


def shape_lit(shape):
    return "{" + ", ".join(str(s) for s in shape) + "}"


CASES = []


def case(name, cpp, torch_fn, shapes, ranges):
    inputs = [values(s, lo, hi, 17 + 7 * i).requires_grad_() for i, (s, (lo, hi)) in enumerate(zip(shapes, ranges))]
    y = torch_fn(*inputs)
    w = values(tuple(y.shape), 0.5, 1.5, 99)
    (y * w).sum().backward()
    CASES.append((name, cpp, shapes, inputs, y, w))


# name, the C++ expression over inputs x0, x1, x2, PyTorch's function, input shapes, value ranges
U = [(-2.0, 2.0)]
POS = [(0.2, 3.0)]
UNIT = [(-0.9, 0.9)]
unary = [
    ("neg", "-x0", lambda a: -a, U), ("exp", "exp(x0)", torch.exp, U), ("exp2", "exp2(x0)", torch.exp2, U),
    ("expm1", "expm1(x0)", torch.expm1, U), ("log", "log(x0)", torch.log, POS), ("log2", "log2(x0)", torch.log2, POS),
    ("log10", "log10(x0)", torch.log10, POS), ("log1p", "log1p(x0)", torch.log1p, POS),
    ("sqrt", "sqrt(x0)", torch.sqrt, POS), ("rsqrt", "rsqrt(x0)", torch.rsqrt, POS),
    ("reciprocal", "reciprocal(x0)", torch.reciprocal, POS), ("square", "square(x0)", torch.square, U),
    ("abs", "abs(x0)", torch.abs, U), ("sin", "sin(x0)", torch.sin, U), ("cos", "cos(x0)", torch.cos, U),
    ("tan", "tan(x0)", torch.tan, UNIT), ("asin", "asin(x0)", torch.asin, UNIT), ("acos", "acos(x0)", torch.acos, UNIT),
    ("atan", "atan(x0)", torch.atan, U), ("sinh", "sinh(x0)", torch.sinh, U), ("cosh", "cosh(x0)", torch.cosh, U),
    ("tanh", "tanh(x0)", torch.tanh, U), ("asinh", "asinh(x0)", torch.asinh, U),
    ("acosh", "acosh(x0)", torch.acosh, [(1.2, 3.0)]), ("atanh", "atanh(x0)", torch.atanh, UNIT),
    ("sigmoid", "sigmoid(x0)", torch.sigmoid, U), ("erf", "erf(x0)", torch.erf, U), ("erfc", "erfc(x0)", torch.erfc, U),
    ("erfinv", "erfinv(x0)", torch.erfinv, UNIT), ("relu", "relu(x0)", torch.relu, U),
    ("gelu", "gelu(x0)", torch.nn.functional.gelu, U),
    ("gelu_tanh", "gelu(x0, \"tanh\")", lambda a: torch.nn.functional.gelu(a, approximate="tanh"), U),
    ("silu", "silu(x0)", torch.nn.functional.silu, U),
    ("softplus", "softplus(x0, 2.0, 3.0)", lambda a: torch.nn.functional.softplus(a, 2.0, 3.0), U),
    ("clamp", "clamp(x0, -0.5, 0.7)", lambda a: torch.clamp(a, -0.5, 0.7), U),
    ("pow_scalar", "pow(x0, 3)", lambda a: torch.pow(a, 3), U),
    ("pow_half", "pow(x0, 0.5)", lambda a: torch.pow(a, 0.5), POS),
    ("mul_scalar", "x0 * 2.5", lambda a: a * 2.5, U), ("rsub_scalar", "1.5 - x0", lambda a: 1.5 - a, U),
    ("div_scalar", "x0 / 4", lambda a: a / 4, U),
]
for name, cpp, fn, rng in unary:
    case(name, cpp, fn, [(2, 3)], rng)

# Binary ops, with broadcasting between [2, 3] and [3] or [2, 1].
binary = [
    ("add", "x0 + x1", lambda a, b: a + b, U * 2), ("sub", "x0 - x1", lambda a, b: a - b, U * 2),
    ("mul", "x0 * x1", lambda a, b: a * b, U * 2), ("div", "x0 / x1", lambda a, b: a / b, [U[0], POS[0]]),
    ("pow", "pow(x0, x1)", torch.pow, [POS[0], U[0]]), ("atan2", "atan2(x0, x1)", torch.atan2, U * 2),
    ("hypot", "hypot(x0, x1)", torch.hypot, U * 2), ("maximum", "maximum(x0, x1)", torch.maximum, U * 2),
    ("minimum", "minimum(x0, x1)", torch.minimum, U * 2),
    ("add_alpha", "add(x0, x1, 2.0)", lambda a, b: torch.add(a, b, alpha=2.0), U * 2),
    ("sub_alpha", "sub(x0, x1, 0.5)", lambda a, b: torch.sub(a, b, alpha=0.5), U * 2),
]
for name, cpp, fn, rng in binary:
    case(name + "_same", cpp, fn, [(2, 3), (2, 3)], rng)
    case(name + "_row", cpp, fn, [(2, 3), (3,)], rng)
    case(name + "_col", cpp, fn, [(2, 1), (2, 3)], rng)

case("lerp", "lerp(x0, x1, x2)", torch.lerp, [(2, 3), (3,), (2, 1)], U * 3)
case("lerp_scalar", "lerp(x0, x1, 0.25)", lambda a, b: torch.lerp(a, b, 0.25), [(2, 3), (2, 3)], U * 2)
case("where", "where(x0 > 0, x1, x2)", lambda c, a, b: torch.where(c > 0, a, b), [(2, 3), (2, 3), (3,)], U * 3)
case("fused_mlp", "sigmoid(x0 * x1 + x2)", lambda x, w, b: torch.sigmoid(x * w + b), [(2, 3), (3,), (2, 1)], U * 3)
# A weight and a bias over the trailing dims of a larger input (600 elements: the backward pass
# runs in blocks of 256, so the [30] leaves' gradients are summed across blocks that wrap).
case("fused_mlp_rows", "sigmoid(x0 * x1 + x2)", lambda x, w, b: torch.sigmoid(x * w + b), [(20, 30), (30,), (1, 30)],
     U * 3)
case("fused_loss_terms", "pow(sigmoid(x0 * x1 + x2) - x0, 2)", lambda x, w, b: (torch.sigmoid(x * w + b) - x) ** 2,
     [(2, 3), (2, 3), (2, 3)], U * 3)
case("repeated_leaf", "x0 * x0 + sin(x0) * x1", lambda a, b: a * a + torch.sin(a) * b, [(2, 3), (2, 3)], U * 2)
case("cast_roundtrip", "cast<double>(cast<float>(x0)) * 1.0", lambda a: a.float().double() * 1.0, [(2, 3)], U)


def case_values(name, cpp, torch_fn, tensors):
    """As case(), with the inputs given (ties and zeros need chosen values)."""
    inputs = [torch.tensor(t, dtype=torch.float64).requires_grad_() for t in tensors]
    y = torch_fn(*inputs)
    w = values(tuple(y.shape), 0.5, 1.5, 99)
    (y * w).sum().backward()
    CASES.append((name, cpp, [tuple(x.shape) for x in inputs], inputs, y, w))


# Reductions other than sum/mean: gradients through prod (with zeros), the extrema (ties
# share evenly; max(dim) follows its index) and the p-norms, of tensors and expressions.
INF = float("inf")
case("prod_all", "prod(x0)", torch.prod, [(2, 3)], U)
case("prod_dim", "prod(x0, 1)", lambda a: torch.prod(a, 1), [(2, 3)], U)
case("prod_expr_keepdim", "prod(x0 * x1, 0, true)", lambda a, b: torch.prod(a * b, 0, keepdim=True),
     [(2, 3), (3,)], U * 2)
case_values("prod_one_zero", "prod(x0, 1)", lambda a: torch.prod(a, 1), [[[1.5, 0.0, 2.0], [0.5, -1.0, 3.0]]])
case_values("prod_two_zeros", "prod(x0)", torch.prod, [[[0.0, 2.0, 0.0], [1.0, 2.0, 3.0]]])
TIES = [[[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]]]
case_values("amax_ties", "amax(x0, 1)", lambda a: torch.amax(a, 1), TIES)
case_values("amax_all", "amax(x0)", torch.amax, TIES)
case_values("amin_dims", "amin(x0, IntArray{0, 1}, true)", lambda a: torch.amin(a, (0, 1), keepdim=True), TIES)
case_values("max_all_ties", "max(x0)", torch.max, TIES)
case_values("min_all_ties", "min(x0)", torch.min, [[[1.0, -1.0, 3.0], [-1.0, 2.0, 5.0]]])
case_values("max_dim_ties", "max(x0, 1).values", lambda a: torch.max(a, 1).values, TIES)
case_values("max_dim_keepdim", "max(x0, 0, true).values", lambda a: torch.max(a, 0, keepdim=True).values, TIES)
case_values("min_dim", "min(x0, -1).values", lambda a: torch.min(a, -1).values, TIES)
case("max_dim_expr", "max(x0 * x1, 1).values", lambda a, b: torch.max(a * b, 1).values, [(2, 3), (2, 3)], U * 2)
case("norm_2", "norm(x0)", torch.norm, [(2, 3)], U)
case("norm_2_dim", "norm(x0, 2, 1)", lambda a: torch.norm(a, 2, 1), [(2, 3)], U)
case("norm_1", "norm(x0, 1)", lambda a: torch.norm(a, 1), [(2, 3)], U)
case("norm_3_keepdim", "norm(x0, 3, 1, true)", lambda a: torch.norm(a, 3, 1, keepdim=True), [(2, 3)], U)
case("norm_0", "norm(x0, 0)", lambda a: torch.norm(a, 0), [(2, 3)], U)
case_values("norm_inf_ties", "norm(x0, INFINITY)", lambda a: torch.norm(a, INF), [[[1.0, -3.0, 3.0], [2.0, 2.0, -1.0]]])
case("norm_expr", "norm(x0 - x1, 2, 0)", lambda a, b: torch.norm(a - b, 2, 0), [(2, 3), (3,)], U * 2)
case("vector_norm", "vector_norm(x0)", torch.linalg.vector_norm, [(2, 3)], U)
case("vector_norm_dim", "vector_norm(x0, 1.5, IntArray{1})", lambda a: torch.linalg.vector_norm(a, 1.5, 1), [(2, 3)], U)


def emit(part, cases):
    lines = ["// Generated by tests/golden/gen_autograd.py from PyTorch %s. Do not edit." % torch.__version__, ""]
    for name, cpp, shapes, inputs, y, w in cases:
        n = len(inputs)
        args = ", ".join("const Tensor<double>& x%d" % i for i in range(n))
        lines.append("TEST_CASE(\"autograd golden: %s\") {" % name)
        lines.append("    std::vector<Tensor<double>> in{%s};" % ", ".join(
            "make_input(%s, %s)" % (shape_lit(s), lit(x.detach())) for s, x in zip(shapes, inputs)))
        lines.append("    auto f = [](%s) { return %s; };" % (args, cpp))
        call = "f(%s)" % ", ".join("in[%d]" % i for i in range(n))
        lines.append("    Tensor<double> y = %s;" % call)
        lines.append("    CHECK(y.grad_fn()->name() == \"%s\");" % y.grad_fn.name())
        lines.append("    check_forward(y, %s, %s);" % (shape_lit(y.shape), lit(y.detach())))
        lines.append("    (y * make_input(%s, %s)).sum().backward();" % (shape_lit(w.shape), lit(w)))
        for i, x in enumerate(inputs):
            if x.grad is None:
                lines.append("    CHECK_FALSE(in[%d].grad().defined());  // PyTorch: None" % i)
            else:
                lines.append("    check_grad(in[%d], %s);" % (i, lit(x.grad)))
        lines.append("}")
        lines.append("")
    with open(OUT % part, "w") as f:
        f.write("\n".join(lines))


for part in range(PARTS):
    emit(part, CASES[part::PARTS])
print("wrote", len(CASES), "cases in", PARTS, "files")
