"""Seeds for tests/fuzz/fuzz_dlpack.cpp: DLTensor descriptions in the harness's byte encoding.

    cd tests/golden && /usr/bin/python3 gen_dlpack_corpus.py

The valid seeds are the descriptions real PyTorch exports (torch.utils.dlpack.to_dlpack, read
back through ctypes): dtype, ndim, shape, strides, with the tensor's storage offset moved into
byte_offset (the harness points data at its own buffer). The invalid ones are PyTorch's with
one field broken. Writes ../fuzz/corpus/dlpack/*.bin.
"""
import ctypes
import os
import struct

import torch
import torch.utils.dlpack as tdl

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus", "dlpack")


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


api = ctypes.pythonapi
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p


def describe(x):
    """The DLTensor fields PyTorch exports for x (the capsule is released unused)."""
    capsule = tdl.to_dlpack(x)
    d = DLTensor.from_address(api.PyCapsule_GetPointer(capsule, b"dltensor"))
    n = d.ndim
    shape = [d.shape[i] for i in range(n)]
    strides = [d.strides[i] for i in range(n)] if d.strides else None
    itemsize = x.element_size()
    return dict(code=d.dtype.code, bits=d.dtype.bits, lanes=d.dtype.lanes, ndim=n, device=d.device.device_type,
                device_id=d.device.device_id, shape=shape, strides=strides,
                byte_offset=d.byte_offset + x.storage_offset() * itemsize, shift=0, null_data=False,
                null_shape=False)


def encode(f):
    flags = (f["strides"] is None) | (f["null_data"] << 1) | (f["null_shape"] << 2) | (f["shift"] << 3)
    out = struct.pack("<BBHbBbBQ", f["code"], f["bits"], f["lanes"], f["ndim"], f["device"], f["device_id"], flags,
                      f["byte_offset"])
    strides = f["strides"] or [0] * len(f["shape"])
    for s, st in zip(f["shape"], strides):
        out += struct.pack("<qq", s, st)
    return out


base = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
valid = {
    "f32_contiguous": base,
    "f32_permuted": base.permute(2, 0, 1),
    "f32_sliced": base[:, 1:, ::2],
    "f32_expanded": torch.arange(4.0)[None].expand(3, 4),
    "f32_empty": torch.zeros(0, 3),
    "f64_0d": torch.tensor(2.5, dtype=torch.float64),
    "f16_row": torch.arange(6, dtype=torch.float16).reshape(2, 3)[1],
    "bf16_t": torch.arange(6, dtype=torch.bfloat16).reshape(2, 3).t(),
    "i8": torch.arange(5, dtype=torch.int8),
    "u8_col": torch.arange(12, dtype=torch.uint8).reshape(3, 4)[:, 2],
    "i16": torch.arange(4, dtype=torch.int16).reshape(2, 2),
    "i32_step": torch.arange(10, dtype=torch.int32)[1::3],
    "i64": torch.arange(3, dtype=torch.int64),
    "c64_t": torch.complex(torch.arange(6.0), -torch.arange(6.0)).reshape(2, 3).t(),
    "c128_sliced": torch.arange(8.0).to(torch.complex128)[1::3],
}
seeds = {name: describe(x) for name, x in valid.items()}

broken = {
    "bad_lanes": ("f32_contiguous", dict(lanes=4)),
    "bad_complex32": ("c64_t", dict(bits=32)),
    "bad_uint16": ("i16", dict(code=1)),
    "bad_ndim_negative": ("i64", dict(ndim=-1)),
    "bad_ndim_large": ("i64", dict(ndim=100)),
    "bad_negative_size": ("i16", dict(shape=[2, -2])),
    "bad_negative_stride": ("i32_step", dict(strides=[-3])),
    "bad_null_data": ("i64", dict(null_data=True)),
    "bad_null_shape": ("i64", dict(null_shape=True)),
    "bad_misaligned": ("i64", dict(shift=3)),
    "bad_device_opencl": ("i64", dict(device=4)),
    "bad_device_cuda": ("i64", dict(device=2)),
    "bad_overflow_count": ("i16", dict(shape=[2**32, 2**32])),
    "bad_overflow_extent": ("i64", dict(strides=[2**61])),
    "null_strides": ("f32_contiguous", dict(strides=None)),
}
for name, (source, change) in broken.items():
    f = dict(seeds[source])
    f.update(change)
    seeds[name] = f

os.makedirs(OUT, exist_ok=True)
for name, f in seeds.items():
    with open(os.path.join(OUT, name + ".bin"), "wb") as fh:
        fh.write(encode(f))
print(f"wrote {len(seeds)} seeds to {os.path.normpath(OUT)}")
