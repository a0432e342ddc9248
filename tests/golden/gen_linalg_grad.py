#!/usr/bin/python3
"""Writes tests/linalg/linalg_grad_cases.inc: gradients of tenet's linear algebra from PyTorch.

Run with Debian's python3-torch (the checked-in file came from PyTorch 1.13):
    /usr/bin/python3 tests/golden/gen_linalg_grad.py

Every case computes, in float64, loss = (f(inputs) * weights).sum() with fixed weights (each
output element gets a different upstream gradient) and records f's value, its grad_fn name
(None: not compared, as for einsum, whose last recorded step differs from PyTorch's) and the
gradient of every input. Matrices that are inverted or factored are made well conditioned here
(a multiple of the identity added, or A A^T + I) and passed in as the leaves themselves.
One case takes its expected gradient from maths instead (det of a singular matrix, below).
Eigenvectors and singular vectors are compared through sign-invariant functions (V * V, U Vh). The C++ side is
tests/linalg/test_linalg_grad.cpp.
"""
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "linalg", "linalg_grad_cases.inc")
D = torch.float64


def values(shape, seed, lo=-1.0, hi=1.0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(shape, generator=g, dtype=D) * (hi - lo) + lo


def well_conditioned(shape, seed):
    """Random entries plus 3 I: far from singular."""
    return values(shape, seed) + 3 * torch.eye(shape[-1], dtype=D)


def spd(shape, seed):
    a = values(shape, seed)
    return a @ a.mT + torch.eye(shape[-1], dtype=D)


def symmetric(shape, seed):
    a = values(shape, seed)
    return (a + a.mT) / 2


def lit(t):
    return "{" + ", ".join(float(v).hex() for v in t.reshape(-1).tolist()) + "}"


def shape_lit(shape):
    return "{" + ", ".join(str(s) for s in shape) + "}"


CASES = []


def case(name, cpp, fn, inputs, check_name=True, maths_grads=None):
    """maths_grads(inputs, w): the expected gradients where PyTorch's own are wrong."""
    inputs = [x.clone().requires_grad_() for x in inputs]
    y = fn(*inputs)
    w = values(tuple(y.shape), 99, 0.5, 1.5)
    (y * w).sum().backward()
    grads = [x.grad for x in inputs] if maths_grads is None else maths_grads([x.detach() for x in inputs], w)
    CASES.append((name, cpp, inputs, y, w, y.grad_fn.name() if check_name else None, grads))


def cofactors(a):
    """The cofactor matrix of a square matrix, from its minors: d det(A) / dA for every A."""
    n = a.shape[-1]
    c = torch.empty_like(a)
    for i in range(n):
        for j in range(n):
            keep_r = [r for r in range(n) if r != i]
            keep_c = [k for k in range(n) if k != j]
            c[i, j] = (-1) ** (i + j) * torch.linalg.det(a[keep_r][:, keep_c])
    return c


def v(*shape, seed=1):
    return values(shape, seed)


# Products: every torch.matmul case, the named products and the add* forms.
case("matmul 1-D by 1-D", "matmul(x0, x1)", torch.matmul, [v(3), v(3, seed=2)])
case("matmul 2-D by 1-D", "matmul(x0, x1)", torch.matmul, [v(2, 3), v(3, seed=2)])
case("matmul 1-D by 2-D", "matmul(x0, x1)", torch.matmul, [v(3), v(3, 4, seed=2)])
case("matmul 2-D by 2-D", "matmul(x0, x1)", torch.matmul, [v(2, 3), v(3, 4, seed=2)])
case("matmul batched by batched", "matmul(x0, x1)", torch.matmul, [v(2, 3, 4), v(2, 4, 5, seed=2)])
case("matmul broadcast batch dims", "matmul(x0, x1)", torch.matmul, [v(2, 1, 3, 4), v(5, 4, 2, seed=2)])
case("matmul batched by 2-D", "matmul(x0, x1)", torch.matmul, [v(2, 3, 4), v(4, 5, seed=2)])
case("matmul 2-D by batched", "matmul(x0, x1)", torch.matmul, [v(3, 4), v(2, 4, 5, seed=2)])
case("matmul 1-D by batched", "matmul(x0, x1)", torch.matmul, [v(4), v(2, 4, 5, seed=2)])
case("matmul batched by 1-D", "matmul(x0, x1)", torch.matmul, [v(2, 3, 4), v(4, seed=2)])
case("mm", "mm(x0, x1)", torch.mm, [v(2, 3), v(3, 4, seed=2)])
case("bmm", "bmm(x0, x1)", torch.bmm, [v(2, 3, 4), v(2, 4, 5, seed=2)])
case("mv", "mv(x0, x1)", torch.mv, [v(2, 3), v(3, seed=2)])
case("dot", "dot(x0, x1)", torch.dot, [v(4), v(4, seed=2)])
case("outer", "outer(x0, x1)", torch.outer, [v(3), v(4, seed=2)])
case("addmm", "addmm(x0, x1, x2, 0.5, 2.0)", lambda i, a, b: torch.addmm(i, a, b, beta=0.5, alpha=2.0),
     [v(4), v(2, 3, seed=2), v(3, 4, seed=3)])
case("addmv", "addmv(x0, x1, x2, 1.5, -1.0)", lambda i, a, b: torch.addmv(i, a, b, beta=1.5, alpha=-1.0),
     [v(2), v(2, 3, seed=2), v(3, seed=3)])
case("addbmm", "addbmm(x0, x1, x2, 0.5, 2.0)", lambda i, a, b: torch.addbmm(i, a, b, beta=0.5, alpha=2.0),
     [v(2, 4), v(5, 2, 3, seed=2), v(5, 3, 4, seed=3)])
case("baddbmm", "baddbmm(x0, x1, x2, 2.0, 0.5)", lambda i, a, b: torch.baddbmm(i, a, b, beta=2.0, alpha=0.5),
     [v(1, 2, 4), v(5, 2, 3, seed=2), v(5, 3, 4, seed=3)])
case("addr", "addr(x0, x1, x2, 0.5, 3.0)", lambda i, a, b: torch.addr(i, a, b, beta=0.5, alpha=3.0),
     [v(2, 1), v(2, seed=2), v(3, seed=3)])

case("tril", "tril(x0, -1)", lambda a: torch.tril(a, -1), [v(2, 3, 4)])
case("triu", "triu(x0, 1)", lambda a: torch.triu(a, 1), [v(4, 3)])

# einsum: gradients only (the grad_fn is the last composed step).
case("einsum batched matmul", "einsum(\"bij,bjk->bik\", {x0, x1})", lambda a, b: torch.einsum("bij,bjk->bik", a, b),
     [v(2, 3, 4), v(2, 4, 5, seed=2)], check_name=False)
case("einsum diagonal", "einsum(\"ii->i\", {x0})", lambda a: torch.einsum("ii->i", a), [v(3, 3)], check_name=False)
case("einsum chain of three", "einsum(\"ij,jk,kl->il\", {x0, x1, x2})",
     lambda a, b, c: torch.einsum("ij,jk,kl->il", a, b, c), [v(2, 3), v(3, 4, seed=2), v(4, 2, seed=3)],
     check_name=False)
case("einsum ellipsis broadcast", "einsum(\"...ij,...j->...i\", {x0, x1})",
     lambda a, b: torch.einsum("...ij,...j->...i", a, b), [v(2, 3, 4), v(1, 4, seed=2)], check_name=False)

# Decompositions.
case("inv", "linalg::inv(x0)", torch.linalg.inv, [well_conditioned((3, 3), 4)])
case("inv batched", "linalg::inv(x0)", torch.linalg.inv, [well_conditioned((2, 3, 3), 4)])
case("det", "linalg::det(x0)", torch.linalg.det, [well_conditioned((3, 3), 5)])
case("det batched", "linalg::det(x0)", torch.linalg.det, [values((2, 3, 3), 5)])
# Exactly singular (rank 2): PyTorch 1.13 returns a zero gradient here (det * A^-T with det = 0;
# its own gradcheck fails on this input), so the expected gradient is the cofactor matrix.
case("det singular", "linalg::det(x0)", torch.linalg.det,
     [torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]], dtype=D)],
     maths_grads=lambda xs, w: [w * cofactors(xs[0])])
case("slogdet logabsdet", "linalg::slogdet(x0).logabsdet", lambda a: torch.linalg.slogdet(a).logabsdet,
     [values((2, 3, 3), 6)])
case("solve matrix", "linalg::solve(x0, x1)", torch.linalg.solve, [well_conditioned((3, 3), 7), v(3, 2, seed=2)])
case("solve vector batch", "linalg::solve(x0, x1)", torch.linalg.solve,
     [well_conditioned((2, 3, 3), 7), v(3, seed=2)])
case("solve broadcast B", "linalg::solve(x0, x1)", torch.linalg.solve,
     [well_conditioned((3, 3), 7), v(2, 3, 2, seed=2)])
case("eigvalsh", "linalg::eigvalsh(x0)", torch.linalg.eigvalsh, [symmetric((2, 3, 3), 8)])
case("eigh eigenvalues", "linalg::eigh(x0).eigenvalues", lambda a: torch.linalg.eigh(a).eigenvalues,
     [symmetric((3, 3), 8)])
case("eigh eigenvectors squared", "[&] { auto V = linalg::eigh(x0).eigenvectors; return Tensor<double>(V * V); }()",
     lambda a: torch.linalg.eigh(a).eigenvectors ** 2, [symmetric((2, 3, 3), 9)], check_name=False)
case("svdvals wide", "linalg::svdvals(x0)", torch.linalg.svdvals, [v(3, 4, seed=10)])
case("svdvals batched tall", "linalg::svdvals(x0)", torch.linalg.svdvals, [v(2, 4, 3, seed=10)])
case("svd U Vh product tall", "[&] { auto r = linalg::svd(x0, false); return matmul(r.U, r.Vh); }()",
     lambda a: (lambda r: r.U @ r.Vh)(torch.linalg.svd(a, full_matrices=False)), [v(4, 3, seed=12)],
     check_name=False)
case("svd U squared wide full", "[&] { auto U = linalg::svd(x0).U; return Tensor<double>(U * U); }()",
     lambda a: torch.linalg.svd(a).U ** 2, [v(2, 3, 4, seed=13)], check_name=False)
case("svd Vh squared tall", "[&] { auto r = linalg::svd(x0, false); return Tensor<double>(r.Vh * r.Vh); }()",
     lambda a: torch.linalg.svd(a, full_matrices=False).Vh ** 2, [v(4, 3, seed=14)], check_name=False)
case("svd S", "linalg::svd(x0).S", lambda a: torch.linalg.svd(a).S, [v(3, 4, seed=15)])
case("cholesky", "linalg::cholesky(x0)", torch.linalg.cholesky, [spd((2, 3, 3), 11)])
case("cholesky upper", "linalg::cholesky(x0, true)", lambda a: torch.linalg.cholesky(a, upper=True),
     [spd((3, 3), 11)])

lines = ["// Generated by tests/golden/gen_linalg_grad.py from PyTorch %s. Do not edit." % torch.__version__, ""]
for name, cpp, inputs, y, w, grad_fn, grads in CASES:
    n = len(inputs)
    lines.append("TEST_CASE(\"linalg grad golden: %s\") {" % name)
    lines.append("    std::vector<Tensor<double>> in{%s};" % ", ".join(
        "make_input(%s, %s)" % (shape_lit(x.shape), lit(x.detach())) for x in inputs))
    args = ", ".join("const Tensor<double>& x%d" % i for i in range(n))
    lines.append("    auto f = [](%s) { return Tensor<double>(%s); };" % (args, cpp))
    lines.append("    Tensor<double> y = f(%s);" % ", ".join("in[%d]" % i for i in range(n)))
    if grad_fn is not None:
        lines.append("    CHECK(y.grad_fn()->name() == \"%s\");" % grad_fn)
    lines.append("    check_forward(y, %s, %s);" % (shape_lit(y.shape), lit(y.detach())))
    lines.append("    Tensor<double>((y * make_input(%s, %s)).sum()).backward();" % (shape_lit(w.shape), lit(w)))
    for i, g in enumerate(grads):
        lines.append("    check_grad(in[%d], %s);" % (i, lit(g)))
    lines.append("}")
    lines.append("")
with open(OUT, "w") as f:
    f.write("\n".join(lines))
print("wrote", len(CASES), "cases")
