#!/usr/bin/env python3
"""Stop 32: what keeps ptxas predicating the pipeline copy of blind13's
`cutlass_gemm_cpasync_swz` (`if (kt + 2 < KT) load_tile(...)`: a forward
`@%p4 bra $L__BB0_9` over 54 PTX instructions with four `cp.async.cg`,
`@!P0 LDGSTS` in the measured SASS) when the probes of blocks.py branch
around every block of more than about 20 SASS instructions. Extracts the
kernel from tests/hw/blind13/blind13.ptx (`.loc` lines dropped), writes
variants, compiles each with ptxas -arch=sm_90a and prints how many of the
four main-loop copies (`LDGSTS...LTC128B` after the prologue's eight) carry
a predicate.

    python3 cutlass_delta.py BIN > cutlass_delta.txt
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

here = Path(__file__).resolve().parent
bin_dir = Path(sys.argv[1])
src = (here / "../blind13/blind13.ptx").read_text().split("\n")
start = next(i for i, l in enumerate(src) if l.startswith(".visible .entry cutlass_gemm_cpasync_swz("))
end = next(i for i, l in enumerate(src) if i > start and l.startswith(".visible .entry "))
head = [l for l in src[:12] if not l.startswith("//")]
kernel = [l for l in src[start:end] if not l.strip().startswith(".loc")]
base = head + kernel
guard = next(i for i, l in enumerate(base) if "@%p4 bra" in l)


def variant(name):
    s = list(base)
    if name == "original":
        pass
    elif name == "lane_guard":
        s = [l.replace("setp.ge.s32 \t%p4, %r519, %r4;", "setp.ge.s32 \t%p4, %r1, %r4;") for l in s]
    elif name.startswith("junk"):
        # w more dependent ALU instructions in the block, feeding the first
        # copy's shared address
        w = int(name[4:])
        ci = next(i for i, l in enumerate(s) if "cp.async.cg.shared.global [%r339]" in l)
        junk = ["\tadd.s32 %rj, %r1, 7;"] + [("\tadd.s32 %rj, %rj, %r4;" if i % 2 == 0 else "\txor.b32 %rj, %rj, %r1;") for i in range(w)]
        junk += ["\tand.b32 %rj, %rj, 16;", "\tadd.s32 %r339, %r339, %rj;"]
        s = s[:ci - 1] + junk + s[ci - 1:]
    elif name in ("mma_to_fma", "mma_to_fma_no_ldmatrix", "no_mma"):
        out = []
        for i, l in enumerate(s):
            in_loop = 300 < i < guard
            if in_loop and "mma.sync" in l and name != "no_mma":
                m = re.search(r"\{([^}]*)\}, \{([^}]*)\}, \{([^}]*)\}, \{([^}]*)\}", l)
                d, a, b = ([x.strip() for x in m.group(k).split(",")] for k in (1, 2, 3))
                for j, dd in enumerate(d):
                    out += [f"\tmov.b32 %fx0, {a[j]};", f"\tmov.b32 %fx1, {b[j % 2]};", f"\tfma.rn.f32 {dd}, %fx0, %fx1, {dd};"]
                continue
            if in_loop and "mma.sync" in l:
                continue
            if in_loop and "ldmatrix" in l and name == "mma_to_fma_no_ldmatrix":
                m = re.search(r"\{([^}]*)\}, \[([^\]]*)\]", l)
                out += [f"\txor.b32 {d.strip()}, {m.group(2)}, 12345;" for d in m.group(1).split(",")]
                continue
            out.append(l)
        s = out
    text = "\n".join(s).replace(".reg .f32 \t%f<", ".reg .b32 %rj;\n\t.reg .f32 %fx<2>;\n\t.reg .f32 \t%f<", 1)
    return text


names = ["original", "lane_guard", "junk16", "junk64", "junk128", "mma_to_fma", "mma_to_fma_no_ldmatrix", "no_mma"]
print(subprocess.run([bin_dir / "ptxas", "--version"], capture_output=True, text=True).stdout.strip().split("\n")[-1])
with tempfile.TemporaryDirectory() as tmp:
    for name in names:
        ptx = Path(tmp) / f"{name}.ptx"
        ptx.write_text(variant(name))
        cubin = Path(tmp) / f"{name}.cubin"
        subprocess.run([bin_dir / "ptxas", "-arch=sm_90a", "-o", cubin, ptx], check=True)
        sass = subprocess.run([bin_dir / "cuobjdump", "-sass", cubin], capture_output=True, text=True, check=True).stdout
        copies = [l for l in sass.split("\n") if "LDGSTS" in l and "@!PT" not in l]
        loop = copies[8:]
        pred = sum(1 for l in loop if re.search(r"@!?P\d", l))
        ins = [l for l in sass.split("\n") if re.match(r"\s+/\*[0-9a-f]{4}\*/", l)]
        print(f"{name}: {pred} of {len(loop)} main-loop copies predicated ({len(ins)} SASS instructions)")
