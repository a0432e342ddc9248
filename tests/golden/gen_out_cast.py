#!/usr/bin/env python3
"""Generates tests/core/out_cast_cases.inc: out= casting, in-place shapes, copy_ overlap and
requires_grad_ dtypes, as PyTorch decides them (issue 18 items 6, 7 and 8).

Run with a Python that has PyTorch (the checked-in file came from PyTorch 1.13):
    /usr/bin/python3 tests/golden/gen_out_cast.py

- can_cast: torch.can_cast for every pair of tenet's ten dtypes. The generator also checks
  that PyTorch's out= (torch.cat([src], out=dst), whose result type is src's) refuses exactly
  the pairs can_cast refuses, with "result type X can't be cast to the desired output type Y".
  The C++ side checks detail::can_cast_v and Tensor::assign (a tensor and an expression):
  a dtype_error naming assign and both dtypes, or the values PyTorch's out= writes.
- in-place shapes: PyTorch's message for an in-place op whose broadcast result has another
  shape than the destination ("output with shape [2] doesn't match the broadcast shape [2, 2]").
- copy_ between views of one tensor: the views are built from arange, so each view's values
  are its elements' storage indices and "the views share an element" is a set intersection.
  PyTorch (1.13) raises "some elements of the input tensor and the written-to tensor refer to
  a single memory location" when both views are dense and their memory ranges intersect,
  unless they are the same view; where a view is not dense it cannot decide and copies in its
  loop order. tenet decides exactly and raises whenever the views share an element and are
  not the same view: the expected outcome is that rule, and each case records what PyTorch
  1.13 itself did. Where tenet copies, the values are PyTorch's.
- requires_grad_: which dtypes PyTorch lets require gradients, and its message.
"""
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "core", "out_cast_cases.inc")

DTYPES = [  # torch dtype, C++ element type, tenet name
    (torch.bool, "bool"), (torch.uint8, "uint8_t"), (torch.int8, "int8_t"), (torch.int16, "int16_t"),
    (torch.int32, "int32_t"), (torch.int64, "int64_t"), (torch.float16, "tenet::Half"),
    (torch.bfloat16, "tenet::BFloat16"), (torch.float32, "float"), (torch.float64, "double"),
]


def name(dtype):
    return str(dtype).replace("torch.", "")


def values(dtype):
    """Inputs exactly representable in every dtype they may be cast to."""
    if dtype == torch.bool:
        return [True, False, True, True]
    if dtype.is_floating_point:
        return [0.0, 1.0, 3.75, -2.5]
    return [0, 1, 7, 100]


def lit(v):
    if isinstance(v, bool):
        return "1.0" if v else "0.0"
    return repr(float(v))


def can_cast_cases(out):
    out.append('TEST_CASE("out= casting: torch.can_cast for every pair of dtypes") {')
    for src_dtype, src_cpp in DTYPES:
        for dst_dtype, dst_cpp in DTYPES:
            allowed = torch.can_cast(src_dtype, dst_dtype)
            src = torch.tensor(values(src_dtype), dtype=src_dtype)
            dst = torch.zeros(4, dtype=dst_dtype)
            try:
                torch.cat([src], out=dst)
                refused = None
            except RuntimeError as e:
                refused = str(e)
            assert (refused is None) == allowed, (src_dtype, dst_dtype, refused)
            if allowed:
                expected = ", ".join(lit(v) for v in dst.to(torch.float64).tolist())
                src_values = ", ".join(lit(v) for v in values(src_dtype))
                out.append(f"    check_out_cast<{src_cpp}, {dst_cpp}>({{{src_values}}}, {{{expected}}});")
            else:
                # PyTorch spells dtypes as Float, Long, ...; tenet as float32, int64, ...
                assert "can't be cast to the desired output type" in refused
                out.append(f'    check_out_cast_refused<{src_cpp}, {dst_cpp}>("{name(src_dtype)}", "{name(dst_dtype)}");'
                           f"  // PyTorch: {refused}")
    out.append("}")
    out.append("")


# In-place ops whose broadcast result shape differs from the destination's.
INPLACE = [
    # label, torch lambda, C++ statement (d: destination, o: other), dst dtype, other dtype
    ("float32[2].mul_(3.0 - float32[2, 2])", lambda: torch.ones(2).mul_(3.0 - torch.ones(2, 2)),
     "auto d = tenet::ones({2}); auto o = tenet::ones({2, 2}); d.mul_(3.0 - o);", "mul_", [2], [2, 2]),
    ("int8[2].mul_(3 - int8[2, 2])",
     lambda: torch.ones(2, dtype=torch.int8).mul_(3 - torch.ones(2, 2, dtype=torch.int8)),
     "auto d = tenet::ones({2}, tenet::kInt8); auto o = tenet::ones({2, 2}, tenet::kInt8); d.mul_(3 - o);", "mul_",
     [2], [2, 2]),
    ("float32[2].add_(float32[3, 2])", lambda: torch.ones(2).add_(torch.ones(3, 2)),
     "auto d = tenet::ones({2}); d.add_(tenet::ones({3, 2}));", "add_", [2], [3, 2]),
    ("float64[3, 1].sub_(float64[3, 4])", lambda: torch.ones(3, 1, dtype=torch.float64).sub_(torch.ones(3, 4, dtype=torch.float64)),
     "auto d = tenet::ones({3, 1}, tenet::kFloat64); d.sub_(tenet::ones({3, 4}, tenet::kFloat64));", "sub_", [3, 1], [3, 4]),
    ("int64[4] += int64[2, 4]", lambda: torch.ones(4, dtype=torch.int64).__iadd__(torch.ones(2, 4, dtype=torch.int64)),
     "auto d = tenet::ones({4}, tenet::kInt64); d += tenet::ones({2, 4}, tenet::kInt64);", "add_", [4], [2, 4]),
    ("float32[1].div_(float32[2])", lambda: torch.ones(1).div_(torch.ones(2)),
     "auto d = tenet::ones({1}); d.div_(tenet::ones({2}));", "div_", [1], [2]),
]


def inplace_cases(out):
    out.append('TEST_CASE("in-place shapes: a broadcast result of another shape is a shape_error naming both") {')
    for label, fn, stmt, op, dst_shape, bshape in INPLACE:
        try:
            fn()
            raise AssertionError(f"PyTorch accepted {label}")
        except RuntimeError as e:
            msg = str(e)
        out.append(f"    // {label}; PyTorch: {msg}")
        out.append(f'    TENET_CHECK_THROWS([] {{ {stmt} }}(), tenet::shape_error,')
        out.append(f'                         Catch::Contains("{op}: {msg}"));')
    out.append("}")
    out.append("")


# copy_ between two views of one tensor: (label, base shape, dst ops, src ops).
# An op: ("slice", dim, start, stop, step) | ("select", dim, i) | ("t",) | ("view", shape).
COPY_CASES = [
    ("issue: a[2::2].copy_(a[0:3:2])", [6], [("slice", 0, 2, 6, 2)], [("slice", 0, 0, 3, 2)]),
    ("shifted dense views", [6], [("slice", 0, 1, 4, 1)], [("slice", 0, 0, 3, 1)]),
    ("the same view", [6], [("slice", 0, 0, 3, 1)], [("slice", 0, 0, 3, 1)]),
    ("the whole tensor into itself", [6], [], []),
    ("interleaved, no shared element", [6], [("slice", 0, 0, 6, 2)], [("slice", 0, 1, 6, 2)]),
    ("disjoint", [6], [("slice", 0, 0, 3, 1)], [("slice", 0, 3, 6, 1)]),
    ("a transposed square into itself", [2, 2], [], [("t",)]),
    ("a broadcast element of the written-to view", [6], [("slice", 0, 0, 3, 1)], [("slice", 0, 0, 1, 1)]),
    ("a 0-d element of the written-to view", [6], [("slice", 0, 0, 3, 1)], [("select", 0, 2)]),
    ("columns from a transposed view", [2, 3], [("slice", 1, 0, 2, 1)], [("t",), ("slice", 0, 0, 2, 1)]),
    ("column blocks, same rows, no shared element", [3, 4], [("slice", 1, 0, 2, 1)], [("slice", 1, 2, 4, 1)]),
    ("strided columns, no shared element", [2, 4], [("select", 1, 1)], [("select", 1, 2)]),
    ("dense into a strided view inside its range, no shared element", [8], [("slice", 0, 2, 4, 1)],
     [("slice", 0, 1, 6, 4)]),
    ("a strided view that shares one element with a dense one", [8], [("slice", 0, 0, 3, 1)], [("slice", 0, 2, 8, 2)]),
    ("long strided views sharing one element", [100], [("slice", 0, 1, 51, 2)], [("slice", 0, 49, 99, 2)]),
    ("long strided views sharing none", [100], [("slice", 0, 0, 50, 2)], [("slice", 0, 49, 99, 2)]),
    ("empty views", [6], [("slice", 0, 2, 2, 1)], [("slice", 0, 1, 1, 1)]),
]


def apply_torch(t, ops):
    for op in ops:
        if op[0] == "slice":
            _, dim, a, b, c = op
            t = t[(slice(None),) * dim + (slice(a, b, c),)]
        elif op[0] == "select":
            t = t.select(op[1], op[2])
        elif op[0] == "t":
            t = t.t()
        elif op[0] == "view":
            t = t.view(op[1])
    return t


def apply_cpp(var, ops):
    text = var
    for op in ops:
        if op[0] == "slice":
            _, dim, a, b, c = op
            text += f".slice({dim}, {a}, {b}, {c})"
        elif op[0] == "select":
            text += f".select({op[1]}, {op[2]})"
        elif op[0] == "t":
            text += ".t()"
        elif op[0] == "view":
            text += ".view({" + ", ".join(map(str, op[1])) + "})"
    return text


def same_view(d, s):
    """Element for element the same memory (PyTorch's full overlap; copy_ is then a no-op)."""
    if d.storage_offset() != s.storage_offset():
        return False
    e = s.expand(d.shape)
    return d.numel() == 0 or list(e.stride()) == list(d.stride()) or all(
        sz <= 1 or st1 == st2 for sz, st1, st2 in zip(d.shape, d.stride(), e.stride()))


def copy_cases(out):
    out.append('TEST_CASE("copy_: views of one tensor that share some elements are refused") {')
    for label, shape, dst_ops, src_ops in COPY_CASES:
        n = 1
        for s in shape:
            n *= s
        base = torch.arange(n, dtype=torch.float32).view(shape)
        d, s = apply_torch(base, dst_ops), apply_torch(base, src_ops)
        shared = bool(set(d.flatten().tolist()) & set(s.flatten().tolist()))  # values = storage indices
        refuse = shared and not same_view(d, s)
        try:
            d.copy_(s)
            torch_result = "copies: " + str(base.flatten().tolist())
        except RuntimeError as e:
            torch_result = "raises: " + str(e).split(":")[0]
        cpp_base = f"tenet::arange({n}.0f).view({{{', '.join(map(str, shape))}}})"
        out.append(f"    {{  // {label}; PyTorch 1.13 {torch_result}")
        out.append(f"        auto a = {cpp_base};")
        dst_expr, src_expr = apply_cpp("a", dst_ops), apply_cpp("a", src_ops)
        if refuse:
            out.append(f"        TENET_CHECK_THROWS({dst_expr}.copy_({src_expr}), tenet::error, Catch::Contains(kCopyOverlap));")
            out.append(f"        CHECK(a.view({{-1}}).to_vector() == tenet::arange({n}.0f).to_vector());  // nothing written")
        else:
            assert torch_result.startswith("copies"), (label, torch_result)
            expected = ", ".join(repr(float(v)) for v in base.flatten().tolist())
            out.append(f"        {dst_expr}.copy_({src_expr});")
            out.append(f"        CHECK(a.view({{-1}}).to_vector() == std::vector<float>{{{expected}}});")
        out.append("    }")
    out.append("}")
    out.append("")


def requires_grad_cases(out):
    out.append('TEST_CASE("requires_grad_: integer and bool tensors are a dtype_error") {')
    for dtype, cpp in DTYPES:
        try:
            torch.zeros(2, dtype=dtype).requires_grad_()
            # Built without autograd (TENET_AUTOGRAD=0), floating tensors cannot require grad either.
            out.append("#if TENET_AUTOGRAD")
            out.append(f"    CHECK(tenet::zeros({{2}}, tenet::dtype_t<{cpp}>{{}}).requires_grad_().requires_grad());")
            out.append("#endif")
        except RuntimeError as e:
            out.append(f"    // PyTorch: {e}")
            out.append(f"    TENET_CHECK_THROWS(tenet::zeros({{2}}, tenet::dtype_t<{cpp}>{{}}).requires_grad_(), "
                       f"tenet::dtype_error,")
            out.append(f'                         Catch::Contains("requires_grad_: {e}") && Catch::Contains("{name(dtype)}"));')
    out.append("}")
    out.append("")


def main():
    out = ["// Generated by tests/golden/gen_out_cast.py from PyTorch " + torch.__version__ + ". Do not edit.",
           "// Included by tests/core/test_out_cast_overlap.cpp, which defines check_out_cast,",
           "// check_out_cast_refused, kCopyOverlap and TENET_CHECK_THROWS.", ""]
    can_cast_cases(out)
    inplace_cases(out)
    copy_cases(out)
    requires_grad_cases(out)
    with open(OUT, "w") as f:
        f.write("\n".join(out))
    print(f"wrote {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
