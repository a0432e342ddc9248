#!/usr/bin/python3
"""Checks with NumPy the .npy/.npz files that tests/files/test_npy.cpp's [python-check] case wrote.

Usage: /usr/bin/python3 tests/files/check_npy.py DIR

The values are recomputed here from the rule that the C++ test documents (not read from tenet):
element i of an n-element base of dtype D is
    b1: i % 2 == 1;  u1: i;  i1, i2, i4, i8: i - 3;  f2, f4, f8: (i - 3) * 0.5
and the files are
    D__c_2x3.npy      base(6).reshape(2, 3)
    D__t_3x2.npy      base(6).reshape(2, 3).T        (must be stored in Fortran order)
    D__s_3x2.npy      base(12).reshape(3, 4)[:, ::2]
    D__0d.npy         base(4)[3] (0-d)
    D__empty_0x3.npy  base(0).reshape(0, 3)
    arrays.npz, arrays_compressed.npz: entries c (f4__c_2x3's array), t (i2's t_3x2), s (f8's s_3x2),
                      z (b1's 0d), e (u1's empty_0x3); the second deflated
Every file in DIR is checked (one line each); the exit status is nonzero on any mismatch or on a
file the rule does not name.
"""
import pathlib
import sys
import zipfile

import numpy as np

DESCR = {"b1": "|b1", "u1": "|u1", "i1": "|i1", "i2": "<i2", "i4": "<i4", "i8": "<i8",
         "f2": "<f2", "f4": "<f4", "f8": "<f8"}


def base(code, n):
    i = np.arange(n, dtype=np.int64)
    if code == "b1":
        v = i % 2 == 1
    elif code == "u1":
        v = i
    elif code[0] == "i":
        v = i - 3
    else:
        v = (i - 3) * 0.5
    return v.astype(DESCR[code])


def expected(code, kind):
    if kind == "c_2x3":
        return base(code, 6).reshape(2, 3)
    if kind == "t_3x2":
        return base(code, 6).reshape(2, 3).T
    if kind == "s_3x2":
        return base(code, 12).reshape(3, 4)[:, ::2]
    if kind == "0d":
        return base(code, 4)[3].reshape(())
    if kind == "empty_0x3":
        return base(code, 0).reshape(0, 3)
    raise KeyError(kind)


NPZ = {"c": ("f4", "c_2x3"), "t": ("i2", "t_3x2"), "s": ("f8", "s_3x2"), "z": ("b1", "0d"),
       "e": ("u1", "empty_0x3")}


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape
            and np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
            if got.dtype.kind == "f" else
            got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want))


def main():
    d = pathlib.Path(sys.argv[1])
    files = sorted(d.iterdir())
    bad = 0
    for f in files:
        try:
            if f.suffix == ".npy":
                code, kind = f.stem.split("__")
                want = expected(code, kind)
                got = np.load(f, allow_pickle=False)
                ok = same(got, want) and got.dtype.str == DESCR[code]
                if kind == "t_3x2":
                    ok = ok and got.flags.f_contiguous and not got.flags.c_contiguous
                print(f"{'ok  ' if ok else 'FAIL'} {f.name}: {got.dtype.str} {got.shape}")
            elif f.suffix == ".npz":
                with np.load(f, allow_pickle=False) as z:
                    keys = sorted(z.files)
                    ok = keys == sorted(NPZ)
                    for key in keys:
                        ok = ok and same(z[key], expected(*NPZ[key]))
                with zipfile.ZipFile(f) as zf:
                    methods = {i.compress_type for i in zf.infolist()}
                want_method = zipfile.ZIP_DEFLATED if "compressed" in f.name else zipfile.ZIP_STORED
                ok = ok and methods == {want_method}
                print(f"{'ok  ' if ok else 'FAIL'} {f.name}: {keys}, method {sorted(methods)}")
            else:
                ok = False
                print(f"FAIL {f.name}: not a file the rule names")
        except Exception as e:  # noqa: BLE001 (report and go on)
            ok = False
            print(f"FAIL {f.name}: {type(e).__name__}: {e}")
        bad += not ok
    if not files:
        print("FAIL: no files in", d)
        bad = 1
    print(f"{len(files) - bad} of {len(files)} files match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
