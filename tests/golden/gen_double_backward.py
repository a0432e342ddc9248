#!/usr/bin/python3
"""Writes tests/autograd/double_backward_cases.inc: second derivatives from real PyTorch.

For each case f(inputs) (inputs: float64 vectors, each requiring grad):
    y  = f(inputs)
    g  = torch.autograd.grad(y, inputs, grad_outputs=v, create_graph=True)    (first order)
    s  = sum_k (g_k * w_k).sum()
    h  = torch.autograd.grad(s, inputs)                                         (second order)
with fixed v (of y's shape) and w_k (of input k's shape). The table holds the inputs, v, w,
g and h; tenet computes the same with autograd::grad(..., create_graph=true).

Also the grad_fn names PyTorch gives .grad after backward(create_graph=True) (once, twice).

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_double_backward.py
"""
import math
import pathlib

import torch

torch.set_default_dtype(torch.float64)
OUT = pathlib.Path(__file__).resolve().parent.parent / "autograd" / "double_backward_cases.inc"

POS = [0.3, 0.7, 1.4, 2.2]       # for sqrt, log, pow with real exponents...
UNIT = [-0.8, -0.3, 0.2, 0.6]    # for asin, acos, atanh, erfinv
ANY = [-1.3, -0.4, 0.5, 1.7]     # no ties, no zeros
BIG = [1.2, 1.6, 2.5, 3.1]       # for acosh
B2 = [0.9, -0.6, 1.1, -1.9]
C2 = [0.4, -0.2, 0.8, 0.1]

# (name, inputs, python f, C++ f) — in C++ the inputs are in[0], in[1], ... named a, b, c.
CASES = [
    ("sqrt", [POS], "torch.sqrt(a)", "sqrt(a)"),
    ("rsqrt", [POS], "torch.rsqrt(a)", "rsqrt(a)"),
    ("reciprocal", [ANY], "torch.reciprocal(a)", "reciprocal(a)"),
    ("exp", [ANY], "torch.exp(a)", "exp(a)"),
    ("exp2", [ANY], "torch.exp2(a)", "exp2(a)"),
    ("expm1", [ANY], "torch.expm1(a)", "expm1(a)"),
    ("log", [POS], "torch.log(a)", "log(a)"),
    ("log2", [POS], "torch.log2(a)", "log2(a)"),
    ("log10", [POS], "torch.log10(a)", "log10(a)"),
    ("log1p", [POS], "torch.log1p(a)", "log1p(a)"),
    ("sin", [ANY], "torch.sin(a)", "sin(a)"),
    ("cos", [ANY], "torch.cos(a)", "cos(a)"),
    ("tan", [UNIT], "torch.tan(a)", "tan(a)"),
    ("asin", [UNIT], "torch.asin(a)", "asin(a)"),
    ("acos", [UNIT], "torch.acos(a)", "acos(a)"),
    ("atan", [ANY], "torch.atan(a)", "atan(a)"),
    ("sinh", [ANY], "torch.sinh(a)", "sinh(a)"),
    ("cosh", [ANY], "torch.cosh(a)", "cosh(a)"),
    ("tanh", [ANY], "torch.tanh(a)", "tanh(a)"),
    ("asinh", [ANY], "torch.asinh(a)", "asinh(a)"),
    ("acosh", [BIG], "torch.acosh(a)", "acosh(a)"),
    ("atanh", [UNIT], "torch.atanh(a)", "atanh(a)"),
    ("sigmoid", [ANY], "torch.sigmoid(a)", "sigmoid(a)"),
    ("erf", [ANY], "torch.erf(a)", "erf(a)"),
    ("erfc", [ANY], "torch.erfc(a)", "erfc(a)"),
    ("erfinv", [UNIT], "torch.erfinv(a)", "erfinv(a)"),
    ("silu", [ANY], "torch.nn.functional.silu(a)", "silu(a)"),
    ("gelu", [ANY], "torch.nn.functional.gelu(a)", "gelu(a)"),
    ("softplus", [ANY], "torch.nn.functional.softplus(a, 2.0, 3.0)", "softplus(a, 2.0, 3.0)"),
    ("abs", [ANY], "torch.abs(a) * a", "abs(a) * a"),
    ("relu", [ANY], "torch.relu(a) * a", "relu(a) * a"),
    ("clamp", [ANY], "torch.clamp(a, -1.0, 1.0) * a", "clamp(a, -1.0, 1.0) * a"),
    ("square", [ANY], "torch.square(a)", "square(a)"),
    ("neg", [ANY], "-a * a", "-a * a"),
    ("pow scalar", [POS], "a ** 3", "pow(a, 3)"),
    ("pow real scalar", [POS], "a ** 2.5", "pow(a, 2.5)"),
    ("pow tensor", [POS, B2], "a ** b", "pow(a, b)"),
    ("add", [ANY, B2], "(a + b) * a", "(a + b) * a"),
    ("sub", [ANY, B2], "(a - 2 * b) * b", "(a - 2 * b) * b"),
    ("mul", [ANY, B2], "a * b * a", "a * b * a"),
    ("div", [ANY, POS], "a / b", "a / b"),
    ("atan2", [ANY, B2], "torch.atan2(a, b)", "atan2(a, b)"),
    ("hypot", [ANY, B2], "torch.hypot(a, b)", "hypot(a, b)"),
    ("maximum", [ANY, B2], "torch.maximum(a, b) * a", "maximum(a, b) * a"),
    ("minimum", [ANY, B2], "torch.minimum(a, b) * b", "minimum(a, b) * b"),
    ("lerp scalar", [ANY, B2], "torch.lerp(a, b, 0.3) * a", "lerp(a, b, 0.3) * a"),
    ("lerp tensor", [ANY, B2, C2], "torch.lerp(a, b, c)", "lerp(a, b, c)"),
    ("where", [ANY, B2], "torch.where(a > b, a * a, b * a)", "where(a > b, a * a, b * a)"),
    ("sum", [ANY], "(a * a).sum()", "(a * a).sum()"),
    ("mean", [ANY, B2], "(a * b).mean() * a", "Tensor<double>((a * b).mean()) * a"),
    ("sum along dim", [ANY], "(a.view(2, 2) ** 3).sum(1)", "pow(a.view({2, 2}), 3).sum(1)"),
    ("squared error", [ANY, B2, C2, UNIT],
     "((torch.sigmoid(a * b + c) - d) ** 2).sum()", "pow(sigmoid(a * b + c) - d, 2).sum()"),
    ("broadcast", [ANY, B2], "torch.sin(a.view(4, 1) * b.view(1, 4))", "sin(a.view({4, 1}) * b.view({1, 4}))"),
    ("transpose", [ANY, B2], "(a.view(2, 2).t() ** 2) * b.view(2, 2)",
     "pow(a.view({2, 2}).t(), 2) * b.view({2, 2})"),
    ("select", [ANY, B2], "a.view(2, 2)[1] ** 2 * b.view(2, 2)", "pow(a.view({2, 2}).select(0, 1), 2) * b.view({2, 2})"),
    ("expand", [ANY], "a.view(4, 1).expand(4, 3) ** 3", "pow(a.view({4, 1}).expand({4, 3}), 3)"),
    ("clone", [ANY], "a.clone() ** 3", "pow(a.clone(), 3)"),
]


def values(xs):
    return "{" + ", ".join(repr(float(x)) for x in xs) + "}"


def fixed(n, phase):
    return [math.cos(phase + 0.7 * k) for k in range(n)]


lines = ["// Generated by tests/golden/gen_double_backward.py from PyTorch " + torch.__version__ + ". Do not edit.",
         "// DOUBLE_BACKWARD_CASE(name, inputs, v, w, first, second, f)"]
for name, ins, py, cpp in CASES:
    tensors = [torch.tensor(x, requires_grad=True) for x in ins]
    env = dict(zip("abcd", tensors), torch=torch)
    y = eval(py, env)
    v = torch.tensor(fixed(y.numel(), 0.3)).view(y.shape)
    g = torch.autograd.grad(y, tensors, grad_outputs=v, create_graph=True)
    ws = [torch.tensor(fixed(t.numel(), 1.1 + k)) for k, t in enumerate(tensors)]
    s = sum((gk * wk).sum() for gk, wk in zip(g, ws))
    h = torch.autograd.grad(s, tensors, allow_unused=True)
    h = [torch.zeros_like(t) if hk is None else hk for hk, t in zip(h, tensors)]
    lam = "[](const std::vector<Tensor<double>>& in) { " + "".join(
        f"const auto& {n} = in[{k}]; " for k, n in enumerate("abcd"[:len(ins)])) + f"return Tensor<double>({cpp}); }}"
    lines.append(f'DOUBLE_BACKWARD_CASE("{name}", ({{{", ".join(values(x) for x in ins)}}}), ({values(v.flatten().tolist())}), '
                 f'({{{", ".join(values(w.tolist()) for w in ws)}}}), '
                 f'({{{", ".join(values(x.detach().tolist()) for x in g)}}}), '
                 f'({{{", ".join(values(x.tolist()) for x in h)}}}), {lam})')

# .grad after backward(create_graph=True): its value and grad_fn name, after one and two calls.
x = torch.tensor(3.0, requires_grad=True)
(x ** 3).backward(create_graph=True)
first = (x.grad.item(), type(x.grad.grad_fn).__name__)
(x ** 3).backward(create_graph=True)
second = (x.grad.item(), type(x.grad.grad_fn).__name__)
lines.append(f'[[maybe_unused]] constexpr double kCreateGraphFirstGrad = {first[0]!r};')
lines.append(f'[[maybe_unused]] constexpr const char* kCreateGraphFirstName = "{first[1]}";')
lines.append(f'[[maybe_unused]] constexpr double kCreateGraphSecondGrad = {second[0]!r};')
lines.append(f'[[maybe_unused]] constexpr const char* kCreateGraphSecondName = "{second[1]}";')
OUT.write_text("\n".join(lines) + "\n")
print(f"wrote {OUT} ({len(CASES)} cases)")
