#!/usr/bin/env python3
"""Does a GMMA's line come from its own wgmma's `.loc`? A ptxas experiment on PTX variants.

  python3 tests/hw/gmma_lines/variants.py [--bin DIR] [--cache DIR] > tests/hw/gmma_lines/variants.txt

For every Triton PTX module with a `wgmma.mma_async` (tests/hw/**/triton/*.ptx), two
compilations here (`ptxas -arch=sm_90a -lineinfo -O3`, then `nvdisasm -g -c`):

  base     the PTX as committed
  marked   the same PTX where each k-th `wgmma.mma_async` of a function gets a `.loc`
           of its own, line 90000 + k (same file and column as the `.loc` in force),
           and the `.loc` in force before it is restored right after it

A `.loc` is debug information: the two SASS listings must be the same instruction for
instruction (checked: the summary's first line). Per GMMA (k-th in address order) the script
prints its line in `base` and in `marked`, and classifies the `marked` line:

  own      90000 + k: the GMMA sits under a row ptxas wrote for its own wgmma (an
           instruction ptxas emitted for that wgmma, in t10/t6_attn_bwd_dkdv a
           `WARPGROUP.DEPBAR`, placed before it)
  other    90000 + j, j != k: under the row of another wgmma's instruction (e.g. the
           `UMOV` that builds another wgmma's descriptor)
  kept     the base line, not a marker: the row in force belongs to a non-wgmma
           instruction, so the wgmma's `.loc` plays no part in the GMMA's line
  moved    (none) another line, not a marker
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
from line_attribution import parse_listing  # noqa: E402

GMMA = re.compile(r"^(?:@!?U?P\w+\s+)?[HQIB]GMMA\.")
LOC = re.compile(r"^(\s*)\.loc\s+(\d+)\s+(\d+)\s+(\d+)")
FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|func)\s")
MARK = 90000


def marked(text):
    out, loc, k = [], None, 0
    for l in text.splitlines():
        if FUNC.match(l):
            k = 0
        m = LOC.match(l)
        if m:
            loc = m
        if "wgmma.mma_async" in l and loc is not None and not l.lstrip().startswith("//"):
            ind, f, _, col = loc.groups()
            out.append(f"{ind}.loc\t{f} {MARK + k} {col}")
            out.append(l)
            out.append(loc.group(0))
            k += 1
            continue
        out.append(l)
    return "\n".join(out) + "\n"


def compile_listing(ptx_text, stem, a):
    p = os.path.join(a.cache, stem + ".ptx")
    c = os.path.join(a.cache, stem + ".cubin")
    s = os.path.join(a.cache, stem + ".sass")
    open(p, "w").write(ptx_text)
    subprocess.run([os.path.join(a.bin, "ptxas"), "-arch=sm_90a", "-lineinfo", "-O3", "-o", c, p],
                   check=True, stderr=subprocess.DEVNULL)
    with open(s, "w") as f:
        subprocess.run([os.path.join(a.bin, "nvdisasm"), "-g", "-c", c], stdout=f, stderr=subprocess.DEVNULL,
                       check=True)
    return parse_listing(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("WARPSCOPE_CUDA_BIN", "/work/cuda/cu13/nvidia/cu13/bin"))
    ap.add_argument("--cache", default="/tmp/gmma_variants")
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    kinds, same_fn, total_fn, total = collections.Counter(), 0, 0, 0
    print("# module function offset sass | base marked kind")
    for ptx in sorted(glob.glob(os.path.join(ROOT, "tests/hw/**/triton/*.ptx"), recursive=True)):
        text = open(ptx, errors="replace").read()
        if "wgmma.mma_async" not in text:
            continue
        rel = os.path.relpath(ptx, ROOT)
        stem = rel.replace("/", "_")[:-4]
        base = compile_listing(text, stem + ".base", a)
        mark = compile_listing(marked(text), stem + ".marked", a)
        for fn in sorted(base):
            gm = [o for o in sorted(base[fn]) if GMMA.match(base[fn][o][0])]
            if not gm:
                continue
            total_fn += 1
            same = sorted(base[fn]) == sorted(mark.get(fn, {})) and all(
                base[fn][o][0] == mark[fn][o][0] for o in base[fn])
            same_fn += same
            for k, o in enumerate(gm):
                bl = base[fn][o][1][0][1] if base[fn][o][1] else None
                ml = mark.get(fn, {}).get(o, (None, ()))[1]
                ml = ml[0][1] if ml else None
                if not same:
                    kind = "?"
                elif ml == MARK + k:
                    kind = "own"
                elif ml is not None and ml >= MARK:
                    kind = "other"
                elif ml == bl:
                    kind = "kept"
                else:
                    kind = "moved"
                kinds[kind] += 1
                total += 1
                print(f"{rel} {fn} {o:#06x} {base[fn][o][0].split()[0]} | {bl} {ml} {kind}")
    print(f"# functions whose marked listing is the base listing instruction for instruction: "
          f"{same_fn} of {total_fn}")
    print(f"# GMMA instructions: {total}; " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))


if __name__ == "__main__":
    main()
