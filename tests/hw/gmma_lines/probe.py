#!/usr/bin/env python3
"""Which line ptxas's line table gives each GMMA (HGMMA/QGMMA/IGMMA) instruction.

  python3 tests/hw/gmma_lines/probe.py [--bin DIR] [--cache DIR] > tests/hw/gmma_lines/table.txt

Every committed PTX module with a `wgmma.mma_async`: Triton's (tests/hw/*/triton/*.ptx,
the cubin the device built beside it) and the CUDA batches' (compiled here with
`ptxas -arch=<.target> -lineinfo -O3`). Per GMMA SASS instruction, in address order:

  listed   the line nvdisasm -g prints for it (the line-table row in force at its
           address; for Triton the kernel's .py); `meas` is the line ncu measured
           (tests/hw/*/measured_sass*.json.gz, same function offset), `-` if none
  ownrow   does `nvdisasm -gp` (.nv_debug_line_sass) start a row at the GMMA itself
  prevsass the PTX line of the nearest SASS instruction before it that has a row,
           and that PTX instruction's opcode

and the candidate rules' predictions, computed from the PTX alone (the GMMA is the
k-th wgmma.mma_async of its function in PTX order when the counts agree):

  own      the wgmma.mma_async's own `.loc` (warpscope before)
  fence    the `.loc` of the wgmma.fence before it
  desc     the `.loc` of the last writer of its descriptor operands (first writer seen
           walking back from the wgmma)
  prev     the `.loc` of the nearest non-wgmma instruction before it in PTX order
  next     the `.loc` of the nearest non-wgmma instruction after it in PTX order
  acc      the `.loc` of the last non-wgmma writer of its accumulator registers (the
           first brace list; in a k loop, the `mov`s that carry the accumulator)
  aop      the `.loc` of the last writer of its A operand: the registers of the second
           brace list where A is in registers (`ldmatrix`, `cvt`, `mov`), else the
           first descriptor's writer
  last     the own `.loc` for the last wgmma.mma_async before a wgmma.commit_group,
           `prev` for the others (the position the own line holds best)

and two columns that are no rule over the PTX:

  block    1 if the listed line is the `.loc` line of some instruction of the wgmma's
           PTX basic block (between labels and branches): where the row comes from
  here     the line this machine's ptxas (`--bin`, `-arch=sm_90a -lineinfo -O3`) gives
           the same (k-th) GMMA when it compiles the Triton PTX itself, `-` for CUDA
           modules (compiled here anyway) or where the GMMA counts differ
"""
import argparse
import collections
import gzip
import glob
import json
import os
import re
import subprocess
import tarfile
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
from line_attribution import line_table, parse_listing  # noqa: E402

GMMA = re.compile(r"^(?:@!?U?P\w+\s+)?[HQIB]GMMA\.")
LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)")
FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z0-9_$]+)")
REG = re.compile(r"%[a-z]+\d+")


def ptx_functions(path):
    """{function: [(ptx line, loc line or None, text, a label before it)]} in PTX order"""
    out, cur, loc, depth, label = {}, None, None, 0, False
    for i, l in enumerate(open(path, errors="replace"), 1):
        s = l.strip()
        m = FUNC.match(l)
        if m:
            cur, loc, label = out.setdefault(m.group(1), []), None, False
            continue
        if cur is not None and re.match(r"^\$?[A-Za-z_$][\w$]*:$", s):
            label = True
            continue
        m = LOC.match(l)
        if m:
            if int(m.group(2)):
                loc = int(m.group(2))
            continue
        if cur is None or not s or s.startswith(("//", ".", "$", "}", "{", ")", "(")) or s.endswith(":"):
            continue
        if not re.match(r"^(?:@!?%\w+\s+)?[a-z]", s):
            continue
        cur.append((i, loc, s, label))
        label = False
    return out


def opcode(s):
    return re.sub(r"^@!?%\w+\s+", "", s).split()[0].rstrip(";")


def candidates(body, k):
    """predictions for the k-th instruction of body (a wgmma.mma_async)"""
    i, loc, s, _ = body[k]
    nonw = lambda t: not opcode(t[2]).startswith("wgmma.") and not opcode(t[2]).startswith("mov.pred")
    prev = next((body[j][1] for j in range(k - 1, -1, -1) if nonw(body[j])), None)
    nxt = next((body[j][1] for j in range(k + 1, len(body)) if nonw(body[j])), None)
    fence = next((body[j][1] for j in range(k - 1, -1, -1) if opcode(body[j][2]).startswith("wgmma.fence")), None)
    # descriptor operands: the 64-bit registers after the accumulator braces
    tail = s[s.rfind("}") + 1:]
    descs = [r for r in REG.findall(tail) if r.startswith("%rd")]
    desc = None
    for j in range(k - 1, -1, -1):
        dst = REG.findall(body[j][2].split(",")[0])
        if dst and dst[-1] in descs and not opcode(body[j][2]).startswith(("st.", "wgmma.")):
            desc = body[j][1]
            break
    def writer(regs, skip_wgmma=True):
        for j in range(k - 1, -1, -1):
            op = opcode(body[j][2])
            if op.startswith(("st.", "bar.", "@")) or (skip_wgmma and op.startswith("wgmma.")):
                continue
            head = body[j][2].split(";")[0]
            first = head[len(op):].strip() if not head.startswith("@") else head.split(None, 2)[-1]
            dst = first.split("}")[0] if first.startswith("{") else first.split(",")[0]
            if set(REG.findall(dst)) & set(regs):
                return body[j][1]
        return None
    braces = re.findall(r"\{([^}]*)\}", s)
    acc = writer(REG.findall(braces[0])) if braces else None
    aop = writer(REG.findall(braces[1])) if len(braces) > 1 else desc
    # position: the last wgmma.mma_async before the next commit_group
    last_of_group = True
    for j in range(k + 1, len(body)):
        op = opcode(body[j][2])
        if op.startswith("wgmma.commit_group"):
            break
        if op.startswith("wgmma.mma_async"):
            last_of_group = False
            break
    # the wgmma's basic block: the instructions between the labels/branches around it
    lo = k
    while lo > 0 and not body[lo - 1][3] and not opcode(body[lo - 1][2]).startswith("bra"):
        lo -= 1
    hi = k
    while hi + 1 < len(body) and not body[hi + 1][3] and not opcode(body[hi][2]).startswith("bra"):
        hi += 1
    block = {t[1] for t in body[lo:hi + 1]}
    return {"own": loc, "fence": fence, "desc": desc, "prev": prev, "next": nxt, "acc": acc, "aop": aop,
            "last": loc if last_of_group else prev, "_block": block}


def measured(batchdir):
    out = {}
    for f in glob.glob(os.path.join(batchdir, "measured_sass*.json.gz")):
        for la in json.load(gzip.open(f)).get("launches", []):
            fn = la.get("ncu_function_name") or la.get("kernel")
            for e in la["instructions"]:
                out[(fn, int(e["offset"], 16))] = e.get("line")
    return out


def cubin_for(ptx, bindir, cache):
    cub = ptx[:-4] + ".cubin"
    if "/triton/" in ptx and os.path.exists(cub):
        return cub
    out = os.path.join(cache, os.path.relpath(ptx, ROOT).replace("/", "_")[:-4] + ".cubin")
    if not os.path.exists(out):
        target = next((m.group(1) for m in map(re.compile(r"\s*\.target\s+(\w+)").match, open(ptx)) if m), "sm_90a")
        subprocess.run([os.path.join(bindir, "ptxas"), "-arch=" + target, "-lineinfo", "-O3", "-o", out, ptx],
                       check=True)
    return out


def listing(cub, flag, cache, bindir):
    lp = os.path.join(cache, os.path.relpath(cub, ROOT).replace("/", "_") + flag + ".sass")
    if not os.path.exists(lp):
        with open(lp, "w") as f:
            subprocess.run([os.path.join(bindir, "nvdisasm"), flag, "-c", cub], stdout=f, stderr=subprocess.DEVNULL)
    return lp


def own_rows(path):
    """{function: set of offsets where -gp starts a row}"""
    out, cur, pending = {}, None, False
    for l in open(path, errors="replace"):
        m = re.match(r"^\s*\.text\.([A-Za-z0-9_$.]+):\s*$", l)
        if m:
            cur, pending = out.setdefault(m.group(1), set()), False
            continue
        if l.lstrip().startswith("//## File"):
            pending = True
            continue
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/", l)
        if m and cur is not None:
            if pending:
                cur.add(int(m.group(1), 16))
            pending = False
    return out


def device_listing(ptx, cache):
    """the device's own `nvdisasm -g` listing of the module (raw/sass.tgz), parsed, or {}"""
    d = os.path.dirname(os.path.dirname(ptx)) if "/triton/" in ptx else os.path.dirname(ptx)
    tgz = os.path.join(d, "raw", "sass.tgz")
    stem = os.path.basename(ptx)[:-4]
    name = ("triton_" if "/triton/" in ptx else "") + stem + ".nvdisasm.sass"
    out = os.path.join(cache, os.path.relpath(d, ROOT).replace("/", "_") + "_" + name)
    if not os.path.exists(out) and os.path.exists(tgz):
        with tarfile.open(tgz) as t:
            try:
                data = t.extractfile("sass/" + name).read()
            except KeyError:
                return {}
        open(out, "wb").write(data)
    return parse_listing(out) if os.path.exists(out) else {}


def modules():
    for ptx in sorted(glob.glob(os.path.join(ROOT, "tests/hw/**/*.ptx"), recursive=True)):
        if "wgmma.mma_async" in open(ptx, errors="replace").read():
            yield ptx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("WARPSCOPE_CUDA_BIN", "/work/cuda/cu13/nvidia/cu13/bin"))
    ap.add_argument("--cache", default="/tmp/gmma_lines")
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    rules = ["own", "fence", "desc", "prev", "next", "acc", "aop", "last"]
    hits, total, own_total, prev_kind = collections.Counter(), 0, 0, collections.Counter()
    in_block = here_same = here_total = here_own = 0
    pos_own, pos_total = collections.Counter(), collections.Counter()
    meas_same = meas_total = dev_same = dev_total = dw_rows = dw_total = fn_total = fn_mapped = shape_same = 0
    kth_same = kth_total = 0
    print("# module function offset sass | listed meas ownrow prevsass(ptxline:opcode:loc) | "
          + " ".join(rules) + " | block here")
    for ptx in modules():
        rel = os.path.relpath(ptx, ROOT)
        cub = cubin_for(ptx, a.bin, a.cache)
        g = parse_listing(listing(cub, "-g", a.cache, a.bin))
        dev = device_listing(ptx, a.cache)
        gp = parse_listing(listing(cub, "-gp", a.cache, a.bin))
        rows = own_rows(listing(cub, "-gp", a.cache, a.bin))
        meas = measured(os.path.dirname(os.path.dirname(ptx)) if "/triton/" in ptx else os.path.dirname(ptx))
        fns = ptx_functions(ptx)
        # .debug_line rows (objdump): only where the cubin has one function, whose
        # sequences are then unambiguous
        dwarf = None
        if len(g) == 1:
            dwarf = set().union(*[set(q) for q in line_table(cub)[1]])
        lines = open(ptx, errors="replace").read().splitlines()
        # this machine's ptxas on the Triton PTX: {function: [line of the k-th GMMA]}
        here = {}
        if "/triton/" in ptx:
            hc = os.path.join(a.cache, "here_" + rel.replace("/", "_")[:-4] + ".cubin")
            if not os.path.exists(hc):
                subprocess.run([os.path.join(a.bin, "ptxas"), "-arch=sm_90a", "-lineinfo", "-O3", "-o", hc, ptx],
                               check=True)
            for hfn, hs in parse_listing(listing(hc, "-g", a.cache, a.bin)).items():
                here[hfn] = [hs[o][1][0][1] if hs[o][1] else None for o in sorted(hs) if GMMA.match(hs[o][0])]
        for fn, sass in sorted(g.items()):
            gm = [off for off in sorted(sass) if GMMA.match(sass[off][0])]
            if not gm:
                continue
            body = fns.get(fn, [])
            ws = [k for k, t in enumerate(body) if opcode(t[2]).startswith("wgmma.mma_async")]
            mapped = len(ws) == len(gm)
            fn_total += 1
            fn_mapped += mapped
            for n, off in enumerate(gm):
                text, ch = sass[off]
                listed = ch[0][1] if ch else None
                dgm = [o for o in sorted(dev.get(fn, {})) if GMMA.match(dev[fn][o][0])]
                if len(dgm) == len(gm):
                    dk = dev[fn][dgm[n]]
                    kth_total += 1
                    kth_same += dk[0].split()[0] == text.split()[0] and bool(dk[1]) and dk[1][0][1] == listed
                dv = dev.get(fn, {}).get(off)
                if dv is not None:
                    dev_total += 1
                    dev_same += dv[0].split()[0] == text.split()[0] and bool(dv[1]) and dv[1][0][1] == listed
                m = meas.get((fn, off), "-")
                if m != "-":
                    meas_total += 1
                    meas_same += m == listed
                own = off in rows.get(fn, set())
                if dwarf is not None:
                    dw_total += 1
                    dw_rows += off in dwarf
                own_total += own
                pl = gp.get(fn, {}).get(off, (None, ()))[1]
                pline = pl[0][1] if pl else None
                ptext = lines[pline - 1].strip() if pline else ""
                ploc = next((t[1] for t in body if t[0] == pline), None)
                prev_kind[opcode(ptext) if ptext else "-"] += 1
                preds = candidates(body, ws[n]) if mapped else {}
                if mapped:
                    shape = re.search(r"GMMA\.(\d+)x(\d+)x(\d+)", text)
                    pshape = re.search(r"\.m(\d+)n(\d+)k(\d+)", body[ws[n]][2])
                    shape_same += bool(shape and pshape and shape.groups() == pshape.groups())
                total += 1
                for r in rules:
                    hits[r] += preds.get(r) == listed
                blk = int(listed in preds.get("_block", ())) if mapped else "?"
                in_block += blk == 1
                hl = here.get(fn, [])
                hline = hl[n] if len(hl) == len(gm) else "-"
                if hline != "-":
                    here_total += 1
                    here_same += hline == listed
                    here_own += hline == preds.get("own")
                # position counted from the end of the function's GMMAs in address order
                pos_total[len(gm) - 1 - n] += 1
                pos_own[len(gm) - 1 - n] += preds.get("own") == listed
                print(f"{rel} {fn} {off:#06x} {text.split()[0]} | {listed} {m} {int(own)} "
                      f"{pline}:{opcode(ptext) if ptext else '-'}:{ploc} | "
                      + " ".join(str(preds.get(r, "?")) for r in rules) + f" | {blk} {hline}")
    print(f"# GMMA instructions: {total}; with a row of their own (-gp): {own_total}")
    print(f"# GMMA with a .debug_line row at their own address (single-function cubins): {dw_rows} of {dw_total}")
    print(f"# functions whose GMMA count == their wgmma.mma_async count (k-th GMMA <-> k-th wgmma): "
          f"{fn_mapped} of {fn_total}; the pair's shape (HGMMA.MxNxK, .mMnNkK) agrees at {shape_same} of {total}")
    print(f"# the device's listing (raw/sass.tgz) has the same GMMA at the same offset and line: "
          f"{dev_same} of {dev_total} found there")
    print(f"# the device's listing has the k-th GMMA of the function with the same opcode and line: "
          f"{kth_same} of {kth_total} (functions with as many GMMAs there)")
    print(f"# ncu's measured line == the listed line: {meas_same} of {meas_total} measured")
    print("# rule hits (prediction == listed line): "
          + ", ".join(f"{r} {hits[r]}/{total}" for r in rules))
    print(f"# the listed line is a .loc line of the wgmma's own PTX basic block: {in_block} of {total}")
    print(f"# this machine's ptxas on the Triton PTX gives the k-th GMMA the listed (device) line: "
          f"{here_same} of {here_total} (the wgmma's own .loc: {here_own} of {here_total})")
    print("# the own .loc is the listed line, by position from the function's last GMMA (0 = last): "
          + ", ".join(f"{p}: {pos_own[p]}/{pos_total[p]}" for p in sorted(pos_total)))
    print("# opcode of the PTX instruction whose row the GMMA inherits: "
          + ", ".join(f"{k} {v}" for k, v in prev_kind.most_common()))


if __name__ == "__main__":
    main()
