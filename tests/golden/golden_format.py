"""The text format of the golden data files (tests/golden_data.hpp reads it): a tensor is
`dtype ndim size... numel value...`, floats written exactly as hex, nan and inf as words."""
import math

import torch

NAME = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.int32: "int32", torch.bool: "bool"}


def value_text(v, dtype):
    if dtype == torch.bool:
        return "1" if v else "0"
    if dtype.is_floating_point:
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v.hex()
    return str(int(v))


def tensor_text(t):
    t = t.detach()
    head = [NAME[t.dtype], str(t.dim())] + [str(s) for s in t.shape] + [str(t.numel())]
    return " ".join(head + [value_text(v, t.dtype) for v in t.flatten().tolist()])


def args_text(kw):
    """A case's arguments as `key=value` words: bools as 1/0, None as `none`, lists as comma
    lists (`empty` for none), floats as repr."""
    out = []
    for k, v in kw.items():
        if v is None:
            v = "none"
        elif isinstance(v, bool):
            v = "1" if v else "0"
        elif isinstance(v, (list, tuple)):
            v = ",".join(str(d) for d in v) if v else "empty"
        elif isinstance(v, float):
            v = repr(v)
        out.append(f"{k}={v}")
    return " ".join(out)


CNAME = {torch.complex64: "complex64", torch.complex128: "complex128"}


def ctext(t):
    """A tensor's text; a complex one as its (re, im) pairs under its complex shape:
    `complex64 ndim size... 2*numel re im re im ...` (its view_as_real's values)."""
    t = t.detach()
    if not t.is_complex():
        return tensor_text(t)
    r = torch.view_as_real(t.resolve_conj())
    part = torch.float32 if t.dtype == torch.complex64 else torch.float64
    head = [CNAME[t.dtype], str(t.dim())] + [str(s) for s in t.shape] + [str(2 * t.numel())]
    return " ".join(head + [value_text(v, part) for v in r.flatten().tolist()])
