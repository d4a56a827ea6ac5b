#!/usr/bin/env python3
"""Prints the README table of convert.txt: per context and family of
convert.py probes, each (k, n) as P (ptxas predicated the block's accesses)
or B (branched around them), with the SASS instructions of the block's
other instructions in parentheses; then the thrust* rows.

    python3 convert_table.py < convert.txt
"""
import re
import sys
from collections import defaultdict

rows = {}
cur = None
for line in sys.stdin:
    m = re.match(r"(\S+): block=(\d+)", line)
    if m:
        cur = m.group(1)
        rows[cur] = [int(m.group(2)), []]
        continue
    m = re.match(r"\s+a(\d+): (.*)", line)
    if m and cur and "@!PT" not in m.group(2):
        rows[cur][1].append((int(m.group(1)), m.group(2).startswith("@")))
fam = defaultdict(dict)
other = {}
arms = defaultdict(dict)
exits = {}
for k, (blk, acc) in rows.items():
    a = re.match(r"arm_(\w+?)_(ret|epi)_b(\d)(\w*)$", k)
    if a:
        # per block (its load, access 2i-1): P, B, or E (after its @P EXIT)
        nb = int(a.group(3))
        pred = dict(acc)
        # in `ffr` the other arm's load and store come first
        off = 2 if a.group(1) == "ffr" else 0
        seq = "".join("P" if pred.get(2 * i + 1 + off) else ("E" if a.group(2) == "ret" and i == nb - 1 else "B") for i in range(nb))
        arms[(a.group(1), a.group(2), a.group(4) or "-")][nb] = seq
        continue
    m = re.match(r"(c\w\d?)_(\w+)_k(\d+)_n(\d+)$", k)
    # the first block's first access (a1): the guarded one in every shape
    first = [p for j, p in acc if j == 1]
    pb = "P" if first and first[0] else "B"
    if m:
        fam[(m.group(1), m.group(2))][(int(m.group(3)), int(m.group(4)))] = f"{pb} ({blk})"
    else:
        other[k] = f"{'/'.join('P' if p else 'B' for _, p in acc)} ({blk})"
print("| context | family | k,n: ptxas (SASS of the blocks) |")
print("| --- | --- | --- |")
for c, f in sorted(fam):
    print(f"| `{c}` | `{f}` | " + ", ".join(f"{k},{n}: {v}" for (k, n), v in sorted(fam[(c, f)].items())) + " |")
print()
print("| probe | accesses in PTX order (SASS of the blocks) |")
print("| --- | --- |")
for k in sorted(other):
    print(f"| `{k}` | {other[k]} |")
print()
print("| layout | end | variant | b: blocks |")
print("| --- | --- | --- | --- |")
for (lay, end, var) in sorted(arms):
    print(f"| `{lay}` | {end} | `{var}` | " + ", ".join(f"{b}: {v}" for b, v in sorted(arms[(lay, end, var)].items())) + " |")
