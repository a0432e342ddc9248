#!/usr/bin/python3
"""Reads the .pt files that tests/files/test_pt.cpp's [python-check] case wrote with tenet::save
into DIR, with real torch.load (PyTorch 1.13), and compares them with values recomputed here.

The rule (also in tests/files/base_tensor.hpp): element i of a base tensor of n elements, in row-major order, is
bool: i % 2 == 1; uint8: i; other integers: i - 3; floats: (i - 3) * 0.5.

    tensor_f32.pt      base float32 (3, 4)
    transposed_f64.pt  base float64 (3, 4), transposed (strides (1, 4) kept)
    state_dict.pt      OrderedDict weight = base float32 (2, 3), bias = base float32 (2,), loaded
                       into torch.nn.Linear(3, 2) with load_state_dict
    dtypes.pt          OrderedDict of base (2, 3) tensors named by dtype
    views.pt           [b, b.t(), b[1], b[:, 1::2], base int64 (3,)], b = base int32 (3, 4); the
                       first four share one storage
    shapes.pt          [base float32 () + 7, base float32 (2, 0, 3), base float16 (1, 1, 5)]
    values.pt          {'lr': 0.5, 'steps': 3, 'name': 'sgd', 'flag': True, 'none': None,
                        'big': -2**40, 'pair': (base float64 (2,), 2)}
    complex.pt         [c, c.t(), c[1:, ::2], complex_base complex128 (5,)], c = complex_base
                       complex64 (3, 4); the first three share one storage
    complex_t.pt       complex_base complex64 (3, 4), transposed

complex_base (tests/files/test_pt.cpp): element i is ((i - 3) * 0.5) + (1 - i * 0.25)j.

Prints one line per file; exits 1 on any mismatch.
Run: /usr/bin/python3 tests/files/check_pt.py DIR
"""
import collections
import pathlib
import sys
import zipfile

import torch

DTYPES = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
          "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64}


def base(dtype, *shape):
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.int64)
    if dtype == torch.bool:
        x = i % 2 == 1
    elif dtype == torch.uint8:
        x = i.to(torch.uint8)
    elif dtype.is_floating_point:
        x = ((i - 3).to(torch.float64) * 0.5).to(dtype)
    else:
        x = (i - 3).to(dtype)
    return x.reshape(shape)


def complex_base(dtype, *shape):
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.float64)
    return torch.complex((i - 3) * 0.5, 1 - i * 0.25).to(dtype).reshape(shape)


def same(a, b):
    return (isinstance(a, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape
            and a.stride() == b.stride() and a.storage_offset() == b.storage_offset() and torch.equal(a, b))


def storage_ptr(t):
    return t.storage().data_ptr()


def check(d):
    out = {}
    out["tensor_f32.pt"] = same(torch.load(d / "tensor_f32.pt"), base(torch.float32, 3, 4))
    out["transposed_f64.pt"] = same(torch.load(d / "transposed_f64.pt"), base(torch.float64, 3, 4).t())

    sd = torch.load(d / "state_dict.pt")
    lin = torch.nn.Linear(3, 2)
    lin.load_state_dict(sd)  # strict: the names and shapes must be exactly Linear's
    out["state_dict.pt"] = (isinstance(sd, collections.OrderedDict) and list(sd) == ["weight", "bias"]
                            and torch.equal(lin.weight.detach(), base(torch.float32, 2, 3))
                            and torch.equal(lin.bias.detach(), base(torch.float32, 2)))

    dt = torch.load(d / "dtypes.pt")
    out["dtypes.pt"] = (list(dt) == list(DTYPES)
                        and all(same(dt[name], base(dtype, 2, 3)) for name, dtype in DTYPES.items()))

    v = torch.load(d / "views.pt")
    b = base(torch.int32, 3, 4)
    want = [b, b.t(), b[1], b[:, 1::2], base(torch.int64, 3)]
    out["views.pt"] = (len(v) == 5 and all(same(x, y) for x, y in zip(v, want))
                       and len({storage_ptr(x) for x in v[:4]}) == 1 and storage_ptr(v[4]) != storage_ptr(v[0]))

    s = torch.load(d / "shapes.pt")
    want = [base(torch.float32) + 7, base(torch.float32, 2, 0, 3), base(torch.float16, 1, 1, 5)]
    out["shapes.pt"] = len(s) == 3 and all(same(x, y) for x, y in zip(s, want))

    h = torch.load(d / "values.pt")
    out["values.pt"] = (type(h) is dict and list(h) == ["lr", "steps", "name", "flag", "none", "big", "pair"]
                        and h["lr"] == 0.5 and type(h["lr"]) is float and h["steps"] == 3
                        and type(h["steps"]) is int and h["name"] == "sgd" and h["flag"] is True
                        and h["none"] is None and h["big"] == -2**40 and type(h["pair"]) is tuple
                        and same(h["pair"][0], base(torch.float64, 2)) and h["pair"][1] == 2)

    c = complex_base(torch.complex64, 3, 4)
    v = torch.load(d / "complex.pt")
    want = [c, c.t(), c[1:, ::2], complex_base(torch.complex128, 5)]
    out["complex.pt"] = (len(v) == 4 and all(same(x, y) for x, y in zip(v, want))
                         and len({storage_ptr(x) for x in v[:3]}) == 1)
    out["complex_t.pt"] = same(torch.load(d / "complex_t.pt"), c.t())
    return out


def zip_ok(path):
    """The archive itself: Python's zipfile checks every entry's CRC; entries stored, as torch.save's."""
    with zipfile.ZipFile(path) as z:
        return z.testzip() is None and all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())


def main():
    d = pathlib.Path(sys.argv[1])
    ok = True
    for name, good in check(d).items():
        good = good and zip_ok(d / name)
        print(f"{'ok  ' if good else 'FAIL'} {name}")
        ok = ok and good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
