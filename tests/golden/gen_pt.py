#!/usr/bin/python3
"""Writes tests/files/data/pt/: .pt files written by real torch.save (PyTorch 1.13), a few
broken ones, and a manifest (expected.txt) that tests/files/test_pt.cpp checks tenet::load against.

Manifest lines (written here from the values PyTorch saved and reloaded, not from tenet):

    T FILE PATH DTYPE STORAGE OFFSET NDIM SIZE... STRIDE... REQUIRES_GRAD NUMEL VALUE...
    S FILE PATH KIND VALUE         KIND: none, bool, int, float (hex), str
    D FILE PATH N KEY...           a dict (OrderedDict too) and its keys in order
    L FILE PATH KIND N             KIND: list or tuple
    E FILE WORDS...                tenet::load(FILE) must throw io_error whose message holds
                                   each of WORDS (and FILE's name)

PATH is the place in the loaded value: `.` for the root, then `/key` or `/index` per level.
STORAGE numbers the tensor's storage within its file (equal numbers: one shared storage);
VALUE is the tensor's elements in row-major order of its own sizes, floats as hex (16-bit floats
widened exactly), complex ones as two words each (real, imaginary). Keys and strings hold no spaces.

Run: cd tests/golden && /usr/bin/python3 gen_pt.py
"""
import collections
import datetime
import io
import pathlib
import zipfile

import torch

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "files" / "data" / "pt"

NAMES = {torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
         torch.int32: "int32", torch.int64: "int64", torch.float16: "float16",
         torch.bfloat16: "bfloat16", torch.float32: "float32", torch.float64: "float64",
         torch.complex64: "complex64", torch.complex128: "complex128"}


def value_text(v, floating):
    if isinstance(v, complex):
        return f"{v.real.hex()} {v.imag.hex()}"
    if isinstance(v, bool):
        return "1" if v else "0"
    if floating:
        return float(v).hex()
    return str(int(v))


class Manifest:
    def __init__(self):
        self.lines = []

    def walk(self, file, path, v, storages):
        if isinstance(v, torch.Tensor):
            key = v.untyped_storage().data_ptr() if hasattr(v, "untyped_storage") else v.storage().data_ptr()
            sid = storages.setdefault(key, len(storages))
            t = v.detach()
            flat = (t.float() if t.dtype in (torch.float16, torch.bfloat16) else t).flatten().tolist()
            words = ["T", file, path, NAMES[t.dtype], str(sid), str(t.storage_offset()), str(t.dim())]
            words += [str(s) for s in t.shape] + [str(s) for s in t.stride()]
            words += ["1" if v.requires_grad else "0", str(t.numel())]
            words += [value_text(x, t.dtype.is_floating_point or t.dtype.is_complex) for x in flat]
            self.lines.append(" ".join(words))
        elif isinstance(v, dict):
            keys = [str(k) for k in v.keys()]
            self.lines.append(" ".join(["D", file, path, str(len(keys))] + keys))
            for k, x in v.items():
                self.walk(file, f"{path}/{k}", x, storages)
        elif isinstance(v, (list, tuple)):
            kind = "list" if isinstance(v, list) else "tuple"
            self.lines.append(" ".join(["L", file, path, kind, str(len(v))]))
            for i, x in enumerate(v):
                self.walk(file, f"{path}/{i}", x, storages)
        elif v is None:
            self.lines.append(f"S {file} {path} none none")
        elif isinstance(v, bool):
            self.lines.append(f"S {file} {path} bool {int(v)}")
        elif isinstance(v, int):
            self.lines.append(f"S {file} {path} int {v}")
        elif isinstance(v, float):
            self.lines.append(f"S {file} {path} float {v.hex()}")
        elif isinstance(v, str):
            assert " " not in v and v
            self.lines.append(f"S {file} {path} str {v}")
        else:
            raise TypeError(type(v))


def save(m, name, value):
    torch.save(value, OUT / name)
    back = torch.load(OUT / name)  # what PyTorch itself reads back is what tenet must read
    m.walk(name, ".", back, {})


def rewrite(src, dst, pickle_edit=None, record_edit=None, drop=None):
    """Copies the archive src to dst (stored entries), editing data.pkl's bytes and records."""
    with zipfile.ZipFile(OUT / src) as zin, zipfile.ZipFile(OUT / dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if drop and info.filename.endswith(drop):
                continue
            if pickle_edit and info.filename.endswith("/data.pkl"):
                data = pickle_edit(data)
            if record_edit and "/data/" in info.filename:
                data = record_edit(info.filename, data)
            # A fixed date: the files are the same at every run.
            out = zipfile.ZipInfo(info.filename.replace(src[:-3] + "/", dst[:-3] + "/", 1), (1980, 1, 1, 0, 0, 0))
            zout.writestr(out, data)


def binunicode(s):
    b = s.encode()
    return b"X" + len(b).to_bytes(4, "little") + b


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for f in OUT.glob("*.pt"):
        f.unlink()
    m = Manifest()
    torch.manual_seed(0)

    save(m, "tensor.pt", torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4 - 1)

    dtypes = collections.OrderedDict()
    for dt in (dt for dt in NAMES if not dt.is_complex):  # complex ones: complex.pt
        x = torch.arange(-3, 3)
        if dt == torch.bool:
            dtypes[NAMES[dt]] = x % 2 == 0
        elif dt == torch.uint8:
            dtypes[NAMES[dt]] = (x + 250).to(torch.int64).remainder(256).to(dt)
        elif dt.is_floating_point:
            dtypes[NAMES[dt]] = (x.to(torch.float64) * 1.375 + 0.25).to(dt)
        else:
            dtypes[NAMES[dt]] = (x * 1000 if dt in (torch.int16, torch.int32) else x).to(dt)
    dtypes["int64_big"] = torch.tensor([-2**62, 2**53 + 1, 2**62], dtype=torch.int64)
    dtypes["float64_special"] = torch.tensor([float("inf"), -0.0, 1e-310, 1e300], dtype=torch.float64)
    save(m, "dtypes.pt", dtypes)

    base = torch.arange(24, dtype=torch.float64).reshape(4, 6) * 0.5
    save(m, "views.pt", {"base": base, "row": base[2], "t": base.t(), "cols": base[1:, 1::2],
                         "expand": base[0, :3].unsqueeze(0).expand(2, 3), "other": torch.ones(2)})

    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2), torch.nn.Linear(2, 1, bias=False))
    model.train()
    model(torch.randn(4, 3))  # running stats and num_batches_tracked move
    save(m, "state_dict.pt", model.state_dict())  # an OrderedDict with _metadata (BUILD)

    save(m, "nested.pt", {
        "hp": {"lr": 0.1, "n": 3, "big": 2**40, "neg": -5, "name": "adam", "flag": True, "off": False,
               "none": None, "minus": -2**63},
        "list": [torch.tensor([1, 2], dtype=torch.int32), torch.tensor(2.5)],
        "tuple": (torch.zeros(2, 0, 3), 7, "x"),
        "ints": {1: torch.tensor([True]), 2: [[], ()]},
        "empty": {},
    })

    save(m, "list.pt", [torch.arange(6, dtype=torch.int16).reshape(2, 3).t(), torch.tensor(-1.5, dtype=torch.bfloat16)])

    # complex64 and complex128 (torch.ComplexFloatStorage, ComplexDoubleStorage): views of one
    # storage, and special values in both parts.
    c = torch.complex(torch.arange(12, dtype=torch.float32) * 0.5 - 2, 3 - torch.arange(12, dtype=torch.float32) * 0.25)
    c = c.reshape(3, 4)
    z = torch.tensor([complex(float("inf"), -0.0), complex(float("nan"), 1e-310), complex(-1e300, float("-inf"))],
                     dtype=torch.complex128)
    save(m, "complex.pt", {"c64": c, "t": c.t(), "cols": c[1:, 1::2], "c128": z, "scalar": torch.tensor(1.5 - 2j)})

    p = torch.nn.Parameter(torch.tensor([0.5, -2.0]))
    save(m, "parameter.pt", p)  # _rebuild_parameter
    g = torch.arange(4, dtype=torch.float32).requires_grad_()
    save(m, "requires_grad.pt", [g, g.detach()[1:]])

    # A CUDA tensor's file (no GPU here): the location 'cpu' rewritten to 'cuda:0', exactly what
    # torch.save writes for a cuda:0 tensor; torch.load(map_location='cpu') must read it.
    torch.save(torch.arange(3, dtype=torch.float32), OUT / "cpu_src.pt")
    rewrite("cpu_src.pt", "cuda.pt", pickle_edit=lambda b: b.replace(binunicode("cpu"), binunicode("cuda:0")))
    (OUT / "cpu_src.pt").unlink()
    m.walk("cuda.pt", ".", torch.load(OUT / "cuda.pt", map_location="cpu"), {})

    # Broken and hostile files: each must be an io_error naming the fault (torch.load 1.13 itself
    # reads short_record.pt without complaint, and outside.pt only fails later, when used).
    torch.save({"d": datetime.date(2020, 1, 2)}, OUT / "global.pt")
    m.lines.append("E global.pt datetime.date allow-list")
    torch.save(torch.arange(4, dtype=torch.float32), OUT / "src.pt")
    rewrite("src.pt", "short_record.pt", record_edit=lambda n, d: d[:-4])
    m.lines.append("E short_record.pt storage 16 12")
    rewrite("src.pt", "outside.pt", pickle_edit=lambda b: b.replace(b"K\x00K\x04\x85", b"K\x01K\x04\x85"))
    m.lines.append("E outside.pt outside")
    rewrite("src.pt", "no_record.pt", drop="/data/0")
    m.lines.append("E no_record.pt no record")
    rewrite("src.pt", "protocol4.pt", pickle_edit=lambda b: b"\x80\x04" + b[2:])
    m.lines.append("E protocol4.pt protocol 4")
    rewrite("src.pt", "truncated_pickle.pt", pickle_edit=lambda b: b[:40])
    m.lines.append("E truncated_pickle.pt truncated")
    (OUT / "src.pt").unlink()
    torch.save(torch.tensor([True, False]), OUT / "src.pt")
    rewrite("src.pt", "bad_bool.pt", record_edit=lambda n, d: b"\x01\x50")
    m.lines.append("E bad_bool.pt BoolStorage 80")
    (OUT / "src.pt").unlink()
    # A complex tensor that requires grad (PyTorch saves it; tenet has no complex autograd): the
    # test expects an io_error where tenet is built with autograd (no E line: without autograd it loads).
    torch.save(torch.tensor([1 + 2j, -3j]).requires_grad_(), OUT / "complex_grad.pt")

    (OUT / "expected.txt").write_text("\n".join(m.lines) + "\n")


if __name__ == "__main__":
    main()
