#!/usr/bin/env python3
"""Check the counting rules that tests/hw/README.md states for the 2026-11-23
launches against tests/hw/measured.json (no GPU needed):

1. wide shared accesses (shw_*): wavefronts = max(warp bytes / 128 rounded up,
   the largest number of distinct 4-byte words in one of the 32 banks);
2. ldmatrix / stmatrix (ldsm_*, stsm_*): wavefronts = the sum over the
   instruction's 8x8 matrices of the same bank rule applied to the 8 rows
   (16 bytes each) that lanes 8k..8k+7 address;
3. cp.async (cpa_*): L1 tag requests = the distinct 128-byte lines of the
   lanes' source bytes (as for ld.global), and, for the 4- and 8-byte forms,
   sectors = the distinct 32-byte sectors (as for ld.global); the 16-byte
   rows where sectors differ from that are listed.

  python3 tests/hw/rules_check.py > tests/hw/rules_check.txt
"""
import gzip
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "modern.cu")).read().split("\n")
D = json.load(gzip.open(os.path.join(HERE, "measured.json.gz"), "rt"))  # stored gzipped
LJ = {l["id"]: l for l in json.load(open(os.path.join(HERE, "launches.json")))["launches"]}
WIDTH = {"u8": 1, "u16": 2, "v2.u8": 2, "u32": 4, "v2.u16": 4, "v4.u8": 4, "u64": 8, "v2.u32": 8, "v4.u16": 8,
         "v2.u64": 16, "v4.u32": 16}


def bank_rule(ranges):
    """Largest number of distinct 4-byte words in one bank over byte ranges [a, a + n)."""
    banks = {}
    for a, n in ranges:
        for b in range(a, a + n):
            banks.setdefault((b // 4) % 32, set()).add(b // 4)
    return max(len(v) for v in banks.values())


def wide_shared():
    ok, bad = 0, []
    for l in D["launches"]:
        if not l["id"].startswith("shw_"):
            continue
        for a in l["accesses"]:
            if a["space"] != "shared":
                continue
            m = re.search(r"(ld|st)\.volatile\.shared\.(\S+?) .*sb \+ lane \* (\d+)", SRC[a["line"] - 1])
            w, stride = WIDTH[m.group(2)], int(m.group(3))
            pred = max(-(-32 * w // 128), bank_rule([(lane * stride, w) for lane in range(32)]))
            meas = a["per_request"]["shared_wavefronts"]
            if abs(pred - meas) < 1e-9:
                ok += 1
            else:
                bad.append("%s line %d %s stride %d B: rule %s, measured %s" % (l["id"], a["line"], m.group(2), stride,
                                                                               pred, meas))
    return ok, bad


def ldsm_addr(layout, r, c):
    return {"plain": r * 128 + c * 16, "pad": r * 144 + c * 16, "swz": r * 128 + ((c ^ (r & 7)) * 16)}[layout]


def matrix_ops():
    ok, bad = 0, []
    for l in D["launches"]:
        m = re.match(r"(ldsm|stsm)_(plain|pad|swz|dense)_x(\d)(_trans)?$", l["id"])
        st = re.match(r"ldsm_x4_stride(\d+)$", l["id"])
        if st:
            stride = int(st.group(1))
            a = [a for a in l["accesses"] if a["op"] == "ldmatrix"][0]
            total = 0
            for w in range(4):
                for k in range(4):
                    total += bank_rule([((16 * w + ((8 * k + j) & 15)) * stride + ((8 * k + j) >> 4) * 16, 16)
                                        for j in range(8)])
            pred, meas = total / 4, a["per_request"]["shared_wavefronts"]
            if abs(pred - meas) < 1e-9:
                ok += 1
            else:
                bad.append("%s: rule %s, measured %s" % (l["id"], pred, meas))
            continue
        if not m:
            continue
        layout, x = m.group(2), int(m.group(3))
        a = [a for a in l["accesses"] if a["op"] in ("ldmatrix", "stmatrix")][0]
        total = 0
        for w in range(4):  # the four warps of a block (rows 16 w ..)
            for k in range(x):
                rows = []
                for j in range(8):
                    lane = 8 * k + j
                    if layout == "dense":
                        rows.append(w * 512 + lane * 16)
                        continue
                    r, c = {1: (16 * w + (lane & 7), 0), 2: (16 * w + (lane & 15), 0),
                            4: (16 * w + (lane & 15), lane >> 4)}[x]
                    rows.append(ldsm_addr(layout, r, c))
                total += bank_rule([(r, 16) for r in rows])
        pred = total / 4
        meas = a["per_request"]["shared_wavefronts"]
        if abs(pred - meas) < 1e-9:
            ok += 1
        else:
            bad.append("%s: rule %s, measured %s" % (l["id"], pred, meas))
    return ok, bad


def cpa_source(lid, i):
    """Byte offset of thread i's cp.async source (None: data-dependent)."""
    l = LJ[lid]
    p = {q["index"]: q.get("value") for q in l["params"]}
    k = l["kernel"]
    fixed = {"cpa_ca4": (4, 0), "cpa_ca8": (8, 0), "cpa_ca16": (16, 0), "cpa_cg16": (16, 0), "cpa_ca4_stride2": (8, 0),
             "cpa_ca4_stride32": (128, 0), "cpa_ca8_stride3": (24, 0), "cpa_cg16_stride2": (32, 0),
             "cpa_cg16_hint": (16, 0), "cpa_ca4_pf64": (4, 0), "cpa_ca4_pf128_stride32": (128, 0),
             "cpa_cg16_pf256": (16, 0), "cpa_ca4_dst32": (4, 0), "cpa_ca4_dst2": (4, 0), "cpa_cg16_dst2": (16, 0),
             "cpa_cg16_dst8": (16, 0), "cpa_cg16_dst_swz": (16, 0), "cpa_cg16_srcsize_odd": (16, 0),
             "cpa_cg16_ignore_hi": (16, 0)}
    if k in fixed:
        s, o = fixed[k]
        return i * s + o
    if k == "cpa_ca4_off":
        return i * 4 + p[3]
    if k == "cpa_cg16_off":
        return i * 16 + p[3]
    if k.startswith("cpa_sweep"):
        return i * p[2] + p[3]
    if k == "cpa_ca4_bcast":
        return (i // 128) * 4
    if k == "cpa_cg16_bcast":
        return (i // 128) * 16
    return None


def cp_async():
    lines_ok, lines_bad, sec_ok, sec_bad, sec16 = 0, [], 0, [], []
    for l in D["launches"]:
        if not l["id"].startswith("cpa_"):
            continue
        a = [a for a in l["accesses"] if a["op"] == "cp.async"][0]
        size = a["access_size_bits"][0] // 8
        if cpa_source(l["id"], 0) is None or l["kernel"] in ("cpa_cg16_srcsize", "cpa_ca4_srcsize") \
                or l["id"] == "cpa_cg16_ignore1":
            continue
        tl, ts, n = 0, 0, 0
        for warp in range(64 * 4):
            lanes = [warp * 32 + j for j in range(32)]
            if l["kernel"] == "cpa_cg16_ignore_hi":
                lanes = lanes[:16]
            byts = [(cpa_source(l["id"], i), size) for i in lanes]
            tl += len({b // 128 for s, z in byts for b in range(s, s + z)})
            ts += len({b // 32 for s, z in byts for b in range(s, s + z)})
            n += 1
        pl, ps = tl / n, ts / n
        pr = a["per_request"]
        if abs(pl - pr["l1_tag_requests"]) < 1e-9:
            lines_ok += 1
        else:
            lines_bad.append("%s: lines rule %.3f measured %.3f" % (l["id"], pl, pr["l1_tag_requests"]))
        if size < 16:
            if abs(ps - pr["sectors"]) < 1e-9:
                sec_ok += 1
            else:
                sec_bad.append("%s: sectors rule %.3f measured %.3f" % (l["id"], ps, pr["sectors"]))
        else:
            sec16.append("%s: load rule %.3f sectors, measured %.3f (%.3f wavefronts)" % (
                l["id"], ps, pr["sectors"], pr["shared_wavefronts"]))
    return lines_ok, lines_bad, sec_ok, sec_bad, sec16


if __name__ == "__main__":
    ok, bad = wide_shared()
    print("1. wide shared (shw_*): %d rows follow the rule, %d do not" % (ok, len(bad)))
    for b in bad:
        print("   ", b)
    ok, bad = matrix_ops()
    print("2. ldmatrix/stmatrix: %d launches follow the rule, %d do not" % (ok, len(bad)))
    for b in bad:
        print("   ", b)
    lok, lbad, sok, sbad, s16 = cp_async()
    print("3. cp.async (address-determined rows; src-size and ignore-all rows left out):")
    print("   L1 tag requests as for ld.global: %d rows, %d differ" % (lok, len(lbad)))
    for b in lbad:
        print("   ", b)
    print("   4/8-byte sectors as for ld.global: %d rows, %d differ" % (sok, len(sbad)))
    for b in sbad:
        print("   ", b)
    print("   16-byte rows: the ld.global sector count next to the measured one:")
    for b in s16:
        print("   ", b)
