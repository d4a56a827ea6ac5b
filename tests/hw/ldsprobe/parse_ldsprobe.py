#!/usr/bin/env python3
"""Turns the width probe's ncu export into results/measured.txt (no GPU).

Inputs: results/source_sass.csv.gz (one kernel section per launch, in launch
order), results/launches.txt ("launch K variant FIRST COUNT"),
results/ldsprobe.sass.gz (nvdisasm -g -c: SASS offset -> source line),
configs.txt and ldsprobe.cu (source line -> slot). Output, one line per layout:
  variant name requests lanes wavefronts opcode offsets[32]

    python3 tests/hw/ldsprobe/parse_ldsprobe.py > tests/hw/ldsprobe/results/measured.txt
    python3 tests/hw/ldsprobe/parse_ldsprobe.py heldout configs_heldout.txt > tests/hw/ldsprobe/heldout/measured.txt
"""
import csv, gzip, os, re, sys

D = os.path.dirname(os.path.abspath(__file__))
R = os.path.join(D, sys.argv[1] if len(sys.argv) > 1 else "results")
slot_of, kern = {}, None
for i, t in enumerate(open(os.path.join(D, "ldsprobe.cu")).read().split("\n"), 1):
    m = re.search(r"void __launch_bounds__\(1024\) probe_(\w+)\(", t)
    if m:
        kern = m[1]
    m = re.match(r"\s*case (\d+): asm", t)
    if m:
        slot_of[i] = (kern, int(m[1]))
line_at, cur, ln = {}, None, None
for t in gzip.open(os.path.join(R, "ldsprobe.sass.gz"), "rt"):
    m = re.match(r"\.text\.probe_(\w+):", t.strip())
    if m:
        cur, ln = m[1], None
        line_at[cur] = {}
    m = re.search(r'//## File ".*", line (\d+)', t)
    if m:
        ln = int(m[1])
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*)", t)
    if m and cur:
        line_at[cur][int(m[1], 16)] = (ln, m[2])
cfgs = [l.split() for l in open(os.path.join(D, sys.argv[2] if len(sys.argv) > 2 else "configs.txt"))]
launches = [l.split() for l in open(os.path.join(R, "launches.txt")) if l.startswith("launch ")]
sections, hdr = [], None
for r in csv.reader(gzip.open(os.path.join(R, "source_sass.csv.gz"), "rt")):
    if r and r[0] == "Kernel Name":
        sections.append((r[1], []))
    elif r and r[0] == "Address":
        hdr = r
    elif hdr and len(r) == len(hdr) and sections:
        sections[-1][1].append(dict(zip(hdr, r)))
if len(sections) == 2 * len(launches) and all(sections[i] == sections[i + 1] for i in range(0, len(sections), 2)):
    sections = sections[::2]
if len(sections) != len(launches):
    sys.exit(f"{len(sections)} kernel sections, {len(launches)} launches")
out = {}
for (fn, sec), (_, k, var, first, count) in zip(sections, launches):
    assert fn == "probe_" + var, (fn, var)
    first, count = int(first), int(count)
    base = int(sec[0]["Address"], 16)
    for d in sec:
        off = int(d["Address"], 16) - base
        ln, text = line_at[var][off]
        if ln not in slot_of or not re.search(r"\b(LDS|STS)", text):
            continue
        kv, slot = slot_of[ln]
        assert kv == var, (kv, var)
        if slot >= count:
            continue
        c = cfgs[first + slot]
        op = text.split()[0]
        out[first + slot] = [c[0], c[1], d["Instructions Executed"], d["Avg. Predicated-On Threads Executed"],
                             d["L1 Wavefronts Shared"], op] + c[2:]
if len(out) != len(cfgs):
    sys.exit(f"{len(out)} of {len(cfgs)} layouts measured")
print("# tests/hw/ldsprobe: variant name requests lanes wavefronts opcode offsets[32]")
for i in range(len(cfgs)):
    print(" ".join(out[i]))
