#!/usr/bin/env python3
"""Reproduce the permutations used by tests/hw/host.cpp.

state = state * 6364136223846793005 + 1442695040888963407 (mod 2**64)
next() = state >> 32
p = [0, 1, ..., n-1]; for i = n-1 down to 1: j = next() % (i + 1); swap p[i], p[j]

  python3 tests/hw/lcg_perm.py 10000 2026   # OFF_PERM_10K (indirect, permuted)
  python3 tests/hw/lcg_perm.py 32768 4004   # IDX_PERM_32K (gather/scatter)
"""
import sys

A = 6364136223846793005
C = 1442695040888963407
MASK = (1 << 64) - 1


def lcg_perm(n, seed):
    s = seed
    p = list(range(n))
    for i in range(n - 1, 0, -1):
        s = (s * A + C) & MASK
        j = (s >> 32) % (i + 1)
        p[i], p[j] = p[j], p[i]
    return p


if __name__ == "__main__":
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    print(" ".join(str(x) for x in lcg_perm(n, seed)))
