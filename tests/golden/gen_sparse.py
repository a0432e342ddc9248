#!/usr/bin/python3
"""Writes tests/sparse/sparse_cases.txt: PyTorch's sparse COO tensors as data.

tests/sparse/test_sparse.cpp reads it at run time. The line format is gen_stats.py's; a sparse
operand is `ind=NAME val=NAME size=LIST` (co=1: coalesced first), a second one `ind2= val2= co2=`:

    input NAME TENSOR
    case coalesce|add|mul SPARSE [s=SCALAR] | INDICES | VALUES | IS_COALESCED (int64, 0-d)
    case to_dense|sum|mm|addmm SPARSE [d=NAME inp=NAME beta= alpha=] | RESULT
    case to_sparse x=NAME sd=K | INDICES | VALUES
    case sum_sparse SPARSE dims=LIST | INDICES | VALUES | IS_COALESCED   (torch.sparse.sum(s, dims))
    case sum_dense SPARSE dims=LIST | RESULT      (every sparse dim summed: a dense result)
    case grad_mm|grad_smm SPARSE d=NAME g=NAME fn=GRAD_FN | RESULT | D.grad [| VALUES.grad]
    case grad_addmm SPARSE d= inp= beta= alpha= g= fn= | RESULT | D.grad | INPUT.grad
    case grad_to_dense SPARSE g=NAME fn=GRAD_FN | VALUES.grad
    case grad_leaf SPARSE via=to_dense|smm|scale_add g=NAME [d=NAME] | INDICES | VALUES | IS_COALESCED
      (the sparse tensor itself is the leaf: requires_grad_() on it; the parts are its .grad)
      (the sparse operand is sparse_coo_tensor(ind, val, size) with val requiring grad, as
      tenet's gradients reach the values: VALUES.grad is val.grad, duplicates included)
    print OP SPARSE | REPR       (`torch.` written `tenet.`, newlines `\\n`)
    throws sparse_coo_tensor SPARSE | MESSAGE

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_sparse.py
"""
import pathlib

import torch

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "sparse" / "sparse_cases.txt"
gen = torch.Generator().manual_seed(3302)
lines, inputs = [], {}


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {tensor_text(t)}")


def flag(b):
    return torch.tensor(int(b))


# Sparse operands: duplicates and unsorted indices (i1), a coalesced-looking one (i2), a hybrid
# one with a dense dim (i3), a 1-D one (i4), an empty one (i0).
add_input("i1", torch.tensor([[0, 1, 1, 0, 3, 2], [2, 0, 2, 2, 1, 4]]))
add_input("v1", torch.randn(6, generator=gen))
add_input("i2", torch.tensor([[0, 0, 2, 3], [1, 4, 0, 1]]))
add_input("v2", torch.randn(4, generator=gen))
add_input("i3", torch.tensor([[1, 0, 1], [2, 0, 2]]))
add_input("v3", torch.randn(3, 2, generator=gen))
add_input("i4", torch.tensor([[5, 1, 3, 1]]))
add_input("v4", torch.randn(4, generator=gen))
add_input("i0", torch.zeros(2, 0, dtype=torch.long))
add_input("v0", torch.zeros(0))
add_input("d53", torch.randn(5, 3, generator=gen))
add_input("inp", torch.randn(4, 3, generator=gen))
add_input("row", torch.randn(3, generator=gen))
add_input("dx", torch.tensor([[0.0, 1.5, 0.0], [0.0, 0.0, 0.0], [-2.0, 0.0, 3.0]]))
add_input("dy", torch.tensor([[[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], [[2.0, 3.0], [0.0, -1.0]]]))

SPARSE = {"a": ("i1", "v1", [4, 5]), "b": ("i2", "v2", [4, 5]), "h": ("i3", "v3", [2, 3, 2]),
          "o": ("i4", "v4", [6]), "z": ("i0", "v0", [4, 5])}


def make(key, co):
    i, v, size = SPARSE[key]
    s = torch.sparse_coo_tensor(inputs[i], inputs[v], size)
    return s.coalesce() if co else s


def kw_of(key, co, suffix=""):
    i, v, size = SPARSE[key]
    return {"ind" + suffix: i, "val" + suffix: v, "size" + suffix: size, "co" + suffix: int(co)}


def sparse_parts(s):
    return f"{tensor_text(s._indices())} | {tensor_text(s._values())} | {tensor_text(flag(s.is_coalesced()))}"


def rep(t):
    return repr(t).replace("torch.", "tenet.").replace("\n", "\\n")


for key in SPARSE:
    for co in (0, 1):
        s = make(key, co)
        kw = kw_of(key, co)
        lines.append(f"case coalesce {args_text(kw)} | {sparse_parts(s.coalesce())}")
        lines.append(f"case to_dense {args_text(kw)} | {tensor_text(s.to_dense())}")
        lines.append(f"case sum {args_text(kw)} | {tensor_text(torch.sparse.sum(s))}")
        lines.append(f"case mul {args_text({**kw, 's': 2.5})} | {sparse_parts(s * 2.5)}")
        lines.append(f"print sparse {args_text(kw)} | {rep(s)}")
        if key in ("a", "b", "z"):
            lines.append(f"case mm {args_text({**kw, 'd': 'd53'})} | {tensor_text(torch.mm(s, inputs['d53']))}")
            for inp, beta, alpha in [("inp", 1.0, 1.0), ("row", 0.5, -2.0), ("inp", 0.0, 3.0)]:
                r = torch.addmm(inputs[inp], s, inputs["d53"], beta=beta, alpha=alpha)
                lines.append(f"case addmm {args_text({**kw, 'd': 'd53', 'inp': inp, 'beta': beta, 'alpha': alpha})} | {tensor_text(r)}")
for k1, k2 in [("a", "b"), ("b", "a"), ("a", "a"), ("b", "z"), ("z", "a")]:
    for c1 in (0, 1):
        for c2 in (0, 1):
            s = make(k1, c1) + make(k2, c2)
            lines.append(f"case add {args_text({**kw_of(k1, c1), **kw_of(k2, c2, '2')})} | {sparse_parts(s)}")
for x in ("dx", "dy"):
    for sd in range(1, inputs[x].dim() + 1):
        s = inputs[x].to_sparse(sd)
        lines.append(f"case to_sparse {args_text({'x': x, 'sd': sd})} | {sparse_parts(s)}")

add_input("ibad", torch.tensor([[0, 4], [1, 5]]))
add_input("ineg", torch.tensor([[0, -1], [1, 2]]))
add_input("v2x", torch.randn(2, generator=gen))
add_input("v3x", torch.randn(3, generator=gen))
for i, v, size in [("ibad", "v2x", [4, 5]), ("ineg", "v2x", [4, 5]), ("i2", "v3x", [4, 5]), ("i2", "v2", [4, 5, 2])]:
    try:
        torch.sparse_coo_tensor(inputs[i], inputs[v], size)
    except RuntimeError as e:
        lines.append(f"throws sparse_coo_tensor {args_text({'ind': i, 'val': v, 'size': size})} | {str(e).splitlines()[0]}")
    else:
        raise AssertionError(i)

# torch.sparse.sum over dims (empty lists are tested in C++: the coalesced operand).
for key, dimss in [("a", [[0], [1], [-1], [0, 1]]), ("h", [[0], [1], [2], [0, 1], [0, 2], [1, 2], [2, 0, 1], [-3]]),
                   ("o", [[0]]), ("z", [[0], [1], [0, 1]])]:
    for co in (0, 1):
        for dims in dimss:
            r = torch.sparse.sum(make(key, co), dims)
            kw = {**kw_of(key, co), "dims": dims}
            if r.is_sparse:
                lines.append(f"case sum_sparse {args_text(kw)} | {sparse_parts(r)}")
            else:
                lines.append(f"case sum_dense {args_text(kw)} | {tensor_text(r)}")

# Gradients: the dense operands', and (sparse.mm, to_dense) the values'.
add_input("g43", torch.randn(4, 3, generator=gen))
add_input("g45", torch.randn(4, 5, generator=gen))
add_input("g232", torch.randn(2, 3, 2, generator=gen))


def leaf(name):
    return inputs[name].clone().requires_grad_()


for key in ("a", "b", "z"):
    for co in (0, 1):
        kw = kw_of(key, co)
        i, v, size = SPARSE[key]
        for op, fn in (("grad_mm", torch.mm), ("grad_smm", torch.sparse.mm)):
            vals, d = leaf(v), leaf("d53")
            s = torch.sparse_coo_tensor(inputs[i], vals if op == "grad_smm" else inputs[v], size)
            s = s.coalesce() if co else s
            r = fn(s, d)
            r.backward(inputs["g43"])
            extra = f" | {tensor_text(vals.grad)}" if op == "grad_smm" else ""
            lines.append(f"case {op} {args_text({**kw, 'd': 'd53', 'g': 'g43', 'fn': r.grad_fn.name()})} | "
                         f"{tensor_text(r.detach())} | {tensor_text(d.grad)}{extra}")
        for inp, beta, alpha in [("inp", 1.0, 1.0), ("row", 0.5, -2.0), ("inp", 0.0, 3.0)]:
            d, bias = leaf("d53"), leaf(inp)
            r = torch.addmm(bias, make(key, co), d, beta=beta, alpha=alpha)
            r.backward(inputs["g43"])
            kw2 = {**kw, "d": "d53", "inp": inp, "beta": beta, "alpha": alpha, "g": "g43", "fn": r.grad_fn.name()}
            lines.append(f"case grad_addmm {args_text(kw2)} | {tensor_text(r.detach())} | {tensor_text(d.grad)} | "
                         f"{tensor_text(bias.grad)}")
for key, g in (("a", "g45"), ("b", "g45"), ("h", "g232"), ("z", "g45")):
    for co in (0, 1):
        i, v, size = SPARSE[key]
        vals = leaf(v)
        s = torch.sparse_coo_tensor(inputs[i], vals, size)
        s = s.coalesce() if co else s
        r = s.to_dense()
        r.backward(inputs[g])
        lines.append(f"case grad_to_dense {args_text({**kw_of(key, co), 'g': g, 'fn': r.grad_fn.name()})} | "
                     f"{tensor_text(vals.grad)}")

# The sparse tensor as a leaf (requires_grad_() on it): its .grad is sparse, PyTorch's gradient
# masked to the leaf's pattern. A coalesced leaf is a coalesced tensor made a leaf again.
for key, g in (("a", "g45"), ("b", "g45"), ("h", "g232"), ("z", "g45")):
    for co in (0, 1):
        vias = ("to_dense", "scale_add") + (("smm",) if len(SPARSE[key][2]) == 2 else ())
        for via in vias:
            s = make(key, co).detach().requires_grad_()
            kw = {**kw_of(key, co), "via": via, "g": "g43" if via == "smm" else g}
            if via == "to_dense":
                r = s.to_dense()
            elif via == "scale_add":
                r = (s * 1.5 + s).to_dense()
            else:
                kw["d"] = "d53"
                r = torch.sparse.mm(s, inputs["d53"])
            r.backward(inputs[kw["g"]])
            lines.append(f"case grad_leaf {args_text(kw)} | {sparse_parts(s.grad)}")

head = [f"# Generated by tests/golden/gen_sparse.py from PyTorch {torch.__version__}; do not edit."]
OUT.write_text("\n".join(head + lines) + "\n")
print(f"wrote {OUT}: {len(lines)} lines")
