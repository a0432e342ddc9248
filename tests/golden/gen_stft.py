#!/usr/bin/python3
"""Writes tests/fft/stft_cases.txt: torch.stft and torch.istft as data.

tests/fft/test_stft.cpp reads it at run time. The line format is gen_fft.py's:

    input NAME TENSOR
    case stft x=NAME n_fft=N hop=H win=W window=NAME center=C pad=MODE normalized=B onesided=O | RESULT
    case istft x=NAME n_fft=N hop=H win=W window=NAME center=C normalized=B onesided=O length=L | RESULT
    throws OP ... | ERROR_TYPE MESSAGE

hop=none, win=none, window=none, onesided=none and length=none leave PyTorch's default. Every stft
is called with return_complex=True (tenet's stft returns complex tensors only); the windows have
the transform's real dtype (tenet's typed windows).

Run with Debian's python3-torch: cd tests/golden && /usr/bin/python3 gen_stft.py
"""
import pathlib
import warnings

import torch

from golden_format import args_text, complex_text

warnings.simplefilter("ignore")  # istft's "padded with zeros" warning for a long length
HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "fft" / "stft_cases.txt"

gen = torch.Generator().manual_seed(131)
lines = []
inputs = {}


def add_input(name, t):
    inputs[name] = t
    lines.append(f"input {name} {complex_text(t)}")


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=gen, dtype=dtype)


add_input("s20", randn(20))
add_input("s33", randn(33, dtype=torch.float64))
add_input("b30", randn(2, 30))
add_input("z24", randn(24, dtype=torch.complex64))
add_input("z17", randn(2, 17, dtype=torch.complex128))
add_input("s3", randn(3))
add_input("s3d", randn(2, 3, 20))
add_input("hann8", torch.hann_window(8))
add_input("hann8d", torch.hann_window(8, dtype=torch.float64))
add_input("ham6", torch.hamming_window(6))
add_input("w5", torch.rand(5, generator=gen) + 0.5)
add_input("w7d", torch.rand(7, generator=gen, dtype=torch.float64) + 0.5)
add_input("zeros8", torch.zeros(8))


def arg(v):
    return None if v is None else inputs[v]


def stft_kw(x, n_fft, hop=None, win=None, window=None, center=True, pad="reflect", normalized=False, onesided=None):
    return {"x": x, "n_fft": n_fft, "hop": hop, "win": win, "window": window, "center": center, "pad": pad,
            "normalized": normalized, "onesided": onesided}


def call_stft(kw):
    return torch.stft(inputs[kw["x"]], kw["n_fft"], hop_length=kw["hop"], win_length=kw["win"],
                      window=arg(kw["window"]), center=kw["center"], pad_mode=kw["pad"],
                      normalized=kw["normalized"], onesided=kw["onesided"], return_complex=True)


STFTS = [
    stft_kw("s20", 8), stft_kw("s20", 8, window="hann8"), stft_kw("s20", 8, hop=3, window="hann8", normalized=True),
    stft_kw("s20", 8, win=5, window="w5"), stft_kw("s20", 8, win=6, window="ham6", hop=2, onesided=False),
    stft_kw("s20", 7, hop=2), stft_kw("s20", 8, win=5), stft_kw("s20", 20, center=False),
    stft_kw("s20", 6, center=False, hop=4), stft_kw("s20", 5, hop=1, pad="constant"),
    stft_kw("s20", 8, pad="replicate", window="hann8"), stft_kw("s20", 8, pad="circular", window="hann8"),
    stft_kw("s3", 6, pad="circular"), stft_kw("s3", 8, pad="constant"), stft_kw("s3", 4, pad="reflect", hop=1),
    stft_kw("s33", 8, window="hann8d", hop=4), stft_kw("s33", 9, win=7, window="w7d", normalized=True),
    stft_kw("s33", 16, onesided=False, center=False, hop=5),
    stft_kw("b30", 8, window="hann8"), stft_kw("b30", 6, win=6, window="ham6", pad="replicate", normalized=True),
    stft_kw("b30", 10, hop=3, center=False, onesided=False),
    stft_kw("z24", 8, window="hann8"), stft_kw("z24", 8, win=5, window="w5", onesided=False, normalized=True),
    stft_kw("z24", 7, center=False, hop=3), stft_kw("z17", 8, window="hann8d", pad="constant"),
    stft_kw("z17", 6, hop=2, pad="circular"),
]
for kw in STFTS:
    lines.append(f"case stft {args_text(kw)} | {complex_text(call_stft(kw))}")

# istft's inputs: spectra of stft, and random complex spectra (no signal's, but defined).
add_input("S1", torch.stft(inputs["s20"], 8, window=inputs["hann8"], return_complex=True))
add_input("S2", torch.stft(inputs["b30"], 8, hop_length=2, window=inputs["hann8"], return_complex=True))
add_input("S3", torch.stft(inputs["s33"], 16, center=False, hop_length=4, onesided=False, return_complex=True))
add_input("S4", torch.stft(inputs["z24"], 8, win_length=5, window=inputs["w5"], return_complex=True))
add_input("R5", randn(5, 11, dtype=torch.complex64))
add_input("R9", randn(2, 9, 6, dtype=torch.complex128))


def istft_kw(x, n_fft, hop=None, win=None, window=None, center=True, normalized=False, onesided=None, length=None):
    return {"x": x, "n_fft": n_fft, "hop": hop, "win": win, "window": window, "center": center,
            "normalized": normalized, "onesided": onesided, "length": length}


def call_istft(kw, return_complex=False):
    return torch.istft(inputs[kw["x"]], kw["n_fft"], hop_length=kw["hop"], win_length=kw["win"],
                       window=arg(kw["window"]), center=kw["center"], normalized=kw["normalized"],
                       onesided=kw["onesided"], length=kw["length"], return_complex=return_complex)


ISTFTS = [
    istft_kw("S1", 8, window="hann8"), istft_kw("S1", 8, window="hann8", length=20), istft_kw("S1", 8, window="hann8", length=13),
    istft_kw("S1", 8, window="hann8", length=31), istft_kw("S1", 8), istft_kw("S1", 8, normalized=True, hop=1),
    istft_kw("S2", 8, hop=2, window="hann8"), istft_kw("S2", 8, hop=2, window="hann8", length=30),
    istft_kw("S3", 16, hop=4, center=False), istft_kw("S3", 16, hop=4, center=False, onesided=False, normalized=True),
    istft_kw("S4", 8, win=5, window="w5"), istft_kw("S4", 8, win=5, window="w5", onesided=False, length=24),
    istft_kw("R5", 8), istft_kw("R5", 8, hop=3, win=5, window="w5"),
    istft_kw("R5", 9, hop=2, win=6, window="ham6", onesided=True), istft_kw("R9", 16, hop=5, center=False),
    istft_kw("R9", 17, hop=4, win=7, window="w7d", normalized=True, length=20),
]
for kw in ISTFTS:
    lines.append(f"case istft {args_text(kw)} | {complex_text(call_istft(kw))}")


# ---- PyTorch's refusals ------------------------------------------------------------------------
def throws(op, kw, call):
    try:
        call()
    except (RuntimeError, NotImplementedError) as e:
        lines.append(f"throws {op} {args_text(kw)} | {type(e).__name__} {str(e).splitlines()[0]}")
    else:
        raise AssertionError((op, kw))


for kw in [stft_kw("s20", 8, win=9), stft_kw("s20", 8, hop=0), stft_kw("s20", 30, center=False),
           stft_kw("s20", 0), stft_kw("s20", 8, win=0), stft_kw("s20", 8, window="w5"),
           stft_kw("s20", 8, win=6, window="w5"), stft_kw("s3d", 8), stft_kw("s20", 8, pad="sideways"),
           stft_kw("z24", 8, onesided=True), stft_kw("s3", 8), stft_kw("s3", 8, pad="circular"),
           stft_kw("b30", 8, window="ham6"), stft_kw("b30", 40, center=False), stft_kw("z17", 8, hop=-2)]:
    throws("stft", kw, lambda: call_stft(kw))

add_input("E0", torch.zeros(0, 11, dtype=torch.complex64))
add_input("Z4", torch.zeros(1, 1, 5, 11, dtype=torch.complex64))
for kw in [istft_kw("S1", 8, window="zeros8"), istft_kw("S1", 8, hop=9), istft_kw("S1", 8, win=9),
           istft_kw("S1", 8, window="w5"), istft_kw("S1", 10), istft_kw("S1", 10, onesided=False),
           istft_kw("Z4", 8), istft_kw("E0", 8), istft_kw("S1", 8, window="hann8", center=False),
           istft_kw("R5", 8, hop=0), istft_kw("R5", 8, win=5, hop=6), istft_kw("R9", 16, win=7, window="hann8d")]:
    throws("istft", kw, lambda: call_istft(kw))

head = [f"# Generated by tests/golden/gen_stft.py from PyTorch {torch.__version__}; do not edit."]
OUT.write_text("\n".join(head + lines) + "\n")
print(f"wrote {OUT}: {len(lines)} lines")
