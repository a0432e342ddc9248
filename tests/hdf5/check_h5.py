"""Reads with h5py the HDF5 file tenet wrote (tests/hdf5/test_hdf5.cpp, test case tagged
[python-check], with TENET_PYTHON_CHECK_DIR=DIR) and compares it with values recomputed here.

Usage: python3 tests/hdf5/check_h5.py DIR   (prints one line per dataset; exits 1 on a mismatch)

The rule both sides compute: a dataset of shape S and dtype D holds v(a) for a = arange(prod(S))
in C order, reshaped to S, where v is bool: a % 3 == 0; uint8: a * 7 % 256; signed integers:
a * 3 - prod(S); floats: a * 0.75 - 2.5; complex: (a * 0.75 - 2.5) + (1 - a * 0.5)j. "transposed"
is v over float64 (3, 4) transposed, "sliced" v over int32 (6, 8) sliced [1::2, ::3], and
"complex/transposed" v over complex128 (3, 4) transposed; "gzip" is float32 (20, 30) in chunks of
(7, 8) compressed with gzip level 4. Complex datasets must read as complex64/complex128 (h5py's
compound {r, i}).
"""
import os
import sys

import h5py
import numpy as np

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def rule(dtype, shape):
    n = int(np.prod(shape))
    a = np.arange(n)
    dt = np.dtype(dtype)
    if dt == np.dtype(bool):
        v = a % 3 == 0
    elif dt == np.dtype(np.uint8):
        v = a * 7 % 256
    elif dt.kind == "i":
        v = a * 3 - n
    elif dt.kind == "c":
        v = a * 0.75 - 2.5 + 1j * (1 - a * 0.5)
    else:
        v = a * 0.75 - 2.5
    return v.astype(dt).reshape(shape)


def main(directory):
    path = os.path.join(directory, "tenet_written.h5")
    expected = {"/dtypes/" + d: rule(d, (3, 4)) for d in DTYPES}
    expected["/transposed"] = rule("float64", (3, 4)).T
    expected["/sliced"] = rule("int32", (6, 8))[1::2, ::3]
    expected["/gzip"] = rule("float32", (20, 30))
    expected["/scalar"] = rule("float64", ())
    expected["/complex/complex64"] = rule("complex64", (3, 4))
    expected["/complex/transposed"] = rule("complex128", (3, 4)).T
    ok = True
    with h5py.File(path, "r") as f:
        found = []
        f.visititems(lambda name, obj: found.append("/" + name) if isinstance(obj, h5py.Dataset) else None)
        for name in sorted(set(found) | set(expected)):
            if name not in expected or name not in found:
                print(f"FAIL {name}: " + ("unexpected" if name not in expected else "missing"))
                ok = False
                continue
            got, want = f[name][()], expected[name]
            good = got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
            print(f"{'ok  ' if good else 'FAIL'} {name}: {got.dtype} {got.shape}")
            ok = ok and good
        gz = f["/gzip"]
        layout_ok = gz.chunks == (7, 8) and gz.compression == "gzip" and gz.compression_opts == 4
        print(f"{'ok  ' if layout_ok else 'FAIL'} /gzip layout: chunks {gz.chunks}, "
              f"{gz.compression} {gz.compression_opts}")
        attrs = dict(gz.attrs)
        attrs_ok = (attrs.get("count") == 7 and attrs["count"].dtype == np.int64 and attrs.get("scale") == 2.5 and
                    attrs.get("name") == "tenet" and len(attrs) == 3)
        vec = f.attrs.get("vec")
        attrs_ok = (attrs_ok and vec is not None and vec.dtype == np.float32 and
                    np.array_equal(vec, rule("float32", (3,))))
        print(f"{'ok  ' if attrs_ok else 'FAIL'} attributes: /gzip {attrs}, / vec {vec}")
        ok = ok and layout_ok and attrs_ok
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
