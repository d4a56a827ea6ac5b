#!/usr/bin/env python3
"""Prints the README table of blocks.txt: per family of blocks.py probes
(context, what precedes, kind and number of accesses), each chain length w
as P (ptxas predicated the block's accesses) or B (branched around them),
with the SASS instructions of the block in parentheses; then the sb_* rows.

    python3 blocks_table.py < blocks.txt
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
sb = {}
for k, (blk, acc) in rows.items():
    m = re.match(r"(b[sl]_\w+?)_w(\d+)$", k)
    # the block's accesses: predicated if any is (outer accesses never are)
    pred = any(p for _, p in acc)
    if m:
        fam[m.group(1)][int(m.group(2))] = f"{'P' if pred else 'B'} ({blk})"
    elif k.startswith("sb_"):
        first = [p for j, p in acc if j == 1]
        sb[k] = "P" if first and first[0] else "B"
print("| probes | w: ptxas (SASS of the block) |")
print("| --- | --- |")
for f in sorted(fam):
    print(f"| `{f}_w*` | " + ", ".join(f"{w}: {v}" for w, v in sorted(fam[f].items())) + " |")
print()
print("| probe | the load |")
print("| --- | --- |")
for k in sorted(sb):
    print(f"| `{k}` | {sb[k]} |")
