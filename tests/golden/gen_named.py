#!/usr/bin/python3
"""Writes tests/named/named_cases.txt: PyTorch 1.13's named tensors as data.

tests/named/test_named.cpp reads it at run time and runs the tenet form of each case (the same
ID there). One line per case:

    ID | ok | NAMES | SIZES | VALUES     names as Python's tuple repr, sizes and values space-separated
    ID | throws | MESSAGE               PyTorch's message (its first line)
    ID | repr | REPR                    repr(result), `torch.` written `tenet.`, newlines as \\n
                                        (or a grad_fn's name, for the grad_fn_ cases)

Inputs: x = arange(6.).reshape(2, 3) named ('N', 'C'); y = arange(24.).reshape(2, 3, 4) named
('A', 'B', 'C'); u = arange(6.).reshape(2, 3) unnamed.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_named.py
"""
import pathlib
import warnings

import torch

warnings.filterwarnings("ignore")  # "Named tensors ... are an experimental feature"
HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "named" / "named_cases.txt"


def x():
    return torch.arange(6.).reshape(2, 3).refine_names("N", "C")


def y():
    return torch.arange(24.).reshape(2, 3, 4).refine_names("A", "B", "C")


def u():
    return torch.arange(6.).reshape(2, 3)


def z(*names, size=(2, 3)):
    return torch.zeros(*size, names=names)


CASES = {
    "create": lambda: z("N", "C"),
    "create_none": lambda: z("N", None),
    "create_all_none": lambda: z(None, None),
    "create_duplicate": lambda: z("N", "N"),
    "create_count": lambda: z("N"),
    "create_digit": lambda: z("N", "1a"),
    "create_empty_name": lambda: z("N", ""),
    "create_underscore": lambda: z("N", "_a"),
    "ones_named": lambda: torch.ones(2, 3, names=("N", "C")),
    "zeros_like": lambda: torch.zeros_like(x()),
    "add_scalar": lambda: x() + 1,
    "add_unnamed": lambda: x() + u(),
    "add_right": lambda: x() * torch.arange(3.).refine_names("C"),
    "add_mismatch": lambda: x() + z("N", "D"),
    "add_mismatch_short": lambda: x() + torch.zeros(3, names=("N",)),
    "add_none_unify": lambda: z("N", None) + z(None, "C"),
    "add_misaligned": lambda: z("N", None) + z(None, "N"),
    "add_misaligned_short": lambda: z("N", None) + torch.zeros(3, names=("N",)),
    "add_broadcast": lambda: z("N", None, "C", size=(2, 1, 3)) + z("H", None, size=(4, 3)),
    "chain": lambda: (x() * 2 + u()).sin(),
    "inplace_unnamed_dst": lambda: u().add_(x()),
    "inplace_mismatch": lambda: x().add_(z("N", "D")),
    "sum_C": lambda: x().sum("C"),
    "sum_C_keep": lambda: x().sum("C", keepdim=True),
    "sum_int": lambda: x().sum(1),
    "sum_all": lambda: x().sum(),
    "sum_list": lambda: y().sum(["A", "C"]),
    "sum_missing": lambda: x().sum("H"),
    "mean_N": lambda: x().mean("N"),
    "prod_C": lambda: x().prod("C"),
    "std_C": lambda: x().std("C"),
    "var_C_keep": lambda: x().var("C", keepdim=True),
    "logsumexp_C": lambda: x().logsumexp("C"),
    "max_C_values": lambda: x().max("C").values,
    "min_N_indices": lambda: x().min("N").indices.float(),
    "softmax_C": lambda: x().softmax("C"),
    "log_softmax_N": lambda: x().log_softmax("N"),
    "cumsum_C": lambda: x().cumsum("C"),
    "cumprod_C": lambda: x().cumprod("C"),
    "transpose_names": lambda: x().transpose("N", "C"),
    "transpose_int": lambda: y().transpose(0, 2),
    "t": lambda: x().t(),
    "select_name": lambda: y().select("B", 1),
    "index_int": lambda: x()[1],
    "index_slice": lambda: y()[1:, 1],
    "index_ellipsis": lambda: y()[..., 1],
    "index_none": lambda: x()[None],
    "narrow": lambda: x().narrow(1, 1, 2),
    "squeeze": lambda: torch.arange(3.).reshape(1, 3).refine_names("N", "C").squeeze(),
    "squeeze_name": lambda: torch.arange(3.).reshape(1, 3).refine_names("N", "C").squeeze("N"),
    "expand": lambda: x().expand(2, 2, 3),
    "contiguous_t": lambda: x().t().contiguous(),
    "clone": lambda: x().clone(),
    "double": lambda: x().double(),
    "detach": lambda: x().detach(),
    "view": lambda: x().view(6),
    "reshape": lambda: x().reshape(6),
    "permute": lambda: x().permute(1, 0),
    "unsqueeze": lambda: x().unsqueeze(0),
    "flatten_ints": lambda: x().flatten(),
    "refine_rename": lambda: x().refine_names("A", "C"),
    "refine_leading": lambda: torch.zeros(2, 3, 4).refine_names("...", "C"),
    "refine_middle": lambda: torch.zeros(2, 3, 4).refine_names("N", "...", "C"),
    "refine_count": lambda: torch.zeros(2, 3, 4).refine_names("N", "C"),
    "refine_duplicate": lambda: torch.zeros(2, 3, 4).refine_names("N", "C", "N"),
    "refine_two_ellipses": lambda: torch.zeros(2, 3, 4).refine_names("N", "...", "..."),
    "refine_to_none": lambda: x().refine_names("N", None),
    "rename_none": lambda: x().rename(None),
    "rename_names": lambda: x().rename("A", "B"),
    "rename_ellipsis": lambda: x().rename("...", "A"),
    "rename_map": lambda: x().rename(N="M"),
    "rename_map_missing": lambda: x().rename(Q="M"),
    "rename_duplicate": lambda: x().rename("A", "A"),
    "rename_count": lambda: x().rename("A"),
    "align_to": lambda: x().align_to("C", "N"),
    "align_to_new": lambda: x().align_to("C", "N", "H"),
    "align_to_ellipsis": lambda: y().align_to("C", "..."),
    "align_to_ellipsis_mid": lambda: x().align_to("H", "...", "N"),
    "align_to_missing": lambda: x().align_to("C"),
    "align_to_unnamed": lambda: z("N", None).align_to("C", "N"),
    "align_to_two_ellipses": lambda: y().align_to("C", "...", "..."),
    "align_as": lambda: x().align_as(torch.zeros(3, 1, 2, names=("C", "H", "N"))),
    "flatten_names": lambda: y().flatten(["B", "C"], "F"),
    "flatten_not_consecutive": lambda: y().flatten(["A", "C"], "F"),
    "flatten_empty": lambda: x().flatten([], "F"),
    "unflatten": lambda: x().unflatten("C", (("C1", 1), ("C2", 3))),
    "unflatten_infer": lambda: x().unflatten("C", (("C1", -1), ("C2", 3))),
    "unflatten_bad_sizes": lambda: x().unflatten("C", (("C1", 2), ("C2", 3))),
    "unflatten_duplicate": lambda: x().unflatten("C", (("N", 1), ("C2", 3))),
    "expr_sum_C": lambda: (x() * 2).sum("C"),
    "cat": lambda: torch.cat([x(), u()]),
    "cat_dim1": lambda: torch.cat([z("N", None), z(None, "C")], 1),
    "cat_mismatch": lambda: torch.cat([x(), z("N", "D")]),
    "stack": lambda: torch.stack([x(), x()]),
    "matmul": lambda: x().matmul(torch.ones(3, 2)),
    "matmul_named": lambda: x().matmul(torch.ones(3, 2, names=("C", "D"))),
    "matmul_vec": lambda: x().matmul(torch.ones(3, names=("C",))),
    "matmul_duplicate": lambda: x().matmul(torch.ones(3, 2, names=("C", "N"))),
    "matmul_batch": lambda: torch.ones(4, 2, 3, names=("B", "N", "C")).matmul(torch.ones(3, 5)),
    "matmul_batch_mismatch": lambda: torch.ones(4, 2, 3, names=("B", "N", "C")).matmul(torch.ones(4, 3, 2, names=("D", None, None))),
    "mm": lambda: x().mm(torch.ones(3, 2, names=("K", "L"))),
    "mv": lambda: x().mv(torch.ones(3)),
    "bmm": lambda: torch.ones(2, 2, 3, names=("B", "N", "C")).bmm(torch.ones(2, 3, 4)),
    "sort": lambda: x().sort(1).values,
    "argsort": lambda: x().argsort(1).float(),
    "topk": lambda: x().topk(1).values,
    "flip": lambda: x().flip(0),
    "index_select": lambda: x().index_select(0, torch.tensor([0])),
    "gather": lambda: x().gather(1, torch.zeros(2, 1, dtype=torch.long)),
    "nonzero": lambda: x().nonzero().float(),
    "roll": lambda: x().roll(1, 1),
    "tril": lambda: x().tril(),
    "argmax": lambda: x().argmax(1).float(),
    "amax": lambda: x().amax(1),
    "nansum": lambda: x().nansum(1),
    "norm": lambda: x().norm(2, 1),
    "any_all": lambda: (x() > 1).any().float(),
    "any_dim": lambda: (x() > 1).any(1).float(),
    "max_all": lambda: x().max(),
    "median": lambda: x().median(1).values,
    "mode_indices": lambda: x().mode(1).indices.float(),
    "kthvalue": lambda: x().kthvalue(2, 1).values,
    "cummax": lambda: x().cummax(1).values,
    "logcumsumexp": lambda: x().logcumsumexp(1),
    "std_mean": lambda: torch.std_mean(x(), 1)[0],
    "split": lambda: x().split(2, 1)[1],
    "chunk": lambda: x().chunk(2, 0)[1],
    "unbind": lambda: x().unbind(1)[2],
    "copy_": lambda: torch.zeros(2, 3).copy_(x()),
    "copy_mismatch": lambda: z("A", "B").copy_(x()),
    "transpose_": lambda: x().transpose_(0, 1),
    "squeeze_": lambda: z("N", "C", size=(1, 3)).squeeze_(),
    "masked_fill": lambda: x().masked_fill(x() > 2, 0.0),
    "index_put": lambda: x().index_put_((torch.tensor([0]),), torch.tensor(1.0)),
    "index_mask": lambda: x()[x() > 1],
    # where and lerp have no name inference: refused when one of their own operands is named
    # (the refuse_ cases' messages are compared whole), not when a name is elsewhere in the expression.
    "refuse_where_a": lambda: torch.where(u() > 2, x(), u()),
    "refuse_where_cond": lambda: torch.where(x() > 2, u(), u()),
    "refuse_where_b": lambda: torch.where(u() > 2, u(), x()),
    "refuse_where_scalar": lambda: torch.where(u() > 2, x(), 0.0),
    "refuse_where_sum": lambda: torch.where(u() > 2, x(), u()).sum(),
    "refuse_lerp_scalar": lambda: torch.lerp(x(), u(), 0.5),
    "refuse_lerp_end": lambda: torch.lerp(u(), x(), u() / 10),
    "refuse_lerp_weight": lambda: torch.lerp(u(), u(), x() / 10),
    "lerp_inplace": lambda: x().lerp_(u(), 0.5),
    "where_then_add": lambda: torch.where(u() > 2, u(), 0.0) + x(),
    "where_then_add_sum": lambda: (torch.where(u() > 2, u(), 0.0) + x()).sum("C"),
    "lerp_then_mul": lambda: torch.lerp(u(), u() * 2, 0.25) * x(),
    "threshold": lambda: torch.nn.functional.threshold(x(), 2.0, -1.0),
}

# Sizes and strides by name (ints, written as a 1-element tensor)
CASES["size_C"] = lambda: torch.tensor([float(x().size("C"))])
CASES["stride_N"] = lambda: torch.tensor([float(x().stride("N"))])
CASES["size_missing"] = lambda: torch.tensor([float(x().size("H"))])

REPRS = {
    "print_named": lambda: x(),
    "print_none": lambda: z("N", None),
    "print_double_grad": lambda: torch.zeros(2, 3, names=("N", None), dtype=torch.float64, requires_grad=True),
    "print_empty": lambda: torch.zeros(0, 3, names=("N", "C")),
    "print_1d": lambda: torch.ones(2, names=("N",)),
    "print_reduced": lambda: x().sum("C"),
}

GRAD_FNS = {  # the recorded view of each renaming, as PyTorch names it
    "grad_fn_rename": lambda: torch.ones(2, requires_grad=True).rename("N").grad_fn.name(),
    "grad_fn_refine": lambda: torch.ones(2, requires_grad=True).refine_names("N").grad_fn.name(),
    "grad_fn_align_to": lambda: torch.ones(2, 3, requires_grad=True).refine_names("A", "B").align_to("B", "A").grad_fn.name(),
}


def grads():
    """Gradients of named leaves are unnamed (PyTorch 1.13); align_to's gradient is its view's."""
    out = {}
    w = torch.ones(2, 3, requires_grad=True)
    r = w.refine_names("A", "B").align_to("B", "A", "H")
    (r.rename(None).squeeze(-1) * torch.arange(6.).reshape(3, 2)).sum().backward()
    out["grad_align_to"] = w.grad
    # Backward through named ops: a = arange(6).reshape(2, 3) / 7 named ('N', 'C') through refine_names.
    w6 = torch.arange(6.).reshape(2, 3) + 1
    ops = {
        "grad_bcast": lambda n: (n * torch.arange(3.).refine_names("C")).sum(),
        "grad_softmax": lambda n: (n.softmax("C") * w6.refine_names("N", "C")).sum(),
        "grad_matmul": lambda n: n.matmul(torch.ones(3, 2)).sum(),
        "grad_cat": lambda n: (torch.cat([n, w6.refine_names("N", "C")]) * 2).sum(),
        "grad_transpose": lambda n: (n.transpose("N", "C") * w6.t()).sum(),
        "grad_std": lambda n: n.std("C").sum(),
        "grad_flatten": lambda n: (n.flatten(["N", "C"], "F") * torch.arange(6.)).sum(),
        "grad_prod": lambda n: n.prod("C").sum(),
        "grad_threshold": lambda n: torch.nn.functional.threshold(n, 0.3, 0.0).sum(),
    }
    for cid, f in ops.items():
        a = (torch.arange(6.).reshape(2, 3) / 7).requires_grad_()
        f(a.refine_names("N", "C")).backward()
        out[cid] = a.grad
    a = torch.ones(2, 3, names=("N", "C"), requires_grad=True)
    b = x()
    (a * b).sum().backward()
    out["grad_mul"] = a.grad
    c = torch.ones(2, 3, names=("N", "C"), requires_grad=True)
    c.sum("C").sum().backward()
    out["grad_sum_name"] = c.grad
    return out


def fmt(v):
    return repr(float(v))


def line(cid, t):
    names = str(tuple(t.names))
    sizes = " ".join(str(s) for s in t.shape)
    values = " ".join(fmt(v) for v in t.rename(None).reshape(-1).tolist())
    return f"{cid} | ok | {names} | {sizes} | {values}"


def main():
    lines = []
    for cid, f in CASES.items():
        try:
            lines.append(line(cid, f()))
        except Exception as e:  # PyTorch's RuntimeError (or IndexError)
            lines.append(f"{cid} | throws | {str(e).splitlines()[0]}")
    for cid, t in grads().items():
        lines.append(line(cid, t))
    for cid, f in GRAD_FNS.items():
        lines.append(f"{cid} | repr | {f()}")
    for cid, f in REPRS.items():
        text = repr(f()).replace("torch.", "tenet.").replace("\n", "\\n")
        lines.append(f"{cid} | repr | {text}")
    OUT.write_text("# Written by tests/golden/gen_named.py (PyTorch " + torch.__version__ + "); do not edit.\n"
                   + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
