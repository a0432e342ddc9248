#!/usr/bin/python3
"""Writes tests/complex/complex_linalg_cases.txt: PyTorch's complex matrix products and linear algebra.

tests/complex/test_complex_linalg.cpp reads it at run time. The format is gen_complex.py's
(golden_format.ctext: a complex tensor as `complex64 ndim size... 2*numel re im ...`):

    input NAME TENSOR
    case product op=mm|bmm|matmul|mv|dot|vdot a=NAME b=NAME ta=0|1 | RESULT   (ta: a's last two dims swapped)
    case decomp op=inv|det|eigvalsh|svdvals|eigvals|eig|eigh|svd|qr x=NAME | RESULT
    case decomp op=solve a=NAME b=NAME | RESULT
    case decomp op=cholesky x=NAME upper=0|1 [t=1] | L
    case decomp op=slogdet x=NAME [t=1] | SIGN | LOGABSDET
    case decomp op=lstsq a=NAME b=NAME | SOLUTION | RANK
    case decomp op=matrix_norm|norm|vector_norm x=NAME ord=ORD [dim=D0,D1 keepdim=0|1] [t=1] | RESULT
    throws OP kind=KIND | MESSAGE

t=1: the op runs on the input's last two dims swapped (a strided view; as a Hermitian matrix,
A.mT = conj(A)). eigvals/eig results are eigenvalues, compared as multisets (their order is the
solver's); eig, eigh, svd, qr, cholesky, slogdet and lstsq cases are also checked by mathematics
(A V = V diag(L), U S V^H = A, Q R = A, L L^H = A, sign exp(logabsdet) = det, A^H (A X - B) = 0).
The cases after the real eig ones were added later: the earlier inputs' random draws, and so
their lines, are unchanged.

Debian's python3-torch 1.13 returns 0 for complex torch.dot/vdot/matmul of two vectors (its BLAS
?dotu/?dotc return-value convention does not match the library it loads), so those expected values
are computed as (a * b).sum() and (a.conj() * b).sum(); every other product is PyTorch's own, and
the generator checks each against an element-wise reference.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_complex_linalg.py
"""
import pathlib

import torch

from golden_format import args_text, complex_text as ctext

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "complex" / "complex_linalg_cases.txt"

gen = torch.Generator().manual_seed(3131)
lines = []
inputs = {}
TAG = {torch.complex64: "c64", torch.complex128: "c128", torch.float32: "f32", torch.float64: "f64"}


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {ctext(t)}")


def randn(*shape, dtype):
    return torch.randn(*shape, generator=gen, dtype=dtype)


def reference_product(op, a, b):
    """The product by broadcasting and summing, in complex128."""
    a, b = a.to(torch.complex128), b.to(torch.complex128)
    if op == "vdot":
        return (a.conj() * b).sum()
    if a.dim() == 1 and b.dim() == 1:
        return (a * b).sum()
    A = a.unsqueeze(0) if a.dim() == 1 else a
    B = b.unsqueeze(-1) if b.dim() == 1 else b
    r = (A.unsqueeze(-1) * B.unsqueeze(-3)).sum(-2)
    if a.dim() == 1:
        r = r.squeeze(-2)
    if b.dim() == 1:
        r = r.squeeze(-1)
    return r


PRODUCTS = {"mm": torch.mm, "bmm": torch.bmm, "matmul": torch.matmul, "mv": torch.mv, "dot": torch.dot,
            "vdot": torch.vdot}
# (op, a's shape, b's shape, ta): ta = 1 stores a with its last two dims swapped and multiplies a.mT.
PRODUCT_SHAPES = [
    ("mm", (3, 4), (4, 2), 0),
    ("mm", (4, 3), (4, 2), 1),         # a transposed view: read in place
    ("mm", (20, 24), (24, 18), 0),     # large enough for cblas_?gemm (small ones go to Eigen)
    ("mm", (24, 20), (24, 18), 1),
    ("bmm", (2, 3, 4), (2, 4, 5), 0),
    ("matmul", (2, 1, 3, 4), (3, 4, 2), 0),  # broadcast batch dims
    ("matmul", (2, 3, 4), (4, 5), 0),        # folded into one GEMM
    ("matmul", (4,), (2, 4, 3), 0),
    ("matmul", (2, 3, 4), (4,), 0),
    ("matmul", (4,), (4, 3), 0),
    ("matmul", (3, 4), (4,), 0),
    ("matmul", (4,), (4,), 0),
    ("mv", (3, 4), (4,), 0),
    ("mv", (20, 24), (24,), 0),
    ("dot", (5,), (5,), 0),
    ("vdot", (5,), (5,), 0),
    ("vdot", (40,), (40,), 0),
]

for dt in (torch.complex64, torch.complex128):
    for i, (op, sa, sb, ta) in enumerate(PRODUCT_SHAPES):
        an, bn = f"p{i}a_{TAG[dt]}", f"p{i}b_{TAG[dt]}"
        add_input(an, randn(*sa, dtype=dt))
        add_input(bn, randn(*sb, dtype=dt))
        a, b = inputs[an], inputs[bn]
        if ta:
            a = a.mT
        ref = reference_product(op, a, b)
        if op in ("dot", "vdot") or (op == "matmul" and a.dim() == 1 and b.dim() == 1):
            r = ref.to(dt)  # see the module comment: Debian's torch gets these wrong
        else:
            r = PRODUCTS[op](a, b)
            assert torch.allclose(r.to(torch.complex128), ref, rtol=1e-4, atol=1e-4), (op, sa, sb)
        lines.append(f"case product {args_text({'op': op, 'a': an, 'b': bn, 'ta': ta})} | {ctext(r)}")

# ---- Decompositions and solvers ----------------------------------------------------------------
for dt in (torch.complex64, torch.complex128):
    t = TAG[dt]
    add_input(f"sq_{t}", randn(3, 3, dtype=dt) + 3 * torch.eye(3, dtype=dt))  # well conditioned
    add_input(f"bsq_{t}", randn(2, 4, 4, dtype=dt) + 4 * torch.eye(4, dtype=dt))
    h = randn(2, 3, 3, dtype=dt)
    add_input(f"herm_{t}", h + h.mH)
    add_input(f"wide_{t}", randn(2, 3, 5, dtype=dt))
    add_input(f"tall_{t}", randn(5, 3, dtype=dt))
    add_input(f"rhs_{t}", randn(3, 2, dtype=dt))
    add_input(f"brhs_{t}", randn(2, 4, dtype=dt))  # a batch of vectors for bsq
    for x in (f"sq_{t}", f"bsq_{t}"):
        for op, f in (("inv", torch.linalg.inv), ("det", torch.linalg.det), ("eigvals", torch.linalg.eigvals),
                      ("eig", lambda m: torch.linalg.eig(m).eigenvalues)):
            lines.append(f"case decomp {args_text({'op': op, 'x': x})} | {ctext(f(inputs[x]))}")
    for op, f in (("eigvalsh", torch.linalg.eigvalsh), ("eigh", lambda m: torch.linalg.eigh(m).eigenvalues)):
        lines.append(f"case decomp {args_text({'op': op, 'x': f'herm_{t}'})} | {ctext(f(inputs[f'herm_{t}']))}")
    for x in (f"wide_{t}", f"tall_{t}", f"sq_{t}"):
        for op, f in (("svdvals", torch.linalg.svdvals), ("svd", lambda m: torch.linalg.svd(m).S),
                      ("qr", lambda m: torch.linalg.qr(m).R.diagonal(dim1=-2, dim2=-1).abs())):
            lines.append(f"case decomp {args_text({'op': op, 'x': x})} | {ctext(f(inputs[x]))}")
    for a, b in ((f"sq_{t}", f"rhs_{t}"), (f"bsq_{t}", f"brhs_{t}")):
        r = torch.linalg.solve(inputs[a], inputs[b])
        lines.append(f"case decomp {args_text({'op': 'solve', 'a': a, 'b': b})} | {ctext(r)}")

# eig and eigvals of real matrices: complex results (conjugate pairs).
for dt in (torch.float32, torch.float64):
    t = TAG[dt]
    add_input(f"rsq_{t}", randn(2, 4, 4, dtype=dt))
    add_input(f"rot_{t}", torch.tensor([[0.0, -2.0], [2.0, 0.0]], dtype=dt))  # eigenvalues +-2i
    for x in (f"rsq_{t}", f"rot_{t}"):
        for op, f in (("eigvals", torch.linalg.eigvals), ("eig", lambda m: torch.linalg.eig(m).eigenvalues)):
            lines.append(f"case decomp {args_text({'op': op, 'x': x})} | {ctext(f(inputs[x]))}")


# ---- cholesky, slogdet, lstsq and the norms of complex inputs ----------------------------------
def view(name, t):
    return inputs[name].mT if t else inputs[name]


def lstsq_expected(a, b):
    """linalg.lstsq's solution and rank. Debian's PyTorch's default driver (gelsy) varies in the
    last bits from run to run (float64 too), so the file holds the same unique solution (the
    minimum-norm one) from the SVD driver (gelsd, reproducible), computed in complex128 with a's
    rcond, and checks it against gelsy's; the rank is gelsy's."""
    r = torch.linalg.lstsq(a, b)
    assert r.residuals.numel() == 0 and r.singular_values.numel() == 0  # gelsy: solution and rank only
    rcond = torch.finfo(a.real.dtype).eps * max(a.shape[-2:])
    ref = torch.linalg.lstsq(a.to(torch.complex128), b.to(torch.complex128), rcond=rcond, driver="gelsd")
    assert torch.equal(ref.rank, r.rank), (ref.rank, r.rank)
    solution = ref.solution.to(a.dtype)
    tol = 1e-4 if a.dtype == torch.complex64 else 1e-10
    assert torch.allclose(solution, r.solution, rtol=tol, atol=tol)
    return solution, r.rank


for dt in (torch.complex64, torch.complex128):
    t = TAG[dt]
    h = randn(2, 3, 3, dtype=dt)
    add_input(f"hpd_{t}", h @ h.mH + torch.eye(3, dtype=dt))  # Hermitian positive-definite, batched
    s = randn(2, 3, dtype=dt)
    add_input(f"sing_{t}", torch.cat([s, torch.zeros(1, 3, dtype=dt)]))  # a zero row: an exactly zero pivot
    add_input(f"ltall_{t}", randn(2, 5, 3, dtype=dt))
    add_input(f"lrhs_{t}", randn(2, 5, 2, dtype=dt))
    add_input(f"lwide_{t}", randn(3, 5, dtype=dt))
    add_input(f"lwrhs_{t}", randn(3, 2, dtype=dt))
    add_input(f"ldef_{t}", randn(5, 2, dtype=dt) @ randn(2, 3, dtype=dt))  # rank 2 of 3 columns
    add_input(f"ldrhs_{t}", randn(5, 2, dtype=dt))
    add_input(f"lvec_{t}", randn(5, dtype=dt))
    add_input(f"vec_{t}", randn(6, dtype=dt))
    for x, tr, upper in ((f"hpd_{t}", 0, 0), (f"hpd_{t}", 0, 1), (f"hpd_{t}", 1, 0)):
        r = torch.linalg.cholesky(view(x, tr), upper=bool(upper))
        lines.append(f"case decomp {args_text({'op': 'cholesky', 'x': x, 'upper': upper, 't': tr})} | {ctext(r)}")
    for x, tr in ((f"sq_{t}", 0), (f"bsq_{t}", 0), (f"bsq_{t}", 1), (f"sing_{t}", 0), (f"hpd_{t}", 0)):
        sign, logabs = torch.linalg.slogdet(view(x, tr))
        assert logabs.dtype == (torch.float32 if dt == torch.complex64 else torch.float64)
        lines.append(f"case decomp {args_text({'op': 'slogdet', 'x': x, 't': tr})} | {ctext(sign)} | {ctext(logabs)}")
    for a, b in ((f"ltall_{t}", f"lrhs_{t}"), (f"lwide_{t}", f"lwrhs_{t}"), (f"ldef_{t}", f"ldrhs_{t}"),
                 (f"ldef_{t}", f"lvec_{t}")):
        solution, rank = lstsq_expected(inputs[a], inputs[b])
        lines.append(f"case decomp {args_text({'op': 'lstsq', 'a': a, 'b': b})} | {ctext(solution)} | {ctext(rank)}")
    for ord_ in ("fro", "nuc", 2.0, -2.0, 1.0, -1.0, float("inf"), float("-inf")):
        for x, kw in ((f"bsq_{t}", {}), (f"ltall_{t}", {"dim": [2, 0], "keepdim": True})):
            r = torch.linalg.matrix_norm(inputs[x], ord_, **kw)
            lines.append(f"case decomp {args_text({'op': 'matrix_norm', 'x': x, 'ord': ord_, **kw})} | {ctext(r)}")
    for ord_, tr in (("fro", 1), ("nuc", 1), (2.0, 0), (float("inf"), 1)):  # 2-D: the matrix norms
        r = torch.linalg.norm(view(f"sq_{t}", tr), ord_)
        lines.append(f"case decomp {args_text({'op': 'norm', 'x': f'sq_{t}', 'ord': ord_, 't': tr})} | {ctext(r)}")
    for ord_ in (2.0, 1.0, float("inf"), float("-inf"), 0.0, 3.5):  # 1-D: the vector norms
        for op, f in (("norm", torch.linalg.norm), ("vector_norm", torch.linalg.vector_norm)):
            lines.append(f"case decomp {args_text({'op': op, 'x': f'vec_{t}', 'ord': ord_})} | "
                         f"{ctext(f(inputs[f'vec_{t}'], ord_))}")
    kw = {"op": "vector_norm", "x": f"bsq_{t}", "ord": 1.0, "dim": [0, 2], "keepdim": True}
    r = torch.linalg.vector_norm(inputs[kw["x"]], 1.0, dim=[0, 2], keepdim=True)
    lines.append(f"case decomp {args_text(kw)} | {ctext(r)}")


# ---- Errors ------------------------------------------------------------------------------------
def message(f):
    try:
        f()
    except RuntimeError as e:
        return str(e).splitlines()[0]
    raise AssertionError("expected an error")


c = torch.ones(2, 3, dtype=torch.complex64)
ERRORS = {
    ("eig", "nonsquare"): lambda: torch.linalg.eig(c),
    ("eigvals", "nonsquare"): lambda: torch.linalg.eigvals(c),
    ("eig", "vector"): lambda: torch.linalg.eig(torch.ones(3, dtype=torch.complex64)),
    ("eigh", "nonsquare"): lambda: torch.linalg.eigh(c),
    ("inv", "nonsquare"): lambda: torch.linalg.inv(c),
    ("inv", "singular"): lambda: torch.linalg.inv(torch.ones(2, 2, dtype=torch.complex64)),
    ("mm", "shapes"): lambda: torch.mm(c, c),
    ("mm", "mixed"): lambda: torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.complex64)),
    ("matmul", "mixed"): lambda: torch.matmul(c, torch.ones(3, 2, dtype=torch.complex128)),
    ("solve", "mixed"): lambda: torch.linalg.solve(torch.ones(2, 2, dtype=torch.complex64), torch.ones(2)),
    ("cholesky", "notpd"): lambda: torch.linalg.cholesky(
        torch.tensor([[1, 2j], [-2j, 1]], dtype=torch.complex64)),  # Hermitian, eigenvalues -1 and 3
    ("cholesky", "nonsquare"): lambda: torch.linalg.cholesky(c),
    ("slogdet", "nonsquare"): lambda: torch.linalg.slogdet(c),
    ("lstsq", "mixed"): lambda: torch.linalg.lstsq(c, torch.ones(2, 1, dtype=torch.complex128)),
}
for (op, kind), f in ERRORS.items():
    lines.append(f"throws {op} {args_text({'kind': kind})} | {message(f)}")

OUT.parent.mkdir(exist_ok=True)
OUT.write_text("# Generated by tests/golden/gen_complex_linalg.py (PyTorch " + torch.__version__ + "); do not edit.\n" +
               "\n".join(lines) + "\n")
print(f"wrote {len(lines)} lines to {OUT}")
