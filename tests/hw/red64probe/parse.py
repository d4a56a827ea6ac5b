#!/usr/bin/env python3
"""Table of the 64-bit reduction probe (tests/hw/red64probe/results): L1 requests,
sectors and L2 requests per warp for each (operation, lane layout).

python3 tests/hw/red64probe/parse.py
"""
import csv, gzip, io, os

HERE = os.path.dirname(os.path.abspath(__file__))
WARPS = 256 * 4  # blocks x warps a block (red64_probe.cu)


def main():
    lines = [l for l in gzip.open(os.path.join(HERE, "results/ncu.csv.gz"), "rt") if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    hdr = rows[0]
    idx = {h: i for i, h in enumerate(hdr)}
    data = [r for r in rows[1:] if len(r) == len(hdr) and r[0].isdigit()]
    names = [l.split()[1:3] for l in open(os.path.join(HERE, "results/plain.log")) if l.startswith("launch")]
    assert len(names) == len(data)
    f = lambda r, m: float(r[idx[m]].replace(",", "")) / WARPS
    both = lambda r, m: f(r, m % "red") + f(r, m % "atom")
    print("| operation | lanes | SASS executions a warp | L1 requests a warp | sectors a warp | L2 requests a warp |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (op, lay), r in zip(names, data):
        print(
            f"| {op} | {lay} | {both(r, 'smsp__sass_inst_executed_op_global_%s.sum'):.2f} "
            f"| {both(r, 'l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum'):.3f} "
            f"| {both(r, 'l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum'):.2f} "
            f"| {both(r, 'lts__t_requests_srcunit_tex_op_%s.sum'):.2f} |"
        )


if __name__ == "__main__":
    main()
