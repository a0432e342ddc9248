"""DLPack exchange between real PyTorch and tenet, through ctypes and tests/interop/dlpack_pycheck.cpp.

    python3 check_dlpack.py path/to/libtenet_dlpack_pycheck.so [--device cuda]

With --device cuda the same checks run on PyTorch CUDA tensors (kDLCUDA), for a library built
by nvcc with tenet's CUDA backend; the device is synchronized after each call into tenet.

PyTorch's capsules (torch.utils.dlpack.to_dlpack) go into tenet's from_dlpack, which doubles the
elements in place (complex64 and complex128 included), exports a transposed view, or exports a
fresh tensor of row sums; tenet's exports come back through torch.utils.dlpack.from_dlpack.
Checks shared memory (data pointers, writes seen on the other side), values, and lifetimes.
Exits nonzero on the first failure.
"""
import ctypes
import sys
import warnings

import torch
import torch.utils.dlpack as tdl

lib = ctypes.CDLL(sys.argv[1])
device = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--device" else "cpu"
for name in ("tenet_dlpack_transpose", "tenet_dlpack_row_sums"):
    getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]
    getattr(lib, name).restype = ctypes.c_int
lib.tenet_dlpack_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.tenet_dlpack_double.restype = ctypes.c_int

api = ctypes.pythonapi
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
api.PyCapsule_New.restype = ctypes.py_object

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def call(fn, x, *out):
    """Hands torch tensor x to tenet through a DLPack capsule; returns the C function's code."""
    capsule = tdl.to_dlpack(x)
    ptr = api.PyCapsule_GetPointer(capsule, b"dltensor")
    err = ctypes.create_string_buffer(512)
    rc = fn(ptr, *out, err, len(err))
    if device != "cpu":
        torch.cuda.synchronize()
    if rc in (0, 2):  # tenet took ownership: the capsule must not call the deleter again
        api.PyCapsule_SetName(capsule, b"used_dltensor")
    if rc != 0:
        print("  tenet:", err.value.decode())
    return rc


def from_tenet(ptr):
    """A torch tensor over a DLManagedTensor* exported by tenet."""
    return tdl.from_dlpack(api.PyCapsule_New(ptr, b"dltensor", None))


dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16,
          torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.complex64, torch.complex128]


def wide(x):
    """x's values in float64 (complex128 for complex x), for exact comparisons."""
    return x.to(torch.complex128) if x.dtype.is_complex else x.double()


def layouts(dtype):
    base = torch.arange(24).to(dtype).reshape(4, 6).to(device)
    if dtype.is_complex:
        base = base * (1 - 0.5j)  # imaginary parts that differ from the real ones
    return {
        "contiguous": base.clone(),
        "transposed": base.clone().t(),
        "sliced with offset and steps": base.clone()[1:, ::2],
        "0-d": torch.tensor(5).to(dtype).to(device),
        "empty": torch.zeros(0, 3, dtype=dtype, device=device),
    }


for dtype in dtypes:
    for name, x in layouts(dtype).items():
        what = f"{dtype} {name}"
        expected = wide(x) * 2
        ptr_before = x.data_ptr()
        rc = call(lib.tenet_dlpack_double, x)
        check(rc == 0, f"double {what}: rc {rc}")
        # Doubled in place: the same torch tensor, same memory, now holds 2x (no copy back).
        check(x.data_ptr() == ptr_before and torch.equal(wide(x), expected), f"double {what}: values {x}")

        if x.dim() == 2:
            out = ctypes.c_void_p()
            rc = call(lib.tenet_dlpack_transpose, x, ctypes.byref(out))
            check(rc == 0, f"transpose {what}: rc {rc}")
            if rc == 0:
                y = from_tenet(out.value)
                check(y.dtype == dtype, f"transpose {what}: dtype {y.dtype}")
                check(torch.equal(y, x.t()), f"transpose {what}: values")
                # (PyTorch's to_dlpack rewrites an empty tensor's strides: only elements share memory.)
                if y.numel() > 0:
                    check(y.data_ptr() == x.data_ptr() and y.stride() == x.t().stride(),
                          f"transpose {what}: not the same memory (strides {y.stride()} vs {x.t().stride()})")
                    y[-1, 0] = 3
                    check(x[0, -1].item() == 3, f"transpose {what}: a write through tenet's export not seen")
                    # tenet's export keeps PyTorch's original memory alive after x is gone.
                    keep = x.t().clone()
                    del x
                    check(torch.equal(y, keep), f"transpose {what}: values after the original died")

for dtype in (torch.float32, torch.int32, torch.float16):
    x = torch.arange(12).to(dtype).reshape(3, 4).t()[:, 1:].to(device)  # non-contiguous input
    expanded = torch.arange(3).to(dtype).to(device).expand(2, 3)
    for ex, label in ((x, "strided"), (expanded, "expanded (stride 0)")):
        out = ctypes.c_void_p()
        rc = call(lib.tenet_dlpack_row_sums, ex, ctypes.byref(out))
        check(rc == 0, f"row sums {dtype} {label}: rc {rc}")
        if rc == 0:
            s = from_tenet(out.value)  # memory allocated by tenet, freed by the capsule's deleter
            check(s.dtype == torch.float64 and s.device == ex.device and torch.equal(s, ex.double().sum(-1)),
                  f"row sums {dtype} {label}: {s}")

# What tenet refuses comes back as an error, and the capsule keeps (and later frees) the tensor.
with warnings.catch_warnings():  # PyTorch 1.13: "ComplexHalf support is experimental"
    warnings.simplefilter("ignore", UserWarning)
    chalf = torch.zeros(2, dtype=torch.complex32, device=device)
rc = call(lib.tenet_dlpack_double, chalf)
check(rc == 1, f"complex32: expected tenet to refuse it (rc 1), got rc {rc}")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print(f"dlpack with PyTorch ({device}): ok")
