#!/usr/bin/env python3
"""Synthetic stress inputs for warpscope (issue 10, robustness at scale).

    scripts/stress.py blocks N > big.ptx    one kernel of N basic blocks: a
                                            chain of guarded branches, each
                                            block with a coalesced load, a
                                            strided store and a loop back edge
                                            every 64 blocks
    scripts/stress.py size MB > huge.ptx    one module of about MB megabytes:
                                            many kernels of 2,000 blocks each

Run them as `/usr/bin/time -f '%e s %M KB' warpscope check FILE` (BENCHMARKS.md
records the figures).
"""
import sys

HEAD = ".version 8.5\n.target sm_90\n.address_size 64\n\n"


def kernel(name, blocks, out):
    w = out.write
    w(f".visible .entry {name}(.param .u64 {name}_p, .param .u32 {name}_n)\n{{\n")
    w("\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n")
    w(f"\tld.param.u64 %rd1, [{name}_p];\n\tld.param.u32 %r9, [{name}_n];\n")
    w("\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 0;\n")
    w("\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n")
    w("\tmul.wide.u32 %rd5, %r1, 128;\n\tadd.s64 %rd6, %rd2, %rd5;\n")
    for b in range(blocks):
        w(f"$L{b}:\n")
        w(f"\tsetp.ge.u32 %p1, %r1, {b % 977 + 1};\n")
        w(f"\t@%p1 bra $S{b};\n")
        w(f"\tld.global.u32 %r3, [%rd4+{4 * (b % 1000)}];\n")
        w(f"$S{b}:\n")
        w(f"\tst.global.u32 [%rd6+{4 * (b % 500)}], %r3;\n")
        if b % 64 == 63:
            w("\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p2, %r2, %r9;\n")
            w(f"\t@%p2 bra $L{b - 63};\n")
    w("\tret;\n}\n\n")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("blocks", "size"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    out = sys.stdout
    out.write(HEAD)
    n = int(sys.argv[2])
    if sys.argv[1] == "blocks":
        kernel("stress_blocks", n, out)
    else:
        # about 127 bytes per block: 2,000 blocks ~ 0.25 MB per kernel
        for k in range(max(1, n * 1_000_000 // 253_000)):
            kernel(f"stress_{k}", 2000, out)


if __name__ == "__main__":
    main()
