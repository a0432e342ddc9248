#!/usr/bin/python3
"""Writes tests/nn/nn_cases.txt: PyTorch's torch.nn.functional results and gradients as data.

tests/nn/test_nn_golden.cpp reads the file at run time. The format is gen_stats.py's (lines
`input`, `case`, `throws`, `grad`), with one addition for ops of several tensors: `x=NAME` is
always the tensor a grad line differentiates, and `wrt=ROLE` says which argument it is (the
input when absent); the other tensor arguments are named by role (`input=`, `target=`,
`weight=`, `bias=`, `running_mean=`, `running_var=`). A batch_norm case with running statistics
has three results: the output and the running mean and variance after the call.

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_nn.py
"""
import math
import pathlib
import warnings

import torch
import torch.nn.functional as F

from golden_format import args_text, tensor_text

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "nn" / "nn_cases.txt"

ERRORS = {RuntimeError: "runtime_error", IndexError: "index_error", ValueError: "value_error"}

warnings.simplefilter("ignore")  # kl_div's "mean" warning, size-mismatch warnings
gen = torch.Generator().manual_seed(1307)


def randn(*shape, dtype=torch.float64, scale=1.0):
    return (torch.randn(math.prod(shape), generator=gen, dtype=torch.float64) * scale).to(dtype).reshape(shape)


def near_boundary(shape, dtype=torch.float64):
    """Inputs and targets whose differences cross 1 and 0.5 (smooth L1's and Huber's knees),
    with a difference of exactly 1, exactly 0.5 and exactly 0."""
    target = randn(*shape, dtype=dtype)
    diff = randn(*shape, dtype=dtype, scale=1.2)
    flat_t, flat_d = target.view(-1), diff.view(-1)
    if flat_t.numel() >= 3:
        flat_t[:3] = torch.tensor([0.5, -0.25, 1.0], dtype=dtype)
        flat_d[:3] = torch.tensor([1.0, -0.5, 0.0], dtype=dtype)
    return target + diff, target


def probabilities(*shape, dtype=torch.float64, zeros=False):
    p = torch.softmax(randn(*shape), -1)
    if zeros:
        p.view(-1)[::4] = 0.0
    return p.to(dtype)


INPUTS = {}
INPUTS["a2"], INPUTS["b2"] = near_boundary((3, 4))
INPUTS["a2f"], INPUTS["b2f"] = near_boundary((3, 4), torch.float32)
INPUTS["a3"], INPUTS["b3"] = near_boundary((2, 3, 4))
INPUTS["a0"], INPUTS["b0"] = randn(), randn()
INPUTS["ae"], INPUTS["be"] = randn(0, 3), randn(0, 3)
INPUTS.update({
    "b3x": randn(3, 5),  # a target that does not fit a2
    # kl_div: log-probabilities and probabilities
    "lp": torch.log_softmax(randn(4, 5), -1),
    "lpf": torch.log_softmax(randn(4, 5), -1).float(),
    "lp3": torch.log_softmax(randn(2, 3, 4), -1),
    "lp0": torch.tensor(-0.7, dtype=torch.float64),
    "lpe": randn(0, 5),
    "p": probabilities(4, 5),
    "pf": probabilities(4, 5, dtype=torch.float32),
    "pz": probabilities(4, 5, zeros=True),
    "p3": probabilities(2, 3, 4),
    "p0": torch.tensor(0.3, dtype=torch.float64),
    "p5": probabilities(5),  # broadcast against [4, 5]
    "pe": randn(0, 5),
    "pneg": torch.tensor([[0.5, 0.0, -0.1, 0.6, 0.0]], dtype=torch.float64).expand(4, 5).clone(),
    "lq": torch.log_softmax(randn(4, 5), -1),  # a log target
    # one_hot
    "c1": torch.tensor([3, 0, 1, 3, 2]),
    "c2": torch.tensor([[0, 2], [1, 1], [4, 0]]),
    "c0": torch.tensor(2),
    "ce": torch.zeros(0, dtype=torch.int64),
    "ce2": torch.zeros(2, 0, dtype=torch.int64),
    "cneg": torch.tensor([1, -1, 2]),
    # normalize: n2's second row is zero (the norm is clamped at eps)
    "n2": torch.cat([randn(1, 4), torch.zeros(1, 4, dtype=torch.float64), randn(1, 4)]),
    "n2f": randn(3, 4, dtype=torch.float32),
    "n3": randn(2, 3, 4),
    "n1": randn(5),
    "nz": randn(3, 4) * torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=torch.float64),  # a zero column
    # linear
    "li2": randn(4, 3),
    "li2f": randn(4, 3, dtype=torch.float32),
    "li3": randn(2, 4, 3),
    "li1": randn(3),
    "lw": randn(5, 3),
    "lwf": randn(5, 3, dtype=torch.float32),
    "lw1": randn(3),
    "lw4": randn(5, 4),
    "lb": randn(5),
    "lbf": randn(5, dtype=torch.float32),
    "lb4": randn(4),
    # layer_norm
    "ln2": randn(4, 5, scale=3.0) + 1.0,
    "ln3": randn(2, 3, 4, scale=2.0),
    "ln3f": randn(2, 3, 4, dtype=torch.float32, scale=2.0),
    "w5": randn(5) + 1.0,
    "b5": randn(5),
    "w4": randn(4) + 1.0,
    "w4f": (randn(4) + 1.0).float(),
    "b4": randn(4),
    "b4f": randn(4).float(),
    "w34": randn(3, 4) + 1.0,
    "b34": randn(3, 4),
    # batch_norm: C = 3
    "bn2": randn(4, 3, scale=2.0) + 0.5,
    "bn2f": (randn(4, 3, scale=2.0) + 0.5).float(),
    "bn3": randn(2, 3, 5),
    "bn4": randn(2, 3, 2, 2),
    "bn1": randn(1, 3),  # one value per channel
    "bne": randn(0, 3),
    "rm": randn(3, scale=0.3),
    "rv": torch.rand(3, generator=gen, dtype=torch.float64) + 0.5,
    "rmf": randn(3, scale=0.3).float(),
    "rvf": (torch.rand(3, generator=gen, dtype=torch.float64) + 0.5).float(),
    "rm4": randn(4),
    "w3": randn(3) + 1.0,
    "b3c": randn(3),
    "w3f": (randn(3) + 1.0).float(),
    "b3f": randn(3).float(),
    "w2": randn(2),
    # dropout's deterministic cases
    "dx": randn(3, 4),
})

lines = []


def line_args(tensors, params, wrt):
    kw = {"x": tensors[wrt]}
    if wrt != "input":
        kw["wrt"] = wrt
    for role, name in tensors.items():
        if role != wrt:
            kw[role] = name
    kw.update(params)
    return kw


def call(fn, tensors, params, wrt=None):
    """fn on fresh copies of the inputs (batch_norm writes its running statistics); the one in
    the role `wrt` requires grad. Returns (result, that tensor)."""
    args = {role: INPUTS[name].clone() for role, name in tensors.items()}
    if wrt is not None:
        args[wrt].requires_grad_()
    return fn(**args, **params), args.get(wrt)


def record(op, fn, tensors, params=None, grads=("input",)):
    """One case of fn (PyTorch's result(s), or the error it raises) and, for each role in grads,
    the gradient of sum(first result * weights) with respect to that argument."""
    params = params or {}
    text = f"{op} {args_text(line_args(tensors, params, 'input'))}"
    try:
        r, _ = call(fn, tensors, params)
    except (RuntimeError, IndexError, ValueError) as e:
        lines.append(f"throws {text} | {ERRORS[type(e)]}")
        return
    rs = r if isinstance(r, tuple) else (r,)
    lines.append(f"case {text} | " + " | ".join(tensor_text(t) for t in rs))
    for wrt in grads:
        x = INPUTS[tensors[wrt]]
        if not x.dtype.is_floating_point or x.numel() == 0:
            continue
        out, xg = call(fn, tensors, params, wrt)
        out = out[0] if isinstance(out, tuple) else out
        w = torch.linspace(-1.5, 2.0, out.numel(), dtype=out.dtype).reshape(out.shape)
        (out * w).sum().backward()
        text = f"{op} {args_text(line_args(tensors, params, wrt))}"
        lines.append(f"grad {text} | {tensor_text(w)} | {tensor_text(xg.grad)} | {type(out.grad_fn).__name__}")


# ---- smooth_l1_loss, huber_loss --------------------------------------------------------------
PAIRS = [("a2", "b2"), ("a2f", "b2f"), ("a3", "b3"), ("a0", "b0"), ("ae", "be")]
for name, knee, values in [("smooth_l1_loss", "beta", [1.0, 0.5, 0.0, 2.0]), ("huber_loss", "delta", [1.0, 0.5, 2.5])]:
    fn = getattr(F, name)
    for a, b in PAIRS:
        for reduction in ["mean", "sum", "none"]:
            for v in values if a in ("a2", "a3") or reduction == "mean" else values[:1]:
                record(name, lambda input, target, reduction, **kw: fn(input, target, reduction=reduction, **kw),
                       {"input": a, "target": b}, {"reduction": reduction, knee: v}, grads=("input", "target"))
    for v in [-1.0] if name == "smooth_l1_loss" else [0.0, -1.0]:
        record(name, lambda input, target, **kw: fn(input, target, **kw), {"input": "a2", "target": "b2"}, {knee: v})
    record(name, lambda input, target, **kw: fn(input, target, **kw), {"input": "a2", "target": "b2"},
           {"reduction": "average"})

# ---- kl_div ----------------------------------------------------------------------------------
KL = [("lp", "p"), ("lpf", "pf"), ("lp", "pz"), ("lp3", "p3"), ("lp0", "p0"), ("lp", "p5"), ("lpe", "pe"),
      ("lp", "pneg")]
for a, b in KL:
    for reduction in ["mean", "batchmean", "sum", "none"]:
        record("kl_div", lambda input, target, **kw: F.kl_div(input, target, **kw), {"input": a, "target": b},
               {"reduction": reduction, "log_target": False},
               grads=("input", "target") if b not in ("p5",) else ("input",))
for a, b in [("lp", "lq"), ("lp3", "lp3"), ("lpf", "lpf")]:
    for reduction in ["mean", "batchmean", "sum", "none"]:
        record("kl_div", lambda input, target, **kw: F.kl_div(input, target, **kw), {"input": a, "target": b},
               {"reduction": reduction, "log_target": True}, grads=("input", "target"))
record("kl_div", lambda input, target, **kw: F.kl_div(input, target, **kw), {"input": "lp", "target": "p"},
       {"reduction": "average"})
record("kl_div", lambda input, target, **kw: F.kl_div(input, target, **kw), {"input": "lp", "target": "b2"},
       {"reduction": "sum"})

# ---- one_hot ---------------------------------------------------------------------------------
for name, counts in [("c1", [-1, 4, 6, 3, 0, -2]), ("c2", [-1, 5, 7]), ("c0", [-1, 3, 2]), ("ce", [-1, 0, 3]),
                     ("ce2", [4, -1]), ("cneg", [-1, 3])]:
    for n in counts:
        record("one_hot", lambda input, num_classes: F.one_hot(input, num_classes), {"input": name},
               {"num_classes": n})

# ---- normalize -------------------------------------------------------------------------------
for name, dims in [("n2", [1, 0, -1]), ("n2f", [1, 0]), ("n3", [1, 2, -3]), ("n1", [0]), ("nz", [1, 0])]:
    for dim in dims:
        # p = 0.5 and 1.5 where an element or a whole row is zero: its gradient is 0, not 0 * inf.
        for p in [2.0, 1.0, 3.0, math.inf, 0.5, 1.5] if name in ("n2", "n3", "nz") else [2.0]:
            record("normalize", lambda input, **kw: F.normalize(input, **kw), {"input": name},
                   {"p": p, "dim": dim, "eps": 1e-12})
record("normalize", lambda input, **kw: F.normalize(input, **kw), {"input": "n2"}, {"p": 2.0, "dim": 1, "eps": 0.5})
record("normalize", lambda input, **kw: F.normalize(input, **kw), {"input": "n2"}, {"p": 2.0, "dim": 2, "eps": 1e-12})

# ---- linear ----------------------------------------------------------------------------------
LINEAR = [("li2", "lw", "lb"), ("li2", "lw", None), ("li2f", "lwf", "lbf"), ("li3", "lw", "lb"), ("li1", "lw", "lb"),
          ("li2", "lw1", None), ("li2", "lw4", "lb"), ("li2", "lw", "lb4")]
for a, w, b in LINEAR:
    tensors = {"input": a, "weight": w} | ({"bias": b} if b else {})
    record("linear", lambda input, weight, bias=None: F.linear(input, weight, bias), tensors,
           grads=tuple(tensors))

# ---- layer_norm ------------------------------------------------------------------------------
LN = [("ln2", [5], "w5", "b5"), ("ln2", [5], None, None), ("ln2", [4, 5], None, None), ("ln3", [4], "w4", "b4"),
      ("ln3", [4], "w4", None), ("ln3", [4], None, "b4"), ("ln3", [3, 4], "w34", "b34"), ("ln3", [2, 3, 4], None, None),
      ("ln3f", [4], "w4f", "b4f"), ("ln3", [3], None, None), ("ln3", [4], "w5", None), ("ln3", [4], None, "b34"),
      ("ln3", [], None, None), ("ln2", [2, 4, 5], None, None)]
for a, shape, w, b in LN:
    tensors = {"input": a} | ({"weight": w} if w else {}) | ({"bias": b} if b else {})
    for eps in [1e-5, 0.1] if a == "ln3" and shape == [4] and w and b else [1e-5]:
        record("layer_norm", lambda input, shape, eps, weight=None, bias=None: F.layer_norm(input, shape, weight, bias, eps),
               tensors, {"shape": shape, "eps": eps}, grads=tuple(tensors))

# ---- batch_norm ------------------------------------------------------------------------------


def batch_norm(input, training, momentum, eps, running_mean=None, running_var=None, weight=None, bias=None):
    out = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    return (out, running_mean, running_var) if running_mean is not None else out


BN = [("bn2", "rm", "rv", "w3", "b3c"), ("bn2", "rm", "rv", None, None), ("bn2f", "rmf", "rvf", "w3f", "b3f"),
      ("bn3", "rm", "rv", "w3", "b3c"), ("bn4", "rm", "rv", "w3", None), ("bn4", "rm", "rv", None, "b3c"),
      ("bn3", None, None, "w3", "b3c"), ("bn1", "rm", "rv", "w3", "b3c"), ("bne", "rm", "rv", "w3", "b3c"),
      ("bn2", "rm4", "rv", None, None), ("bn2", "rm", "rv", "w2", None)]
for a, rm, rv, w, b in BN:
    tensors = {"input": a} | ({"running_mean": rm, "running_var": rv} if rm else {}) | ({"weight": w} if w else {}) | (
        {"bias": b} if b else {})
    for training in [False, True]:
        for momentum, eps in [(0.1, 1e-5), (0.3, 0.1)] if a == "bn3" and rm else [(0.1, 1e-5)]:
            record("batch_norm", batch_norm, tensors, {"training": training, "momentum": momentum, "eps": eps},
                   grads=tuple(r for r in tensors if r not in ("running_mean", "running_var")))

# ---- dropout: the cases without randomness ---------------------------------------------------
for p, training in [(0.5, False), (0.0, True), (1.0, True), (1.0, False), (1.5, True), (-0.1, False)]:
    record("dropout", lambda input, **kw: F.dropout(input, **kw), {"input": "dx"}, {"p": p, "training": training})

text = [
    "# Generated by tests/golden/gen_nn.py with PyTorch " + torch.__version__ + "; do not edit.",
    *(f"input {name} {tensor_text(t)}" for name, t in INPUTS.items()),
    *lines,
]
OUT.parent.mkdir(exist_ok=True)
OUT.write_text("\n".join(text) + "\n")
print(f"wrote {OUT}: {len(INPUTS)} inputs, {len(lines)} cases")
