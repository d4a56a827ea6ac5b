#!/usr/bin/env python3
"""Writes blocks.ptx (stop 32): guarded blocks of k accesses, each with its
own address chain of w independent ALU instructions (the shape of a tile
load, where the copies' address arithmetic is parallel, not one chain),
to find what ptxas's limit counts: kinds `cpa` (`cp.async.cg` 16 bytes),
`ld` (global loads added to the accumulator), `stg` (global stores),
`ldsstg` (k shared loads summed, one global store: `stencil7_3d_halo`'s
interior block); contexts `s` (straight line before the kernel's end, a
lane guard) and `l` (a `nounroll` loop, the guard `i + 2 >= m` of a
pipeline's next stage); `pre`: nothing, or a shared load before the guard
whose value the guard does not read (`lds`). cp.async blocks end in
`commit_group`, and a `wait_all; bar.sync; ld.shared` follows.

Line conventions as gen_probes.py (access j of kernel k on line 1000*k + j,
the block's other instructions on 1000*k + 500).
Regenerate: python3 blocks.py | gzip -n -9 > blocks.ptx.gz (kept gzipped;
regen.sh compiles it).
"""
import gen_probes as g
from gen_probes import Body

g.PROBES.clear()
SM = ".shared .align 16 .b8 sm[16384];"


def chain(w, src, dst, salt):
    out = [f"add.s32 {dst}, {src}, {salt};"]
    for i in range(w):
        out.append(f"add.s32 {dst}, {dst}, %r2;" if i % 2 == 0 else f"xor.b32 {dst}, {dst}, {src};")
    return out


def block(b, kind, k, w):
    if kind == "ldsstg":
        b.other(chain(w, "%r10", "%r50", 1))
        b.other(["shl.b32 %r60, %r50, 2;", "mov.u32 %r41, sm;", "add.s32 %r70, %r41, %r60;", "mov.f32 %f5, 0f00000000;"])
        for i in range(k):
            b.mem(f"ld.shared.f32 %f{20 + i}, [%r70+{128 * i}];")
            b.other([f"add.f32 %f5, %f5, %f{20 + i};"])
        b.other(["mul.wide.u32 %rd40, %r50, 4;", "add.s64 %rd41, %rd2, %rd40;"])
        b.mem("st.global.f32 [%rd41+4096], %f5;")
        return
    for i in range(k):
        r = f"%r{50 + i}"
        b.other(chain(w, "%r10", r, 17 * i + 1))
        if kind == "cpa":
            b.other([f"mul.wide.u32 %rd{40 + 2 * i}, {r}, 16;", f"add.s64 %rd{41 + 2 * i}, %rd4, %rd{40 + 2 * i};",
                     f"shl.b32 %r{60 + i}, {r}, 4;", "mov.u32 %r41, sm;", f"add.s32 %r{70 + i}, %r41, %r{60 + i};"])
            b.mem(f"cp.async.cg.shared.global [%r{70 + i}+{512 * i}], [%rd{41 + 2 * i}], 16;")
        elif kind == "ld":
            b.other([f"mul.wide.u32 %rd{40 + 2 * i}, {r}, 4;", f"add.s64 %rd{41 + 2 * i}, %rd4, %rd{40 + 2 * i};"])
            b.mem(f"ld.global.f32 %f{20 + i}, [%rd{41 + 2 * i}];")
            b.other([f"add.f32 %f0, %f0, %f{20 + i};"])
        elif kind == "stg":
            b.other([f"mul.wide.u32 %rd{40 + 2 * i}, {r}, 4;", f"add.s64 %rd{41 + 2 * i}, %rd2, %rd{40 + 2 * i};"])
            b.mem(f"st.global.u32 [%rd{41 + 2 * i}+4096], %r10;")


def probe(ctx, kind, k, w, pre):
    b = Body()
    if ctx == "l":
        b.other(["mov.u32 %r20, 0;"], "outer")
        b.raw("$L_loop:")
        b.raw('.pragma "nounroll";')
    else:
        b.other(["mov.u32 %r20, 0;"], "outer")
    if pre == "lds":
        b.other(["shl.b32 %r43, %r1, 2;", "mov.u32 %r44, sm;", "add.s32 %r45, %r44, %r43;"], "outer")
        b.mem("ld.shared.f32 %f1, [%r45+8192];")
        b.other(["add.f32 %f0, %f0, %f1;"], "outer")
    if ctx == "l":
        b.other(["add.s32 %r21, %r20, 2;", "setp.ge.u32 %p1, %r21, %r3;"], "outer")
    else:
        b.other(["setp.ge.u32 %p1, %r1, %r2;"], "outer")
    b.raw("@%p1 bra $L_skip;")
    b.other(["add.s32 %r10, %r1, %r20;"])
    block(b, kind, k, w)
    b.raw("$L_skip:")
    if kind == "cpa":
        b.raw("cp.async.commit_group;")
    if ctx == "l":
        if kind == "cpa":
            b.raw("cp.async.wait_group 1;")
            b.raw("bar.sync 0;")
        b.other(["add.s32 %r20, %r20, 1;", "setp.lt.u32 %p2, %r20, %r3;"], "outer")
        b.raw("@%p2 bra $L_loop;")
    if kind == "cpa":
        b.raw("cp.async.wait_all;")
        b.raw("bar.sync 0;")
        b.other(["shl.b32 %r43, %r1, 2;", "mov.u32 %r44, sm;", "add.s32 %r45, %r44, %r43;"], "outer")
        b.mem("ld.shared.f32 %f1, [%r45];")
        b.other(["add.f32 %f0, %f0, %f1;"], "outer")
    return b, True


for ctx in ["s", "l"]:
    for pre in ["none", "lds"]:
        for kind in ["cpa", "ld", "stg", "ldsstg"]:
            for k in [1, 2, 4, 8]:
                for w in [0, 2, 4, 6, 8, 12]:
                    g.add(f"b{ctx}_{pre}_{kind}{k}_w{w}", f"{ctx} {pre}: {k} x {kind}, each address a chain of {w}", probe(ctx, kind, k, w, pre), SM)


# A lone global load in a block, and what stands between it and the first
# reader of its value (`cg_tile16_scan_u16` in tests/hw/blind13: `@%p1 bra`
# over `ld.global.nc.u16`, then a block under the same guard storing
# something else, then the shuffles of the loaded value): `st` a store of
# another value in the block after the load, `same` that store in a second
# block under the same guard, `other` in a block under another guard,
# `after` unguarded after the join, `val` the block stores the loaded value,
# `none` nothing; then the value is read (added to the accumulator).
def store_between(where, nc):
    b = Body()
    b.other(["setp.ge.u32 %p1, %r1, %r2;", "mov.f32 %f20, 0f00000000;"], "outer")
    b.raw("@%p1 bra $L_skip;")
    sp = "global.nc" if nc else "global"
    b.other(["mul.wide.u32 %rd40, %r1, 4;", "add.s64 %rd41, %rd4, %rd40;"])
    b.mem(f"ld.{sp}.f32 %f20, [%rd41];")
    st = ["mul.wide.u32 %rd42, %r1, 4;", "add.s64 %rd43, %rd2, %rd42;"]
    if where == "st":
        b.other(st)
        b.mem("st.global.u32 [%rd43+4096], %r3;")
    if where == "val":
        b.other(st)
        b.mem("st.global.f32 [%rd43+4096], %f20;")
    b.raw("$L_skip:")
    if where in ("same", "other"):
        if where == "other":
            b.other(["setp.ge.u32 %p2, %r1, %r3;"], "outer")
        b.raw("@%p1 bra $L_skip2;" if where == "same" else "@%p2 bra $L_skip2;")
        b.other(st)
        b.mem("st.global.u32 [%rd43+4096], %r3;")
        b.raw("$L_skip2:")
    if where == "after":
        b.other(st, "outer")
        b.mem("st.global.u32 [%rd43+4096], %r3;")
    b.other(["add.f32 %f0, %f0, %f20;"], "outer")
    return b, True


for where in ["none", "st", "same", "other", "after", "val"]:
    for nc in [False, True]:
        g.add(f"sb_{where}{'_nc' if nc else ''}", f"a lone global load in a block, then {where}", store_between(where, nc))

if __name__ == "__main__":
    print(g.render(), end="")
