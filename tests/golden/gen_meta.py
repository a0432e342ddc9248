#!/usr/bin/python3
"""Generates tests/meta/meta_cases.txt: what PyTorch 1.13's meta tensors give for each case.

Run with the system Python that has torch (1.13):  /usr/bin/python3 tests/golden/gen_meta.py

Each case is a named function building a result from meta tensors (creation, views, pointwise
expressions, reductions, matmul, joins, softmax, nn.functional, autograd); tests/meta/test_meta.cpp
and tests/meta/test_meta_grad.cpp hold the same cases by name, written with tenet. One line per
case (the format of tests/golden_data.hpp: kind, name, key=value arguments, then '|' parts):

  result NAME dtype=float32 sizes=2,3 strides=3,1 offset=0 device=meta
      the result's geometry and dtype (sizes and strides empty for a 0-d result);
  error NAME kind=device|data|other
      PyTorch raises: `device` for operands on two devices ("Expected all tensors to be on the
      same device"), `data` for reading a meta tensor's data ("Cannot copy out of meta tensor"
      and the other ops that need the values: item, tolist), `other` for the rest (shapes, dtypes);
  print NAME | TEXT
      repr(result) with "torch." replaced by "tenet." and newlines written as \\n.

Names starting with "grad:" need autograd: test_meta_grad.cpp checks them (skipped when tenet
is built with TENET_AUTOGRAD=OFF, as the other gradient tests are); test_meta.cpp the others.
"""
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "meta", "meta_cases.txt")

M = "meta"
f64 = torch.float64
i64 = torch.int64


def meta(*sizes, dtype=torch.float32, requires_grad=False):
    return torch.empty(*sizes, dtype=dtype, device=M, requires_grad=requires_grad)


X = lambda: meta(2, 3, 4)  # noqa: E731
A = lambda: meta(2, 3)  # noqa: E731
R = lambda: meta(4, 5)  # noqa: E731
I = lambda: meta(4, 5, dtype=i64)  # noqa: E731


def mlp():
    """A two-layer perceptron on meta tensors: its loss and its parameters after backward()."""
    x, y = meta(8, 3), meta(8, 2)
    w1, b1 = meta(16, 3, requires_grad=True), meta(16, requires_grad=True)
    w2, b2 = meta(2, 16, requires_grad=True), meta(2, requires_grad=True)
    h = torch.relu(torch.nn.functional.linear(x, w1, b1))
    loss = torch.nn.functional.mse_loss(torch.nn.functional.linear(h, w2, b2), y)
    loss.backward()
    return loss, w1, b1, w2, b2


def backward_of(make_leaves, f):
    """The leaves after f(*leaves).backward()."""
    leaves = make_leaves()
    f(*leaves).backward()
    return leaves


def accumulated():
    w = meta(3, 4, requires_grad=True)
    x = meta(5, 3)
    for _ in range(2):
        (x @ w).sum().backward()
    return w


CASES = {
    # ---- creation
    "empty": lambda: torch.empty(2, 3, device=M),
    "zeros_f64": lambda: torch.zeros(2, 3, dtype=f64, device=M),
    "ones_int64": lambda: torch.ones(4, dtype=i64, device=M),
    # PyTorch 1.13's meta full infers float32 from an int value, its CPU full int64: tenet follows
    # the CPU rule on every device, so the expected result is the CPU one's, moved to meta.
    "full_int": lambda: torch.full((2, 2), 7).to(M),
    "full_float": lambda: torch.full((3,), 1.5, device=M),
    "rand": lambda: torch.rand(2, 3, 4, device=M),
    "randn_f64": lambda: torch.randn(5, dtype=f64, device=M),
    "randint": lambda: torch.randint(0, 10, (3, 4), device=M),
    "randperm": lambda: torch.randperm(6, device=M),
    "arange_int": lambda: torch.arange(10, device=M),
    "arange_float": lambda: torch.arange(0, 1, 0.1, device=M),
    "linspace": lambda: torch.linspace(0, 1, 7, device=M),
    "eye": lambda: torch.eye(3, 4, device=M),
    "empty_strided": lambda: torch.empty_strided((2, 3), (1, 2), device=M),
    "zeros_like_transposed": lambda: torch.zeros_like(A().t()),
    "rand_like": lambda: torch.rand_like(R()),
    "full_like_int": lambda: torch.full_like(meta(3, dtype=i64), 2),
    "tensor_literal": lambda: torch.tensor([[1, 2], [3, 4]], device=M),
    "to_meta": lambda: torch.ones(2, 3).to(M),
    "to_meta_transposed": lambda: torch.ones(2, 3).t().to(M),
    "to_meta_f64": lambda: torch.ones(2, 3).to(M, f64),
    "meta_to_f16": lambda: A().to(torch.float16),
    "meta_to_meta": lambda: A().to(M),
    "meta_index_dropped": lambda: torch.empty(2, device="meta:0") + A()[0, :2],
    # ---- views
    "view": lambda: X().view(6, 4),
    "reshape": lambda: X().reshape(4, -1),
    "reshape_copy": lambda: X().transpose(0, 2).reshape(-1),
    "transpose": lambda: X().transpose(0, 2),
    "permute": lambda: X().permute(2, 0, 1),
    "t": lambda: A().t(),
    "narrow": lambda: X().narrow(2, 1, 2),
    "select": lambda: X().select(1, 2),
    "index_int": lambda: X()[1],
    "index_slice": lambda: X()[:, 1:3],
    "index_step": lambda: X()[..., ::2],
    "index_mixed": lambda: X()[None, 0, :, -1],
    "expand": lambda: meta(3, 1).expand(3, 4),
    "expand_new_dims": lambda: meta(3, 1).expand(2, 3, 4),
    "squeeze": lambda: meta(1, 3, 1).squeeze(),
    "squeeze_dim": lambda: meta(1, 3, 1).squeeze(0),
    "unsqueeze": lambda: A().unsqueeze(1),
    "flatten": lambda: X().flatten(1),
    "contiguous": lambda: X().transpose(0, 2).contiguous(),
    "chunk": lambda: X().chunk(2, 2)[1],
    "split": lambda: X().split(1, 1)[2],
    "unbind": lambda: X().unbind(1)[0],
    "flip": lambda: torch.flip(X(), [0, 2]),
    "flip_transposed": lambda: torch.flip(X().transpose(0, 2), [1]),
    "error:view_bad_shape": lambda: X().view(5, 5),
    "error:view_of_transposed": lambda: X().transpose(0, 2).view(-1),
    "error:index_out_of_range": lambda: X()[2],
    # ---- pointwise expressions
    "add_broadcast": lambda: A() + meta(3),
    "broadcast_three": lambda: meta(2, 1, 3) + meta(4, 1),
    "mul_scalar": lambda: A() * 2,
    "int_plus_float_scalar": lambda: I() + 2.5,
    "int_true_divide": lambda: I() / I(),
    "int32_times_f64": lambda: meta(4, 5, dtype=torch.int32) * meta(5, dtype=f64),
    "f16_times_f32": lambda: meta(2, 3, dtype=torch.float16) * A(),
    "compare": lambda: A() > 0,
    "logical_and": lambda: (A() > 0) & (A() < 1),
    "sin_of_int": lambda: torch.sin(I()),
    "abs_of_int": lambda: torch.abs(I()),
    "where": lambda: torch.where(A() > 0, A(), meta(3)),
    "clamp": lambda: A().clamp(0, 1),
    "relu": lambda: torch.relu(A()),
    "sigmoid_f64": lambda: torch.sigmoid(meta(2, 3, dtype=f64)),
    "pow": lambda: A().pow(2),
    "add_inplace": lambda: A().add_(1),
    "with_cpu_0d": lambda: A() + torch.tensor(2.0),
    "cpu_0d_first": lambda: torch.tensor(2.0) + A(),
    "cpu_0d_with_meta_0d": lambda: torch.tensor(2.0) + meta(()),
    "error:with_cpu_1d": lambda: A() + torch.ones(3),
    "error:cpu_1d_first": lambda: torch.ones(3) + A(),
    "error:cpu_inplace_meta": lambda: torch.ones(3).add_(meta(3)),
    "error:cpu_inplace_meta_view": lambda: torch.ones(3).add_(meta(4)[1:]),
    "error:broadcast_mismatch": lambda: A() + meta(4),
    # ---- reductions
    "sum_all": lambda: R().sum(),
    "sum_dim": lambda: R().sum(1),
    "sum_keepdim": lambda: R().sum(0, keepdim=True),
    "sum_dims": lambda: X().sum((0, 2)),
    "sum_int": lambda: I().sum(),
    "sum_bool": lambda: (R() > 0).sum(1),
    "sum_expression": lambda: (R() * 2 + 1).sum(0),
    "mean": lambda: R().mean(),
    "mean_dim": lambda: X().mean(1),
    "var": lambda: R().var(1),
    "std_keepdim": lambda: R().std(0, keepdim=True),
    "max_all": lambda: R().max(),
    "max_dim_values": lambda: R().max(1)[0],
    "max_dim_indices": lambda: R().max(1)[1],
    "min_dim_keepdim": lambda: R().min(0, keepdim=True)[0],
    "argmax": lambda: R().argmax(1),
    "argmax_all": lambda: R().argmax(),
    "amax": lambda: X().amax(1),
    "prod": lambda: R().prod(1),
    "norm": lambda: R().norm(),
    "logsumexp": lambda: R().logsumexp(1),
    "all": lambda: (R() > 0).all(),
    "any_dim": lambda: (R() > 0).any(1),
    "error:mean_of_int": lambda: I().mean(),
    # ---- matmul
    "mm": lambda: meta(3, 4) @ meta(4, 5),
    "mm_f64": lambda: torch.mm(meta(3, 4, dtype=f64), meta(4, 5, dtype=f64)),
    "mv": lambda: torch.mv(meta(3, 4), meta(4)),
    "dot": lambda: torch.dot(meta(4), meta(4)),
    "matmul_1d_2d": lambda: meta(4) @ meta(4, 5),
    "matmul_2d_1d": lambda: meta(3, 4) @ meta(4),
    "matmul_3d_2d": lambda: X() @ meta(4, 5),
    "matmul_2d_3d": lambda: meta(5, 3) @ X(),
    "matmul_broadcast": lambda: meta(2, 1, 3, 4) @ meta(5, 4, 6),
    "matmul_1d_3d": lambda: meta(3) @ X(),
    "matmul_transposed": lambda: meta(4, 3).t() @ meta(4, 5),
    "bmm": lambda: torch.bmm(X(), meta(2, 4, 5)),
    "error:mm_mismatch": lambda: meta(3, 4) @ meta(5, 6),
    "error:matmul_with_cpu": lambda: meta(3, 4) @ torch.ones(4, 5),
    # ---- joins
    "cat": lambda: torch.cat([A(), meta(4, 3)]),
    "cat_dim1": lambda: torch.cat([A(), meta(2, 5)], 1),
    "stack": lambda: torch.stack([A(), A()]),
    "stack_last": lambda: torch.stack([A(), A(), A()], 2),
    "hstack": lambda: torch.hstack([A(), A()]),
    "vstack": lambda: torch.vstack([meta(3), meta(3)]),
    "error:cat_mismatch": lambda: torch.cat([A(), meta(2, 4)]),
    "error:cat_with_cpu": lambda: torch.cat([A(), torch.ones(2, 3)]),
    # ---- softmax and nn.functional
    "softmax": lambda: torch.softmax(R(), 1),
    "log_softmax_dim0": lambda: torch.log_softmax(X(), 0),
    "softmax_f64": lambda: torch.softmax(meta(3, 4, dtype=f64), -1),
    "linear": lambda: torch.nn.functional.linear(meta(5, 3), meta(4, 3), meta(4)),
    "linear_no_bias": lambda: torch.nn.functional.linear(X(), meta(6, 4)),
    "gelu": lambda: torch.nn.functional.gelu(A()),
    "mse_loss": lambda: torch.nn.functional.mse_loss(A(), A()),
    "mse_loss_none": lambda: torch.nn.functional.mse_loss(A(), A(), reduction="none"),
    "cross_entropy": lambda: torch.nn.functional.cross_entropy(R(), meta(4, dtype=i64)),
    "cross_entropy_none": lambda: torch.nn.functional.cross_entropy(R(), meta(4, dtype=i64), reduction="none"),
    "layer_norm": lambda: torch.nn.functional.layer_norm(X(), [4]),
    "dropout": lambda: torch.nn.functional.dropout(A(), 0.5, True),
    "error:cross_entropy_bad_target": lambda: torch.nn.functional.cross_entropy(R(), meta(3, dtype=i64)),
    # ---- data access
    "copy_into_meta": lambda: A().copy_(torch.ones(3)),
    "error:item": lambda: meta(()).item(),
    "error:tolist": lambda: A().tolist(),
    "error:cpu": lambda: A().cpu(),
    "error:to_cpu": lambda: A().to("cpu"),
    "error:copy_to_cpu": lambda: torch.ones(2, 3).copy_(A()),
    # ---- printing
    "print:float": A,
    "print:f64": lambda: meta(2, 3, dtype=f64),
    "print:int64": lambda: meta(5, dtype=i64),
    "print:bool": lambda: meta(5, dtype=torch.bool),
    "print:f16": lambda: meta(1, 2, dtype=torch.float16),
    "print:complex64": lambda: meta(2, dtype=torch.complex64),
    "print:0d": lambda: meta(()),
    "print:empty": lambda: meta(0),
    "print:empty_2d": lambda: meta(2, 0, 3),
    "print:long": lambda: meta(1000, 1000, 1000, 1000, 1000, 1000, dtype=f64),
    "print:view": lambda: X().transpose(0, 2)[1],
    # ---- autograd
    "print:grad:requires_grad": lambda: meta(2, 3, requires_grad=True),
    "print:grad:requires_grad_f64": lambda: meta(2, 3, dtype=f64, requires_grad=True),
    "print:grad:mul": lambda: meta(2, 3, requires_grad=True) * 2,
    "print:grad:sum": lambda: meta(2, 3, requires_grad=True).sum(),
    "print:grad:mm": lambda: meta(2, 3, requires_grad=True) @ meta(3, 4),
    "print:grad:mean": lambda: (meta(2, 3, requires_grad=True) * 2).mean(),
    "grad:mlp.loss": lambda: mlp()[0],
    "grad:mlp.w1": lambda: mlp()[1].grad,
    "grad:mlp.b1": lambda: mlp()[2].grad,
    "grad:mlp.w2": lambda: mlp()[3].grad,
    "grad:mlp.b2": lambda: mlp()[4].grad,
    "print:grad:mlp.w1": lambda: mlp()[1].grad,
    "grad:accumulated": lambda: accumulated().grad,
    "grad:broadcast_leaf": lambda: backward_of(lambda: (meta(3, requires_grad=True),), lambda b: (A() * b).sum())[0].grad,
    "grad:zero_d_leaf": lambda: backward_of(lambda: (meta((), requires_grad=True),), lambda s: (A() * s).mean())[0].grad,
    "grad:f64_leaf": lambda: backward_of(lambda: (meta(2, 3, dtype=f64, requires_grad=True),),
                                         lambda a: (a.sin() * a).sum())[0].grad,
    "grad:cat.a": lambda: backward_of(lambda: (meta(2, 3, requires_grad=True), meta(4, 3, requires_grad=True)),
                                      lambda a, b: torch.cat([a, b]).sum())[0].grad,
    "grad:cat.b": lambda: backward_of(lambda: (meta(2, 3, requires_grad=True), meta(4, 3, requires_grad=True)),
                                      lambda a, b: torch.cat([a, b]).sum())[1].grad,
    "grad:stack": lambda: backward_of(lambda: (meta(2, 3, requires_grad=True),),
                                      lambda a: torch.stack([a, a * 2], 1).mean())[0].grad,
    "grad:view_chain": lambda: backward_of(lambda: (meta(2, 3, 4, requires_grad=True),),
                                           lambda a: a.transpose(0, 2)[1].sum())[0].grad,
    "grad:softmax": lambda: backward_of(lambda: (meta(4, 5, requires_grad=True),),
                                        lambda a: torch.log_softmax(a, 1).sum())[0].grad,
    "grad:mean_dim": lambda: backward_of(lambda: (meta(4, 5, requires_grad=True),), lambda a: a.mean(1).sum())[0].grad,
    "grad:max_dim": lambda: backward_of(lambda: (meta(4, 5, requires_grad=True),), lambda a: a.max(1)[0].sum())[0].grad,
    "grad:flip": lambda: backward_of(lambda: (meta(2, 3, requires_grad=True),),
                                     lambda a: torch.flip(a, [1]).sum())[0].grad,
    "grad:bmm": lambda: backward_of(lambda: (meta(2, 3, 4, requires_grad=True),),
                                    lambda a: torch.bmm(a, meta(2, 4, 5)).sum())[0].grad,
    "grad:cross_entropy": lambda: backward_of(lambda: (meta(4, 5, requires_grad=True),),
                                              lambda a: torch.nn.functional.cross_entropy(a, meta(4, dtype=i64)))[0].grad,
}


# PyTorch 1.13's structured meta kernels of mm, bmm, cat and stack do not check their operands'
# devices: a CPU operand beside a meta one gives a meta result (torch.mv even returns an
# uninitialised CPU tensor). tenet raises device_error there, as PyTorch itself does for the same
# mix in a pointwise op: these cases are written as `error ... kind=device` after checking that
# PyTorch does answer with a meta tensor (so that a PyTorch that starts checking shows up here).
UNCHECKED_DEVICE_MIX = {"error:matmul_with_cpu", "error:cat_with_cpu"}


def ints(xs):
    return ",".join(str(x) for x in xs)


def dtype_name(d):
    return str(d).replace("torch.", "")


def main():
    lines = ["# Generated by tests/golden/gen_meta.py from PyTorch " + torch.__version__ + "; do not edit."]
    for name, f in CASES.items():
        try:
            r = f()
        except NotImplementedError as e:
            lines.append(f"error {name} kind=data")
            continue
        except (RuntimeError, IndexError, ValueError) as e:
            msg = str(e)
            kind = "device" if "same device" in msg else "data" if "_local_scalar_dense" in msg else "other"
            lines.append(f"error {name} kind={kind}")
            continue
        if name in UNCHECKED_DEVICE_MIX:
            assert r.is_meta, name
            lines.append(f"error {name} kind=device")
            continue
        assert not name.startswith("error:"), name
        if name.startswith("print:"):
            text = repr(r).replace("torch.", "tenet.").replace("\n", "\\n")
            lines.append(f"print {name} | {text}")
            continue
        assert r.is_meta, name
        lines.append(f"result {name} dtype={dtype_name(r.dtype)} sizes={ints(r.shape)} strides={ints(r.stride())} "
                     f"offset={r.storage_offset()}")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} cases to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
