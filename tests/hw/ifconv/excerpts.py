#!/usr/bin/env python3
"""Prints, per probe kernel, how ptxas compiled it: the number of SASS
instructions the line table attributes to the guarded block's other
instructions (`block=N`), then, in code order, the memory instructions with
the PTX access each is attributed to (`a<j>`: the j-th memory access of the
body in PTX order) and the conditional branches and exits (`bra`, `exit`),
with their predicates (`@P0`, `@!P0`: a predicated access is issued by every
warp that reaches it).

    nvdisasm -g -c probes.cubin | python3 excerpts.py
"""
import re
import sys

MEM = {"LDGSTS", "LDS", "STS", "LDG", "STG", "LD", "ST", "LDL", "STL", "ATOMS", "ATOMG", "ATOM", "RED", "REDG"}
kernel = None
line = None
rows = {}
block = {}
order = []
for raw in sys.stdin:
    m = re.match(r"\s*\.section\s+\.text\.(\w+)", raw)
    if m:
        kernel = m.group(1)
        order.append(kernel)
        rows[kernel] = []
        block[kernel] = 0
        line = None
        continue
    m = re.search(r'//## File "[^"]*", line (\d+)', raw)
    if m:
        line = int(m.group(1))
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?);", raw)
    if not (m and kernel):
        continue
    addr = int(m.group(1), 16)
    text = " ".join(m.group(2).split())
    words = text.split()
    pred = words[0] if words[0].startswith("@") else ""
    op = words[1] if pred else words[0]
    base = op.split(".")[0]
    j = None if line is None else line % 1000
    if j == 500:
        block[kernel] += 1
    if base in MEM and j is not None and 0 < j < 500:
        rows[kernel].append(f"a{j}: {text}")
    elif base == "BRA" and pred:
        rows[kernel].append(f"bra: {pred} {op}")
    elif base == "BRA" and words[-1].startswith("0x") and int(words[-1], 16) < addr:
        rows[kernel].append(f"bra: {op} back")
    elif base == "EXIT" and pred:
        rows[kernel].append(f"exit: {pred} EXIT")
for k in order:
    print(f"{k}: block={block[k]}")
    for r in rows[k]:
        print(f"    {r}")
