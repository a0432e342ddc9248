#!/usr/bin/python3
"""Writes the golden tables of tenet's joins and splits from real PyTorch:

  tests/ops/join_cases.inc               cat, concat, stack, hstack/vstack/dstack, atleast_Nd,
                                         and the reversals flip, fliplr, flipud
  tests/ops/split_cases.inc              split, split_with_sizes, chunk, unbind, tensor_split
  tests/ops/join_errors.inc              the errors: exception type and PyTorch's message
  tests/autograd/join_grad_cases.inc     gradients and grad_fn names

Values: each case is a Python expression evaluated here with torch and the equivalent C++
expression; the result's dtype, sizes, strides, storage offset, is_contiguous and values are
compared exactly by golden::check (tests/core/golden_check.hpp, whose emitter gen_core.py
provides). A split gives a list: its length and every piece are checked.

Errors: the C++ statement must throw the given tenet exception, whose message starts with the
operation's name and contains PyTorch's message (its leading "torch.cat(): " or "stack "
replaced by tenet's "op: " prefix; compared without case, tenet writes "dimension out of range").

Gradients: as tests/golden/gen_autograd.py, loss = (f(inputs) * weights).sum() in float64 with
fixed weights, recording f's value, its grad_fn name and every input's gradient.

Run with Debian's python3-torch: /usr/bin/python3 tests/golden/gen_join.py
"""
import pathlib

import torch

from gen_core import emit, fmt_float, ilist

HERE = pathlib.Path(__file__).resolve().parent
OPS = HERE.parent / "ops"
AUTOGRAD = HERE.parent / "autograd"

# ---- bases: the Python setup and the C++ declarations that build the same values ----------

BASES = {
    "a": ("a = torch.arange(6.).view(2, 3)", "auto a = tenet::arange(6.0).view({2, 3});"),
    "b": ("b = torch.arange(10., 19.).view(3, 3)", "auto b = tenet::arange(10.0, 19.0).view({3, 3});"),
    "c": ("c = torch.arange(20., 24.).view(2, 2)", "auto c = tenet::arange(20.0, 24.0).view({2, 2});"),
    "v": ("v = torch.arange(10.)", "auto v = tenet::arange(10.0);"),
    "w": ("w = torch.arange(3.)", "auto w = tenet::arange(3.0);"),
    "t": ("t = torch.arange(24).view(2, 3, 4)", "auto t = tenet::arange(24).view({2, 3, 4});"),
    "s": ("s = torch.tensor(5.)", "auto s = tenet::tensor(5.0f);"),
    "e": ("e = torch.zeros(0)", "auto e = tenet::zeros({0});"),
    "i": ("i = torch.tensor([[1, -2], [3, 4]])", "auto i = tenet::tensor({{1, -2}, {3, 4}});"),
    "k": ("k = torch.tensor([True, False])", "auto k = tenet::tensor({true, false});"),
    "h": ("h = torch.arange(4, dtype=torch.float16).view(2, 2)", "auto h = tenet::arange(4, tenet::kFloat16).view({2, 2});"),
}


def setup(keys):
    py = "\n".join(BASES[k][0] for k in keys)
    cpp = " ".join(BASES[k][1] for k in keys)
    return py, cpp


JOIN_CASES = [
    # (bases, python expression, C++ expression)
    ("ab", "torch.cat([a, b])", "tenet::cat({a, b})"),
    ("ac", "torch.cat([a, c], 1)", "tenet::cat({a, c}, 1)"),
    ("ac", "torch.cat([a, c], -1)", "tenet::cat({a, c}, -1)"),
    ("a", "torch.cat([a, a, a], 0)", "tenet::cat({a, a, a}, 0)"),
    ("a", "torch.cat([a])", "tenet::cat({a})"),
    ("ab", "torch.cat([a.t(), b.t()], 1)", "tenet::cat({a.t(), b.t()}, 1)"),
    ("ab", "torch.cat([b[:, ::2], a.t()], 0)", "tenet::cat({b.slice(1, 0, 3, 2), a.t()}, 0)"),
    ("a", "torch.cat([a[:1].expand(2, 3), a], 1)", "tenet::cat({a.slice(0, 0, 1).expand({2, 3}), a}, 1)"),
    ("t", "torch.cat([t, t[:, :1]], 1)", "tenet::cat({t, t.slice(1, 0, 1)}, 1)"),
    ("t", "torch.cat([t, t[..., 1:]], -1)", "tenet::cat({t, t.index({Ellipsis, Slice(1, None)})}, -1)"),
    ("ae", "torch.cat([a, e, a])", "tenet::cat({a, e, a})"),
    ("ae", "torch.cat([e, a], 1)", "tenet::cat({e, a}, 1)"),
    ("e", "torch.cat([e, e])", "tenet::cat({e, e})"),
    ("e", "torch.cat([e, e], 5)", "tenet::cat({e, e}, 5)"),
    ("a", "torch.cat([torch.zeros(0, 3), a])", "tenet::cat({tenet::zeros({0, 3}), a})"),
    ("a", "torch.cat([torch.zeros(2, 0), a, torch.zeros(2, 0)], 1)",
     "tenet::cat({tenet::zeros({2, 0}), a, tenet::zeros({2, 0})}, 1)"),
    ("", "torch.cat([torch.zeros(0, 2), torch.zeros(0, 3)], 1)", "tenet::cat({tenet::zeros({0, 2}), tenet::zeros({0, 3})}, 1)"),
    ("i", "torch.cat([i, i.t()], 1)", "tenet::cat({i, i.t()}, 1)"),
    ("k", "torch.cat([k, k.logical_not()])", "tenet::cat({k, tenet::Tensor<bool>(k.logical_not())})"),
    ("h", "torch.cat([h, h.t()])", "tenet::cat({h, h.t()})"),
    ("ab", "torch.concat([a, b])", "tenet::concat({a, b})"),
    ("ab", "torch.concat([a, b], -2)", "tenet::concat(std::vector<tenet::Tensor<float>>{a, b}, -2)"),
    # mixed element types: PyTorch's promotion
    ("ia", "torch.cat([i, a[:, :2]])", "tenet::cat(std::tuple{i, a.slice(1, 0, 2)})"),
    ("i", "torch.cat([i.to(torch.int8), i.to(torch.uint8)], 1)",
     "tenet::cat(std::tuple{i.to(tenet::kInt8), i.to(tenet::kUInt8)}, 1)"),
    ("h", "torch.cat([h, h.to(torch.bfloat16)])", "tenet::cat(std::tuple{h, h.to(tenet::kBFloat16)})"),
    ("a", "torch.cat([a, torch.zeros(0, dtype=torch.float64)])",
     "tenet::cat(std::tuple{a, tenet::zeros({0}, tenet::kFloat64)})"),
    ("ik", "torch.cat([k.view(1, 2), i, k.view(1, 2)])", "tenet::cat(std::tuple{k.view({1, 2}), i, k.view({1, 2})})"),
    ("ia", "torch.stack([i, a[:, 1:]], 2)", "tenet::stack(std::tuple{i, a.slice(1, 1)}, 2)"),
    ("iv", "torch.hstack([i.view(-1), v])", "tenet::hstack(std::tuple{i.view({-1}), v})"),
    # stack
    ("a", "torch.stack([a, a + 1])", "tenet::stack<float>({a, a + 1})"),
    ("a", "torch.stack([a, a + 1], 1)", "tenet::stack<float>({a, a + 1}, 1)"),
    ("a", "torch.stack([a, a + 1], 2)", "tenet::stack<float>({a, a + 1}, 2)"),
    ("a", "torch.stack([a, a + 1], -1)", "tenet::stack<float>({a, a + 1}, -1)"),
    ("a", "torch.stack([a, a + 1, a + 2], -3)", "tenet::stack<float>({a, a + 1, a + 2}, -3)"),
    ("a", "torch.stack([a.t(), a.t()], 1)", "tenet::stack({a.t(), a.t()}, 1)"),
    ("s", "torch.stack([s, s * 2])", "tenet::stack<float>({s, s * 2})"),
    ("s", "torch.stack([s, s * 2], -1)", "tenet::stack<float>({s, s * 2}, -1)"),
    ("", "torch.stack([torch.zeros(0, 2), torch.zeros(0, 2)], 1)",
     "tenet::stack({tenet::zeros({0, 2}), tenet::zeros({0, 2})}, 1)"),
    ("e", "torch.stack([e, e])", "tenet::stack({e, e})"),
    ("i", "torch.stack([i])", "tenet::stack({i})"),
    # hstack, vstack, dstack
    ("ac", "torch.hstack([a, c])", "tenet::hstack({a, c})"),
    ("vw", "torch.hstack([w, v])", "tenet::hstack({w, v})"),
    ("s", "torch.hstack([s, s])", "tenet::hstack({s, s})"),
    ("ae", "torch.hstack([e, a])", "tenet::hstack({e, a})"),
    ("wa", "torch.vstack([w, a])", "tenet::vstack({w, a})"),
    ("w", "torch.vstack([w, w])", "tenet::vstack({w, w})"),
    ("s", "torch.vstack([s, s])", "tenet::vstack({s, s})"),
    ("ab", "torch.vstack([a, b])", "tenet::vstack({a, b})"),
    ("w", "torch.dstack([w, w])", "tenet::dstack({w, w})"),
    ("a", "torch.dstack([a, a])", "tenet::dstack({a, a})"),
    ("s", "torch.dstack([s, s])", "tenet::dstack({s, s})"),
    ("t", "torch.dstack([t, t])", "tenet::dstack({t, t})"),
    # atleast_Nd: views
    ("s", "torch.atleast_1d(s)", "tenet::atleast_1d(s)"),
    ("s", "torch.atleast_2d(s)", "tenet::atleast_2d(s)"),
    ("s", "torch.atleast_3d(s)", "tenet::atleast_3d(s)"),
    ("w", "torch.atleast_1d(w)", "tenet::atleast_1d(w)"),
    ("w", "torch.atleast_2d(w)", "tenet::atleast_2d(w)"),
    ("w", "torch.atleast_3d(w)", "tenet::atleast_3d(w)"),
    ("a", "torch.atleast_2d(a.t())", "tenet::atleast_2d(a.t())"),
    ("a", "torch.atleast_3d(a.t())", "tenet::atleast_3d(a.t())"),
    ("t", "torch.atleast_3d(t)", "tenet::atleast_3d(t)"),
    # round trips through splits
    ("a", "torch.cat(a.split(1, 1), 1)", "tenet::cat(a.split(1, 1), 1)"),
    ("t", "torch.stack(t.unbind(1), 0)", "tenet::stack(t.unbind(1), 0)"),
    # flip, fliplr, flipud: new tensors in the input's dense memory order
    ("a", "torch.flip(a, [0])", "tenet::flip(a, {0})"),
    ("a", "a.flip(1)", "a.flip(1)"),
    ("a", "a.flip([0, 1])", "a.flip({0, 1})"),
    ("a", "a.flip([-1, 0])", "a.flip({-1, 0})"),
    ("a", "a.flip([])", "a.flip(tenet::IntArray{})"),
    ("a", "a.t().flip(0)", "a.t().flip(0)"),
    ("t", "t.flip([0, 2])", "t.flip({0, 2})"),
    ("t", "t[:, 1:, ::2].flip(1)", "t.slice(1, 1).slice(2, 0, 4, 2).flip(1)"),
    ("t", "t.permute(2, 0, 1).flip(-1)", "t.permute({2, 0, 1}).flip(-1)"),
    ("w", "w.expand(2, 3).flip(0)", "w.expand({2, 3}).flip(0)"),
    ("s", "s.flip(0)", "s.flip(0)"),
    ("e", "e.flip(0)", "e.flip(0)"),
    ("i", "torch.flip(i, [1])", "tenet::flip(i, {1})"),
    ("k", "k.flip(0)", "k.flip(0)"),
    ("h", "h.flip([0, 1])", "h.flip({0, 1})"),
    ("a", "torch.fliplr(a)", "tenet::fliplr(a)"),
    ("a", "a.flipud()", "a.flipud()"),
    ("v", "v.flipud()", "v.flipud()"),
    ("t", "t.fliplr()", "t.fliplr()"),
]

SPLIT_CASES = [
    # (bases, python expression giving a list of tensors, C++ expression giving a std::vector)
    ("v", "v.split(3)", "v.split(3)"),
    ("v", "v.split(5)", "v.split(5)"),
    ("v", "v.split(20)", "v.split(20)"),
    ("v", "v.split([3, 7])", "v.split({3, 7})"),
    ("v", "v.split([10])", "v.split(tenet::IntArray{10})"),
    ("v", "v.split([0, 10, 0])", "v.split({0, 10, 0})"),
    ("v", "v.split_with_sizes([4, 4, 2])", "v.split_with_sizes({4, 4, 2})"),
    ("v", "torch.split(v, 4)", "tenet::split(v, 4)"),
    ("v", "torch.split(v, [6, 4])", "tenet::split(v, {6, 4})"),
    ("v", "v.chunk(3)", "v.chunk(3)"),
    ("v", "v.chunk(4)", "v.chunk(4)"),
    ("v", "v.chunk(6)", "v.chunk(6)"),
    ("v", "v.chunk(11)", "v.chunk(11)"),
    ("v", "v.chunk(1)", "v.chunk(1)"),
    ("v", "torch.chunk(v, 2)", "tenet::chunk(v, 2)"),
    ("v", "v.unbind()", "v.unbind()"),
    ("a", "a.split(2, 1)", "a.split(2, 1)"),
    ("a", "a.split(2, -1)", "a.split(2, -1)"),
    ("a", "a.split([1, 2], 1)", "a.split({1, 2}, 1)"),
    ("a", "a.chunk(2, 1)", "a.chunk(2, 1)"),
    ("a", "a.unbind(0)", "a.unbind(0)"),
    ("a", "a.unbind(1)", "a.unbind(1)"),
    ("a", "torch.unbind(a, -1)", "tenet::unbind(a, -1)"),
    ("a", "a.t().split(1)", "a.t().split(1)"),
    ("a", "a.t().unbind(1)", "a.t().unbind(1)"),
    ("t", "t.split(3, 2)", "t.split(3, 2)"),
    ("t", "t.chunk(2, 1)", "t.chunk(2, 1)"),
    ("t", "t.unbind(2)", "t.unbind(2)"),
    ("t", "t.transpose(0, 2).split([1, 2], 1)", "t.transpose(0, 2).split({1, 2}, 1)"),
    ("t", "t[:, 1:].split(1, 1)", "t.slice(1, 1).split(1, 1)"),
    ("h", "h.unbind(1)", "h.unbind(1)"),
    ("i", "i.split(1)", "i.split(1)"),
    ("k", "k.chunk(2)", "k.chunk(2)"),
    # empty tensors
    ("e", "e.split(3)", "e.split(3)"),
    ("e", "e.split(0)", "e.split(0)"),
    ("e", "e.split([])", "e.split(tenet::IntArray{})"),
    ("e", "e.split([0, 0])", "e.split({0, 0})"),
    ("e", "e.chunk(3)", "e.chunk(3)"),
    ("", "torch.zeros(2, 0).chunk(3, 1)", "tenet::zeros({2, 0}).chunk(3, 1)"),
    ("", "torch.zeros(2, 0).split(0, 1)", "tenet::zeros({2, 0}).split(0, 1)"),
    ("", "torch.zeros(0, 3).unbind(0)", "tenet::zeros({0, 3}).unbind(0)"),
    ("", "torch.zeros(0, 3).unbind(1)", "tenet::zeros({0, 3}).unbind(1)"),
    # tensor_split (slices)
    ("v", "v.tensor_split(3)", "v.tensor_split(3)"),
    ("v", "v.tensor_split(11)", "v.tensor_split(11)"),
    ("v", "v.tensor_split([4, 2, 20])", "v.tensor_split({4, 2, 20})"),
    ("v", "v.tensor_split([-3])", "v.tensor_split(tenet::IntArray{-3})"),
    ("v", "v.tensor_split([-20])", "v.tensor_split(tenet::IntArray{-20})"),
    ("v", "v.tensor_split([])", "v.tensor_split(tenet::IntArray{})"),
    ("a", "a.tensor_split(2, 1)", "a.tensor_split(2, 1)"),
    ("a", "torch.tensor_split(a, [1], -1)", "tenet::tensor_split(a, tenet::IntArray{1}, -1)"),
    ("e", "e.tensor_split(2)", "e.tensor_split(2)"),
]

# Writes through a piece reach the split tensor (pieces are views).
SPLIT_WRITES = [
    # flip reads all of its input before anything is written (a new tensor, as in PyTorch)
    ("a = torch.arange(6.).view(2, 3); a.copy_(a.flip(0))", "auto a = tenet::arange(6.0).view({2, 3}); a.assign(a.flip(0));"),
    ("a = torch.arange(6.).view(2, 3); a.copy_(a.flip(1) + a)", "auto a = tenet::arange(6.0).view({2, 3}); a.assign(a.flip(1) + a);"),
    # assign(tensor) reads an overlapping source in full first (PyTorch's copy_ refuses it: clone() there)
    ("a = torch.arange(9.).view(3, 3); a.copy_(a.t().clone())", "auto a = tenet::arange(9.0).view({3, 3}); a.assign(a.t());"),
    ("v = torch.arange(10.); v.split(3)[1].fill_(-1)", "auto v = tenet::arange(10.0); v.split(3)[1].fill_(-1);"),
    ("a = torch.arange(6.).view(2, 3); a.unbind(1)[2].fill_(-1)",
     "auto a = tenet::arange(6.0).view({2, 3}); a.unbind(1)[2].fill_(-1);"),
    ("a = torch.arange(6.).view(2, 3); a.chunk(2, 1)[0].mul_(10)",
     "auto a = tenet::arange(6.0).view({2, 3}); a.chunk(2, 1)[0].mul_(10);"),
    ("a = torch.arange(6.).view(2, 3); a.split([2, 1], 1)[1][1] = 7",
     "auto a = tenet::arange(6.0).view({2, 3}); a.split({2, 1}, 1)[1][1] = 7;"),
]


def gen_values():
    lines = []
    for keys, py, cpp in JOIN_CASES:
        py_setup, cpp_setup = setup(keys)
        emit(lines, py, py_setup, py, f"{cpp_setup} return {cpp};")
    write(OPS / "join_cases.inc", lines, "joins")

    lines = []
    for keys, py, cpp in SPLIT_CASES:
        py_setup, cpp_setup = setup(keys)
        ns = {"torch": torch}
        exec(py_setup, ns)
        pieces = eval(py, ns)
        lines.append(f"{{ {cpp_setup} CHECK({cpp}.size() == {len(pieces)}); }}")
        for n in range(len(pieces)):
            emit(lines, f"{py}[{n}]", py_setup, f"({py})[{n}]", f"{cpp_setup} return {cpp}[{n}];")
    for py, cpp in SPLIT_WRITES:
        base = py.split(" = ")[0]
        emit(lines, "write: " + py, py, base, f"{cpp} return {base};")
    write(OPS / "split_cases.inc", lines, "splits")


def write(path, lines, what):
    header = [
        f"// Generated by tests/golden/gen_join.py from PyTorch {torch.__version__}; do not edit.",
        f"// {what}: {len(lines)} entries.",
    ]
    path.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {path} ({len(lines)} entries)")


# ---- errors -------------------------------------------------------------------------------

ERROR_SETUP = (
    "a = torch.zeros(2, 3); b = torch.zeros(3, 3); t3 = torch.zeros(2, 3, 1); s = torch.tensor(1.);"
    " e = torch.zeros(0); v = torch.zeros(10)",
    "auto a = tenet::zeros({2, 3}); auto b = tenet::zeros({3, 3}); auto t3 = tenet::zeros({2, 3, 1});"
    " auto s = tenet::tensor(1.0f); auto e = tenet::zeros({0}); auto v = tenet::zeros({10});"
    " std::vector<tenet::Tensor<float>> none;",
)

ERROR_CASES = [
    # (python expression, C++ expression, tenet exception, op name, PyTorch's prefix replaced by "op: ")
    ("torch.cat([])", "tenet::cat(none)", "value_error", "cat", "torch.cat(): "),
    ("a.flip([0, 0])", "a.flip({0, 0})", "value_error", "flip", ""),
    ("a.flip([0, -2])", "a.flip({0, -2})", "value_error", "flip", ""),
    ("a.flip(2)", "a.flip(2)", "index_error", "flip", ""),
    ("a.flip([-3])", "a.flip({-3})", "index_error", "flip", ""),
    ("torch.fliplr(v)", "tenet::fliplr(v)", "shape_error", "fliplr", ""),
    ("s.flipud()", "s.flipud()", "shape_error", "flipud", ""),
    ("torch.cat([a, b], 1)", "tenet::cat({a, b}, 1)", "shape_error", "cat", ""),
    ("torch.cat([a, a, b], 1)", "tenet::cat({a, a, b}, 1)", "shape_error", "cat", ""),
    ("torch.cat([torch.zeros(0, 2), a])", "tenet::cat({tenet::zeros({0, 2}), a})", "shape_error", "cat", ""),
    ("torch.cat([a, t3])", "tenet::cat({a, t3})", "shape_error", "cat", ""),
    ("torch.cat([v, a])", "tenet::cat({v, a})", "shape_error", "cat", ""),
    ("torch.cat([a], 2)", "tenet::cat({a}, 2)", "index_error", "cat", ""),
    ("torch.cat([a], -3)", "tenet::cat({a}, -3)", "index_error", "cat", ""),
    ("torch.cat([a, e], 2)", "tenet::cat({a, e}, 2)", "index_error", "cat", ""),
    ("torch.cat([s, s])", "tenet::cat({s, s})", "shape_error", "cat", ""),
    ("torch.cat([a, s])", "tenet::cat({a, s})", "shape_error", "cat", ""),
    ("torch.cat([e, s])", "tenet::cat({e, s})", "shape_error", "cat", ""),
    ("torch.concat([a, b], 1)", "tenet::concat({a, b}, 1)", "shape_error", "cat", ""),
    ("torch.stack([])", "tenet::stack(none)", "value_error", "stack", "stack "),
    ("torch.stack([a, b])", "tenet::stack({a, b})", "shape_error", "stack", "stack "),
    ("torch.stack([a, b], 2)", "tenet::stack({a, b}, 2)", "shape_error", "stack", "stack "),
    ("torch.stack([a, a, t3])", "tenet::stack({a, a, t3})", "shape_error", "stack", "stack "),
    ("torch.stack([a, a], 3)", "tenet::stack({a, a}, 3)", "index_error", "stack", ""),
    ("torch.stack([a, a], -4)", "tenet::stack({a, a}, -4)", "index_error", "stack", ""),
    ("torch.stack([s, s], 1)", "tenet::stack({s, s}, 1)", "index_error", "stack", ""),
    ("torch.hstack([])", "tenet::hstack(none)", "value_error", "hstack", "hstack "),
    ("torch.vstack([])", "tenet::vstack(none)", "value_error", "vstack", "vstack "),
    ("torch.dstack([])", "tenet::dstack(none)", "value_error", "dstack", "dstack "),
    ("torch.hstack([a, b])", "tenet::hstack({a, b})", "shape_error", "hstack", ""),
    ("torch.vstack([v, a])", "tenet::vstack({v, a})", "shape_error", "vstack", ""),
    ("torch.dstack([a, b])", "tenet::dstack({a, b})", "shape_error", "dstack", ""),
    ("s.split(1)", "s.split(1)", "shape_error", "split", "split "),
    ("v.split(-1)", "v.split(-1)", "value_error", "split", "split "),
    ("v.split(0)", "v.split(0)", "value_error", "split", ""),
    ("a.split(2, 2)", "a.split(2, 2)", "index_error", "split", ""),
    ("v.split([3, 6])", "v.split({3, 6})", "value_error", "split_with_sizes", "split_with_sizes "),
    ("v.split([3, -1, 8])", "v.split({3, -1, 8})", "value_error", "split_with_sizes", "split_with_sizes "),
    ("v.split([])", "v.split(tenet::IntArray{})", "value_error", "split_with_sizes", "split_with_sizes "),
    ("s.split([1])", "s.split(tenet::IntArray{1})", "shape_error", "split_with_sizes", "split "),
    ("a.split([1, 1], -3)", "a.split({1, 1}, -3)", "index_error", "split_with_sizes", ""),
    ("v.chunk(0)", "v.chunk(0)", "value_error", "chunk", "chunk "),
    ("v.chunk(-1)", "v.chunk(-1)", "value_error", "chunk", "chunk "),
    ("s.chunk(1)", "s.chunk(1)", "shape_error", "chunk", "chunk "),
    ("a.chunk(2, 2)", "a.chunk(2, 2)", "index_error", "chunk", ""),
    ("s.unbind(0)", "s.unbind(0)", "index_error", "unbind", ""),
    ("a.unbind(2)", "a.unbind(2)", "index_error", "unbind", ""),
    ("s.tensor_split(1)", "s.tensor_split(1)", "shape_error", "tensor_split", "tensor_split "),
    ("s.tensor_split([1])", "s.tensor_split(tenet::IntArray{1})", "shape_error", "tensor_split", "tensor_split "),
    ("v.tensor_split(0)", "v.tensor_split(0)", "value_error", "tensor_split", ""),
    ("a.tensor_split(2, 2)", "a.tensor_split(2, 2)", "index_error", "tensor_split", ""),
]


def cpp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_errors():
    ns = {"torch": torch}
    exec(ERROR_SETUP[0], ns)
    lines = [f"{ERROR_SETUP[1]}"]
    for py, cpp, kind, op, prefix in ERROR_CASES:
        try:
            eval(py, ns)
        except (RuntimeError, IndexError) as err:
            message = str(err).splitlines()[0]
            assert isinstance(err, IndexError) == (kind == "index_error"), (py, type(err))
        else:
            raise AssertionError(f"{py} did not fail in PyTorch")
        assert message.startswith(prefix), (py, message)
        message = message[len(prefix):]
        lines.append(f"// {py}")
        lines.append(f"CHECK_JOIN_ERROR({cpp}, tenet::{kind}, \"{op}\", {cpp_string(message)});")
    write(OPS / "join_errors.inc", lines, "errors")


# ---- gradients ----------------------------------------------------------------------------

def values(shape, seed, lo=-2.0, hi=2.0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(shape, generator=g, dtype=torch.float64) * (hi - lo) + lo


def lit(t):
    return "{" + ", ".join(fmt_float(v) for v in t.reshape(-1).tolist()) + "}"


GRAD_CASES = [
    # (name, input shapes, C++ body over x0, x1, ... returning a Tensor<double>, PyTorch function)
    ("cat_dim0", [(2, 3), (1, 3)], "cat({x0, x1})", lambda x0, x1: torch.cat([x0, x1])),
    ("flip", [(2, 3, 2)], "flip(x0, {0, -1})", lambda x0: torch.flip(x0, [0, -1])),
    ("flip_times_input", [(2, 3)], "x0.flip(1) * x0", lambda x0: x0.flip(1) * x0),
    ("fliplr_of_a_transpose", [(3, 4)], "fliplr(x0.t())", lambda x0: torch.fliplr(x0.t())),
    ("flipud_sin", [(3, 2)], "sin(x0).eval().flipud()", lambda x0: torch.sin(x0).flipud()),
    ("cat_dim1_three", [(2, 3), (2, 1), (2, 2)], "cat({x0, x1, x2}, 1)", lambda x0, x1, x2: torch.cat([x0, x1, x2], 1)),
    ("cat_negative_dim", [(2, 3, 2), (2, 3, 1)], "cat({x0, x1}, -1)", lambda x0, x1: torch.cat([x0, x1], -1)),
    ("cat_same_input_twice", [(2, 3)], "cat({x0, x0}, 1)", lambda x0: torch.cat([x0, x0], 1)),
    ("cat_legacy_empty_input", [(0,), (2, 3)], "cat({x0, x1})", lambda x0, x1: torch.cat([x0, x1])),
    ("cat_one_input_detached", [(2, 3), (2, 3)], "cat({x0, x1.detach()})", lambda x0, x1: torch.cat([x0, x1.detach()])),
    ("cat_of_expressions", [(2, 3), (2, 3)], "cat<double>({x0 * x1, sin(x0)}, 1)",
     lambda x0, x1: torch.cat([x0 * x1, torch.sin(x0)], 1)),
    ("cat_of_views", [(3, 2), (2, 2)], "cat({x0.t(), x1.t()}, 1)", lambda x0, x1: torch.cat([x0.t(), x1.t()], 1)),
    ("cat_mixed_float32", [(2, 3), (1, 3)], "cat(std::tuple{x0.to<float>(), x1})",
     lambda x0, x1: torch.cat([x0.float(), x1])),
    ("concat", [(2, 2), (2, 3)], "concat({x0, x1}, 1)", lambda x0, x1: torch.concat([x0, x1], 1)),
    ("stack_dim0", [(2, 3), (2, 3)], "stack({x0, x1})", lambda x0, x1: torch.stack([x0, x1])),
    ("stack_dim1", [(2, 3), (2, 3), (2, 3)], "stack({x0, x1, x2}, 1)", lambda x0, x1, x2: torch.stack([x0, x1, x2], 1)),
    ("stack_last", [(2, 3), (2, 3)], "stack({x0, x1}, -1)", lambda x0, x1: torch.stack([x0, x1], -1)),
    ("stack_same_input", [(3,)], "stack({x0, x0, x0}, 1)", lambda x0: torch.stack([x0, x0, x0], 1)),
    ("stack_scalars", [(), ()], "stack({x0, x1})", lambda x0, x1: torch.stack([x0, x1])),
    ("stack_mixed_float32", [(2, 3), (2, 3)], "stack(std::tuple{x0, x1.to<float>()}, 2)",
     lambda x0, x1: torch.stack([x0, x1.float()], 2)),
    ("hstack", [(2, 2), (2, 3)], "hstack({x0, x1})", lambda x0, x1: torch.hstack([x0, x1])),
    ("hstack_1d", [(2,), (3,)], "hstack({x0, x1})", lambda x0, x1: torch.hstack([x0, x1])),
    ("vstack_1d", [(3,), (3,)], "vstack({x0, x1})", lambda x0, x1: torch.vstack([x0, x1])),
    ("vstack_mixed_rank", [(3,), (2, 3)], "vstack({x0, x1})", lambda x0, x1: torch.vstack([x0, x1])),
    ("dstack", [(2, 3), (2, 3)], "dstack({x0, x1})", lambda x0, x1: torch.dstack([x0, x1])),
    ("split_one_piece_used", [(4, 6)], "x0.split(2, 1)[1]", lambda x0: x0.split(2, 1)[1]),
    ("split_last_piece", [(5, 2)], "x0.split(2)[2]", lambda x0: x0.split(2)[2]),
    ("split_two_pieces_used", [(4, 6)], "stack({x0.split(2, 1)[0], x0.split(2, 1)[2]})",
     lambda x0: torch.stack([x0.split(2, 1)[0], x0.split(2, 1)[2]])),
    ("split_pieces_of_one_call", [(4, 6)], "[&] { auto p = x0.split(2, 1); return Tensor<double>(p[0] * p[2] + p[1]); }()",
     lambda x0: (lambda p: p[0] * p[2] + p[1])(x0.split(2, 1))),
    ("split_reordered", [(3, 6)], "[&] { auto p = x0.split(2, 1); return cat({p[2], p[0], p[1]}, 1); }()",
     lambda x0: (lambda p: torch.cat([p[2], p[0], p[1]], 1))(x0.split(2, 1))),
    ("split_piece_used_twice", [(4, 3)], "[&] { auto p = x0.split(2); return Tensor<double>(p[1] * p[1]); }()",
     lambda x0: (lambda p: p[1] * p[1])(x0.split(2))),
    ("split_and_whole", [(4, 3)], "cat({x0.split(2)[1], x0})", lambda x0: torch.cat([x0.split(2)[1], x0])),
    ("split_with_sizes", [(4, 3)], "x0.split({1, 3})[1]", lambda x0: x0.split([1, 3])[1]),
    ("split_with_sizes_zero_piece", [(4, 3)], "[&] { auto p = x0.split_with_sizes({2, 0, 2}); return cat({p[2], p[1]}); }()",
     lambda x0: (lambda p: torch.cat([p[2], p[1]]))(x0.split_with_sizes([2, 0, 2]))),
    ("split_of_transpose", [(3, 4)], "x0.t().split(3)[1]", lambda x0: x0.t().split(3)[1]),
    ("split_of_expression", [(2, 4)], "Tensor<double>(x0 * 3).split(3, 1)[0]", lambda x0: (x0 * 3).split(3, 1)[0]),
    ("chunk", [(3, 7)], "x0.chunk(3, 1)[2]", lambda x0: x0.chunk(3, 1)[2]),
    ("chunk_all_used", [(3, 7)], "[&] { auto p = x0.chunk(3, -1); return cat({p[2], p[1], p[0]}, 1); }()",
     lambda x0: (lambda p: torch.cat([p[2], p[1], p[0]], 1))(x0.chunk(3, -1))),
    ("unbind_one_row", [(3, 4)], "x0.unbind(0)[1]", lambda x0: x0.unbind(0)[1]),
    ("unbind_columns", [(3, 4)], "[&] { auto c = x0.unbind(1); return Tensor<double>(c[0] * c[3]); }()",
     lambda x0: (lambda c: c[0] * c[3])(x0.unbind(1))),
    ("unbind_restack", [(2, 3, 2)], "stack(x0.unbind(2), 0)", lambda x0: torch.stack(x0.unbind(2), 0)),
    ("unbind_twice", [(3, 3)], "Tensor<double>(x0.unbind(0)[0] * x0.unbind(1)[1])",
     lambda x0: x0.unbind(0)[0] * x0.unbind(1)[1]),
    ("tensor_split", [(7, 2)], "x0.tensor_split(3)[1]", lambda x0: x0.tensor_split(3)[1]),
    ("tensor_split_indices", [(2, 6)], "[&] { auto p = x0.tensor_split({1, 4}, 1); return cat({p[2], p[0]}, 1); }()",
     lambda x0: (lambda p: torch.cat([p[2], p[0]], 1))(x0.tensor_split([1, 4], 1))),
    # backward(w) started at a piece or a join; two backward passes through one graph (retain_graph)
    ("seeded_at_piece", [(4, 3)], "x0.split(2)[1]", lambda x0: x0.split(2)[1], "seed"),
    ("seeded_at_unbind_row", [(3, 4)], "x0.unbind(0)[2]", lambda x0: x0.unbind(0)[2], "seed"),
    ("seeded_at_cat", [(2, 3), (2, 2)], "cat({x0, x1}, 1)", lambda x0, x1: torch.cat([x0, x1], 1), "seed"),
    ("twice_split", [(4, 3)], "[&] { auto p = x0.split(2); return Tensor<double>(p[0] * p[1]); }()",
     lambda x0: (lambda p: p[0] * p[1])(x0.split(2)), "twice"),
    ("twice_stack", [(2, 3), (2, 3)], "stack({x0, x1}, 1)", lambda x0, x1: torch.stack([x0, x1], 1), "twice"),
]

# How the gradient enters: loss = (y * w).sum() and backward; y.backward(w); or the first, twice.
BACKWARD = {
    "sum": ("(y * w).sum().backward()", "(y * {w}).sum().backward();"),
    "seed": ("y.backward(w)", "y.backward(tenet::tensor(std::vector<double>{w_values}, {w_shape}));"),
    "twice": ("(lambda loss: (loss.backward(retain_graph=True), loss.backward()))((y * w).sum())",
              "{{ auto loss = (y * {w}).sum(); loss.backward(Tensor<double>(), true); loss.backward(); }}"),
}

# The grad_fn name of every piece (and of joins of integer inputs: none).
NAME_CASES = [
    ("x.split(2)", "x.split(2)"),
    ("x.split(6)", "x.split(6)"),
    ("x.split([1, 3])", "x.split({1, 3})"),
    ("x.split_with_sizes([4])", "x.split_with_sizes({4})"),
    ("x.chunk(2, 1)", "x.chunk(2, 1)"),
    ("x.chunk(1)", "x.chunk(1)"),
    ("x.narrow(1, 0, 0).chunk(3, 1)", "x.narrow(1, 0, 0).chunk(3, 1)"),
    ("x.unbind(1)", "x.unbind(1)"),
    ("x.tensor_split(3, 1)", "x.tensor_split(3, 1)"),
    ("x.tensor_split([1, 4], 1)", "x.tensor_split({1, 4}, 1)"),
    ("[torch.cat([x, x])]", "std::vector{cat({x, x})}"),
    ("[torch.stack([x, x])]", "std::vector{stack({x, x})}"),
    ("[torch.hstack([x, x]), torch.vstack([x, x]), torch.dstack([x, x])]",
     "std::vector{hstack({x, x}), vstack({x, x}), dstack({x, x})}"),
]


def gen_grads():
    lines = [f"// Generated by tests/golden/gen_join.py from PyTorch {torch.__version__}; do not edit.", ""]
    for name, shapes, cpp, fn, *mode in GRAD_CASES:
        py_backward, cpp_backward = BACKWARD[mode[0] if mode else "sum"]
        inputs = [values(s, 17 + 7 * i).requires_grad_() for i, s in enumerate(shapes)]
        y = fn(*inputs)
        w = values(tuple(y.shape), 99, 0.5, 1.5)
        eval(py_backward, {"y": y, "w": w})
        n = len(inputs)
        args = ", ".join("const Tensor<double>& x%d" % i for i in range(n))
        lines.append(f'TEST_CASE("join autograd golden: {name}", "[join]") {{')
        lines.append("    std::vector<Tensor<double>> in{%s};" % ", ".join(
            f"make_input({ilist(x.shape)}, {lit(x.detach())})" for x in inputs))
        lines.append(f"    auto f = []({args}) {{ return {cpp}; }};")
        lines.append("    Tensor<double> y = f(%s);" % ", ".join("in[%d]" % i for i in range(n)))
        lines.append(f'    CHECK(y.grad_fn()->name() == "{y.grad_fn.name()}");')
        lines.append(f"    check_forward(y, {ilist(y.shape)}, {lit(y.detach())});")
        lines.append("    " + cpp_backward.format(w=f"make_input({ilist(w.shape)}, {lit(w)})", w_values=lit(w),
                                                  w_shape=ilist(w.shape)))
        for i, x in enumerate(inputs):
            if x.grad is None:
                lines.append(f"    CHECK_FALSE(in[{i}].grad().defined());  // PyTorch: None")
            else:
                lines.append(f"    check_grad(in[{i}], {lit(x.grad)});")
        lines.append("}")
        lines.append("")
    lines.append('TEST_CASE("join autograd golden: grad_fn names of every piece", "[join]") {')
    lines.append("    auto x = tenet::zeros({4, 6}, tenet::kFloat64).requires_grad_();")
    x = torch.zeros(4, 6, dtype=torch.float64, requires_grad=True)
    for py, cpp in NAME_CASES:
        pieces = eval(py, {"torch": torch, "x": x})
        names = ", ".join(f'"{p.grad_fn.name()}"' for p in pieces)
        lines.append(f"    CHECK(grad_fn_names({cpp}) == std::vector<std::string>{{{names}}});")
        # Whether all the pieces are outputs of one node (split, chunk, unbind) or each has its own.
        one = all(p.grad_fn is pieces[0].grad_fn for p in pieces)
        lines.append(f"    CHECK(one_node({cpp}) == {'true' if one else 'false'});")
    lines.append("}")
    out = AUTOGRAD / "join_grad_cases.inc"
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out} ({len(GRAD_CASES)} gradient cases, {len(NAME_CASES)} name cases)")


if __name__ == "__main__":
    gen_values()
    gen_errors()
    gen_grads()
