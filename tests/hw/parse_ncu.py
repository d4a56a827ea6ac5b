#!/usr/bin/env python3
"""Turn Nsight Compute CSV exports of the warpscope hardware suite into
tests/hw/measured.json (schema: tests/hw/README.md, "measured.json") and
tests/hw/measured_sass.json (schema: README, "measured_sass.json").

  parse_ncu.py --source source.csv --raw raw.csv --launches launches.json --out measured.json
  parse_ncu.py --sass-source source_sass.csv --source source.csv --launches launches.json --out measured_sass.json
  parse_ncu.py --environment environment.txt --out environment.json

source.csv:      ncu -i rep --page source --csv --print-source cuda,sass
source_sass.csv: ncu -i rep --page source --csv --print-source sass
raw.csv:         ncu -i rep --page raw --csv

The same commands take the Triton report's exports with the Triton launch
table (tests/hw/triton/launches.json).
"""
import argparse
import csv
import json
import os
import re
import sys

# source-view column -> field name in measured.json (summed over the launch)
COUNTERS = {
    "Instructions Executed": "requests",
    "Predicated-On Thread Instructions Executed": "thread_instructions",
    "Thread Instructions Executed": "thread_instructions_unpredicated",
    "L1 Tag Requests Global": "l1_tag_requests",
    "L2 Theoretical Sectors Global": "sectors",
    "L2 Theoretical Sectors Global Ideal": "sectors_ideal",
    "L2 Theoretical Sectors Global Excessive": "sectors_excessive",
    "L1 Wavefronts Shared": "shared_wavefronts",
    "L1 Wavefronts Shared Ideal": "shared_wavefronts_ideal",
    "L1 Wavefronts Shared Excessive": "shared_wavefronts_excessive",
    "L1 Conflicts Shared N-Way": "shared_conflicts_n_way",
    "L2 Theoretical Sectors Local": "local_sectors",
    "L1 Tag Requests Local": "local_l1_tag_requests",
}
# per-instruction values that are not summed: the aggregate records their maximum (<name>_max)
NOT_ADDITIVE = {"shared_conflicts_n_way"}
PER_REQUEST = ["l1_tag_requests", "sectors", "sectors_ideal", "shared_wavefronts", "shared_wavefronts_ideal"]

KERNEL_METRIC_PREFIXES = (
    "l1tex__t_requests_pipe_lsu_mem_global",
    "l1tex__t_sectors_pipe_lsu_mem_global",
    "smsp__sass_inst_executed_op_",
    "smsp__inst_executed_op_",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared",
    "l1tex__m_",
    "l1tex__lsuin_requests",
    "l1tex__lsu_writeback",
    "lts__t_sectors",
    "lts__t_requests",
    "dram__bytes",
    "launch__",
)
# ncu's raw page prints byte counts in scaled units (decimal: 1 Kbyte = 1000 bytes);
# measured.json stores them in bytes
BYTE_UNITS = {"byte": 1, "Kbyte": 10**3, "Mbyte": 10**6, "Gbyte": 10**9, "Tbyte": 10**12}

# SASS opcodes of the newer memory paths -> the `op` of their access rows
# (named after the PTX instruction they come from)
NEW_OPS = {
    "LDGSTS": "cp.async",
    "LDSM": "ldmatrix",
    "STSM": "stmatrix",
    "HGMMA": "wgmma", "QGMMA": "wgmma", "IGMMA": "wgmma", "BGMMA": "wgmma",
    "UBLKCP": "bulk", "UBLKRED": "bulk", "UBLKPF": "bulk",
    "UTMALDG": "bulk", "UTMASTG": "bulk", "UTMAREDG": "bulk", "UTMAPF": "bulk",
}
LAUNCH_KEEP = ("launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z", "launch__block_dim_x",
               "launch__block_dim_y", "launch__block_dim_z", "launch__grid_size", "launch__block_size",
               "launch__thread_count", "launch__registers_per_thread", "launch__shared_mem_per_block_static",
               "launch__shared_mem_per_block_dynamic")


def num(s):
    """ncu CSV cell -> int/float/None."""
    if s is None:
        return None
    t = s.strip().replace(",", "")
    if t == "" or t.lower() in ("n/a", "-", "nan"):
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    return int(v) if v == int(v) else v


def never_guard(sass):
    """`@!PT` (or `@!UPT`): a guard that is never true. ptxas pads before
    LDGSTS with `@!PT LDS RZ, [RZ]`; ncu counts such instructions as executed
    (requests) with no active lane."""
    t = sass.strip()
    return t.startswith("@!PT ") or t.startswith("@!UPT ")


def op_of(opcode, access_op, sass=""):
    """Classify a SASS instruction: ld / st / atom / red, the newer paths
    (cp.async / ldmatrix / stmatrix / wgmma / bulk), `never` for an instruction
    whose guard is never true, None if not memory."""
    base = opcode.split(".")[0].upper()
    if base in NEW_OPS:
        return NEW_OPS[base]
    if sass and never_guard(sass) and (base.startswith(("LD", "ST", "ATOM", "RED")) or (access_op or "").strip() not in ("", "-")):
        return "never"
    if base in ("LDG", "LD", "LDS", "LDL"):
        return "ld"
    if base in ("STG", "ST", "STS", "STL"):
        return "st"
    if base in ("ATOMG", "ATOM", "ATOMS"):
        return "atom"
    if base in ("RED", "REDG"):
        return "red"
    a = (access_op or "").strip().lower()
    if a == "-":
        return None
    if a.startswith("load"):
        return "ld"
    if a.startswith("store"):
        return "st"
    return None


def space_of(opcode, space_col):
    s = (space_col or "").strip().lower().replace(" ", "")
    if s == "-":
        s = ""
    if s:
        return s
    base = opcode.split(".")[0].upper()
    if base in ("LDG", "STG", "ATOMG", "RED", "REDG"):
        return "global"
    if base in ("LDS", "STS", "ATOMS", "LDSM", "STSM", "HGMMA", "QGMMA", "IGMMA", "BGMMA"):
        return "shared"
    if base in ("LDGSTS", "UBLKCP", "UBLKRED", "UTMALDG", "UTMASTG", "UTMAREDG"):
        return "global,shared"
    if base in ("UBLKPF", "UTMAPF"):
        return "global"
    if base in ("LDL", "STL"):
        return "local"
    if base in ("LD", "ST", "ATOM"):
        return "generic"
    return ""


def opcode_of(sass):
    t = sass.strip()
    # drop a predicate guard like "@!P0 "
    if t.startswith("@"):
        t = t.split(None, 1)[1] if " " in t else ""
    return t.split(None, 1)[0] if t else ""


def parse_source_csv(path):
    """Return a list of sections, one per profiled launch, in report order.

    Each section: {"function": str, "files": [...], "sass": {address: row},
                   "lines": {(file, line): row}}
    """
    sections = []
    cur = None
    pending_file = None
    pending_func = None
    header = None
    cur_file = None
    cur_line = None
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        for row in csv.reader(f):
            if not row or all(c.strip() == "" for c in row):
                continue
            c0 = row[0].strip()
            if c0 == "File Path" or c0.startswith("File Path"):
                pending_file = row[1].strip() if len(row) > 1 else ""
                continue
            if c0 == "Function Name" or c0.startswith("Function Name"):
                pending_func = row[1].strip() if len(row) > 1 else ""
                continue
            if "Address" in [c.strip() for c in row] and ("Line No" in [c.strip() for c in row] or "#" in row[0]):
                cols = [c.strip() for c in row]
                header = {"cols": cols}
                header["line"] = cols.index("Line No") if "Line No" in cols else None
                header["addr"] = cols.index("Address")
                srcs = [i for i, c in enumerate(cols) if c == "Source"]
                header["cuda_src"] = next((i for i in srcs if i < header["addr"]), None)
                header["sass_src"] = next((i for i in srcs if i > header["addr"]), None)
                func = pending_func if pending_func is not None else (cur["function"] if cur else "")
                fil = pending_file if pending_file is not None else ""
                if cur is None or func != cur["function"] or fil in cur["files"]:
                    cur = {"function": func, "files": [], "sass": {}, "lines": {}, "dup_rows": 0}
                    sections.append(cur)
                cur["files"].append(fil)
                cur_file = fil
                cur_line = None
                pending_file = None
                pending_func = None
                continue
            if header is None or cur is None:
                continue
            cols = header["cols"]
            rec = {cols[i]: row[i] for i in range(min(len(cols), len(row)))}
            ln = row[header["line"]].strip() if header["line"] is not None and header["line"] < len(row) else ""
            addr = row[header["addr"]].strip() if header["addr"] < len(row) else ""
            if ln:
                try:
                    cur_line = int(ln)
                except ValueError:
                    cur_line = None
                # a source-line row: its Address cell is empty or "-" (an
                # instruction row's is "0x..."); ncu does not escape quotes in
                # the source text, so a line such as `: "l"(p));` shifts the
                # cells, and the Address cell then holds source text or "-".
                # Taking such a row for an instruction put a phantom access
                # (the line's aggregate, with address "-") at the first line
                # row of a section (blind/, blind2/, blind4/ before this).
                if not addr.startswith("0x"):
                    cur["lines"][(cur_file, cur_line)] = {
                        "source": row[header["cuda_src"]] if header["cuda_src"] is not None else "",
                        "rec": rec,
                    }
                    continue
            if addr:
                if addr in cur["sass"]:
                    cur["dup_rows"] += 1
                    first = cur["sass"][addr]
                    if (first["file"], first["line"]) != (cur_file, cur_line) and \
                            [cur_file, cur_line] not in first.get("also_lines", []):
                        first.setdefault("also_lines", []).append([cur_file, cur_line])
                    continue
                sass_text = row[header["sass_src"]] if header["sass_src"] is not None and header["sass_src"] < len(row) else ""
                cur["sass"][addr] = {"file": cur_file, "line": cur_line, "sass": sass_text.strip(), "rec": rec}
    return sections


def parse_raw_csv(path):
    """ncu --page raw --csv: header row, units row, one row per launch."""
    rows = []
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        rd = list(csv.reader(f))
    hi = next((i for i, r in enumerate(rd) if r and r[0].strip() == "ID"), None)
    if hi is None:
        return rows, {}
    head = [c.strip() for c in rd[hi]]
    start = hi + 1
    units = {}
    if start < len(rd) and rd[start] and rd[start][0].strip() == "":
        units = {head[i]: rd[start][i] for i in range(min(len(head), len(rd[start])))}
        start += 1
    for r in rd[start:]:
        if not r or r[0].strip() == "":
            continue
        rec = {head[i]: r[i] for i in range(min(len(head), len(r)))}
        rows.append(rec)
    return rows, units


def base_name(kernel):
    """extern "C" name, or the identifier of an Itanium-mangled name."""
    m = re.match(r"_Z(\d+)", kernel)
    if m:
        n = int(m.group(1))
        return kernel[len(m.group(0)):len(m.group(0)) + n]
    return kernel


def name_matches(kernel, ncu_name):
    if not ncu_name:
        return False
    return kernel == ncu_name or re.search(r"(^|[^A-Za-z0-9_])" + re.escape(base_name(kernel)) + r"($|[^A-Za-z0-9_])", ncu_name) is not None


def assign(launches, names):
    """Map launches (in order) to report entries (in order), checking names."""
    out = {}
    j = 0
    problems = []
    for li, l in enumerate(launches):
        k = j
        while k < len(names) and not name_matches(l["kernel"], names[k]):
            k += 1
        if k < len(names):
            if k != j:
                problems.append("skipped report entries %d..%d before launch %s" % (j, k - 1, l["id"]))
            out[li] = k
            j = k + 1
        else:
            problems.append("no report entry for launch %s" % l["id"])
    return out, problems


def aggregate(section):
    groups = {}
    for addr, s in section["sass"].items():
        rec = s["rec"]
        opcode = opcode_of(s["sass"])
        op = op_of(opcode, rec.get("Access Operation"), s["sass"])
        if op is None:
            continue
        space = space_of(opcode, rec.get("Address Space"))
        fil = s["file"] or ""
        key = (fil, s["line"], op, space)
        g = groups.setdefault(key, {"file": os.path.basename(fil), "path": fil, "line": s["line"], "op": op,
                                    "space": space, "sass": []})
        ins = {"address": addr, "sass": s["sass"], "opcode": opcode,
               "access_operation": (rec.get("Access Operation") or "").strip(),
               "access_size_bits": num(rec.get("Access Size"))}
        for col, field in COUNTERS.items():
            if col in rec:
                ins[field] = num(rec[col])
        if s.get("also_lines"):
            ins["also_listed_under"] = s["also_lines"]
        g["sass"].append(ins)
    out = []
    for key in sorted(groups, key=lambda k: (k[0], k[1] if k[1] is not None else -1, k[2], k[3])):
        g = groups[key]
        g["sass"].sort(key=lambda x: int(x["address"], 16) if re.match(r"^(0x)?[0-9a-fA-F]+$", x["address"]) else 0)
        a = {"file": g["file"], "path": g["path"], "line": g["line"], "op": g["op"], "space": g["space"],
             "sass_count": len(g["sass"]),
             "sass_executed": sum(1 for x in g["sass"] if (x.get("requests") or 0) > 0),
             "access_size_bits": sorted({x["access_size_bits"] for x in g["sass"] if x["access_size_bits"] is not None}),
             "opcodes": sorted({x["opcode"] for x in g["sass"]})}
        fields = list(dict.fromkeys(f for x in g["sass"] for f in COUNTERS.values() if f in x))
        for f in fields:
            vals = [x.get(f) for x in g["sass"] if x.get(f) is not None]
            if f in NOT_ADDITIVE:
                a[f + "_max"] = max(vals) if vals else None
            else:
                a[f] = sum(vals) if vals else None
        req = a.get("requests") or 0
        pr = {}
        if req:
            if a.get("thread_instructions") is not None:
                pr["active_lanes"] = a["thread_instructions"] / req
            for f in PER_REQUEST:
                if a.get(f) is not None:
                    pr[f] = a[f] / req
        a["per_request"] = pr
        a["sass"] = g["sass"]
        out.append(a)
    return out


def main_measured(args):
    launches = json.load(open(args.launches))["launches"]
    sections = parse_source_csv(args.source)
    names = [s["function"] for s in sections]
    smap, sproblems = assign(launches, names)
    raw_rows, units = ([], {})
    if args.raw and os.path.exists(args.raw):
        r = parse_raw_csv(args.raw)
        if r:
            raw_rows, units = r
    rnames = [r.get("Kernel Name", "") for r in raw_rows]
    rmap, rproblems = assign(launches, rnames)
    units = {k: ("byte" if v.strip() in BYTE_UNITS else v) for k, v in units.items()}
    scale = {k: BYTE_UNITS[v.strip()] for k, v in parse_raw_csv(args.raw)[1].items() if v.strip() in BYTE_UNITS} \
        if args.raw and os.path.exists(args.raw) else {}
    result = {
        "schema": "warpscope-hw-measured/1",
        "generated_by": "tests/hw/parse_ncu.py",
        "launches_file": args.launches_name or "tests/hw/launches.json",
        "environment_file": "tests/hw/environment.json",
        "source_sections": len(sections),
        "raw_rows": len(raw_rows),
        "problems": sproblems + rproblems,
        "kernel_metric_units": {k: v for k, v in units.items()
                                if k.startswith(KERNEL_METRIC_PREFIXES) and (k.endswith(".sum") or k in LAUNCH_KEEP)},
        "launches": [],
    }
    for li, l in enumerate(launches):
        e = {"id": l["id"], "order": l["order"], "module": l["module"], "kernel": l["kernel"],
             "grid": l["grid"], "block": l["block"]}
        if li in smap:
            sec = sections[smap[li]]
            e["ncu_function_name"] = sec["function"]
            e["source_files"] = sec["files"]
            e["duplicate_sass_rows_dropped"] = sec["dup_rows"]
            e["accesses"] = aggregate(sec)
        else:
            e["accesses"] = None
        if li in rmap:
            rr = raw_rows[rmap[li]]
            e["ncu_id"] = num(rr.get("ID"))
            km = {}
            for k, v in rr.items():
                if k.startswith(KERNEL_METRIC_PREFIXES) and (k.endswith(".sum") or k in LAUNCH_KEEP):
                    nv = num(v)
                    if nv is not None and k in scale:
                        nv = round(nv * scale[k])
                    km[k] = nv if nv is not None else v
            e["kernel_metrics"] = km
        else:
            e["kernel_metrics"] = None
        result["launches"].append(e)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("sections=%d raw_rows=%d launches=%d problems=%d" % (len(sections), len(raw_rows), len(launches),
                                                               len(result["problems"])))
    for p in result["problems"][:20]:
        print("  problem:", p)


def parse_sass_csv(path):
    """ncu --page source --print-source sass: per launch a `"Kernel Name","<name>"`
    row, a header row beginning with "Address", then one row per SASS
    instruction (each printed once).  Returns [(name, [rec, ...])] in report order."""
    sections = []
    header = None
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        for row in csv.reader(f):
            if not row or all(c.strip() == "" for c in row):
                continue
            c0 = row[0].strip()
            if c0 in ("Kernel Name", "Function Name"):
                sections.append((row[1].strip() if len(row) > 1 else "", []))
                header = None
                continue
            if c0 == "Address":
                header = [c.strip() for c in row]
                continue
            if header is None or not sections:
                continue
            sections[-1][1].append({header[i]: row[i] for i in range(min(len(header), len(row)))})
    # ncu 2025.3 prints most launches' section twice in a row, identically: keep one
    dedup = []
    for sec in sections:
        if dedup and dedup[-1] == sec:
            continue
        dedup.append(sec)
    return dedup


# memory-relevant SASS for measured_sass.json: these opcodes, or any row with an access operation
SASS_MEMORY = re.compile(r"^(LDG|STG|LDS|STS|LDL|STL|LD|ST|ATOMG|ATOMS|ATOM|RED|REDG|REDUX|LDGSTS|LDSM|STSM|"
                         r"HGMMA|QGMMA|IGMMA|BGMMA|UBLKCP|UBLKRED|UBLKPF|UTMALDG|UTMASTG|UTMAREDG|UTMAPF|"
                         r"CCTL|CCTLL|MATCH|LDGDEPBAR|SYNCS)$")
SASS_FIELDS = {
    "Instructions Executed": "requests",
    "Predicated-On Thread Instructions Executed": "active_lanes_total",
    "Thread Instructions Executed": "thread_instructions_unpredicated",
    "L1 Tag Requests Global": "l1_tag_requests",
    "L2 Theoretical Sectors Global": "sectors",
    "L2 Theoretical Sectors Global Ideal": "sectors_ideal",
    "L2 Theoretical Sectors Global Excessive": "sectors_excessive",
    "L1 Wavefronts Shared": "shared_wavefronts",
    "L1 Wavefronts Shared Ideal": "shared_wavefronts_ideal",
    "L1 Wavefronts Shared Excessive": "shared_wavefronts_excessive",
    "L1 Conflicts Shared N-Way": "shared_conflicts_n_way",
    "L2 Theoretical Sectors Local": "local_sectors",
    "L1 Tag Requests Local": "local_l1_tag_requests",
}


def main_sass(args):
    """measured_sass.json: per launch, per SASS offset, the counters of every
    memory instruction (offset = run-time address minus the address of the
    function's first instruction, which is the /*0000*/ of cuobjdump/nvdisasm)."""
    launches = json.load(open(args.launches))["launches"]
    sections = parse_sass_csv(args.sass_source)
    smap, problems = assign(launches, [n for n, _ in sections])
    lines = {}
    if args.source:
        src = parse_source_csv(args.source)
        cmap, cproblems = assign(launches, [x["function"] for x in src])
        problems += cproblems
        for li, si in cmap.items():
            lines[li] = {a: (os.path.basename(v["file"] or ""), v["line"]) for a, v in src[si]["sass"].items()}
    out = {"schema": "warpscope-hw-measured-sass/1", "generated_by": "tests/hw/parse_ncu.py",
           "launches_file": args.launches_name or "tests/hw/launches.json",
           "sass_sections": len(sections), "problems": problems, "launches": []}
    n_ins = 0
    for li, l in enumerate(launches):
        e = {"id": l["id"], "module": l["module"], "kernel": l["kernel"], "instructions": None}
        if li in smap:
            name, recs = sections[smap[li]]
            addrs = [int(r["Address"], 16) for r in recs if re.match(r"^0x[0-9a-fA-F]+$", r.get("Address", ""))]
            base = min(addrs) if addrs else 0
            e["ncu_function_name"] = name
            e["sass_instructions"] = len(recs)
            ins = []
            for r in recs:
                a = r.get("Address", "")
                if not re.match(r"^0x[0-9a-fA-F]+$", a):
                    continue
                sass = r.get("Source", "").strip()
                opcode = opcode_of(sass)
                acc = (r.get("Access Operation") or "").strip()
                if not (SASS_MEMORY.match(opcode.split(".")[0]) or acc not in ("", "-")):
                    continue
                x = {"offset": "0x%04x" % (int(a, 16) - base), "sass": sass, "opcode": opcode,
                     "guard": sass.split(None, 1)[0] if sass.startswith("@") else None,
                     "address_space": space_of(opcode, r.get("Address Space")) if acc not in ("", "-") or opcode.split(".")[0] in NEW_OPS else (r.get("Address Space") or "").strip().lower(),
                     "access_operation": acc if acc != "-" else "",
                     "access_size_bits": num(r.get("Access Size"))}
                for col, field in SASS_FIELDS.items():
                    if col in r and num(r[col]) is not None:
                        x[field] = num(r[col])
                if li in lines and a in lines[li]:
                    x["file"], x["line"] = lines[li][a]
                req = x.get("requests") or 0
                if req:
                    x["per_request"] = {k: x[f] / req for k, f in (("active_lanes", "active_lanes_total"),
                                        ("l1_tag_requests", "l1_tag_requests"), ("sectors", "sectors"),
                                        ("sectors_ideal", "sectors_ideal"), ("shared_wavefronts", "shared_wavefronts"),
                                        ("shared_wavefronts_ideal", "shared_wavefronts_ideal")) if f in x}
                ins.append(x)
            e["instructions"] = ins
            n_ins += len(ins)
        out["launches"].append(e)
    with open(args.out, "w") as f:
        # one launch per block, one instruction per line: diffable and compact
        f.write("{\n")
        for k in ("schema", "generated_by", "launches_file", "sass_sections", "problems"):
            f.write(" %s: %s,\n" % (json.dumps(k), json.dumps(out[k])))
        f.write(' "launches": [\n')
        for i, e in enumerate(out["launches"]):
            head = {k: v for k, v in e.items() if k != "instructions"}
            f.write("  " + json.dumps(head)[:-1] + ', "instructions": ')
            if e["instructions"] is None:
                f.write("null}")
            else:
                f.write("[\n" + ",\n".join("   " + json.dumps(x) for x in e["instructions"]) + "\n  ]}")
            f.write(",\n" if i + 1 < len(out["launches"]) else "\n")
        f.write(" ]\n}\n")
    print("sass sections=%d launches=%d memory instructions=%d problems=%d" % (len(sections), len(launches), n_ins,
                                                                                len(problems)))
    for p in problems[:20]:
        print("  problem:", p)


def main_environment(args):
    env = {}
    txt = open(args.environment).read()
    lines = txt.splitlines()
    for ln in lines:
        if "=" in ln and not ln.startswith("---") and ln.split("=", 1)[0] in ("measure_seconds", "date_utc", "uname"):
            k, v = ln.split("=", 1)
            env[k] = int(v) if v.isdigit() else v
    for i, ln in enumerate(lines):
        if ln.startswith("name, driver_version") and i + 1 < len(lines):
            keys = [k.strip() for k in ln.split(",")]
            vals = [v.strip() for v in lines[i + 1].split(",")]
            env["gpu"] = dict(zip(keys, vals))
    m = re.search(r"release (\S+), V(\S+)", txt)
    if m:
        env["cuda_nvcc"] = m.group(2)
    m = re.search(r"--- ncu\n(.*?)(\n---|\Z)", txt, re.S)
    if m:
        env["ncu_version"] = " ".join(m.group(1).split("\n")[-1:]).strip()
        env["ncu_version_text"] = m.group(1).strip()
    m = re.search(r"--- g\+\+\n(.*)", txt)
    if m:
        env["host_compiler"] = m.group(1).strip()
    m = re.search(r"--- nvdisasm\n.*?V(\S+)", txt, re.S)
    if m:
        env["nvdisasm"] = m.group(1)
    m = re.search(r"--- python\n(\S+) torch (\S+) triton (\S+)", txt)
    if m:
        env["python"], env["torch"], env["triton"] = m.group(1), m.group(2), m.group(3)
    env["nvcc_flags"] = "-arch=sm_90 -lineinfo -O3"
    env["nvcc_flags_sm90a"] = ("PTX: -gencode=arch=compute_90a,code=compute_90a -lineinfo -O3; "
                               "cubin: -gencode=arch=compute_90a,code=sm_90a -lineinfo -O3 (modern90a)")
    env["ncu_command_triton"] = ("ncu --section SourceCounters --section LaunchStats --metrics <kernel_metrics> "
                                 "--import-source yes --clock-control none -k regex:^tt_ -o rep_triton "
                                 "python3 tests/hw/triton_kernels.py <dir>")
    env["ncu_command"] = ("ncu --section SourceCounters --section LaunchStats --metrics <kernel_metrics> "
                          "--import-source yes --clock-control none -o rep <host>")
    if args.metrics:
        env["kernel_metrics"] = args.metrics.split(",")
    env["raw"] = txt
    with open(args.out, "w") as f:
        json.dump(env, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--source")
    ap.add_argument("--sass-source", help="ncu --page source --print-source sass export: write measured_sass.json")
    ap.add_argument("--launches-name", help="launches file as named in the output (default tests/hw/launches.json)")
    ap.add_argument("--raw")
    ap.add_argument("--launches")
    ap.add_argument("--environment")
    ap.add_argument("--metrics", help="comma-separated kernel-level metric list (for environment.json)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.environment:
        main_environment(a)
    elif a.sass_source:
        main_sass(a)
    else:
        main_measured(a)
