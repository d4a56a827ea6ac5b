#!/usr/bin/env python3
"""Turns the probe's ncu export (results/source_sass.csv.gz, one kernel
section per launch, in launch order) and its configuration list
(results/configs.txt.gz) into results/probe_measured.txt: one line per
launch, `name requests lanes wavefronts sectors lines` followed by the 32
source and the 32 destination offsets (-1: the lane is off). No GPU needed:
    python3 tests/hw/probe/parse_probe.py > tests/hw/probe/results/probe_measured.txt
"""
import csv, gzip, os, sys

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
rows = list(csv.reader(gzip.open(os.path.join(D, "source_sass.csv.gz"), "rt")))
sections, hdr = [], None
for r in rows:
    if r and r[0] == "Kernel Name":
        sections.append([])
    elif r and r[0] == "Address":
        hdr = r
    elif hdr and len(r) == len(hdr) and "LDGSTS" in r[1]:
        sections[-1].append(dict(zip(hdr, r)))
cfgs = [l.split() for l in gzip.open(os.path.join(D, "configs.txt.gz"), "rt")]
if len(cfgs) != len(sections):
    sys.exit(f"{len(cfgs)} configurations, {len(sections)} kernel sections")
print("# tests/hw/probe: name requests lanes wavefronts sectors lines src[32] dst[32]")
for c, sec in zip(cfgs, sections):
    if len(sec) != 1:
        sys.exit(f"{c[1]}: {len(sec)} LDGSTS rows")
    d = sec[0]
    f = [d["Instructions Executed"], d["Predicated-On Thread Instructions Executed"],
         d["L1 Wavefronts Shared"], d["L2 Theoretical Sectors Global"], d["L1 Tag Requests Global"]]
    print(" ".join([c[1]] + f + c[2:66]))
