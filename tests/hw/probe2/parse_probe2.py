#!/usr/bin/env python3
"""Turns the second probe's ncu export into results/probe2_measured.txt (no GPU).

Inputs (results/): source_sass.csv.gz (ncu --page source --print-source sass,
one kernel section per launch, in launch order), launches.txt (the host's
"launch K variant FIRST COUNT" lines), cpa_probe2.sass.gz (nvdisasm -g -c of the
cubin that ran: SASS offset -> source line) and ../configs.txt, cpa_probe2.cu
(source line -> slot). Output: one line per configuration,
  variant name requests lanes wavefronts sectors lines opcode src[32] dst[32] flag[32]
    python3 tests/hw/probe2/gen_probe2.py   # writes configs.txt
    python3 tests/hw/probe2/parse_probe2.py | gzip -9n > tests/hw/probe2/results/probe2_measured.txt.gz
  and for the confirmation run (gen_probe2.py --heldout writes configs_heldout.txt):
    python3 tests/hw/probe2/parse_probe2.py confirm configs_heldout.txt | gzip -9n > tests/hw/probe2/confirm/heldout_measured.txt.gz
"""
import csv, gzip, os, re, sys

D = os.path.dirname(os.path.abspath(__file__))
R = os.path.join(D, sys.argv[1] if len(sys.argv) > 1 else "results")
cu = open(os.path.join(D, "cpa_probe2.cu")).read().split("\n")
# source line -> (kernel, slot)
slot_of = {}
kern = None
for i, t in enumerate(cu, 1):
    m = re.search(r"void __launch_bounds__\(1024\) probe_(\w+)\(", t)
    if m:
        kern = m[1]
    m = re.match(r"\s*case (\d+): asm", t)
    if m:
        slot_of[i] = (kern, int(m[1]))
# kernel -> SASS offset -> line
line_at = {}
cur, ln = None, None
for t in gzip.open(os.path.join(R, "cpa_probe2.sass.gz"), "rt"):
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
rows = csv.reader(gzip.open(os.path.join(R, "source_sass.csv.gz"), "rt"))
sections, hdr = [], None
for r in rows:
    if r and r[0] == "Kernel Name":
        sections.append((r[1], []))
    elif r and r[0] == "Address":
        hdr = r
    elif hdr and len(r) == len(hdr) and sections:
        sections[-1][1].append(dict(zip(hdr, r)))
# this ncu prints every kernel's section twice in a row: keep one of each pair
if len(sections) == 2 * len(launches) and all(sections[i] == sections[i + 1] for i in range(0, len(sections), 2)):
    sections = sections[::2]
if len(sections) != len(launches):
    sys.exit(f"{len(sections)} kernel sections, {len(launches)} launches")
out = {}
for (fn, sec), (_, k, var, first, count) in zip(sections, launches):
    assert fn == "probe_" + var, (fn, var)
    first, count = int(first), int(count)
    base = int(sec[0]["Address"], 16)
    seen = set()
    for d in sec:
        off = int(d["Address"], 16) - base
        if off in seen or "LDGSTS" not in d["Source"]:
            continue
        seen.add(off)
        ln, text = line_at[var][off]
        assert text.split()[0].split(".")[0] in ("LDGSTS", "@P0", "@!P0") or "LDGSTS" in text, text
        kv, slot = slot_of[ln]
        assert kv == var, (kv, var)
        if slot >= count:
            assert int(d["Instructions Executed"]) == 0, (k, slot, d["Instructions Executed"])
            continue
        c = cfgs[first + slot]
        assert c[0] == var
        op = d["Source"].split()[0] if not d["Source"].strip().startswith("@") else d["Source"].split()[1]
        out[first + slot] = [c[0], c[1], d["Instructions Executed"], d["Predicated-On Thread Instructions Executed"],
                             d["L1 Wavefronts Shared"], d["L2 Theoretical Sectors Global"], d["L1 Tag Requests Global"], op] + c[2:]
if len(out) != len(cfgs):
    sys.exit(f"{len(out)} of {len(cfgs)} configurations measured")
print("# tests/hw/probe2: variant name requests lanes wavefronts sectors lines opcode src[32] dst[32] flag[32]")
for i in range(len(cfgs)):
    print(" ".join(out[i]))
