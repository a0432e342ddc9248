#!/usr/bin/env python3
"""Generates tests/autograd/autograd_masks_cases.inc and autograd_mixed_precision_cases.inc
from PyTorch (issue 18, items 2-4).

Run with a Python that has PyTorch (the checked-in file came from PyTorch 1.13):
    /usr/bin/python3 tests/golden/gen_autograd_masks.py

Three classes of gradient, each case a 0-d loss of typed inputs (float64 or float32) with
every input requiring grad, recorded with the loss value and every input's gradient (nan
and inf included, compared as such):
  - masked rules select (where(mask, grad, 0)): an upstream nan or inf of a clamped-away,
    relu'd or losing element gives 0 (clamp, clamp_min/max, relu, maximum/minimum), and
    where a rule multiplies in PyTorch too (abs at 0, where) the nan is kept;
  - zero-gradient ops (floor, ceil, round, trunc, sign) are recorded (their grad_fn name)
    and give zero gradients, alone and beside a differentiable term;
  - mixed float64/float32 operands: gradients computed in the promoted type, through the
    whole-tensor sum and mean (a number seed), a sum over a dim, and a tensor assigned first;
    broadcast either way.
The C++ side evaluates the same loss with tenet (tests/autograd/test_autograd_masks.cpp and
test_autograd_mixed_precision.cpp; tests/device/ runs them with the inputs on the device).
"""
import math
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
# Two files, one test translation unit each (to keep compiles short): items 2-3, item 4.
OUT = {"masks": os.path.join(HERE, "..", "autograd", "autograd_masks_cases.inc"),
       "mixed": os.path.join(HERE, "..", "autograd", "autograd_mixed_precision_cases.inc")}

CPP_TYPE = {torch.float64: "double", torch.float32: "float"}


def values(shape, lo, hi, seed, dtype):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=g, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


def lit(t):
    out = []
    for v in t.detach().double().reshape(-1).tolist():
        if math.isnan(v):
            out.append("NAN")
        elif math.isinf(v):
            out.append("INFINITY" if v > 0 else "-INFINITY")
        else:
            out.append(float(v).hex())
    return "{" + ", ".join(out) + "}"


def shape_lit(shape):
    return "{" + ", ".join(str(s) for s in shape) + "}"


CASES = []
GROUP = ["masks"]


def case(name, loss_cpp, torch_fn, inputs, node=None):
    """inputs: (dtype, tensor values) pairs. node: (C++ expression, PyTorch function) whose
    grad_fn name is checked on a tensor assigned from it."""
    xs = [v.clone().to(dt).requires_grad_() for dt, v in inputs]
    loss = torch_fn(*xs)
    assert loss.dim() == 0
    loss.backward()
    node_name = None
    if node is not None:
        node_name = node[1](*[x.detach().clone().requires_grad_() for x in xs]).grad_fn.name()
    CASES.append((GROUP[0], name, loss_cpp, xs, loss, node, node_name))


D, F = torch.float64, torch.float32
T = torch.tensor

# ---- 2. Masked gradients select ------------------------------------------------------------
CLAMP_X = T([-3.0, -0.5, 0.1, 0.25, 0.5], dtype=D)
case("clamp_sqrt_nan_masked", "sum(sqrt(clamp(x0, -0.75, 0.25)))",
     lambda x: torch.sqrt(torch.clamp(x, -0.75, 0.25)).sum(), [(D, CLAMP_X)])
case("clamp_sqrt_nan_masked_float", "sum(sqrt(clamp(x0, -0.75, 0.25)))",
     lambda x: torch.sqrt(torch.clamp(x, -0.75, 0.25)).sum(), [(F, CLAMP_X)])
case("clamp_assigned_sqrt", "sum(sqrt(clamp(x0, -0.75, 0.25).eval()))",
     lambda x: torch.sqrt(torch.clamp(x, -0.75, 0.25)).sum(), [(D, CLAMP_X)])
case("clamp_min_log", "sum(log(clamp_min(x0, 0.0)))", lambda x: torch.log(torch.clamp_min(x, 0.0)).sum(),
     [(D, T([-1.0, 0.0, 2.0]))])
case("clamp_max_log", "sum(log(-clamp_max(x0, 0.0)))", lambda x: torch.log(-torch.clamp_max(x, 0.0)).sum(),
     [(D, T([1.0, 0.0, -2.0]))])
case("clamp_inf_weighted", "sum(clamp(x0, -1.0, 1.0) * x1)", lambda x, w: (torch.clamp(x, -1.0, 1.0) * w).sum(),
     [(D, T([-2.0, 0.5, 3.0])), (D, T([math.inf, 2.0, -math.inf]))])
case("relu_sqrt", "sum(sqrt(relu(x0)))", lambda x: torch.sqrt(torch.relu(x)).sum(), [(D, T([-1.0, 0.0, 2.0]))])
case("relu_sqrt_float", "sum(sqrt(relu(x0)))", lambda x: torch.sqrt(torch.relu(x)).sum(), [(F, T([-1.0, 0.0, 2.0]))])
case("relu_log_mean", "mean(log(relu(x0)))", lambda x: torch.log(torch.relu(x)).mean(), [(D, T([-1.0, 0.5, 2.0]))])
case("maximum_sqrt", "sum(sqrt(maximum(x0, x1)))", lambda a, b: torch.sqrt(torch.maximum(a, b)).sum(),
     [(D, T([-1.0, 0.0, 2.0, 1.0])), (D, T([0.0, 0.0, 1.0, 3.0]))])
case("minimum_log", "sum(log(-minimum(x0, x1)))", lambda a, b: torch.log(-torch.minimum(a, b)).sum(),
     [(D, T([1.0, 0.0, -2.0, -1.0])), (D, T([0.0, 0.0, -1.0, -3.0]))])
case("maximum_nan_input", "sum(maximum(x0, x1))", lambda a, b: torch.maximum(a, b).sum(),
     [(D, T([math.nan, 1.0, 2.0])), (D, T([1.0, math.nan, 2.0]))])
case("minimum_nan_input", "sum(minimum(x0, x1))", lambda a, b: torch.minimum(a, b).sum(),
     [(D, T([math.nan, 1.0, 2.0])), (D, T([1.0, math.nan, 2.0]))])
case("abs_zero", "sum(abs(x0) * 3.0)", lambda x: (torch.abs(x) * 3.0).sum(), [(D, T([-1.0, 0.0, 2.0]))])
case("abs_zero_sqrt", "sum(sqrt(abs(x0)))", lambda x: torch.sqrt(torch.abs(x)).sum(), [(D, T([-1.0, 0.0, 4.0]))])
case("where_sqrt", "sum(where(x0 > 0, sqrt(x0), x0))", lambda x: torch.where(x > 0, torch.sqrt(x), x).sum(),
     [(D, T([-1.0, 0.0, 4.0]))])
case("where_log_other", "sum(where(x0 > 0, x1, log(x1)))", lambda c, y: torch.where(c > 0, y, torch.log(y)).sum(),
     [(D, T([1.0, -1.0, 1.0])), (D, T([0.0, 2.0, -1.0]))])

# ---- 3. Zero-gradient ops are recorded --------------------------------------------------------
ROUNDING = T([-1.5, -0.25, 0.0, 0.5, 1.5, 2.7], dtype=D)
for op in ["floor", "ceil", "round", "trunc", "sign"]:
    fn = getattr(torch, op)
    case(op + "_sum", "sum(%s(x0))" % op, lambda x, fn=fn: fn(x).sum(), [(D, ROUNDING)],
         node=("%s(x0)" % op, lambda x, fn=fn: fn(x)))
    case(op + "_plus", "sum(%s(x0) + x1)" % op, lambda x, y, fn=fn: (fn(x) + y).sum(),
         [(D, ROUNDING), (D, values((6,), -1.0, 1.0, 5, D))])
    case(op + "_times_float", "sum(%s(x0) * x1)" % op, lambda x, y, fn=fn: (fn(x) * y).sum(),
         [(F, ROUNDING), (D, values((6,), -1.0, 1.0, 5, D))])
case("floor_assigned_mean", "mean(floor(x0).eval())", lambda x: torch.floor(x).mean(), [(D, ROUNDING)])
case("floor_broadcast_sum_dim", "sum(floor(x0) * x1, 0).sum()", lambda x, y: (torch.floor(x) * y).sum(0).sum(),
     [(D, values((3,), -2.0, 2.0, 3, D)), (D, values((2, 3), -1.0, 1.0, 4, D))])

# ---- 4. Mixed float64/float32 gradients are computed in the promoted type -----------------------
GROUP[0] = "mixed"
U = (-2.0, 2.0)
POS = (0.5, 3.0)
binary = [
    ("add", "x0 + x1", lambda a, b: a + b, U, U), ("sub", "x0 - x1", lambda a, b: a - b, U, U),
    ("mul", "x0 * x1", lambda a, b: a * b, U, U), ("div", "x0 / x1", lambda a, b: a / b, U, POS),
    ("pow", "pow(x0, x1)", torch.pow, POS, U), ("atan2", "atan2(x0, x1)", torch.atan2, U, U),
    ("hypot", "hypot(x0, x1)", torch.hypot, U, U), ("maximum", "maximum(x0, x1)", torch.maximum, U, U),
    ("minimum", "minimum(x0, x1)", torch.minimum, U, U),
]
reductions = [
    ("sum", "sum(%s)", lambda y: y.sum()),
    ("mean", "mean(%s)", lambda y: y.mean()),
    ("sum_dim", "sum(%s, 0).sum()", lambda y: y.sum(0).sum()),
    ("assigned", "sum((%s).eval())", lambda y: y.sum()),
]
layouts = [("same", (2, 3), (2, 3)), ("row", (2, 3), (3,)), ("col", (3,), (2, 3))]
for name, cpp, fn, ra, rb in binary:
    for lname, sa, sb in layouts:
        for rname, rcpp, rfn in reductions:
            if lname != "same" and rname in ("mean", "assigned"):
                continue  # the broadcast layouts go through the same seeds as sum
            a = values(sa, ra[0], ra[1], 11, D)
            b = values(sb, rb[0], rb[1], 12, D)
            case("%s_%s_%s_f64_f32" % (name, lname, rname), rcpp % cpp, lambda x, y, fn=fn, rfn=rfn: rfn(fn(x, y)),
                 [(D, a), (F, b)])
            if lname == "same" and rname == "sum":
                case("%s_%s_%s_f32_f64" % (name, lname, rname), rcpp % cpp,
                     lambda x, y, fn=fn, rfn=rfn: rfn(fn(x, y)), [(F, a), (D, b)])
# The example, and a ternary.
case("div_issue_example", "sum(x0 / x1)", lambda x, d: (x / d).sum(),
     [(D, values((4,), 0.1, 1.0, 21, D)), (F, values((4,), 1.0, 3.0, 22, D))])
case("lerp_mixed", "sum(lerp(x0, x1, x2))", lambda a, b, w: torch.lerp(a, b.double(), w.double()).sum(),
     [(D, values((2, 3), -1.0, 1.0, 31, D)), (F, values((2, 3), -1.0, 1.0, 32, D)), (F, values((2, 3), 0.0, 1.0, 33, D))])
case("where_mixed", "sum(where(x0 > 0, x0, x1 * 3.0))", lambda a, b: torch.where(a > 0, a, b * 3.0).sum(),
     [(D, values((2, 3), -1.0, 1.0, 41, D)), (F, values((3,), -1.0, 1.0, 42, D))])


def emit(group):
    lines = ["// Generated by tests/golden/gen_autograd_masks.py from PyTorch %s. Do not edit." % torch.__version__, ""]
    for g, name, cpp, xs, loss, node, node_name in CASES:
        if g != group:
            continue
        lines.append("TEST_CASE(\"autograd masks, zero gradients, mixed precision: %s\") {" % name)
        for i, x in enumerate(xs):
            lines.append("    auto x%d = typed_input<%s>(%s, %s);" % (i, CPP_TYPE[x.dtype], shape_lit(x.shape), lit(x)))
        if node is not None:
            lines.append("    CHECK(grad_fn_name(%s) == \"%s\");" % (node[0], node_name))
        lines.append("    auto loss = %s;" % cpp)
        lines.append("    check_loss(loss, %s);" % lit(loss.reshape(1)))
        lines.append("    loss.backward();")
        for i, x in enumerate(xs):
            if x.grad is None:
                lines.append("    CHECK_FALSE(x%d.grad().defined());  // PyTorch: None" % i)
            else:
                lines.append("    check_typed_grad(x%d, %s);" % (i, lit(x.grad)))
        lines.append("}")
        lines.append("")
    with open(OUT[group], "w") as f:
        f.write("\n".join(lines))


emit("masks")
emit("mixed")
print("wrote", len(CASES), "cases")
