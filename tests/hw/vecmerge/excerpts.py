#!/usr/bin/env python3
"""Prints, per probe kernel, its memory SASS instructions with the PTX access
each is attributed to by the line table (`a<j>`: the j-th memory access of the
probe's body in PTX order; `epi`: the final store to out[tid]).

    nvdisasm -g -c probes.cubin | python3 excerpts.py
"""
import re
import sys

MEM = re.compile(r"\b(LDS|STS|LDG|STG|LD|ST|LDL|STL|ATOMS|ATOMG|ATOM|RED|LDSM|ULDC)\b[.\w]*")
kernel = None
line = None
rows = {}
order = []
for raw in sys.stdin:
    m = re.match(r"\s*\.section\s+\.text\.(\w+)", raw)
    if m:
        kernel = m.group(1)
        order.append(kernel)
        rows[kernel] = []
        line = None
        continue
    m = re.search(r'//## File "[^"]*", line (\d+)', raw)
    if m:
        line = int(m.group(1))
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?);", raw)
    if m and kernel:
        text = m.group(2).strip()
        op = text.split()[0] if not text.startswith("@") else text.split()[1]
        base = op.split(".")[0]
        if base in ("LDS", "STS", "LDG", "STG", "LD", "ST", "LDL", "STL", "ATOMS", "ATOMG", "ATOM", "RED", "REDG"):
            if line is None:
                where = "?"
            elif line % 1000 == 999:
                where = "epi"
            else:
                where = f"a{line % 1000}"
            if where != "epi":
                rows[kernel].append(f"{where}: {' '.join(text.split())}")
for k in order:
    print(f"{k}:")
    for r in rows[k]:
        print(f"    {r}")
