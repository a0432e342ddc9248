#!/usr/bin/python3
"""Writes tests/expr/expr_methods_cases.inc from real PyTorch: the Tensor methods called on an
expression (expr/evaluating_methods.hpp) and joins of lists that hold expressions
(ops/join.hpp), where PyTorch's value is a tensor and tenet's an expression node.

  values     each case is a Python expression evaluated here with torch and the equivalent C++
             lambda body; golden::check (tests/core/golden_check.hpp, whose emitter gen_core.py
             provides) compares dtype, sizes, strides, storage offset, is_contiguous and the
             values exactly. The inputs are small multiples of 1/2, so every product and sum is
             exact in float32 and the order of a GEMM's additions cannot show.
  gradients  loss = (f(inputs) * weights).sum() with fixed weights; the gradient of every
             input is checked as a value case. No pre-activation of a clamp is 0 (asserted),
             so the subgradient convention at the kink cannot show.
  items      e.item() on an expression, compared exactly.

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_expr_methods.py
"""
import pathlib

import torch

from gen_core import emit, fmt_float

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "expr" / "expr_methods_cases.inc"


def nested(rows, suffix):
    """A C++ nested braced list of the values (floats with `suffix`: "f" or "")."""
    if isinstance(rows, list):
        return "{" + ", ".join(nested(r, suffix) for r in rows) + "}"
    if isinstance(rows, bool):
        return "true" if rows else "false"
    if isinstance(rows, int):
        return str(rows)
    return repr(float(rows)) + suffix


def base(name, rows, dtype):
    """The Python and C++ statements that build the same tensor `name`."""
    torch_dtype = {"float": torch.float32, "double": torch.float64, "int64_t": torch.int64}[dtype]
    py = f"{name} = torch.tensor({rows!r}, dtype={torch_dtype})"
    suffix = "f" if dtype == "float" else ""
    tag = ", tenet::kFloat64" if dtype == "double" else ""
    cpp = f"tenet::Tensor<{dtype}> {name} = tenet::tensor({nested(rows, suffix)}{tag});"
    return py, cpp


BASES = {
    "x": base("x", [[0.5, -1.0, 1.5, 2.0], [-2.5, 1.0, 0.5, -0.5], [3.0, -1.5, 2.5, 1.0]], "float"),
    "w1": base("w1", [[1.0, -0.5, 2.0, 0.5, -1.0], [0.5, 1.5, -1.0, 2.0, 1.0],
                      [-1.0, 0.5, 1.0, -0.5, 2.0], [2.0, -1.0, 0.5, 1.5, -1.0]], "float"),
    "w2": base("w2", [[1.0, -2.0], [0.5, 1.0], [-1.5, 0.5], [2.0, 1.0], [-0.5, 1.5]], "float"),
    "v": base("v", [1.0, -0.5, 2.0, 0.5], "float"),
    "d": base("d", [[0.25, -0.5, 1.0, 2.0], [1.5, 0.0, -1.0, 0.5], [-2.0, 1.0, 0.75, -0.25]], "double"),
    "i": base("i", [[1, -2, 3, 4], [0, 5, -6, 7], [8, 9, -1, 2]], "int64_t"),
    "r": base("r", [[1, 2, 3, 4]], "int64_t"),
}
BASES["k"] = ("k = torch.tensor([[True, False, True, True]])", "auto k = tenet::tensor({{true, false, true, true}});")


def setup(keys):
    return "\n".join(BASES[k][0] for k in keys), " ".join(BASES[k][1] for k in keys)


VALUE_CASES = [
    # (bases, python expression, C++ return expression)
    # The chain: mm, then a lazy clamp_min, then mm on the expression.
    ("x w1 w2", "x.mm(w1).clamp_min(0).mm(w2)", "x.mm(w1).clamp_min(0).mm(w2)"),
    ("x w1 w2", "(x * 2 - 1).mm(w1).relu().matmul(w2)", "(x * 2 - 1).mm(w1).relu().matmul(w2)"),
    ("x v", "(x + 1).mv(v)", "(x + 1).mv(v)"),
    ("x v", "(v * 2).dot(v - 1)", "(v * 2).dot(v - 1)"),
    ("x v", "(v + 0.5).outer(v)", "(v + 0.5).outer(v)"),
    ("x", "(x * x).unsqueeze(0).bmm((x + 1).t().unsqueeze(0))", "(x * x).unsqueeze(0).bmm((x + 1).t().unsqueeze(0))"),
    # views of the evaluated value: strides are those of a fresh contiguous tensor's view
    ("x", "(x * 2 + 1).reshape(2, 6)", "(x * 2 + 1).reshape({2, 6})"),
    ("x", "(x * 2 + 1).view(-1)", "(x * 2 + 1).view({-1})"),
    ("x", "(x * 2 + 1).t()", "(x * 2 + 1).t()"),
    ("x", "(x - 1).transpose(0, 1)", "(x - 1).transpose(0, 1)"),
    ("x", "(x - 1).permute(1, 0)", "(x - 1).permute({1, 0})"),
    ("x", "(x - 1).flatten()", "(x - 1).flatten()"),
    ("x", "(x - 1).unsqueeze(1)", "(x - 1).unsqueeze(1)"),
    ("x", "(x - 1).unsqueeze(0).squeeze()", "(x - 1).unsqueeze(0).squeeze()"),
    ("x", "(x - 1)[0:1].expand(3, 4)", "(x - 1).narrow(0, 0, 1).expand({3, 4})"),
    ("x", "(x - 1).narrow(1, 1, 2)", "(x - 1).narrow(1, 1, 2)"),
    ("x", "(x - 1).select(1, 2)", "(x - 1).select(1, 2)"),
    ("x", "(x - 1)[1]", "(x - 1)[1]"),
    ("x", "(x - 1)[1:, 2]", "(x - 1).index({Slice(1, None), 2})"),
    ("x", "(x - 1)[:, ::2]", "(x - 1).slice(1, 0, std::nullopt, 2)"),
    ("x", "(x * 3).split(3, 1)[1]", "(x * 3).split(3, 1)[1]"),
    ("x", "(x * 3).split([1, 3], 1)[1]", "(x * 3).split({1, 3}, 1)[1]"),
    ("x", "(x * 3).chunk(2, 0)[1]", "(x * 3).chunk(2, 0)[1]"),
    ("x", "(x * 3).unbind(1)[3]", "(x * 3).unbind(1)[3]"),
    ("x", "(x * 3).flip(0)", "(x * 3).flip(0)"),
    ("x", "(x * 3).flip([0, 1])", "(x * 3).flip({0, 1})"),
    ("x", "(x * 3).tril()", "(x * 3).tril()"),
    ("x", "(x * 3).triu(1)", "(x * 3).triu(1)"),
    ("x", "(x * 3).diag()", "(x * 3).diag()"),
    ("x", "(x * 3).trace()", "(x * 3).trace()"),
    # copies and conversions
    ("x", "(x / 2).clone()", "(x / 2).clone()"),
    ("x", "(x / 2).contiguous()", "(x / 2).contiguous()"),
    ("x", "(x / 2).to(torch.float64)", "(x / 2).to(tenet::kFloat64)"),
    ("x", "(x * 4).to(torch.int64)", "(x * 4).to<int64_t>()"),
    ("x i", "(i * 2).type_as(x)", "(i * 2).type_as(x)"),
    # joins: expressions in a std::tuple (PyTorch's promotion), a braced list of one expression
    # type, a braced list converted to a named type
    ("x r", "torch.cat([x * 2, r])", "tenet::cat(std::tuple{x * 2, r})"),
    ("x d i", "torch.cat([x + 1, d, i], 1)", "tenet::cat(std::tuple{x + 1, d, i}, 1)"),
    ("r k", "torch.cat([r > 2, k, r])", "tenet::cat(std::tuple{r > 2, k, r})"),
    ("x i", "torch.stack([x - 1, i * 2], 1)", "tenet::stack(std::tuple{x - 1, i * 2}, 1)"),
    ("x", "torch.cat([x * 2, x * 3])", "tenet::cat({x * 2, x * 3})"),
    ("x", "torch.stack([x * 2, x * 3], -1)", "tenet::stack({x * 2, x * 3}, -1)"),
    ("x w1 r", "torch.cat([x.mm(w1).clamp_min(0)[:, :4], x, (r * 2).float()])",
     "tenet::cat<float>({x.mm(w1).clamp_min(0).narrow(1, 0, 4), x, r * 2})"),
    ("x r", "torch.vstack([x + 1, r])", "tenet::vstack(std::tuple{x + 1, r})"),
    ("x r", "torch.hstack([(x + 1)[0], r[0]])", "tenet::hstack(std::tuple{(x + 1)[0], r[0]})"),
    ("x r", "torch.dstack([x + 1, x.to(torch.int64)])", "tenet::dstack(std::tuple{x + 1, x.to(tenet::kInt64)})"),
]

# (name, bases, python loss body over the inputs, C++ loss body, inputs that require grad, rel_tol:
# 0 where every value is exact, else the tolerance of a transcendental function's rounding)
GRAD_CASES = [
    ("mm_clamp_mm", "x w1 w2",
     "y = x.mm(w1).clamp_min(0).mm(w2)", "auto y = x.mm(w1).clamp_min(0).mm(w2);", ["x", "w1", "w2"], 0.0),
    ("reshape_t_matmul", "x w1",
     "y = (x * x - x).reshape(4, 3).t().matmul(w1)", "auto y = (x * x - x).reshape({4, 3}).t().matmul(w1);",
     ["x", "w1"], 0.0),
    ("cat_tuple", "x d",
     "y = torch.cat([(x * 2).sigmoid(), d * x], 1)", "auto y = tenet::cat(std::tuple{(x * 2).sigmoid(), d * x}, 1);",
     ["x", "d"], 1e-6),
]

ITEM_CASES = [
    # (bases, python expression, C++ expression)
    ("x", "(x.sum() * 2 + 1).item()", "(x.sum() * 2 + 1).item()"),
    ("x", "(x[1, 2] * 3).item()", "(x.select(0, 1).select(0, 2) * 3).item()"),
    ("x", "(x.amax() - 0.5).item()", "(x.amax() - 0.5).item<double>()"),
]


def weights_for(shape):
    n = 1
    for s in shape:
        n *= s
    # fixed, exact weights: 1, -0.5, 1.5, -1, 2, ... (small multiples of 1/2)
    vals = [((k % 5) - 2) * 0.5 + (1.0 if k % 2 == 0 else 0.0) for k in range(n)]
    return vals


def main():
    lines = []
    for keys, py_expr, cpp_expr in VALUE_CASES:
        py, cpp = setup(keys.split())
        emit(lines, py_expr, py, py_expr, f"{cpp} return {cpp_expr};")

    lines.append("#if TENET_AUTOGRAD  // the gradient cases need autograd (skipped when built with TENET_AUTOGRAD=0)")
    for name, keys, py_loss, cpp_loss, inputs, rel_tol in GRAD_CASES:
        py, cpp = setup(keys.split())
        ns = {"torch": torch}
        exec(py, ns)
        exec(py_loss, ns)
        shape = list(ns["y"].shape)
        w = weights_for(shape)
        if "clamp_min" in py_loss:  # no tie at the clamp's kink
            exec("pre = x.mm(w1)", ns)
            assert bool((ns["pre"] != 0).all()), name
        grad_py = "\n".join(f"{t}.requires_grad_()" for t in inputs)
        weights_py = f"wt = torch.tensor({w!r}, dtype=y.dtype).view({', '.join(map(str, shape))})"
        weights_cpp = (f"auto wt = tenet::tensor(std::vector<double>{{{', '.join(repr(v) for v in w)}}}, "
                       f"{{{', '.join(map(str, shape))}}}).to<{'float' if ns['y'].dtype == torch.float32 else 'double'}>();")
        grad_cpp = " ".join(f"{t}.requires_grad_();" for t in inputs)
        for t in inputs:
            full_py = f"{py}\n{grad_py}\n{py_loss}\n{weights_py}\n(y * wt).sum().backward()"
            full_cpp = (f"{cpp} {grad_cpp} {cpp_loss} {weights_cpp} "
                        f"(y * wt).sum().backward(); return {t}.grad();")
            emit(lines, f"grad {name}: d/d{t}", full_py, f"{t}.grad", full_cpp, rel_tol)

    lines.append("#endif")
    for keys, py_expr, cpp_expr in ITEM_CASES:
        py, cpp = setup(keys.split())
        ns = {"torch": torch}
        exec(py, ns)
        value = eval(py_expr, ns)
        lines.append(f"{{ {cpp} INFO(R\"tenet({cpp_expr})tenet\"); CHECK({cpp_expr} == {fmt_float(value)}); }}")

    header = [
        f"// Generated by tests/golden/gen_expr_methods.py from PyTorch {torch.__version__}; do not edit.",
        f"// Tensor methods on expressions and joins of expressions: {len(lines) - 2} cases. Each value case:",
        "// name, C++ code, result, dtype, sizes, strides, storage offset, is_contiguous, values.",
    ]
    OUT.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {OUT} ({len(lines)} cases)")


if __name__ == "__main__":
    main()
