#!/usr/bin/env python3
"""Independent pure-Python Philox4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy
as 1, 2, 3", SC'11) used to produce the known-answer vectors in tests/ops/test_random.cpp.

Run: python3 tests/golden/philox_kat.py
"""

M0, M1 = 0xD2511F53, 0xCD9E8D57  # round multipliers
W0, W1 = 0x9E3779B9, 0xBB67AE85  # Weyl key increments
MASK = 0xFFFFFFFF


def mulhilo(a, b):
    p = a * b
    return (p >> 32) & MASK, p & MASK


def philox4x32(ctr, key, rounds=10):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for r in range(rounds):
        if r > 0:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        hi0, lo0 = mulhilo(M0, c0)
        hi1, lo1 = mulhilo(M1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


CASES = [
    ((0x00000000, 0x00000000, 0x00000000, 0x00000000), (0x00000000, 0x00000000)),
    ((0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0)),
]

if __name__ == "__main__":
    for ctr, key in CASES:
        out = philox4x32(ctr, key)
        print("ctr", " ".join(f"{w:08x}" for w in ctr), "key", " ".join(f"{w:08x}" for w in key),
              "->", " ".join(f"{w:08x}" for w in out))
