#!/usr/bin/python3
"""Generates docs/API.md, tenet's API reference, from the headers (issue 18).

    /usr/bin/python3 scripts/gen_api_reference.py            # regenerate docs/API.md
    /usr/bin/python3 scripts/gen_api_reference.py --check    # fail if docs/API.md is stale
    /usr/bin/python3 scripts/gen_api_reference.py --no-torch-check

Sources, all parsed (standard library only, regular expressions and a brace scanner; no
compiler):
  * include/tenet/expr/unary_ops.def: the op table (element-wise ops, their forms and their
    derivative column);
  * include/tenet/core/value_methods.hpp: the lazy methods tensors and expressions share;
  * class Tensor (core/tensor.hpp) and TensorBase (core/tensor_impl.hpp): the public members;
  * every other public header: the free functions of namespace tenet and of its public
    sub-namespaces (linalg, autograd, accelerator, indexing), skipping `detail` and the other
    internal namespaces, names starting with `_` and the helpers listed in INTERNAL below.
    Function-like macros defined in a header (`TENET_DEFINE_INPLACE_METHOD(...)`) and the op
    tables' `#include`s (expr/unary_ops.def, expr/binary_ops.def) are expanded before parsing.

PyTorch counterparts: a name maps to torch.NAME / Tensor.NAME (or torch.linalg.NAME, ...)
when that exists in PyTorch; RENAMED below holds the names that differ. Whether a
counterpart exists is checked against the installed torch (1.13) and cached in
docs/api_torch_names.json, so that `--check` (the ctest) needs no torch: it regenerates the
text from the headers and the cache and compares it with docs/API.md. A normal run needs torch
(it refreshes the cache) unless --no-torch-check, which uses the cache and marks names it
does not hold as unverified.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include" / "tenet"
OUT = ROOT / "docs" / "API.md"
CACHE = ROOT / "docs" / "api_torch_names.json"
OP_TABLE = INCLUDE / "expr" / "unary_ops.def"
BINARY_TABLE = INCLUDE / "expr" / "binary_ops.def"
VALUE_METHODS = INCLUDE / "core" / "value_methods.hpp"

# ---------------------------------------------------------------------------------------
# What is public
# ---------------------------------------------------------------------------------------

# Namespaces whose contents are not API (their functions are helpers of the public ones).
INTERNAL_NAMESPACES = {"detail", "fn", "rule", "arith", "expr", "dfn", "return_types", "cuda", "backend"}
# Headers that hold machinery, not API (their public names, if any, are used through others).
INTERNAL_HEADERS = {
    "autograd/derivatives.hpp", "autograd/engine.hpp", "autograd/hooks.hpp", "autograd/node.hpp",
    "autograd/record.hpp", "autograd/replay.hpp", "autograd/saved_expression.hpp",
    "autograd/tensor_autograd.hpp", "autograd/products.hpp", "autograd/decompositions.hpp",
    "autograd/join.hpp", "autograd/flip.hpp", "autograd/reductions.hpp",
    "backend/device/device_dispatch.hpp", "backend/device/device_copy.hpp",
    "backend/device/device_loop.hpp", "core/hooks.hpp", "core/hooks_off.hpp", "core/hook_definitions.hpp",
    "core/host_device.hpp", "backend/host/strided_loop.hpp", "core/storage.hpp", "core/geometry.hpp",
    "core/value_methods.hpp", "backend/host/evaluate.hpp", "backend/host/reduce_loops.hpp", "ops/reducers.hpp", "expr/evaluating_methods.hpp",
    "expr/functors.hpp", "expr/node.hpp", "expr/pow_rewrite.hpp", "expr/promotion.hpp",
    "expr/simd_exp.hpp", "linalg/gemm.hpp", "linalg/recording.hpp", "linalg/common.hpp",
    "distributed/mpi_engine.hpp", "distributed/mpi_types.hpp",
}
# Of autograd/, only these headers are API; the rest is the engine behind them.
AUTOGRAD_PUBLIC = {"autograd/grad.hpp", "autograd/gradcheck.hpp", "autograd/graphviz.hpp",
                   "autograd/accumulate_hooks.hpp"}


def is_internal_header(rel: str) -> bool:
    return rel in INTERNAL_HEADERS or (rel.startswith("autograd/") and rel not in AUTOGRAD_PUBLIC)


# Helpers that live in namespace tenet but are not meant to be called by users.
INTERNAL = {
    "host_allocator", "make_pooled", "cpu_stream_copy", "stream_lines", "stream_fence",
    "last_level_cache_bytes", "streaming_threshold_setting", "stream_copy_for",
    "num_threads_setting", "visit_dtype", "scalar_type_of", "impl", "impl_ptr",
    "copy_data_", "noalias", "static_assert", "philox4x32_10", "resolve_group", "reduce_op_name",
}
# Types (classes, structs, enums at namespace scope) that are helpers, not API.
INTERNAL_TYPES = {
    "CachingHostAllocator", "AllocatorStats", "BlockCache", "ThreadCacheState", "ThreadCacheReaper", "is_reduced_float",
    "TensorImpl", "TensorImplPtr", "static_assignable", "static_broadcast", "static_matmul",
    "static_einsum", "fixed_string", "PhiloxState", "is_static_shape", "EllipsisIndexType",
}
# The classes whose public members are listed as Tensor methods.
TENSOR_CLASSES = {"Tensor", "TensorBase"}

# Sections: header (relative to include/tenet) -> title. Headers not named here get a section
# titled by their path.
SECTION_TITLES = OrderedDict([
    ("ops/creation.hpp", "Creation"),
    ("ops/random.hpp", "Random numbers"),
    ("ops/reduce.hpp", "Reductions"),
    ("ops/join.hpp", "Joins and splits"),
    ("ops/flip.hpp", "Reversal"),
    ("expr/math.hpp", "Element-wise math with parameters"),
    ("expr/binary_ops.hpp", "Binary element-wise operations"),
    ("expr/operators.hpp", "Arithmetic and comparison"),
    ("linalg/matmul.hpp", "Matrix products"),
    ("linalg/products.hpp", "Other products"),
    ("linalg/einsum.hpp", "einsum"),
    ("linalg/static_einsum.hpp", "einsum (compile-time)"),
    ("linalg/decompositions.hpp", "Decompositions and solvers (tenet::linalg)"),
    ("autograd/grad.hpp", "Autograd: grad"),
    ("autograd/gradcheck.hpp", "Autograd: gradcheck"),
    ("autograd/graphviz.hpp", "Autograd: graph output"),
    ("ops/windows.hpp", "Window functions"),
    ("fft/freq.hpp", "FFT helpers (tenet::fft)"),
    ("fft/engine.hpp", "FFT engine (tenet::fft)"),
    ("fft/norm.hpp", "FFT normalisation (tenet::fft)"),
    ("fft/plan_cache.hpp", "FFT plan cache (tenet::fft::plan_cache)"),
    ("io/print.hpp", "Printing"),
    ("backend/device/device_backend.hpp", "Devices"),
    ("core/grad_mode.hpp", "Grad mode"),
    ("backend/host/parallel.hpp", "Threads"),
    ("backend/host/simd_dispatch.hpp", "CPU vector instructions"),
    ("core/allocator.hpp", "Memory"),
    ("backend/host/streaming_stores.hpp", "Streaming stores"),
    ("core/dtype.hpp", "Element types"),
    ("core/convert.hpp", "Element conversion"),
    ("core/int_array.hpp", "Sizes"),
    ("core/static_shape.hpp", "Static shapes"),
    ("core/tensor_options.hpp", "Tensor options"),
    ("version.hpp", "Version"),
])

# ---------------------------------------------------------------------------------------
# PyTorch names
# ---------------------------------------------------------------------------------------

# tenet name (qualified as listed: "tenet::x", "x.m()", "tenet::linalg::x") -> counterpart.
# A value starting with "torch." or "Tensor." is checked against torch; any other value is
# shown as written (an idiom, not a name).
RENAMED = {
    "x.reset_grad()": "`x.grad = None`",
    "x.assign()": "`out=` argument",
    "x.set_requires_grad()": "Tensor.requires_grad_",
    "x.grad()": "Tensor.grad",
    "x.grad_fn()": "Tensor.grad_fn",
    "x.is_leaf()": "Tensor.is_leaf",
    "x.requires_grad()": "Tensor.requires_grad",
    "x.sizes()": "Tensor.size",
    "x.strides()": "Tensor.stride",
    "x.shape()": "Tensor.shape",
    "x.dtype()": "Tensor.dtype",
    "x.device()": "Tensor.device",
    "x.ndim()": "Tensor.ndim",
    "x.itemsize()": "Tensor.element_size",
    "x.nbytes()": "Tensor.nbytes",
    "x.scalar_type()": "Tensor.dtype",
    "x.is_cpu()": "Tensor.is_cpu",
    "x.is_cuda()": "Tensor.is_cuda",
    "x.defined()": "`x is not None`",
    "x.is_same()": "`x is y`",
    "x.data()": "Tensor.data_ptr",
    "x.to_vector()": "Tensor.tolist",
    "x.storage()": "Tensor.storage",
    "x.index()": "`x[...]`",
    "x.index_put_()": "`x[...] = v`",
    "x.operator[]()": "`x[i]`",
    "x.operator()()": "`x[i, j]`",
    "tenet::tensor()": "torch.tensor",
    "tenet::make_complex()": "torch.complex",
    "tenet::manual_seed()": "torch.manual_seed",
    "tenet::cuda_is_available()": "torch.cuda.is_available",
    "tenet::cuda_device_count()": "torch.cuda.device_count",
    "tenet::cuda_synchronize()": "torch.cuda.synchronize",
    "tenet::set_streaming_threshold()": "—",
    "tenet::get_streaming_threshold()": "—",
    "tenet::to_string()": "`str(x)`",
    "tenet::set_printoptions()": "torch.set_printoptions",
    "tenet::arctan2()": "torch.arctan2",
    "tenet::autograd::gradcheck()": "torch.autograd.gradcheck",
    "tenet::autograd::gradgradcheck()": "torch.autograd.gradgradcheck",
    "tenet::autograd::grad()": "torch.autograd.grad",
    "tenet::autograd::backward()": "torch.autograd.backward",
    "tenet::autograd::to_dot()": "`torchviz.make_dot` (not in torch)",
    "tenet::get_default_dtype()": "torch.get_default_dtype",
    "tenet::version()": "`torch.__version__`",
    "tenet::vector_norm()": "torch.linalg.vector_norm",
    "tenet::cuda_is_emulated()": "—",
    "tenet::cuda_current_device()": "torch.cuda.current_device",
    "tenet::cuda_set_device()": "torch.cuda.set_device",
    "tenet::cuda_empty_cache()": "torch.cuda.empty_cache",
    "tenet::cuda_backend_name()": "torch.cuda.get_device_name",
    "tenet::accelerator::is_available()": "torch.cuda.is_available",
    "tenet::accelerator::device_count()": "torch.cuda.device_count",
    "tenet::accelerator::current_accelerator()": "—",
    "tenet::empty_cache()": "—",
    "tenet::from_blob()": "torch.frombuffer",
    "tenet::device()": "`device=` keyword",
    # Types
    "tenet::Tensor": "torch.Tensor",
    "tenet::TensorBase": "torch.Tensor",
    "tenet::StaticTensor": "—",
    "tenet::Device": "torch.device",
    "tenet::DeviceType": "`torch.device.type`",
    "tenet::DType": "torch.dtype",
    "tenet::ScalarType": "torch.dtype",
    "tenet::Generator": "torch.Generator",
    "tenet::NoGradGuard": "`with torch.no_grad():`",
    "tenet::AutoGradMode": "`with torch.set_grad_enabled(b):`",
    "tenet::autograd::GradMode": "`torch.is_grad_enabled()` / `torch.set_grad_enabled(b)`",
    "tenet::Half": "`torch.float16`",
    "tenet::BFloat16": "`torch.bfloat16`",
    "tenet::indexing::Slice": "`slice` / `a:b:c`",
    "tenet::indexing::TensorIndex": "`x[...]`'s index",
    "tenet::NestedList": "`list` (of `tolist()`)",
    "tenet::dtype_t": "torch.dtype",
    "tenet::Shape": "—",
    "tenet::linalg::EigResult": "torch.return_types.linalg_eig",
    "tenet::linalg::EighResult": "torch.return_types.linalg_eigh",
    "tenet::linalg::QRResult": "torch.return_types.linalg_qr",
    "tenet::linalg::SVDResult": "torch.return_types.linalg_svd",
    "tenet::linalg::SlogdetResult": "torch.return_types.linalg_slogdet",
    "tenet::linalg::LstsqResult": "torch.return_types.linalg_lstsq",
    "tenet::indexing::None": "`None` (in an index)",
    "tenet::kCPU": "`torch.device(\"cpu\")`",
    "tenet::kCUDA": "`torch.device(\"cuda\")`",
    "tenet::kMeta": "`torch.device(\"meta\")`",
    "tenet::indexing::Ellipsis": "`...` (in an index)",
    "tenet::TensorOptions": "`dtype=` / `device=` keywords",
    "tenet::IntArray": "torch.Size",
    "tenet::error": "`RuntimeError`",
    "tenet::shape_error": "`RuntimeError`",
    "tenet::index_error": "`IndexError`",
    "tenet::dtype_error": "`TypeError` / `RuntimeError`",
    "tenet::value_error": "`ValueError`",
    "tenet::device_error": "`RuntimeError`",
    "tenet::not_implemented_error": "`NotImplementedError`",
    "tenet::fft::c2c()": "— (the engine under torch.fft.fft / ifft)",
    "tenet::fft::r2c()": "— (the engine under torch.fft.rfft)",
    "tenet::fft::c2r()": "— (the engine under torch.fft.irfft)",
    "tenet::fft::parse_norm()": "`norm=` keyword of torch.fft",
    "tenet::fft::norm_name()": "`norm=` keyword of torch.fft",
    "tenet::fft::norm_scale()": "—",
    "tenet::fft::backend_available()": "—",
    "tenet::fft::default_backend()": "—",
    "tenet::fft::backend_name()": "—",
    "tenet::fft::Norm": "`norm=` keyword of torch.fft",
    "tenet::fft::Direction": "—",
    "tenet::fft::Backend": "—",
    "tenet::fft::Layout": "—",
    "tenet::fft::plan_cache::size()": "`torch.backends.cuda.cufft_plan_cache.size` (CUDA)",
    "tenet::fft::plan_cache::max_size()": "`torch.backends.cuda.cufft_plan_cache.max_size` (CUDA)",
    "tenet::fft::plan_cache::set_max_size()": "`torch.backends.cuda.cufft_plan_cache.max_size` (CUDA)",
    "tenet::fft::plan_cache::clear()": "`torch.backends.cuda.cufft_plan_cache.clear` (CUDA)",
    "tenet::promote_types()": "torch.promote_types",
    "tenet::result_type()": "torch.result_type",
    "tenet::can_cast()": "torch.can_cast",
    "tenet::is_grad_enabled()": "torch.is_grad_enabled",
    "tenet::set_grad_enabled()": "torch.set_grad_enabled",
}

# Where to look for a name that is not in RENAMED, by how tenet spells it.
def default_candidates(kind: str, ns: str, name: str) -> list[str]:
    if ns == "tenet::distributed" and kind != "method":
        return [f"torch.distributed.{name}", f"torch.utils.data.{name}", f"torch.nn.parallel.{name}"]
    if kind == "method":
        return [f"Tensor.{name}", f"torch.nn.functional.{name}"]
    if kind == "type":
        return [f"torch.{name}"]
    if ns == "tenet::linalg":
        return [f"torch.linalg.{name}", f"torch.{name}"]
    if ns == "tenet::autograd":
        return [f"torch.autograd.{name}"]
    if ns == "tenet::accelerator":
        return [f"torch.cuda.{name}"]
    if ns == "tenet::fft":
        return [f"torch.fft.{name}"]
    return [f"torch.{name}", f"torch.nn.functional.{name}", f"torch.special.{name}"]


def is_checkable(counterpart: str) -> bool:
    return counterpart.startswith("torch.") or counterpart.startswith("Tensor.")


class TorchNames:
    """Whether a dotted torch name exists: from torch, or from the committed cache."""

    def __init__(self, mode: str):
        self.mode = mode  # "torch": import torch; "cache": the cache only
        self.cache: dict[str, bool] = {}
        self.version = None
        if CACHE.exists():
            data = json.loads(CACHE.read_text())
            self.cache = dict(data.get("names", {}))
            self.version = data.get("torch_version")
        self.used: dict[str, bool] = {}
        self.unknown: set[str] = set()
        self.torch = None
        if mode == "torch":
            try:
                import torch  # noqa: F401  (only here: --check and --no-torch-check need no torch)
            except ImportError as e:
                sys.exit("gen_api_reference: cannot import torch (%s) with %s.\n"
                         "Install it (Debian: apt-get install -y python3-torch), or pass --no-torch-check to\n"
                         "use the names cached in %s." % (e, sys.executable, CACHE.relative_to(ROOT)))
            self.torch = torch
            self.version = torch.__version__

    def exists(self, dotted: str) -> bool | None:
        if dotted in self.used:
            return self.used[dotted]
        if self.torch is not None:
            obj = self.torch.Tensor if dotted.startswith("Tensor.") else self.torch
            ok = True
            for part in dotted.split(".")[1:]:
                if not hasattr(obj, part):
                    ok = False
                    break
                obj = getattr(obj, part)
            self.used[dotted] = ok
            return ok
        if dotted in self.cache:
            self.used[dotted] = self.cache[dotted]
            return self.cache[dotted]
        self.unknown.add(dotted)
        return None

    def cache_text(self) -> str:
        return json.dumps({"torch_version": self.version, "names": dict(sorted(self.used.items()))},
                          indent=1, sort_keys=False) + "\n"


# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "alignas",
            "noexcept", "requires", "catch", "throw", "new", "delete", "using", "typedef", "alignof",
            "typeid", "co_return", "explicit", "operator", "template", "typename", "concept", "case"}


def table_rows(path: Path, macros: tuple[str, ...], split_at_commas: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """The rows of an op table (a .def file), in order: (macro, its arguments, stripped). The
    arguments of the macros in split_at_commas are split at every comma: an operator symbol such
    as < or << is not a bracket, and those rows hold no other commas."""
    if not path.exists():
        return []
    text = strip_comments(path.read_text())[0]
    rows = []
    for m in re.finditer(r"^\s*(%s)\s*\(" % "|".join(macros), text, re.M):
        args_text, _ = balanced(text, m.end() - 1, "(", ")")
        parts = args_text.split(",") if m.group(1) in split_at_commas else split_top(args_text)
        rows.append((m.group(1), [a.strip() for a in parts]))
    return rows


def read_op_table() -> list[dict]:
    """The rows of unary_ops.def: kind, name, functor, derivative."""
    kinds = {"TENET_FLOATING_OP": "floating", "TENET_UNARY_OP": "unary", "TENET_PREDICATE_OP": "predicate"}
    rows = []
    for macro, args in table_rows(OP_TABLE, tuple(kinds)):
        kind = kinds[macro]
        row = {"kind": kind, "name": args[0], "functor": args[1] if len(args) > 1 else ""}
        if kind == "floating":
            row["derivative"] = args[3] if len(args) > 3 else ""
        elif kind == "unary":
            row["derivative"] = args[2] if len(args) > 2 else ""
        else:
            row["derivative"] = "no_derivative"
        rows.append(row)
    return rows


BINARY_MACROS = ("TENET_BINARY_OP", "TENET_BINARY_ALIAS", "TENET_BINARY_OPERATOR")


@functools.lru_cache(maxsize=None)
def read_binary_table() -> tuple[tuple[str, list[str]], ...]:
    """The rows of binary_ops.def, in order: (macro, arguments); read once, expanded in every
    header that includes the table."""
    return tuple(table_rows(BINARY_TABLE, BINARY_MACROS, split_at_commas=("TENET_BINARY_OPERATOR",)))


def strip_comments(text: str) -> tuple[str, list[tuple[int, int, str, bool]]]:
    """Comments replaced by spaces (offsets kept); the `///` comments returned as
    (start, end, text, trailing: `///<`)."""
    out = []
    docs = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            body = text[i:j]
            if body.startswith("///"):
                trailing = body.startswith("///<")
                docs.append((i, j, body[4 if trailing else 3:].strip(), trailing))
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or c == "'":
            # A string or character literal, kept (a digit separator 1'000 is not a literal).
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), docs


def mask_strings(text: str) -> str:
    """String and character literals' contents replaced by spaces (for the structure scan)."""
    def repl(m):
        s = m.group(0)
        return s[0] + " " * (len(s) - 2) + s[-1]
    return re.sub(r'"(?:\\.|[^"\\\n])*"|(?<![A-Za-z0-9_])\'(?:\\.|[^\'\\\n])+\'', repl, text)


def balanced(text: str, start: int, open_c: str, close_c: str) -> tuple[str, int]:
    """The text inside the bracket at `start` and the index after its match."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return text[start + 1:j], j + 1
    return text[start + 1:], len(text)


def split_top(s: str) -> list[str]:
    """Splits at the commas outside (), <>, {}, []."""
    parts, depth, cur = [], 0, []
    for c in s:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def parse_macros(text: str) -> tuple[str, dict]:
    """Collects the function-like #defines; returns the text with every directive blanked
    (except the op-table include, kept as a marker) and the macros in order of definition."""
    lines = text.split("\n")
    out = []
    events = []  # (line index, "define"/"undef", name, params, body)
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"\s*#", line):
            full = [line]
            while full[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                full.append(lines[i])
            directive = " ".join(l.rstrip().rstrip("\\") for l in full)
            m = re.match(r"\s*#\s*define\s+(\w+)\(([^)]*)\)\s*(.*)$", directive)
            obj = re.match(r"\s*#\s*define\s+(\w+)(?:\s+(.*))?$", directive)
            u = re.match(r"\s*#\s*undef\s+(\w+)", directive)
            inc = re.match(r'\s*#\s*include\s+"tenet/expr/unary_ops\.def"', directive)
            binc = re.match(r'\s*#\s*include\s+"tenet/expr/binary_ops\.def"', directive)
            if m:
                events.append((len(out), "define", m.group(1), [p.strip() for p in m.group(2).split(",")], m.group(3)))
            elif obj and obj.group(2) is not None and not obj.group(1).endswith("_HPP"):
                events.append((len(out), "define", obj.group(1), None, obj.group(2)))
            elif u:
                events.append((len(out), "undef", u.group(1), None, None))
            if inc:
                out.append("@@OPTABLE%d@@" % len(events))
                events.append((len(out) - 1, "optable", None, None, None))
            elif binc:
                out.append("@@BINTABLE%d@@" % len(events))
            else:
                out.append("")
            out.extend([""] * (len(full) - 1))
        else:
            out.append(line)
        i += 1
    return "\n".join(out), events


def substitute(body: str, params: list[str], args: list[str]) -> str:
    mapping = dict(zip(params, [a.strip() for a in args]))
    if not mapping:
        return body
    body = re.sub(r"(?<!#)#(?!#)(\w+)", lambda m: '"%s"' % mapping.get(m.group(1), m.group(1))
                  if m.group(1) in mapping else m.group(0), body)
    body = re.sub(r"\b(\w+)\b", lambda m: mapping.get(m.group(1), m.group(1)), body)
    return re.sub(r"\s*##\s*", "", body)


def expand_macros(text: str, events: list, op_rows: list[dict]) -> str:
    """Expands the op-table include and the invocations of the header's own function-like
    macros (those whose expansion declares or defines something)."""
    active: dict[str, tuple[list[str], str]] = {}
    lines = text.split("\n")
    ev_by_line: dict[int, list] = {}
    for ev in events:
        ev_by_line.setdefault(ev[0], []).append(ev)
    out_lines = []
    for idx, line in enumerate(lines):
        for ev in ev_by_line.get(idx, []):
            if ev[1] == "define":
                active[ev[2]] = (ev[3], ev[4])
            elif ev[1] == "undef":
                active.pop(ev[2], None)
        if "@@OPTABLE" in line:
            line = " ".join(expand_op_rows(active, op_rows))
        elif "@@BINTABLE" in line:
            line = " ".join(expand_binary_rows(active))
            for macro in BINARY_MACROS:  # the table undefines its macros at its end
                active.pop(macro, None)
        else:
            line = expand_line(line, active)
        out_lines.append(line)
    return "\n".join(out_lines)


def expand_line(line: str, active: dict, depth: int = 0) -> str:
    if depth > 4 or not active:
        return line
    objects = {k: v for k, v in active.items() if v[0] is None}

    def objects_pass(text):
        if not objects:
            return text
        return re.sub(r"\b(%s)\b" % "|".join(map(re.escape, objects)), lambda m: " " + objects[m.group(1)][1] + " ", text)
    functions = [k for k, v in active.items() if v[0] is not None]
    if not functions:
        return objects_pass(line)
    # Arguments are split before they are expanded, as the preprocessor does.
    pat = re.compile(r"\b(%s)\s*\(" % "|".join(map(re.escape, sorted(functions, key=len, reverse=True))))
    res, pos = [], 0
    for m in pat.finditer(line):
        if m.start() < pos:
            continue
        inner, end = balanced(line, m.end() - 1, "(", ")")
        params, body = active[m.group(1)]
        res.append(line[pos:m.start()])
        res.append(" " + expand_line(substitute(body, params, split_top(inner) if params != [""] else []),
                                     active, depth + 1) + " ")
        pos = end
    res.append(line[pos:])
    return objects_pass("".join(res))


def expand_op_rows(active: dict, op_rows: list[dict]) -> list[str]:
    out = []
    for row in op_rows:
        macro = {"floating": "TENET_FLOATING_OP", "unary": "TENET_UNARY_OP", "predicate": "TENET_PREDICATE_OP"}[row["kind"]]
        args = [row["name"], row["functor"]]
        if row["kind"] == "floating":
            if macro not in active:  # the table's default: FLOATING_OP is a UNARY_OP
                macro, args = "TENET_UNARY_OP", args + [row["derivative"]]
            else:
                args += ["FORWARD", row["derivative"]]
        elif row["kind"] == "unary":
            args += [row["derivative"]]
        if macro in active:
            params, body = active[macro]
            out.append(expand_line(substitute(body, params, args), active, 1))
    return out


def expand_binary_rows(active: dict) -> list[str]:
    out = []
    for macro, args in read_binary_table():
        if macro in active:
            params, body = active[macro]
            out.append(expand_line(substitute(body, params, args), active, 1))
    return out


TYPE = "<type>"  # Decl.cls of a class, struct or enum declared at namespace scope
CONSTANT = "<constant>"  # Decl.cls of a public constant (dtype constants, None, Ellipsis)


class Decl:
    def __init__(self, header, ns, cls, name, params, doc, static=False, friend=False):
        self.header, self.ns, self.cls, self.name, self.params, self.doc = header, ns, cls, name, params, doc
        self.static, self.friend = static, friend


def skip_template_prefix(s: str) -> str:
    s = s.strip()
    while True:
        m = re.match(r"(template\s*)<", s)
        if m:
            depth, j = 0, m.end() - 1
            while j < len(s):
                if s[j] == "<":
                    depth += 1
                elif s[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            s = s[j + 1:].lstrip()
            continue
        m = re.match(r"requires\b\s*", s)
        if m:
            s = s[m.end():]
            while True:
                s = s.lstrip()
                if s.startswith("("):
                    _, end = balanced(s, 0, "(", ")")
                    s = s[end:]
                elif s.startswith("requires"):
                    s = s[len("requires"):]
                    continue
                else:
                    m2 = re.match(r"!?\s*[\w:]+", s)
                    if not m2:
                        break
                    s = s[m2.end():]
                    while s.startswith("<") or s.startswith("::"):
                        if s.startswith("<"):
                            _, end = balanced(s, 0, "<", ">")
                            s = s[end:]
                        m3 = re.match(r"::\w+", s)
                        if m3:
                            s = s[m3.end():]
                        elif not s.startswith("<"):
                            break
                s = s.lstrip()
                if s.startswith("&&") or s.startswith("||"):
                    s = s[2:]
                    continue
                break
            continue
        return s


def parse_function(decl: str):
    """(name, params, static, friend) of a function declaration or definition header, or None."""
    s = skip_template_prefix(decl)
    s = re.sub(r"\[\[[^\]]*\]\]", " ", s)
    if re.match(r"(using|typedef|namespace|concept|enum|static_assert|return)\b", s):
        return None
    # The first '(' outside <...> that follows a name.
    depth = 0
    for j, c in enumerate(s):
        if c == "<":
            # `operator<` and `operator<<` are names, not template brackets.
            if not re.search(r"operator\s*<*$", s[:j]):
                depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif c == "=" and depth == 0 and not re.search(r"operator\s*\S*$", s[:j + 1]) \
                and s[j + 1:j + 2] != "=" and s[j - 1:j] not in ("=", "!", "<", ">"):
            return None  # a variable with an initializer
        elif c == "(" and depth == 0:
            head = s[:j].rstrip()
            if re.search(r"\boperator$", head) and re.match(r"\(\s*\)\s*\(", s[j:]):
                k = s.index("(", s.index(")", j))
                params, _ = balanced(s, k, "(", ")")
                before = head[:-len("operator")].rstrip()
                if before.endswith("::"):
                    return None
                return "operator()", params, bool(re.search(r"\bstatic\b", before)), False
            m = re.search(r"(operator\s*(?:\(\)|\[\]|[^\s\w(]+|\w[\w\s:<>]*)|~?[A-Za-z_]\w*)$", head)
            if not m:
                return None
            name = re.sub(r"\s+", "", m.group(1)) if m.group(1).startswith("operator") else m.group(1)
            before = head[:m.start()].rstrip()
            if before.endswith("::") or before.endswith(".") or before.endswith("->"):
                return None  # an out-of-class definition, or an expression
            if name in KEYWORDS or name.startswith("~") or not before and not name.startswith("operator"):
                # no return type: a constructor, or a macro call statement
                return None
            if before.endswith("=") or before.endswith(","):
                return None
            params, _ = balanced(s, j, "(", ")")
            static = bool(re.search(r"\bstatic\b", before))
            friend = bool(re.search(r"\bfriend\b", before))
            return name, params, static, friend
    return None


def param_summary(params: str) -> str:
    """`const IntArray& sizes, TensorOptions options = {}` -> `sizes, options={}`."""
    out = []
    for p in split_top(params):
        p = p.strip()
        if not p or p == "void":
            continue
        default = None
        eq = _top_level_eq(p)
        if eq is not None:
            default = re.sub(r"\s+", " ", p[eq + 1:].strip())
            p = p[:eq].strip()
        p = re.sub(r"\[\[[^\]]*\]\]", "", p).strip()
        if p.endswith("...") or p == "...":
            name = "..."
        else:
            m = re.search(r"(?:[\s&*>]|^)([A-Za-z_]\w*)\s*(\.\.\.)?\s*(\[\w*\])?$", p)
            words = re.findall(r"[A-Za-z_]\w*", p)
            type_words = {"const", "volatile", "int", "long", "double", "float", "bool", "char", "unsigned",
                          "auto", "signed", "short", "size_t", "int64_t", "uint64_t", "int32_t"}
            if m and len(words) >= 2 and m.group(1) not in type_words and not p.rstrip().endswith(">"):
                name = m.group(1) + ("..." if m.group(2) else "")
            else:  # unnamed: a tag such as dtype_t<T>
                base = re.sub(r"<.*", "", p.replace("const", "").replace("&", "").strip()).split("::")[-1].strip()
                name = {"dtype_t": "dtype", "Device": "device", "DType": "dtype"}.get(base, base)
        if default is not None:
            name += "=" + default if len(default) <= 12 else "=…"
        out.append(name)
    return ", ".join(out)


def _top_level_eq(p: str):
    depth = 0
    for j, c in enumerate(p):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "=" and depth == 0 and p[j + 1:j + 2] != "=" and p[j - 1:j] not in "=!<>" \
                and not re.search(r"operator\s*[-+*/%^&|<>!=~]*$", p[:j + 1]):
            return j
    return None


def parse_header(path: Path, op_rows: list[dict]) -> list[Decl]:
    rel = path.relative_to(INCLUDE).as_posix()
    raw = path.read_text()
    nocomment, docs = strip_comments(raw)
    text, events = parse_macros(nocomment)
    # Lines keep their count; offsets of doc comments are mapped through lines.
    expanded = expand_macros(text, events, op_rows)
    # Doc comments are looked up by line (macro expansion changes offsets within lines only).
    doc_lines = {}
    for (ds, de, dtext, trailing) in docs:
        ln = raw.count("\n", 0, ds)
        doc_lines.setdefault(ln, []).append((dtext, trailing, raw[raw.rfind("\n", 0, ds) + 1:ds].strip() == ""))
    masked = mask_strings(expanded)
    line_starts = [0]
    for m in re.finditer("\n", expanded):
        line_starts.append(m.end())

    def line_of(off):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def doc_at(start, end):
        first = line_of(start + len(masked[start:end]) - len(masked[start:end].lstrip()))
        last = line_of(max(start, end - 1))
        lines = []
        ln = first - 1
        while ln >= 0:
            entries = doc_lines.get(ln)
            if entries and all(own and not trailing for (_, trailing, own) in entries):
                lines.insert(0, " ".join(t for (t, _, _) in entries))
                ln -= 1
            else:
                break
        if lines:
            return " ".join(lines)
        for (t, trailing, own) in doc_lines.get(last, []):
            if trailing:
                return t
        return ""

    decls: list[Decl] = []
    # Scope stack: (kind, name, access, internal)
    stack = [("ns", "", "public", False)]
    i, n = 0, len(masked)
    stmt = 0
    paren = 0

    def ns_path():
        parts = [s[1] for s in stack if s[0] == "ns" and s[1]]
        return "::".join(parts)

    def internal():
        return any(s[3] for s in stack)

    def record(start, end, is_def, body_end=None):
        top = stack[-1]
        if internal() or top[2] != "public":
            return
        if is_def and body_end is not None:
            # An overload that exists only to fail with a message (static_assert(false-ish)).
            fbody = masked[end + 1:body_end].strip()
            if re.match(r"static_assert\s*\(\s*(?:detail::)?\w*(?:always_false|undeduced|dependent_false)\b", fbody):
                return
        body = expanded[start:end]
        f = parse_function(body)
        if not f:
            return
        name, params, static, friend = f
        if top[0] == "class" and name == top[1]:
            return
        cls = top[1] if top[0] == "class" else None
        if friend:
            cls = None
        decls.append(Decl(rel, ns_path(), cls, name, params, doc_at(start, end), static, friend))

    while i < n:
        c = masked[i]
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        elif paren > 0:
            pass
        elif c == ";":
            mc = re.match(r"(?:inline\s+)?constexpr\s+[\w:<>, ]+?\s+(k[A-Z]\w*|None|Ellipsis)\s*(?:\{\}|=|$)",
                          masked[stmt:i].strip())
            if mc and stack[-1][0] == "ns" and not internal():
                decls.append(Decl(rel, ns_path(), CONSTANT, mc.group(1), None, doc_at(stmt, i)))
            record(stmt, i, False)
            stmt = i + 1
        elif c == ":" and masked[i + 1:i + 2] != ":" and masked[i - 1:i] != ":" and \
                masked[stmt:i].strip() in ("public", "private", "protected"):
            k, nm, _, intl = stack[-1]
            stack[-1] = (k, nm, masked[stmt:i].strip(), intl)
            stmt = i + 1
        elif c == "{":
            head = masked[stmt:i].strip()
            hs = skip_template_prefix(head)
            mns = re.match(r"(?:inline\s+)?namespace\b\s*([\w:\s]*)$", hs)
            mcls = re.match(r"(?:class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(?:alignas\([^)]*\)\s*)?(\w+)(?!\s*::)"
                            r"(?:\s*<[^{]*>)?(?:\s+final)?\s*(?::[^{]*)?$", hs)
            if mns:
                parts = [p.strip() for p in mns.group(1).split("::") if p.strip()]
                names, intl = [], False
                for p in parts:
                    if p.startswith("inline "):
                        continue  # an inline (ABI) namespace: transparent
                    if p in INTERNAL_NAMESPACES:
                        intl = True
                    names.append(p)
                if not parts:
                    intl = True  # anonymous
                if hs.startswith("inline") and len(parts) == 1:
                    names = []
                stack.append(("ns", "::".join(names), "public", intl))
                i += 1
                stmt = i
                continue
            if mcls:
                name = mcls.group(1)
                if stack[-1][0] == "ns" and not internal() and not name.startswith("_"):
                    decls.append(Decl(rel, ns_path(), TYPE, name, None, doc_at(stmt, i)))
                access = "private" if hs.startswith("class") else "public"
                intl = name not in TENSOR_CLASSES
                stack.append(("class", name, access, intl))
                i += 1
                stmt = i
                continue
            if re.match(r"enum\b", hs):
                me = re.match(r"enum\s+(?:class\s+|struct\s+)?(\w+)", hs)
                if me and stack[-1][0] == "ns" and not internal():
                    decls.append(Decl(rel, ns_path(), TYPE, me.group(1), None, doc_at(stmt, i)))
                _, end = balanced(masked, i, "{", "}")
                i = end
                continue
            # A function body or a braced initializer: skip it.
            _, end = balanced(masked, i, "{", "}")
            if "(" in hs and _top_level_eq(hs) is None:
                record(stmt, i, True, end - 1)
                i = end
                stmt = i
            else:
                i = end
            continue
        elif c == "}":
            if len(stack) > 1:
                stack.pop()
            stmt = i + 1
            # `};` after a class
        i += 1
    return decls


# ---------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------

def first_sentence(doc: str) -> str:
    """Up to the first full stop followed by a space (outside parentheses and backquotes)."""
    doc = re.sub(r"\s+", " ", doc.strip())
    depth, tick = 0, False
    for j, c in enumerate(doc):
        if c == "`":
            tick = not tick
        elif c in "([" and not tick:
            depth += 1
        elif c in ")]" and not tick:
            depth = max(0, depth - 1)
        elif c == "." and depth == 0 and not tick and (j + 1 == len(doc) or doc[j + 1] == " "):
            if re.search(r"(?:\be\.g|\bi\.e|\betc|\bvs)$", doc[:j]):
                continue
            return doc[:j + 1]
    return doc


def cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def group(decls):
    by = OrderedDict()
    for d in decls:
        by.setdefault(d.name, []).append(d)
    return by


def counterpart(torch_names: TorchNames, key: str, kind: str, ns: str, name: str) -> str:
    if key in RENAMED:
        v = RENAMED[key]
        if not is_checkable(v):
            return v
        ok = torch_names.exists(v)
        if ok is None:
            return f"`{v}` (unverified)"
        return f"`{v}`" if ok else "—"
    if name.startswith("operator"):
        return "—"
    found = []
    for cand in default_candidates(kind, ns, name):
        ok = torch_names.exists(cand)
        if ok is None:
            return f"`{cand}` (unverified)"
        if ok:
            found.append(cand)
            break
    return ", ".join(f"`{f}`" for f in found) if found else "—"


def sigs(ds, prefix: str, base_name: str) -> str:
    seen = []
    for d in ds:
        s = f"{prefix}{base_name}({param_summary(d.params)})"
        if s not in seen:
            seen.append(s)
    return "<br>".join(f"`{cell(s)}`" for s in seen)


def doc_of(ds) -> str:
    for d in ds:
        if d.doc:
            return first_sentence(d.doc)
    return ""


def generate(torch_names: TorchNames) -> str:
    op_rows = read_op_table()
    op_names = {r["name"] for r in op_rows}
    op_functors = {r["functor"] for r in op_rows}
    headers = sorted(p for p in INCLUDE.rglob("*.hpp"))
    parsed = {p.relative_to(INCLUDE).as_posix(): parse_header(p, op_rows) for p in headers}

    out = []
    w = out.append
    w("# tenet API reference")
    w("")
    w("Generated by scripts/gen_api_reference.py from the headers; do not edit.")
    w("")
    w("Regenerate with `/usr/bin/python3 scripts/gen_api_reference.py` (it checks every PyTorch name "
      "against the installed torch and caches the answers in `docs/api_torch_names.json`); the ctest "
      "`api_reference_current` runs it with `--check` and fails when this file is stale.")
    w("")
    w(f"PyTorch column: the counterpart in PyTorch {torch_names.version or '(unknown version)'}, checked to exist "
      "there (`torch.X`, `Tensor.X` for a method, `torch.linalg.X`, ...); an idiom where there is no "
      "function of that name; \"—\" where PyTorch has none. `x` is a tensor, `e` an expression. "
      "Overloads are listed with their parameter names (`=…` marks a longer default); template "
      "arguments (`x.to<double>()`, `zeros<int64_t>(...)`, `einsum<\"ij,jk->ik\">(a, b)`) are not shown.")
    w("")
    w("Contents:")
    w("")
    toc_at = len(out)
    sections: list[tuple[str, list[str]]] = []

    # ---- 1. The op table -------------------------------------------------------------
    lines = []
    lines.append("From the op table `include/tenet/expr/unary_ops.def` (README, \"How to add an operation\"): "
                 "each row gives the free function, the lazy method of tensors and expressions, and "
                 "(except predicates) the in-place forms. Differentiable: the row's derivative column "
                 "(a formula or a custom rule: yes; `zero_derivative`: recorded with a zero gradient, as "
                 "PyTorch's; `no_derivative`: no).")
    lines.append("")
    lines.append("| op | tenet | in place | differentiable | PyTorch |")
    lines.append("|---|---|---|---|---|")
    for r in op_rows:
        nm = r["name"]
        forms = f"`tenet::{nm}(x)`, `x.{nm}()`, `e.{nm}()`"
        inplace = "—" if r["kind"] == "predicate" else f"`x.{nm}_()`, `tenet::{nm}_(x)`"
        d = r["derivative"]
        diff = {"zero_derivative": "zero gradient", "no_derivative": "no", "custom_derivative": "yes (custom rule)",
                "": "no"}.get(d, f"yes: `{cell(d)}`")
        torch_forms = []
        for cand in ([f"torch.{nm}"] if True else []) + [f"Tensor.{nm}"] + \
                ([f"Tensor.{nm}_"] if r["kind"] != "predicate" else []):
            ok = torch_names.exists(cand)
            if ok is None:
                torch_forms.append(f"`{cand}` (unverified)")
            elif ok:
                torch_forms.append(f"`{cand}`")
        if not any(f.startswith(f"`torch.{nm}") for f in torch_forms):
            ok = torch_names.exists(f"torch.nn.functional.{nm}")
            if ok:
                torch_forms.insert(0, f"`torch.nn.functional.{nm}`")
        lines.append(f"| {nm} | {forms} | {inplace} | {diff} | {', '.join(torch_forms) or '—'} |")
    if op_rows:
        sections.append(("Element-wise operations (the op table)", lines))

    # ---- 2. The lazy methods -----------------------------------------------------------
    vm_decls = parse_value_methods(op_rows)
    vm_names = set()
    lines = []
    lines.append("Declared once in `include/tenet/core/value_methods.hpp` (a CRTP base of `Tensor` and of every "
                 "expression): `x.add(y)` and `(a * b).sum(1)` alike. Element-wise methods return lazy "
                 "expressions; reductions return tensors. The op table's methods (above) are there too. "
                 "The in-place forms (`x.add_(y)`, `x.clamp_(...)`) are Tensor's, listed in the next section.")
    lines.append("")
    lines.append("| tenet | PyTorch | notes |")
    lines.append("|---|---|---|")
    for name, ds in group(vm_decls).items():
        if name in op_names or name.startswith("_"):
            continue
        vm_names.add(name)
        cp = counterpart(torch_names, f"x.{name}()", "method", "", name)
        lines.append(f"| {sigs(ds, 'x.', name)} | {cp} | {cell(doc_of(ds))} |")
    if vm_decls:
        sections.append(("Lazy methods of tensors and expressions", lines))

    # ---- 3. Tensor methods -------------------------------------------------------------
    tensor_decls = []
    for rel in ("core/tensor_impl.hpp", "core/tensor.hpp"):
        tensor_decls += [d for d in parsed.get(rel, []) if d.cls in TENSOR_CLASSES]
    lines = []
    lines.append("The public members of `Tensor<T>` (`include/tenet/core/tensor.hpp`) and of its base "
                 "`TensorBase` (`core/tensor_impl.hpp`), besides the lazy methods above. The in-place "
                 "forms of the op table (`x.sin_()`, ...) are in the first table. Operators (`t[i]`, "
                 "`t(i, j)`, `+=`, ...) are at the end of the table.")
    lines.append("")
    lines.append("| tenet | PyTorch | notes |")
    lines.append("|---|---|---|")
    op_inplace = {r["name"] + "_" for r in op_rows}
    groups = group(tensor_decls)
    ordered = [k for k in groups if not k.startswith("operator")] + [k for k in groups if k.startswith("operator")]
    for name in ordered:
        ds = groups[name]
        if name.startswith("_") or name in INTERNAL or name in op_inplace:
            continue
        if name.startswith("operator") and name in ("operator=",):
            continue
        cp = counterpart(torch_names, f"x.{name}()", "method", "", name)
        if name.startswith("operator") and f"x.{name}()" not in RENAMED:
            cp = operator_counterpart(name, method=True)
        lines.append(f"| {sigs(ds, 'x.', name)} | {cp} | {cell(doc_of(ds))} |")
    sections.append(("Tensor methods", lines))

    # ---- 4. Free functions, per header -----------------------------------------------
    free_by_header: OrderedDict[str, list[Decl]] = OrderedDict()
    types: list[Decl] = []
    constants: list[Decl] = []
    for rel, ds in parsed.items():
        if is_internal_header(rel):
            continue
        for d in ds:
            if d.cls == CONSTANT and not is_internal_header(rel):
                constants.append(d)
            if d.cls == TYPE and not is_internal_header(rel) and d.name not in INTERNAL_TYPES \
                    and d.name not in op_functors:
                types.append(d)
            if d.cls is not None or d.name.startswith("_") or d.name in INTERNAL:
                continue
            if d.name in op_names or (d.name.endswith("_") and d.name[:-1] in op_names):
                continue
            free_by_header.setdefault(rel, []).append(d)
    order = [h for h in SECTION_TITLES if h in free_by_header] + \
            sorted(h for h in free_by_header if h not in SECTION_TITLES)
    for rel in order:
        ds_all = free_by_header[rel]
        title = SECTION_TITLES.get(rel, rel)
        lines = [f"`include/tenet/{rel}`", "", "| tenet | PyTorch | notes |", "|---|---|---|"]
        groups = OrderedDict()
        for d in ds_all:
            groups.setdefault((d.ns, d.name), []).append(d)
        keys = [k for k in groups if not k[1].startswith("operator")] + [k for k in groups if k[1].startswith("operator")]
        for (ns, name) in keys:
            ds = groups[(ns, name)]
            qual = (ns + "::") if ns else "tenet::"
            if not qual.startswith("tenet"):
                qual = "tenet::" + qual
            if name.startswith("operator"):
                cp = operator_counterpart(name, method=False)
                if name == "operator<<" and all(d.params.strip().startswith(("A&&", "A &&")) for d in ds):
                    cp = "`a << b`"
                label = f"`{cell(name)}`"
                sig = "<br>".join(dict.fromkeys(f"`{cell(name)}({param_summary(d.params)})`" for d in ds))
                lines.append(f"| {sig} | {cp} | {cell(doc_of(ds))} |")
                continue
            cp = counterpart(torch_names, f"{qual}{name}()", "free", qual[:-2], name)
            lines.append(f"| {sigs(ds, qual, name)} | {cp} | {cell(doc_of(ds))} |")
        sections.append((title, lines))

    # ---- 5. Types ------------------------------------------------------------------
    lines = ["The classes, structs and enums of namespace tenet and its public sub-namespaces "
             "(the public headers' own; helpers excluded).", "",
             "| tenet | PyTorch | header | notes |", "|---|---|---|---|"]
    seen = set()
    for d in sorted(types, key=lambda d: (d.header, d.ns, d.name)):
        qual = (d.ns or "tenet") + "::" + d.name
        if qual in seen:
            continue
        seen.add(qual)
        cp = counterpart(torch_names, qual, "type", d.ns, d.name)
        lines.append(f"| `{qual}` | {cp} | `{d.header}` | {cell(first_sentence(d.doc))} |")
    sections.append(("Types", lines))

    # ---- 6. Constants ---------------------------------------------------------------
    lines = ["The dtype constants (tags that carry their C++ type: `zeros({2}, kFloat64)` is a "
             "`Tensor<double>`) and the index words.", "",
             "| tenet | PyTorch | header |", "|---|---|---|"]
    seen = set()
    for d in constants:
        qual = (d.ns or "tenet") + "::" + d.name
        if qual in seen:
            continue
        seen.add(qual)
        if qual in RENAMED:
            cp = counterpart(torch_names, qual, "type", d.ns, d.name)
        else:
            torch_name = {"kByte": "uint8", "kChar": "int8", "kShort": "int16", "kInt": "int32", "kLong": "int64",
                          "kHalf": "float16", "kFloat": "float32", "kDouble": "float64",
                          "kComplexFloat": "complex64", "kComplexDouble": "complex128"}.get(
                              d.name, re.sub(r"^k", "", d.name).lower())
            cp = counterpart(torch_names, "", "type", "", torch_name)
        lines.append(f"| `{qual}` | {cp} | `{d.header}` |")
    sections.append(("Constants", lines))

    for title, body in sections:
        anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        out.insert(toc_at, f"- [{title}](#{anchor})")
        toc_at += 1
    for title, body in sections:
        w("")
        w(f"## {title}")
        w("")
        out.extend(body)
    return "\n".join(out) + "\n"


OPERATORS = {
    "+": "`a + b`", "-": "`a - b`, `-a`", "*": "`a * b`", "/": "`a / b`", "%": "`a % b`",
    "&": "`a & b`", "|": "`a \\| b`", "^": "`a ^ b`", "<<": "`a << b`", ">>": "`a >> b`",
    "~": "`~a`", "!": "`~a` (logical not of a bool tensor)", "==": "`a == b`", "!=": "`a != b`",
    "<": "`a < b`", "<=": "`a <= b`", ">": "`a > b`", ">=": "`a >= b`", "&&": "`a & b` (bool)",
    "||": "`a \\| b` (bool)", "[]": "`x[i]`", "()": "`x[i, j]` (an element)", "+=": "`x += y`",
    "-=": "`x -= y`", "*=": "`x *= y`", "/=": "`x /= y`", "%=": "`x %= y`", "&=": "`x &= y`",
    "|=": "`x \\|= y`", "^=": "`x ^= y`", "<<=": "`x <<= y`", ">>=": "`x >>= y`",
}


def operator_counterpart(name: str, method: bool) -> str:
    sym = name[len("operator"):]
    if sym == "<<" and not method:
        return "`a << b`; `print(x)` for a stream"
    return OPERATORS.get(sym, "—")


def parse_value_methods(op_rows):
    """The public members of ValueMethods (core/value_methods.hpp)."""
    global TENSOR_CLASSES
    saved = TENSOR_CLASSES
    TENSOR_CLASSES = {"ValueMethods"}
    try:
        if not VALUE_METHODS.exists():
            return []
        return [d for d in parse_header(VALUE_METHODS, op_rows) if d.cls == "ValueMethods" and d.name != "self"]
    finally:
        TENSOR_CLASSES = saved


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare the generated text with docs/API.md (no torch needed); exit 1 if stale")
    ap.add_argument("--no-torch-check", action="store_true",
                    help="do not import torch: use the cached names (docs/api_torch_names.json)")
    ap.add_argument("--output", type=Path, default=None, help="where to write (default docs/API.md)")
    ap.add_argument("--root", type=Path, default=None,
                    help="read include/ and docs/ under this tree instead of the script's repository (for testing)")
    args = ap.parse_args()
    if args.root is not None:
        global ROOT, INCLUDE, OUT, CACHE, OP_TABLE, BINARY_TABLE, VALUE_METHODS
        ROOT = args.root.resolve()
        INCLUDE = ROOT / "include" / "tenet"
        OUT = ROOT / "docs" / "API.md"
        CACHE = ROOT / "docs" / "api_torch_names.json"
        OP_TABLE = INCLUDE / "expr" / "unary_ops.def"
        BINARY_TABLE = INCLUDE / "expr" / "binary_ops.def"
        VALUE_METHODS = INCLUDE / "core" / "value_methods.hpp"
    if args.output is None:
        args.output = OUT

    if args.check:
        names = TorchNames("cache")
        text = generate(names)
        current = OUT.read_text() if OUT.exists() else ""
        if names.unknown:
            print("gen_api_reference --check: docs/API.md is stale: PyTorch names not in %s: %s\n"
                  "Regenerate with /usr/bin/python3 scripts/gen_api_reference.py (needs torch)."
                  % (CACHE.relative_to(ROOT), ", ".join(sorted(names.unknown))), file=sys.stderr)
            return 1
        if text != current:
            import difflib
            diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(), "docs/API.md (committed)",
                                             "docs/API.md (from the headers)", lineterm="", n=1))
            print("gen_api_reference --check: docs/API.md is stale (a header changed, or the file was edited). Regenerate it with\n"
                  "  /usr/bin/python3 scripts/gen_api_reference.py\nand commit it (do not edit it by hand). Difference:", file=sys.stderr)
            print("\n".join(diff[:80]) + ("\n..." if len(diff) > 80 else ""), file=sys.stderr)
            return 1
        print("docs/API.md is current")
        return 0

    names = TorchNames("cache" if args.no_torch_check else "torch")
    text = generate(names)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    if not args.no_torch_check:
        CACHE.write_text(names.cache_text())
    elif names.unknown:
        print("gen_api_reference: %d PyTorch names are not in the cache and are marked unverified: %s"
              % (len(names.unknown), ", ".join(sorted(names.unknown))), file=sys.stderr)
    print(f"wrote {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
