#!/usr/bin/env python3
"""Where Nsight Compute puts inlined SASS: the evidence of tests/hw/line_attribution.md.

  python3 tests/hw/line_attribution.py [--bin DIR] [--cache DIR] [batch ...] [--check-listing]
                                       [--check-rows] [--rules] [-v]

batch: calibration blind blind2 ... blind7 (default: all). DIR: the CUDA 13 bin dir
(`scripts/build-corpus.sh --tools-only` prints it) with ptxas and nvdisasm; GNU
objdump decodes the line table (`objdump --dwarf=rawline`).

For every batch the PTX that ran is compiled here (`ptxas -arch=<its .target>
-lineinfo -O3`; Triton kernels: the cubin the device built, packed in
tests/hw/*/triton/cubins.tgz),
and every SASS instruction of ncu's CUDA source view (raw/source*.csv.gz) whose
SASS text here equals the device's at the same function offset is compared:

  --check-listing  ncu lists the instruction under exactly the line-table rows at
                   the greatest row address <= its own (all rows of that address)
  --check-rows     the line-table rows ptxas wrote == the row model simulated over
                   the SASS order (each SASS instruction's PTX line from `nvdisasm -gp`)
  --rules          per batch, over the memory instructions: how often each candidate
                   rule gives ncu's first listing (the line tests/hw/parse_ncu.py keeps)
"""
import argparse
import collections
import csv
import gzip
import json
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BATCHES = {"calibration": "tests/hw", **{b: "tests/hw/" + b for b in
                                          ["blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7"]}}

# ---------------------------------------------------------------- nvdisasm listings
FN = re.compile(r"^\s*\.text\.([A-Za-z0-9_$.]+):\s*$")
INS = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*$")
DBG = re.compile(r'^\s*//## File "([^"]*)", line (\d+)(?: inlined at "([^"]*)", line (\d+))?')


def parse_listing(path):
    """nvdisasm -gi / -gp output: {function: {offset: (sass, ((file, line), ...) innermost first)}}"""
    out, cur, block, chain, prev = {}, None, [], [], False
    for line in open(path, errors="replace"):
        m = FN.match(line)
        if m:
            cur = out.setdefault(m.group(1), {})
            block, chain, prev = [], [], False
            continue
        m = DBG.match(line)
        if m:
            if not prev:
                block = []
            block.append((m.group(1), int(m.group(2))))
            prev = True
            continue
        m = INS.match(line)
        if m and cur is not None:
            if prev:
                chain = block[:]
            prev = False
            cur[int(m.group(1), 16)] = (m.group(2), tuple(chain))
    return out


# ---------------------------------------------------------------- the line table
def line_table(cubin):
    """objdump --dwarf=rawline: ({file index: name}, [sequence: {address: [(file, line), ...]}])
    Every row in order; rows at one address are the `view`s of that address."""
    txt = subprocess.run(["objdump", "--dwarf=rawline", cubin], capture_output=True, text=True).stdout
    files, seqs, cur, addr, f, line, in_files = {}, [], None, 0, 1, 1, False
    for l in txt.splitlines():
        m = re.match(r"^\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+(\S+)$", l)
        if m and in_files:
            files[int(m.group(1))] = m.group(3)
            continue
        if "The File Name Table" in l:
            in_files = True
            continue
        if "Line Number Statements" in l:
            in_files = False
            continue
        if "set Address to" in l:
            addr, f, line, cur = int(l.split("set Address to")[1].split()[0], 16), 1, 1, {}
            seqs.append(cur)
            continue
        m = re.search(r"Set File Name to entry (\d+)", l)
        if m:
            f = int(m.group(1))
            continue
        m = re.search(r"Advance Line by (-?\d+) to (\d+)", l)
        if m:
            line = int(m.group(2))
            continue
        m = re.search(r"Advance PC by (?:constant )?\d+ to (0x[0-9a-f]+)", l)
        if m:
            addr = int(m.group(1), 16)
            continue
        m = re.search(r"Special opcode \d+: advance Address by \d+ to (0x[0-9a-f]+) and Line by -?\d+ to (\d+)", l)
        if m:
            addr, line = int(m.group(1), 16), int(m.group(2))
            cur.setdefault(addr, []).append((f, line))
            continue
        if re.search(r"\]\s+Copy", l):
            cur.setdefault(addr, []).append((f, line))
    return files, seqs


# ---------------------------------------------------------------- PTX .loc instances
LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:\s*,\s*function_name\s+\S+?(?:\s*\+\s*\d+)?\s*,"
                 r"\s*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")
FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')
OPC = re.compile(r"^\s*(?:@!?%?\w+\s+)?([a-z][\w.]*)")


def ptx_locs(path):
    """Each `.loc` directive is an instance (its PTX line number); its call site is the most
    recent `.loc` of the same function at the inlined_at file/line/column (as warpscope's
    LocChains). A line-0 `.loc` keeps the location. Returns files, {instance: (file, line,
    parent)}, {instruction line: innermost instance}, [per function: [instruction lines]]."""
    files, inst, innermost, fns, last_at, cur, body = {}, {}, {}, [], {}, None, None
    for i, l in enumerate(open(path, errors="replace"), 1):
        m = FILE.match(l)
        if m:
            files[int(m.group(1))] = m.group(2)
            continue
        m = LOC.match(l)
        if m:
            f, ln, c = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if ln == 0:
                continue
            parent = last_at.get((int(m.group(4)), int(m.group(5)), int(m.group(6)))) if m.group(4) else None
            inst[i] = (f, ln, parent)
            last_at[(f, ln, c)] = i
            cur = i
            continue
        s = l.strip()
        if s.startswith((".func", ".visible", ".entry", ".weak")):
            cur, last_at, body = None, {}, []
            fns.append(body)
            continue
        # an inline-asm block on one line, `{  cvt.f32.f16 %f1, %rs1;}`: its instruction
        s = s.lstrip("{").strip()
        if body is None or not s or s.startswith(("//", ".", "$", "}", ")", "(")) or s.endswith(":"):
            continue
        if OPC.match(s):
            innermost[i] = cur
            body.append(i)
    return files, inst, innermost, fns


def chain(inst, i):
    out = []
    while i is not None:
        out.append(i)
        i = inst[i][2]
    return out


def place(inst, i, has_row, last):
    """The row model (warpscope's lower::module::line_frames): placing code at location
    instance i writes i's row plus a row for every call site on its chain, outermost first,
    that has none yet (a .loc that was only an instruction's own location does not count);
    nothing when the location and chain equal the last row's. Returns (rows or None, key)."""
    ch = chain(inst, i)
    k = 1
    while k < len(ch) and ch[k] not in has_row:
        k += 1
    key = (inst[i][0], inst[i][1], inst[i][2])
    if k > 1 or key != last:
        has_row.update(ch[1:k])
        return list(reversed(ch[1:k])) + [i], key
    return None, last


def simulate_sass(order, inst, innermost):
    """order: [(offset, PTX line)] in address order -> {offset: rows written there}"""
    has_row, last, out = set(), None, {}
    for off, p in order:
        i = innermost.get(p)
        if i is None:
            continue
        rows, last = place(inst, i, has_row, last)
        if rows:
            out[off] = rows
    return out


def simulate_ptx(fns, inst, innermost):
    """PTX order, every instruction placed: {instruction line: rows listed for its code}"""
    res = {}
    for body in fns:
        has_row, last, group = set(), None, []
        for p in body:
            i = innermost.get(p)
            if i is not None:
                rows, last = place(inst, i, has_row, last)
                if rows:
                    group = rows
            res[p] = group
    return res


# ---------------------------------------------------------------- ncu source view
def ncu_sections(path):
    """ncu --page source --print-source cuda,sass: per launch section, {address: sass, rec,
    lists}: lists = every (file, line) the instruction is listed under, in CSV order."""
    out, cur, pf, pfn, header, cfile, cline = [], None, None, None, None, None, None
    with gzip.open(path, "rt", newline="", encoding="utf-8", errors="replace") as f:
        for row in csv.reader(f):
            if not row:
                continue
            c0 = row[0].strip()
            if c0.startswith("File Path"):
                pf = row[1].strip()
                continue
            if c0.startswith("Function Name"):
                pfn = row[1].strip()
                continue
            cols = [c.strip() for c in row]
            if "Address" in cols and "Line No" in cols:
                srcs = [i for i, c in enumerate(cols) if c == "Source"]
                header = {"cols": cols, "line": cols.index("Line No"), "addr": cols.index("Address")}
                header["sass"] = [i for i in srcs if i > header["addr"]][0]
                fn = pfn if pfn is not None else cur["function"]
                fil = pf or ""
                if cur is None or fn != cur["function"] or fil in cur["files"]:
                    cur = {"function": fn, "files": [], "sass": {}}
                    out.append(cur)
                cur["files"].append(fil)
                cfile, cline, pf, pfn = fil, None, None, None
                continue
            if header is None:
                continue
            ln, addr = row[header["line"]].strip(), row[header["addr"]].strip()
            if ln:
                try:
                    cline = int(ln)
                except ValueError:
                    cline = None
                if not addr.startswith("0x"):
                    continue
            if addr.startswith("0x"):
                a = int(addr, 16)
                e = cur["sass"].get(a)
                if e is None:
                    rec = {header["cols"][i]: row[i] for i in range(min(len(header["cols"]), len(row)))}
                    e = cur["sass"][a] = {"sass": row[header["sass"]].strip(), "rec": rec, "lists": []}
                if (cfile, cline) not in e["lists"]:
                    e["lists"].append((cfile, cline))
    return out


# ---------------------------------------------------------------- one batch
def norm(s):
    return re.sub(r"\s+", " ", s.replace(";", "")).strip()


def compile_ptx(ptx, bindir, cache):
    out = os.path.join(cache, os.path.relpath(ptx, ROOT).replace("/", "_")[:-4] + ".cubin")
    packed = os.path.join(os.path.dirname(ptx), "cubins.tgz")
    if "/triton/" in ptx and os.path.exists(packed):
        # the device's own build, kept packed beside the PTX
        name = os.path.basename(ptx)[:-4] + ".cubin"
        with tarfile.open(packed) as t:
            if name in t.getnames():
                with open(out, "wb") as f:
                    f.write(t.extractfile(name).read())
                return out
    if not os.path.exists(out):
        target = next((m.group(1) for m in map(re.compile(r"\s*\.target\s+(\w+)").match, open(ptx)) if m), "sm_90")
        subprocess.run([os.path.join(bindir, "ptxas"), "-arch=" + target, "-lineinfo", "-O3", "-o", out, ptx],
                       check=True)
    return out


def load(batch, bindir, cache):
    """{function: info} for the batch's modules and the paths of its ncu source views"""
    d = os.path.join(ROOT, BATCHES[batch])
    funcs, views = {}, []
    for lf, view in (("launches.json", "raw/source.csv.gz"), ("triton/launches.json", "raw/source_triton.csv.gz")):
        if not os.path.exists(os.path.join(d, lf)):
            continue
        for v in json.load(open(os.path.join(d, lf)))["modules"].values():
            ptx = os.path.join(ROOT, v["ptx"])
            cub = compile_ptx(ptx, bindir, cache)
            listings = {}
            for flag in ("-gi", "-gp"):
                lp = os.path.join(cache, os.path.basename(cub) + flag + ".sass")
                if not os.path.exists(lp):
                    with open(lp, "w") as f:
                        subprocess.run([os.path.join(bindir, "nvdisasm"), flag, "-c", cub], stdout=f,
                                       stderr=subprocess.DEVNULL)
                listings[flag] = parse_listing(lp)
            files, seqs = line_table(cub)
            pfiles, inst, innermost, fns = ptx_locs(ptx)
            ptxsim = simulate_ptx(fns, inst, innermost)
            used = set()
            for fn, gi in listings["-gi"].items():
                # the line-table sequence of this function: its last row per address is
                # nvdisasm's innermost line
                best = None
                for si, s in enumerate(seqs):
                    if si in used:
                        continue
                    hit = tot = 0
                    for off, (_, ch) in gi.items():
                        if off in s and ch:
                            tot += 1
                            f, l = s[off][-1]
                            hit += os.path.basename(ch[0][0]) == os.path.basename(files.get(f, "")) and ch[0][1] == l
                    if tot and (best is None or hit > best[0]):
                        best = (hit, si, tot)
                if not best or best[0] < 0.9 * best[2]:
                    continue
                used.add(best[1])
                gp = listings["-gp"].get(fn, {})
                order = [(off, gp[off][1][0][1]) for off in sorted(gi) if gp.get(off) and gp[off][1]]
                funcs[fn] = {"sass": gi, "rows": seqs[best[1]], "files": files, "ptx": ptx,
                             "ptxline": dict(order), "pfiles": pfiles, "inst": inst, "innermost": innermost,
                             "sim": simulate_sass(order, inst, innermost), "ptxsim": ptxsim}
        if os.path.exists(os.path.join(d, view)):
            views.append(os.path.join(d, view))
    return funcs, views


def at(rows, off):
    a = max((x for x in rows if x <= off), default=None)
    return rows.get(a, []) if a is not None else []


def instructions(batch, bindir, cache):
    funcs, views = load(batch, bindir, cache)
    seen, out, st = set(), [], collections.Counter()
    for v in views:
        for s in ncu_sections(v):
            fn = s["function"]
            if fn not in funcs:
                st["function not compiled here"] += 1
                continue
            base = min(s["sass"])
            for a, e in s["sass"].items():
                off = a - base
                if (fn, off) in seen:
                    continue
                seen.add((fn, off))
                here = funcs[fn]["sass"].get(off)
                if here is None or norm(here[0]) != norm(e["sass"]):
                    st["SASS differs here"] += 1
                    continue
                st["same SASS"] += 1
                out.append((fn, off, e, funcs[fn]))
    return out, st


def is_mem(e):
    return e["rec"].get("Address Space", "-") not in ("-", "")


def least(rows, pfiles, inst):
    """ncu's first listing among rows: its files in path order, lines in line order"""
    k = min(((pfiles[inst[x][0]], inst[x][1]) for x in rows), default=None)
    return (os.path.basename(k[0]), k[1]) if k else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("batches", nargs="*")
    ap.add_argument("--bin", default=os.environ.get("WARPSCOPE_CUDA_BIN", "/work/cuda/cu13/nvidia/cu13/bin"))
    ap.add_argument("--cache", default="/tmp/warpscope-line-attribution")
    ap.add_argument("--check-listing", action="store_true")
    ap.add_argument("--check-rows", action="store_true")
    ap.add_argument("--rules", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    total = collections.Counter()
    for b in args.batches or list(BATCHES):
        res, st = instructions(b, args.bin, args.cache)
        c, ex = collections.Counter(), collections.defaultdict(list)
        for fn, off, e, fi in res:
            mem = is_mem(e)
            lists = [(os.path.basename(f), l) for f, l in e["lists"]]
            if args.check_listing:
                rows = [(os.path.basename(fi["files"].get(f, "")), l) for f, l in at(fi["rows"], off)]
                k = ("listing=rows " if set(rows) == set(lists) else "listing!=rows ") + ("mem" if mem else "other")
                c[k] += 1
                if "!=" in k:
                    ex[k].append((fn, hex(off), e["sass"][:30], "ncu", lists, "rows", rows))
            if args.check_rows and off in fi["rows"] or args.check_rows and off in fi["sim"]:
                actual = [(os.path.basename(fi["files"].get(f, "")), l) for f, l in fi["rows"].get(off, [])]
                model = [(os.path.basename(fi["pfiles"][fi["inst"][x][0]]), fi["inst"][x][1])
                         for x in fi["sim"].get(off, [])]
                k = "rows=model" if actual == model else "rows!=model"
                c[k] += 1
                if actual != model:
                    ex[k].append((fn, hex(off), e["sass"][:30], "rows", actual, "model", model))
            if args.rules and mem:
                truth = lists[0]
                p = fi["ptxline"].get(off)
                i = fi["innermost"].get(p) if p else None
                c["memory instructions"] += 1
                if i is None:
                    c["no PTX line or .loc"] += 1
                    continue
                inst, pf = fi["inst"], fi["pfiles"]
                ch = chain(inst, i)
                name = lambda x: (os.path.basename(pf[inst[x][0]]), inst[x][1])
                kfile = inst[ch[-1]][0]
                cands = {
                    "innermost .loc": name(i),
                    "outermost frame": name(ch[-1]),
                    "innermost frame in the kernel's file": name(next(x for x in ch if inst[x][0] == kfile)),
                    "least (path, line) of the whole chain": least(ch, pf, inst),
                    "row model, SASS order": least(at(fi["sim"], off), pf, inst),
                    "row model, PTX order (warpscope)": least(fi["ptxsim"].get(p, []), pf, inst),
                }
                for k, v in cands.items():
                    c[k] += v == truth
                    if v != truth:
                        ex[k].append((fn, hex(off), e["sass"][:30], "ncu", truth, "rule", v))
        print(b, dict(st), dict(c))
        total.update(c)
        if args.v:
            for k, v in ex.items():
                print("  --", k, len(v))
                for x in v[:6]:
                    print("    ", x)
    print("total", dict(total))


if __name__ == "__main__":
    main()
