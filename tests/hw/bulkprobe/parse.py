#!/usr/bin/env python3
"""Table of the bulk-copy probe (tests/hw/bulkprobe/results) beside the rule it led to.

python3 tests/hw/bulkprobe/parse.py   (prints one row per launch; exit 1 if the rule misses one)

Rule: a 1-D bulk copy global -> shared is read in pieces split at the 128-byte
boundaries of its shared-memory destination; each piece reads the 32-byte global
sectors its source bytes touch (l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld).
"""
import csv, gzip, io, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCKS = 512  # blocks per launch, one span each (bulk_probe.cu)


def rule_sectors(dst, src, size):
    total, done = 0, 0
    while done < size:
        piece = min(size - done, 128 - (dst + done) % 128)
        a = src + done
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
        m = re.match(r"launch \d+ (\S+) base (\d+) segs (.*) total", l)
        if m:
            segs = [tuple(map(int, s.split("+"))) for s in m.group(3).split()]
            launches.append((m.group(1), int(m.group(2)), segs))
    assert len(launches) == len(data), (len(launches), len(data))
    f = lambda r, m: float(r[idx[m]].replace(",", "")) / BLOCKS
    bad = 0
    print("| launch | segments (offset+bytes) | bytes a span | sectors a span | rule | whole sectors of each size |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (name, base, segs), r in zip(launches, data):
        sec = f(r, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum")
        byt = f(r, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum")
        # the destination is the span's shared buffer (128-byte aligned) at the same offset
        rule = sum(rule_sectors(off, base + off, size) for off, size in segs)
        naive = sum(-(-size // 32) for _, size in segs)
        ok = abs(rule - sec) < 0.01
        bad += not ok
        seg_s = " ".join(f"{base}+{o}+{s}" for o, s in segs)
        print(f"| {name} | {seg_s} | {byt:.0f} | {sec:.2f} | {rule}{'' if ok else ' MISS'} | {naive} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
