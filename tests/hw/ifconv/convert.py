#!/usr/bin/env python3
"""Writes convert.ptx (stop 33): guarded blocks holding conversions, FP64
arithmetic and other multi-cycle or variable-latency instructions, to find
when they keep ptxas's branch (`tests/hw/blind14` `thrust_counting_transform`:
`BSSY; @P0 BRA` over `LDG`, `I2F.F64.S64`, `F2F.F64.F32`, `DFMA`, `STG.E.64`,
a block the size rule predicates).

Families (`ops`): k round trips of a conversion from and back to the u32
%r10 (`cvt_*`), or k of an arithmetic instruction between a conversion in
and one out (`add_f64`, `sqrt_approx`, ...; `alu` and `fma_f32` are the
controls). Contexts: `cs2` two lane-guarded blocks in a row, each the ops on
the index, then a global load added to the accumulator (`seq2_alu*`, which
ptxas predicates up to 16 ALU); `cv2` the same two blocks with the ops on
the loaded value, the result stored (the Thrust block's shape); `co1` one
block (ops on the index, a load) followed by an unguarded load
(`one_then_load_*`); `csh` one block of the ops and a shared store, nothing
to overlap (`c_stshared_*`, predicated up to about 8 SASS). `n` more 32-bit
ALU instructions in each block. `thrust*`: the Thrust kernel's partial tile
(two blocks, the second before `ret`, and with a store after the join), and
the same blocks in f32.

Line conventions as gen_probes.py (access j of kernel k on line 1000*k + j,
the block's other instructions on 1000*k + 500).
Regenerate: python3 convert.py | gzip -n -9 > convert.ptx.gz (kept gzipped;
regen.sh compiles it).
"""
import gen_probes as g
from gen_probes import Body, alu

g.PROBES.clear()
DECLS = ".reg .b16 %h<4>;\n  .shared .align 16 .b8 sm[4096];"

F32_IN = ["cvt.rn.f32.u32 %f9, %r10;"]
F32_OUT = ["cvt.rzi.u32.f32 %r10, %f9;"]
F64_IN = ["cvt.rn.f64.u32 %fd1, %r10;"]
F64_OUT = ["cvt.rzi.u32.f64 %r10, %fd1;"]
ONE = "0d3FF0000000000000"


def ops(fam, k):
    """k of the family's instructions, from and back to %r10 (u32)."""
    if fam == "alu":
        return alu(k)
    if fam == "cvt_f32_u32":
        return (F32_IN + F32_OUT) * k
    if fam == "cvt_f64_u32":
        return (F64_IN + F64_OUT) * k
    if fam == "cvt_f64_s64":
        return ["cvt.s64.s32 %rd20, %r10;", "cvt.rn.f64.s64 %fd1, %rd20;", "cvt.rzi.s64.f64 %rd20, %fd1;", "cvt.u32.u64 %r10, %rd20;"] * k
    if fam == "cvt_f32_s64":
        return ["cvt.s64.s32 %rd20, %r10;", "cvt.rn.f32.s64 %f9, %rd20;", "cvt.rzi.s32.f32 %r10, %f9;"] * k
    if fam == "cvt_f64_f32":
        return F32_IN + ["cvt.f64.f32 %fd1, %f9;", "cvt.rn.f32.f64 %f9, %fd1;"] * k + F32_OUT
    if fam == "cvt_f16_f32":
        return F32_IN + ["cvt.rn.f16.f32 %h1, %f9;", "cvt.f32.f16 %f9, %h1;"] * k + F32_OUT
    if fam == "cvt_bf16_f32":
        return F32_IN + ["cvt.rn.bf16.f32 %h1, %f9;", "cvt.f32.bf16 %f9, %h1;"] * k + F32_OUT
    if fam == "fma_f32":
        return F32_IN + ["fma.rn.f32 %f9, %f9, %f9, 0f3F800000;"] * k + F32_OUT
    if fam == "add_f64":
        return F64_IN + [f"add.f64 %fd1, %fd1, {ONE};"] * k + F64_OUT
    if fam == "mul_f64":
        return F64_IN + ["mul.f64 %fd1, %fd1, 0d3FF8000000000000;"] * k + F64_OUT
    if fam == "fma_f64":
        return F64_IN + [f"fma.rn.f64 %fd1, %fd1, %fd1, {ONE};"] * k + F64_OUT
    if fam in ("sqrt_approx", "rcp_approx", "ex2_approx"):
        op = fam.split("_")[0]
        return F32_IN + [f"{op}.approx.f32 %f9, %f9;"] * k + F32_OUT
    if fam == "div_approx":
        return F32_IN + ["div.approx.f32 %f9, %f9, 0f40400000;"] * k + F32_OUT
    if fam == "mul_lo_s64":
        return ["cvt.u64.u32 %rd20, %r10;"] + ["mul.lo.s64 %rd20, %rd20, %rd3;"] * k + ["cvt.u32.u64 %r10, %rd20;"]
    raise ValueError(fam)


FAMS = ["alu", "fma_f32", "cvt_f32_u32", "cvt_f64_u32", "cvt_f64_s64", "cvt_f32_s64", "cvt_f64_f32",
        "cvt_f16_f32", "cvt_bf16_f32", "add_f64", "mul_f64", "fma_f64", "sqrt_approx", "rcp_approx",
        "ex2_approx", "div_approx", "mul_lo_s64"]


def two_blocks(fam, k, n, on_value):
    b = Body()
    b.other(["mov.f32 %f1, 0f00000000;"], "outer")
    for i in range(2):
        b.other([f"add.s32 %r30, %r1, {i * 7};", "setp.ge.u32 %p1, %r30, %r2;"], "outer")
        b.raw(f"@%p1 bra $L_s{i};")
        b.other([f"add.s32 %r10, %r1, {i * 32};"])
        if on_value:
            b.other(["mul.wide.u32 %rd40, %r10, 4;", "add.s64 %rd41, %rd4, %rd40;"])
            b.mem(f"ld.global.f32 %f{20 + i}, [%rd41];")
            b.other([f"mov.b32 %r10, %f{20 + i};"] + ops(fam, k) + alu(n))
            b.other(["add.s64 %rd43, %rd2, %rd40;"])
            b.mem(f"st.global.u32 [%rd43+{4096 + 2048 * i}], %r10;")
        else:
            b.other(ops(fam, k) + alu(n) + ["mul.wide.u32 %rd40, %r10, 4;", "add.s64 %rd41, %rd4, %rd40;"])
            b.mem(f"ld.global.f32 %f{20 + i}, [%rd41];")
            b.other([f"add.f32 %f0, %f0, %f{20 + i};"])
        b.raw(f"$L_s{i}:")
    b.other(["add.f32 %f0, %f0, %f1;"], "outer")
    return b, True


def one_then_load(fam, k, n):
    b = Body()
    b.other(["mov.f32 %f1, 0f00000000;", "setp.ge.u32 %p1, %r1, %r2;"], "outer")
    b.raw("@%p1 bra $L_s0;")
    b.other(["mov.u32 %r10, %r1;"] + ops(fam, k) + alu(n) + ["mul.wide.u32 %rd40, %r10, 4;", "add.s64 %rd41, %rd4, %rd40;"])
    b.mem("ld.global.f32 %f20, [%rd41];")
    b.other(["add.f32 %f0, %f0, %f20;"])
    b.raw("$L_s0:")
    b.other(["mul.wide.u32 %rd52, %r1, 4;", "add.s64 %rd53, %rd4, %rd52;"], "outer")
    b.mem("ld.global.f32 %f3, [%rd53+16384];")
    b.other(["add.f32 %f0, %f0, %f3;", "add.f32 %f0, %f0, %f1;"], "outer")
    return b, True


def shared_store(fam, k, n):
    b = Body()
    b.other(["mov.f32 %f1, 0f00000000;", "setp.ge.u32 %p1, %r1, %r2;"], "outer")
    b.raw("@%p1 bra $L_s0;")
    b.other(["mov.u32 %r10, %r1;"] + ops(fam, k) + alu(n) + ["shl.b32 %r40, %r1, 2;", "mov.u32 %r41, sm;", "add.s32 %r42, %r41, %r40;"])
    b.mem("st.shared.u32 [%r42], %r10;")
    b.raw("$L_s0:")
    b.raw("bar.sync 0;")
    b.other(["shl.b32 %r43, %r1, 2;", "mov.u32 %r44, sm;", "add.s32 %r45, %r44, %r43;"], "outer")
    b.mem("ld.shared.f32 %f1, [%r45+4];")
    b.other(["add.f32 %f0, %f0, %f1;"], "outer")
    return b, True


def thrust(f64, store_after, full=False):
    """tests/hw/blind14 thrust_counting_transform's partial tile: two blocks
    `if (i < n) out[i] = 0.5 * table[i] + i` (i 64-bit), the second before
    `ret` (or a store after the join); `full`: as in the kernel, the blocks
    are the second arm of `if (items >= 512) {full tile} else {...}` (NVVM's
    taken-arm-first layout)."""
    b = Body()
    b.other(["cvt.u64.u32 %rd20, %r1;", "add.s64 %rd21, %rd20, 256;", "cvt.u64.u32 %rd22, %r2;",
             "mul.wide.u32 %rd40, %r1, 4;", "add.s64 %rd41, %rd4, %rd40;", "mul.wide.u32 %rd42, %r1, 8;", "add.s64 %rd43, %rd2, %rd42;"], "outer")
    if full:
        b.other(["setp.gt.u32 %p5, %r3, 511;"], "outer")
        b.raw("@%p5 bra $L_full;")
        b.raw("bra.uni $L_part;")
        b.raw("$L_full:")
        for i, idx in enumerate(["%rd20", "%rd21"]):
            b.mem(f"ld.global.nc.f32 %f{30 + i}, [%rd41+{1024 * i}];")
            if f64:
                b.other([f"cvt.f64.f32 %fd4, %f{30 + i};", f"cvt.rn.f64.s64 %fd5, {idx};", "fma.rn.f64 %fd6, %fd4, 0d3FE0000000000000, %fd5;"], "outer")
                b.mem(f"st.global.f64 [%rd43+{2048 * i}], %fd6;")
            else:
                b.other([f"fma.rn.f32 %f9, %f{30 + i}, 0f3F000000, %f{30 + i};"], "outer")
                b.mem(f"st.global.f32 [%rd43+{2048 * i}], %f9;")
        b.raw("bra.uni $L_s1;")
        b.raw("$L_part:")
    for i, idx in enumerate(["%rd20", "%rd21"]):
        b.other([f"setp.ge.s64 %p{i + 1}, {idx}, %rd22;"], "outer")
        b.raw(f"@%p{i + 1} bra $L_s{i};")
        b.mem(f"ld.global.nc.f32 %f{20 + i}, [%rd41+{1024 * i}];")
        if f64:
            b.other([f"cvt.f64.f32 %fd1, %f{20 + i};", f"cvt.rn.f64.s64 %fd2, {idx};", "fma.rn.f64 %fd3, %fd1, 0d3FE0000000000000, %fd2;"])
            b.mem(f"st.global.f64 [%rd43+{2048 * i}], %fd3;")
        else:
            b.other([f"cvt.u32.u64 %r11, {idx};", f"fma.rn.f32 %f9, %f{20 + i}, 0f3F000000, %f{20 + i};"])
            b.mem(f"st.global.f32 [%rd43+{2048 * i}], %f9;")
        b.raw(f"$L_s{i}:")
    if store_after:
        b.other(["mul.wide.u32 %rd52, %r1, 4;", "add.s64 %rd53, %rd2, %rd52;"], "outer")
        b.mem("st.global.u32 [%rd53+16384], %r2;")
        return b, True
    b.raw("ret;")
    return b, False


# The Thrust blocks are predicated alone and branched in the else-arm of an
# if/else: runs of 1 to 4 lane-guarded blocks (each a load stored back,
# addresses in the block or hoisted before the branches `_h`, `.nc` loads),
# in straight-line code (`none`), in the first arm of an if/else whose other
# arm is a load and a store (`ff`), in its second arm (`ffr`), inside an
# if-then (`if`), under a uniform outer guard; then `ret` or a store.
def inner(b, nblocks, use, n=0, nc=False, hoist=False):
    if hoist:
        for i in range(nblocks):
            b.other([f"add.s32 %r{60+i}, %r1, {i * 32};", f"mul.wide.u32 %rd{50+2*i}, %r{60+i}, 4;", f"add.s64 %rd{51+2*i}, %rd4, %rd{50+2*i};", f"add.s64 %rd{70+i}, %rd2, %rd{50+2*i};"], "outer")
    for i in range(nblocks):
        b.other([f"add.s32 %r30, %r1, {i * 7};", "setp.ge.u32 %p1, %r30, %r2;"], "outer")
        b.raw(f"@%p1 bra $L_s{i};")
        sp = "global.nc" if nc else "global"
        if hoist:
            b.other(alu(n, "%r11"))
            b.mem(f"ld.{sp}.f32 %f{20 + i}, [%rd{51+2*i}];")
        else:
            b.other([f"add.s32 %r10, %r1, {i * 32};"] + alu(n) + ["mul.wide.u32 %rd40, %r10, 4;", "add.s64 %rd41, %rd4, %rd40;"])
            b.mem(f"ld.{sp}.f32 %f{20 + i}, [%rd41];")
        if use == "acc":
            b.other([f"add.f32 %f0, %f0, %f{20 + i};"])
        else:
            if hoist:
                b.mem(f"st.global.f32 [%rd{70+i}+{4096 + 2048 * i}], %f{20 + i};")
            else:
                b.other(["add.s64 %rd43, %rd2, %rd40;"])
                b.mem(f"st.global.f32 [%rd43+{4096 + 2048 * i}], %f{20 + i};")
        b.raw(f"$L_s{i}:")

def other_arm(b, use):
    b.other(["mul.wide.u32 %rd44, %r1, 4;", "add.s64 %rd45, %rd4, %rd44;"], "outer")
    b.mem("ld.global.f32 %f30, [%rd45+8192];")
    if use == "acc":
        b.other(["add.f32 %f0, %f0, %f30;"], "outer")
    else:
        b.other(["add.s64 %rd46, %rd2, %rd44;"], "outer")
        b.mem("st.global.f32 [%rd46+12288], %f30;")

def arm(layout, og, use, end, nblocks=2, n=0, nc=False, hoist=False):
    b = Body()
    b.other(["mov.f32 %f1, 0f00000000;"], "outer")
    guard = {"uni": "setp.ge.u32 %p5, %r3, 512;", "lane": "setp.ge.u32 %p5, %r1, %r3;"}[og]
    b.other([guard], "outer")
    if layout == "none":
        inner(b, nblocks, use, n, nc, hoist)
    elif layout == "tf":   # @p bra A; bra.uni B; A: full; bra.uni J; B: inner; J:
        b.raw("@%p5 bra $L_A;"); b.raw("bra.uni $L_B;"); b.raw("$L_A:")
        other_arm(b, use); b.raw("bra.uni $L_J;"); b.raw("$L_B:")
        inner(b, nblocks, use, n, nc, hoist); b.raw("$L_J:")
    elif layout == "ff":   # @p bra B; inner; bra J; B: full; J:
        b.raw("@%p5 bra $L_B;")
        inner(b, nblocks, use, n, nc, hoist); b.raw("bra.uni $L_J;"); b.raw("$L_B:")
        other_arm(b, use); b.raw("$L_J:")
    elif layout == "ffr":   # @p bra B; full; bra J; B: inner; J:
        b.raw("@%p5 bra $L_B;")
        other_arm(b, use); b.raw("bra.uni $L_J;"); b.raw("$L_B:")
        inner(b, nblocks, use, n, nc, hoist); b.raw("$L_J:")
    elif layout == "if":   # @p bra J; inner; J:
        b.raw("@%p5 bra $L_J;")
        inner(b, nblocks, use, n, nc, hoist); b.raw("$L_J:")
    if end == "ret":
        b.raw("ret;")
        return b, False
    return b, True


for full in [False, True]:
    for f64 in [True, False]:
        for after in [False, True]:
            g.add(f"thrust{'_full' if full else ''}{'' if f64 else '_f32'}{'_after' if after else ''}",
                  f"the Thrust partial tile ({'f64' if f64 else 'f32'}){', the second arm of an if/else' if full else ''}{', then a store' if after else ', then ret'}",
                  thrust(f64, after, full), DECLS)
for fam in FAMS:
    for k in [1, 2, 4]:
        for n in [0, 8]:
            g.add(f"cs2_{fam}_k{k}_n{n}", f"2 lane-guarded blocks: {k} x {fam} on the index, {n} ALU, a load", two_blocks(fam, k, n, False), DECLS)
            g.add(f"cv2_{fam}_k{k}_n{n}", f"2 lane-guarded blocks: a load, {k} x {fam} on its value, {n} ALU, a store", two_blocks(fam, k, n, True), DECLS)
            g.add(f"co1_{fam}_k{k}_n{n}", f"1 lane-guarded block: {k} x {fam}, {n} ALU, a load; then a load", one_then_load(fam, k, n), DECLS)
    for k in [1, 2]:
        g.add(f"csh_{fam}_k{k}_n0", f"1 lane-guarded block: {k} x {fam}, a shared store; then a barrier", shared_store(fam, k, 0), DECLS)

for layout in ["none", "ff", "ffr", "if"]:
    for end in ["ret", "epi"]:
        for nb in [1, 2, 3, 4]:
            for nc in [False, True]:
                for hoist in [False, True]:
                    g.add(f"arm_{layout}_{end}_b{nb}{'_nc' if nc else ''}{'_h' if hoist else ''}",
                          f"{nb} guarded blocks in layout {layout}, then {end}", arm(layout, "uni", "stg", end, nb, 0, nc, hoist), DECLS)

if __name__ == "__main__":
    print(g.render(), end="")
