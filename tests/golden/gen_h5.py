"""Golden HDF5 files for tests/hdf5/test_hdf5.cpp, written by h5py (run: cd tests/golden && python3 gen_h5.py).

Writes into tests/hdf5/data/:
  dtypes.h5      one dataset per dtype h5py maps to tenet's types (bool is h5py's enum over int8,
                 float16 h5py's custom 16-bit float), big-endian ones under /be, a 0-d and an empty one.
  layout.h5      chunked, chunked+gzip and contiguous datasets, nested groups (for h5_datasets and
                 hyperslab reads).
  attrs.h5       attributes of several types on the root, a group and a dataset.
  complex.h5     h5py's complex64/complex128 (compounds {r, i}): little- and big-endian, 0-d, special
                 values, chunked+gzip (for a hyperslab), a complex attribute; and compounds that are
                 not h5py's complex (other names, order, member types or count), which h5py reads
                 as structured arrays and tenet refuses.
  unsupported.h5 datasets of types tenet has no dtype for (strings, compound, enum, vlen, unsigned
                 16/32/64-bit), a group, a bool holding 2, an extent overflowing int64 and
                 a large sparse dataset (fill value -3), one compressed with h5py's LZF filter (unknown to
                 HDF5's C library), for the error and hyperslab tests.
  expected.txt   the values h5py wrote, one dataset a line:
                 file dataset dtype ndim sizes... numel values...  (floats as float.hex, exact;
                 complex ones as two values each, real and imaginary);
                 "/grid[a]" is a hyperslab of /grid (the test reads the same one), "/data@vec" an
                 attribute; the line "layout.h5 datasets ..." lists h5py's visit of its datasets.
"""
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "hdf5", "data")
os.makedirs(OUT, exist_ok=True)

TENET_NAME = {np.dtype(bool): "bool", np.dtype(np.uint8): "uint8", np.dtype(np.int8): "int8",
              np.dtype(np.int16): "int16", np.dtype(np.int32): "int32", np.dtype(np.int64): "int64",
              np.dtype(np.float16): "float16", np.dtype(np.float32): "float32",
              np.dtype(np.float64): "float64", np.dtype(np.complex64): "complex64",
              np.dtype(np.complex128): "complex128"}

lines = []


def record(fname, name, arr):
    native = arr.astype(arr.dtype.newbyteorder("="))
    kind = TENET_NAME[native.dtype]
    flat = native.reshape(-1)
    if native.dtype.kind == "f":
        vals = [float(v).hex() for v in flat]
    elif native.dtype.kind == "c":
        vals = [part for v in flat for part in (float(v.real).hex(), float(v.imag).hex())]
    else:
        vals = [str(int(v)) for v in flat]
    lines.append(" ".join([fname, name, kind, str(native.ndim)] + [str(s) for s in native.shape] +
                          [str(native.size)] + vals))


def values(dtype, shape):
    """arange-based values that fit every dtype: signed ones go negative, floats have fractions."""
    n = int(np.prod(shape))
    a = np.arange(n)
    dt = np.dtype(dtype)
    if dt == np.dtype(bool):
        return (a % 3 == 0).reshape(shape)
    if dt.kind == "u":
        return (a * 7 % 256).astype(dt).reshape(shape)
    if dt.kind == "i":
        return (a * 3 - n).astype(dt).reshape(shape)
    if dt.kind == "c":
        return (a * 0.75 - 2.5 + 1j * (1 - a * 0.5)).astype(dt).reshape(shape)
    return (a * 0.75 - 2.5).astype(dt).reshape(shape)


with h5py.File(os.path.join(OUT, "dtypes.h5"), "w") as f:
    for dt in ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]:
        arr = values(dt, (3, 4))
        f.create_dataset(dt, data=arr)
        record("dtypes.h5", "/" + dt, arr)
    for dt in [">i2", ">i4", ">i8", ">f2", ">f4", ">f8"]:
        arr = values(dt, (2, 3))
        name = "be/" + np.dtype(dt).name
        f.create_dataset(name, data=arr)
        assert f[name].dtype.byteorder == ">"
        record("dtypes.h5", "/" + name, arr)
    arr = np.array(3.25)
    f.create_dataset("scalar", data=arr)
    record("dtypes.h5", "/scalar", arr)
    arr = np.zeros((0, 3), dtype=np.float32)
    f.create_dataset("empty", data=arr)
    record("dtypes.h5", "/empty", arr)
    # Special floats survive: nan, +-inf, -0.0, a float16 subnormal.
    arr = np.array([np.nan, np.inf, -np.inf, -0.0, 6e-8, 65504.0], dtype=np.float16)
    f.create_dataset("special_f16", data=arr)
    record("dtypes.h5", "/special_f16", arr)

with h5py.File(os.path.join(OUT, "layout.h5"), "w") as f:
    arr = values("float32", (20, 30))
    f.create_dataset("gzip", data=arr, chunks=(7, 8), compression="gzip", compression_opts=4)
    record("layout.h5", "/gzip", arr)
    arr = values("int32", (10, 10))
    f.create_dataset("chunked", data=arr, chunks=(3, 3))
    record("layout.h5", "/chunked", arr)
    arr = values("int64", (4, 5, 6))
    f.create_dataset("grid", data=arr)
    record("layout.h5", "/grid", arr)
    arr = values("float64", (2, 2))
    f.create_dataset("group/sub/deep", data=arr)
    record("layout.h5", "/group/sub/deep", arr)
    # Hyperslabs as h5py reads them (the test reads the same slices with load_h5).
    g = f["grid"]
    for tag, sel in [("a", np.s_[1:3, ::2, -4:]), ("b", np.s_[2, 1:5:3, 5]), ("c", np.s_[-1, :, 0:100:4]),
                     ("d", np.s_[..., 2])]:
        record("layout.h5", "/grid[" + tag + "]", g[sel])
    record("layout.h5", "/gzip[e]", f["gzip"][3:17:5, 2:29:9])
    visited = []
    f.visititems(lambda name, obj: visited.append("/" + name) if isinstance(obj, h5py.Dataset) else None)
    lines.append("layout.h5 datasets " + " ".join(visited))

with h5py.File(os.path.join(OUT, "attrs.h5"), "w") as f:
    f.attrs["version"] = 3
    f.attrs["title"] = "golden"  # a variable-length UTF-8 string, h5py's default
    d = f.create_dataset("data", data=np.arange(4, dtype=np.float32))
    d.attrs["scale"] = 2.5
    d.attrs["count"] = np.int64(-7)
    d.attrs["small"] = np.int8(-3)
    d.attrs["f32"] = np.float32(0.5)
    d.attrs["fixed"] = np.bytes_(b"abc")  # a fixed-length string
    vec = np.arange(3, dtype=np.float32) * 1.5
    d.attrs["vec"] = vec
    record("attrs.h5", "/data@vec", vec)
    g = f.create_group("grp")
    mat = (np.arange(6, dtype=np.int16) - 2).reshape(2, 3)
    g.attrs["mat"] = mat
    record("attrs.h5", "/grp@mat", mat)
    g.attrs["flag"] = np.array([True, False])
    record("attrs.h5", "/grp@flag", np.array([True, False]))

with h5py.File(os.path.join(OUT, "complex.h5"), "w") as f:
    for dt, shape in [("complex64", (3, 4)), ("complex128", (2, 3)), (">c8", (2, 3)), (">c16", (3,))]:
        arr = values(dt, shape)
        name = np.dtype(dt).name if dt[0] != ">" else "be/" + np.dtype(dt).name
        f.create_dataset(name, data=arr)
        record("complex.h5", "/" + name, arr)
    arr = np.array(1.5 - 2j)
    f.create_dataset("scalar", data=arr)
    record("complex.h5", "/scalar", arr)
    arr = np.array([complex(np.inf, -0.0), complex(np.nan, 1e-310), complex(-1e300, -np.inf)])
    f.create_dataset("special", data=arr)
    record("complex.h5", "/special", arr)
    arr = values("complex64", (6, 5))
    f.create_dataset("gzip", data=arr, chunks=(2, 2), compression="gzip")
    record("complex.h5", "/gzip", arr)
    record("complex.h5", "/gzip[f]", f["gzip"][1:5:2, ::2])
    f["complex64"].attrs["z"] = np.complex64(0.5 + 1j)
    record("complex.h5", "/complex64@z", np.array(np.complex64(0.5 + 1j)))
    # Compounds that are not h5py's complex: h5py reads each as a structured array (except
    # "halves", which h5py 3.7 takes for a complex32 that NumPy lacks: a TypeError there).
    for name, fields in [("mixed", [("r", "<f4"), ("i", "<f8")]), ("ints", [("r", "<i4"), ("i", "<i4")]),
                         ("halves", [("r", "<f2"), ("i", "<f2")]),
                         ("three", [("r", "<f4"), ("i", "<f4"), ("x", "<f4")]),
                         ("names", [("re", "<f4"), ("im", "<f4")]), ("order", [("i", "<f4"), ("r", "<f4")])]:
        f.create_dataset(name, data=np.zeros(2, dtype=fields))
        if name != "halves":
            assert f[name].dtype.kind == "V"

with h5py.File(os.path.join(OUT, "unsupported.h5"), "w") as f:
    f.create_dataset("strings", data=np.array([b"ab", b"cd"]))
    f.create_dataset("vlen_strings", data=np.array(["x", "yz"], dtype=h5py.string_dtype()))
    f.create_dataset("compound", data=np.zeros(2, dtype=[("a", "i4"), ("b", "f8")]))
    f.create_dataset("enum", data=np.array([0, 1], dtype=np.int8),
                     dtype=h5py.enum_dtype({"RED": 0, "GREEN": 1}, basetype="i1"))
    vl = f.create_dataset("vlen", (2,), dtype=h5py.vlen_dtype(np.int32))
    vl[0] = [1, 2]
    vl[1] = [3]
    f.create_dataset("uint16", data=np.arange(3, dtype=np.uint16))
    f.create_dataset("uint32", data=np.arange(3, dtype=np.uint32))
    f.create_dataset("uint64", data=np.arange(3, dtype=np.uint64))
    f.create_group("grp")
    # h5py's bool enum holding 2, which is no member (a corrupt bool).
    b = f.create_dataset("bad_bool", (3,), dtype=bool)
    b.id.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array([0, 1, 2], dtype=np.int8), mtype=h5py.h5t.STD_I8LE)
    # Extents whose product overflows int64, and a large sparse one (no chunk is written: the
    # file stays small); hyperslabs of it read fill values.
    f.create_dataset("overflow", shape=(2**31, 2**31, 2**31), dtype=np.int8, chunks=(1, 1, 16))
    f.create_dataset("sparse", shape=(2**40, 2**20), dtype=np.int16, chunks=(1, 16), fillvalue=-3)
    # h5py's own LZF filter, which HDF5's C library does not have: reading it fails inside HDF5.
    f.create_dataset("lzf", data=np.zeros(1000, dtype=np.int32), chunks=(1000,), compression="lzf")

with open(os.path.join(OUT, "expected.txt"), "w") as out:
    out.write("# written by tests/golden/gen_h5.py with h5py " + h5py.__version__ + "\n")
    out.write("\n".join(lines) + "\n")
print("wrote", OUT)
