#!/usr/bin/env python3
"""Prints the table of README.md from excerpts.txt and probes.ptx: per probe
family, for each size n (ALU instructions per block, or the family's
parameter), P where ptxas predicated the guarded accesses, B where it kept
a conditional branch around them, B+P where both (a nested guard), E where
it turned the branch into an exit, and in parentheses the SASS instructions
the line table gives the blocks (all of them together).

    python3 table.py
"""
import re

ex = open("excerpts.txt").read().splitlines()[1:]
res = {}
cur = None
for l in ex:
    if not l.startswith(" "):
        n, b = l.split(": block=")
        cur = n
        res[n] = [int(b), []]
    else:
        res[cur][1].append(l.strip())
names = [l.split(".visible .entry ")[1].split("(")[0] for l in open("probes.ptx") if ".visible .entry" in l]


def verdict(rows):
    pred = any(re.match(r"a\d+: @", r) for r in rows)
    bra = any(r.startswith("bra: @") for r in rows)
    if any(r.startswith("exit: @") for r in rows):
        return "E"
    return {(True, False): "P", (False, True): "B", (True, True): "B+P"}.get((pred, bra), "-")


fam = {}
for n in names:
    if n.startswith("loop"):
        continue
    m = re.match(r"(.*?)(\d+)$", n)
    key, num = (m.group(1), m.group(2)) if m else (n, "")
    fam.setdefault(key, []).append((num, verdict(res[n][1]), res[n][0]))
print("| probes | n: ptxas (SASS of the blocks) |")
print("| --- | --- |")
for k, v in fam.items():
    cells = ", ".join(f"{num or '-'}: {vv} ({s})" for num, vv, s in sorted(v, key=lambda x: int(x[0] or 0)))
    print(f"| `{k}*` | {cells} |")
