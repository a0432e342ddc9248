#!/usr/bin/python3
"""Writes tests/files/data/npy/: .npy and .npz files written by real NumPy, and a manifest.

tests/files/test_npy.cpp loads every file with tenet and compares it with the manifest, whose
lines (written here from the arrays NumPy saved, not from tenet) are

    npy FILE ORDER TENSOR          ORDER: C or F (the order the file stores: F loads column-major)
    npz FILE ENTRY TENSOR          ENTRY: the name np.load(FILE) gives the array
    same FILE                      FILE: np.save's bytes for an array that the test builds with
                                   tenet from the rule below and saves; the bytes must be equal
    cnpy FILE ORDER CTENSOR        a complex64 (<c8) or complex128 (<c16) file; CTENSOR is
                                   `dtype ndim size... 2*numel re im re im ...` (golden_format.ctext)

where TENSOR is `dtype ndim size... numel value...` (values in C order, floats as hex), the
format of tests/golden_data.hpp's parse_tensor. The "same" arrays, by name (x = arange(n) of the
dtype, n the element count):
    same_f4_2x3      x.reshape(2, 3), float32
    same_i8_4        x, int64, shape (4,)
    same_f8_0d       the 0-d float64 array 2.5
    same_u1_0        an empty uint8 array of shape (0,)
    same_f4_F_2x3    arange(6).reshape(3, 2).T, float32 (Fortran order)
    same_b1_5        x % 2 == 1, bool, shape (5,)
    same_f2_2x2x2    x.reshape(2, 2, 2), float16
    same_i2_1x1x3    x.reshape(1, 1, 3), int16
    same_c8_2x2      (x - 1j * x).reshape(2, 2), complex64
    same_c16_3       x + 0.5j, complex128

Run: cd tests/golden && /usr/bin/python3 gen_npy.py
"""
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "files" / "data" / "npy"
CORPUS = HERE.parent / "fuzz" / "corpus"

NAMES = {"b1": "bool", "u1": "uint8", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
         "f2": "float16", "f4": "float32", "f8": "float64"}


def tensor_text(a):
    code = a.dtype.str[1:]
    flat = np.ascontiguousarray(a).reshape(-1)
    if a.dtype.kind == "f":
        vals = [float(v).hex() for v in flat]
    else:
        vals = [str(int(v)) for v in flat]
    return " ".join([NAMES[code], str(a.ndim)] + [str(s) for s in a.shape] + [str(a.size)] + vals)


CNAMES = {"c8": "complex64", "c16": "complex128"}


def ctensor_text(a):
    flat = np.ascontiguousarray(a).reshape(-1)
    vals = []
    for v in flat:
        vals += [float(v.real).hex(), float(v.imag).hex()]
    return " ".join([CNAMES[a.dtype.str[1:]], str(a.ndim)] + [str(s) for s in a.shape] + [str(2 * a.size)] + vals)


def cvalues(code, shape):
    """Distinct, exactly representable complex values, a -0.0 imaginary part among them."""
    n = int(np.prod(shape))
    x = np.arange(n, dtype=np.float64)
    v = (x * 0.5 - 2.25) + 1j * (1.0 - x * 0.25)
    if n > 4:
        v[4] = complex(v[4].real, -0.0)
    return v.astype("<" + code).reshape(shape)


def values(code, shape):
    """Distinct, exactly representable values of each dtype (negatives where signed, and
    integers that need every byte)."""
    n = int(np.prod(shape))
    x = np.arange(n, dtype=np.int64)
    if code == "b1":
        v = x % 3 == 0
    elif code == "u1":
        v = (x * 37 + 200) % 256
    elif code.startswith("i"):
        big = {"i1": 127, "i2": 32000, "i4": 2_000_000_000, "i8": 9_000_000_000_000_000_000}[code]
        v = x * 3 - n
        if n > 1:
            v[0], v[-1] = -big, big
    else:
        v = x * 0.5 - 2.25
        if n > 2:
            v[1] = -0.0
    dtype = code if code in ("b1", "u1", "i1") else "<" + code
    return v.astype(dtype).reshape(shape)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for f in OUT.iterdir():
        f.unlink()
    lines = []

    def npy(name, a, order, **kw):
        path = OUT / name
        version = kw.pop("version", None)
        with open(path, "wb") as f:
            np.lib.format.write_array(f, a, version=version, allow_pickle=False)
        back = np.load(path)
        assert back.dtype == a.dtype and back.shape == a.shape and np.array_equal(back, a, equal_nan=True)
        assert (order == "F") == (back.flags.f_contiguous and not back.flags.c_contiguous)
        lines.append(f"npy {name} {order} {tensor_text(a)}")

    # Every dtype, C order, little-endian (as np.save writes on this host).
    for code in NAMES:
        npy(f"{code}_2x3.npy", values(code, (2, 3)), "C")
    # Fortran order.
    npy("f4_F_3x4.npy", np.asfortranarray(values("f4", (3, 4))), "F")
    npy("i2_F_2x3x4.npy", np.asfortranarray(values("i2", (2, 3, 4))), "F")
    npy("b1_F_2x3.npy", np.asfortranarray(values("b1", (2, 3))), "F")
    # Big-endian.
    for code in ("i2", "i4", "i8", "f2", "f4", "f8"):
        npy(f"be_{code}_5.npy", values(code, (5,)).astype(">" + code), "C")
    npy("be_f8_F_2x3.npy", np.asfortranarray(values("f8", (2, 3)).astype(">f8")), "F")
    # Header versions 2.0 and 3.0.
    npy("v2_f4_2x2.npy", values("f4", (2, 2)), "C", version=(2, 0))
    npy("v3_i8_3.npy", values("i8", (3,)), "C", version=(3, 0))
    # 0-d and empty arrays.
    npy("f8_0d.npy", np.array(3.5, dtype="<f8"), "C")
    npy("i4_0d.npy", np.array(-7, dtype="<i4"), "C")
    npy("f4_0x3.npy", np.zeros((0, 3), dtype="<f4"), "C")
    npy("i8_2x0x3.npy", np.zeros((2, 0, 3), dtype="<i8"), "C")

    # Complex: <c8 and <c16, Fortran order, big-endian (each part swapped), 0-d.
    def cnpy(name, a, order):
        path = OUT / name
        np.save(path, a)
        back = np.load(path)
        assert back.dtype == a.dtype and back.shape == a.shape and np.array_equal(back, a)
        assert (order == "F") == (back.flags.f_contiguous and not back.flags.c_contiguous)
        lines.append(f"cnpy {name} {order} {ctensor_text(a)}")

    cnpy("c8_2x3.npy", cvalues("c8", (2, 3)), "C")
    cnpy("c16_2x3.npy", cvalues("c16", (2, 3)), "C")
    cnpy("c8_F_3x4.npy", np.asfortranarray(cvalues("c8", (3, 4))), "F")
    cnpy("be_c16_5.npy", cvalues("c16", (5,)).astype(">c16"), "C")
    cnpy("be_c8_5.npy", cvalues("c8", (5,)).astype(">c8"), "C")
    cnpy("c16_0d.npy", np.array(1.5 - 2j, dtype="<c16"), "C")

    # .npz: named entries, default names, compressed.
    a, b, c = values("f4", (2, 3)), values("i8", (4,)), values("b1", (3, 2))
    np.savez(OUT / "named.npz", alpha=a, beta=b, gamma=c)
    np.savez(OUT / "default_names.npz", a, b)
    np.savez_compressed(OUT / "compressed.npz", x=values("f8", (5, 4)), y=np.asfortranarray(values("i2", (3, 4))),
                        empty=np.zeros((0,), dtype="<f4"), scalar=np.array(1.25, dtype="<f2"))
    for name in ("named.npz", "default_names.npz", "compressed.npz"):
        with np.load(OUT / name) as z:
            for key in z.files:
                lines.append(f"npz {name} {key} {tensor_text(z[key])}")

    # Arrays the test also builds with tenet: np.save's exact bytes.
    same = {
        "same_f4_2x3": np.arange(6, dtype="<f4").reshape(2, 3),
        "same_i8_4": np.arange(4, dtype="<i8"),
        "same_f8_0d": np.array(2.5, dtype="<f8"),
        "same_u1_0": np.zeros((0,), dtype="u1"),
        "same_f4_F_2x3": np.arange(6, dtype="<f4").reshape(3, 2).T,
        "same_b1_5": np.arange(5) % 2 == 1,
        "same_f2_2x2x2": np.arange(8, dtype="<f2").reshape(2, 2, 2),
        "same_i2_1x1x3": np.arange(3, dtype="<i2").reshape(1, 1, 3),
        "same_c8_2x2": (np.arange(4) - 1j * np.arange(4)).astype("<c8").reshape(2, 2),
        "same_c16_3": (np.arange(3) + 0.5j).astype("<c16"),
    }
    for name, arr in same.items():
        np.save(OUT / f"{name}.npy", arr)
        lines.append(f"same {name}.npy")

    (OUT / "manifest.txt").write_text(
        "# Written by tests/golden/gen_npy.py from the arrays NumPy saved; see its docstring.\n"
        + "\n".join(lines) + "\n")

    # Seeds for the fuzzers (tests/fuzz/corpus/): valid files NumPy wrote, and invalid ones.
    (CORPUS / "npy").mkdir(parents=True, exist_ok=True)
    (CORPUS / "npz").mkdir(parents=True, exist_ok=True)
    for name in ("f4_2x3.npy", "b1_F_2x3.npy", "be_f8_F_2x3.npy", "v2_f4_2x2.npy", "v3_i8_3.npy", "f8_0d.npy",
                 "i8_2x0x3.npy"):
        (CORPUS / "npy" / f"valid_{name}").write_bytes((OUT / name).read_bytes())
    for name in ("named.npz", "default_names.npz", "compressed.npz"):
        (CORPUS / "npz" / f"valid_{name}").write_bytes((OUT / name).read_bytes())
    write_invalid_seeds()


def npy_bytes(header, data, major=1):
    """A .npy file with a hand-written header (padded as NumPy pads)."""
    h = header.encode("latin1")
    lb = 2 if major == 1 else 4
    pad = 64 - (6 + 2 + lb + len(h) + 1) % 64
    h = h + b" " * (pad % 64) + b"\n"
    return b"\x93NUMPY" + bytes([major, 0]) + len(h).to_bytes(lb, "little") + h + data


def write_invalid_seeds():
    f4 = np.arange(6, dtype="<f4").tobytes()
    good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    seeds = {
        "bad_magic.npy": b"\x93NUMPX" + npy_bytes(good, f4)[6:],
        "version_4.npy": npy_bytes(good, f4)[:6] + b"\x04\x00" + npy_bytes(good, f4)[8:],
        "lying_shape.npy": npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 1024, 1024), }", f4),
        "negative_dim.npy": npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }", f4),
        "overflow_shape.npy": npy_bytes(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", f4),
        # Found by the fuzzer: the strides of an empty shape overflowed.
        "empty_overflow.npy": npy_bytes(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296), }", b""),
        "structured.npy": npy_bytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", f4),
        "object.npy": npy_bytes("{'descr': '|O', 'fortran_order': False, 'shape': (6,), }", f4),
        "truncated.npy": npy_bytes(good, f4)[:-3],
        "huge_header_len.npy": b"\x93NUMPY\x02\x00\xff\xff\xff\x7f{'descr'",
        "bool_bytes.npy": npy_bytes("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 2), }", b"\x00\x01\x02\xff"),
    }
    for name, data in seeds.items():
        (CORPUS / "npy" / f"invalid_{name}").write_bytes(data)
    import io
    import zipfile

    def npz(entries, method):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", method) as z:
            for name, data in entries:
                z.writestr(name, data)
        return buf.getvalue()

    small = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f4[:8])
    zseeds = {
        "bomb.npz": npz([("a.npy", small + bytes(100000))], zipfile.ZIP_DEFLATED),
        "lying_header.npz": npz([("a.npy", npy_bytes(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000,), }", f4))], zipfile.ZIP_DEFLATED),
        "not_npy_entry.npz": npz([("a.npy", small), ("notes.txt", b"hello")], zipfile.ZIP_STORED),
        "duplicate_key.npz": npz([("a.npy", small), ("a", small)], zipfile.ZIP_STORED),
    }
    for name, data in zseeds.items():
        (CORPUS / "npz" / f"invalid_{name}").write_bytes(data)


if __name__ == "__main__":
    main()
