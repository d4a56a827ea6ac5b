#!/usr/bin/env python3
"""Table of the bulk-copy probe (tests/hw/bulkprobe/results) beside the rule it led to.

python3 tests/hw/bulkprobe/parse.py   (prints one row per launch; exit 1 if the rule misses one)

Rule: a 1-D bulk copy between global and shared memory (a load into shared
memory, a store or a reduction out of it) moves its bytes in pieces split at the
128-byte boundaries of its shared-memory side; each piece moves the 32-byte global
sectors its global bytes touch (l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld,
l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_{st,red}).
"""
import csv, gzip, io, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCKS = 512  # blocks per launch, one span each (bulk_probe.cu)


def rule_sectors(shared, glob, size):
    total, done = 0, 0
    while done < size:
        piece = min(size - done, 128 - (shared + done) % 128)
        a = glob + done
        total += (a + piece - 1) // 32 - a // 32 + 1
        done += piece
    return total


def main():
    lines = [l for l in gzip.open(os.path.join(HERE, "results/ncu.csv.gz"), "rt") if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    hdr = rows[0]
    idx = {h: i for i, h in enumerate(hdr)}
    data = [r for r in rows[1:] if len(r) == len(hdr) and r[0].isdigit()]
    launches = []
    for l in open(os.path.join(HERE, "results/plain.log")):
        m = re.match(r"launch \d+ (\S+) mode (\d) base (\d+) segs (.*) total", l)
        if m:
            segs = [tuple(map(int, s.split("+"))) for s in m.group(4).split()]
            launches.append((m.group(1), int(m.group(2)), int(m.group(3)), segs))
    assert len(launches) == len(data), (len(launches), len(data))
    f = lambda r, m: float(r[idx[m]].replace(",", "")) / BLOCKS
    bad = 0
    metric = {
        0: "l1tex__m_xbar2l1tex_read_%s_mem_global_op_tma_ld.sum",
        1: "l1tex__m_l1tex2xbar_write_%s_mem_global_op_tma_st.sum",
        2: "l1tex__m_l1tex2xbar_write_%s_mem_global_op_tma_red.sum",
    }
    kinds = {0: "load", 1: "store", 2: "reduction"}
    print("| launch | copy | span offset + segment offset + bytes | bytes a span | sectors a span | rule | whole sectors of each size |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (name, mode, base, segs), r in zip(launches, data):
        sec = f(r, metric[mode] % "sectors")
        byt = f(r, metric[mode] % "bytes")
        # the shared side is the block's 128-byte aligned buffer, at the segment's offset in the span
        rule = sum(rule_sectors(off, base + off, size) for off, size in segs)
        naive = sum(-(-size // 32) for _, size in segs)
        ok = abs(rule - sec) < 0.01
        bad += not ok
        seg_s = " ".join(f"{base}+{o}+{s}" for o, s in segs)
        print(f"| {name} | {kinds[mode]} | {seg_s} | {byt:.0f} | {sec:.2f} | {rule}{'' if ok else ' MISS'} | {naive} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
