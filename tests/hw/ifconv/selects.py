#!/usr/bin/env python3
"""Writes selects.ptx (stop 33): a `selp` of two loaded values, to find which
load ptxas predicates on the select's condition (`tests/hw/blind14`
`aten_where_offsetcalc`: `out = c ? va : vb` is two unconditional
`ld.global.nc.f32` and a `selp` in the PTX; the SASS loads b always and a
under `@P0`, P0 the loaded condition).

Each probe: the condition (`lane`: tid & 1, `uniform`: a parameter,
`loaded`: a loaded byte as aten's `cond[idx]`, `loadedf`: a loaded float
compared), load X then load Y (PTX order), `selp d, X, Y, p` (`xy`: X where
p holds) or `selp d, Y, X, p` (`yx`), the result stored. Variants: the
width (`f32`, `u8`, `u16`, `f64`, `v2`: two `.v2.f32` selected per
component), the loads plain, `.nc` or volatile, X also read by another
instruction (`xused`), `slct` instead of `selp`, the condition computed
after both loads (`late`), or the select feeding arithmetic.

Line conventions as gen_probes.py: in kernel k, access j on line 1000*k + j
(the condition's load a1 where there is one, then X, Y, the store).
Regenerate: python3 selects.py > selects.ptx (regen.sh compiles it).
"""
import gen_probes as g
from gen_probes import Body

g.PROBES.clear()
DECLS = ".reg .b16 %h<8>;\n  .reg .f64 %fe<8>;"


def cond(b, kind):
    if kind == "lane":
        b.other(["and.b32 %r5, %r1, 1;", "setp.eq.s32 %p1, %r5, 0;"], "outer")
    elif kind == "uniform":
        b.other(["setp.eq.s32 %p1, %r3, 0;"], "outer")
    elif kind == "loaded":
        b.other(["cvt.u64.u32 %rd50, %r1;", "add.s64 %rd51, %rd4, %rd50;"], "outer")
        b.mem("ld.global.nc.u8 %h1, [%rd51+65536];")
        b.other(["setp.eq.s16 %p1, %h1, 0;"], "outer")
    elif kind == "loadedf":
        b.other(["mul.wide.u32 %rd50, %r1, 4;", "add.s64 %rd51, %rd4, %rd50;"], "outer")
        b.mem("ld.global.nc.f32 %f7, [%rd51+65536];")
        b.other(["setp.gt.f32 %p1, %f7, 0f00000000;"], "outer")


def probe(kind, width="f32", space="nc", order="xy", xused=False, op="selp", late=False, arith=False):
    b = Body()
    if not late:
        cond(b, kind)
    sp = {"nc": "global.nc", "plain": "global", "volatile": "volatile.global"}[space]
    size = {"f32": 4, "u8": 1, "u16": 2, "f64": 8, "v2": 8}[width]
    b.other([f"mul.wide.u32 %rd40, %r1, {size};", "add.s64 %rd41, %rd4, %rd40;", "add.s64 %rd42, %rd3, %rd40;",
             "cvta.to.global.u64 %rd43, %rd42;"], "outer")
    regs = {"f32": ("%f20", "%f21", "%f22", "f32"), "u8": ("%h2", "%h3", "%h4", "b16"),
            "u16": ("%h2", "%h3", "%h4", "b16"), "f64": ("%fe2", "%fe3", "%fe4", "f64")}
    if width == "v2":
        b.mem(f"ld.{sp}.v2.f32 {{%f20, %f21}}, [%rd41];")
        b.mem(f"ld.{sp}.v2.f32 {{%f22, %f23}}, [%rd43+4096];")
        if late:
            cond(b, kind)
        first, second = ("%f20", "%f22"), ("%f21", "%f23")
        for d, (x, y) in zip(("%f24", "%f25"), (first, second)):
            a, c = (x, y) if order == "xy" else (y, x)
            b.other([f"selp.f32 {d}, {a}, {c}, %p1;"], "outer")
        b.other(["add.f32 %f26, %f24, %f25;", "mul.wide.u32 %rd44, %r1, 4;", "add.s64 %rd45, %rd2, %rd44;"], "outer")
        b.mem("st.global.f32 [%rd45], %f26;")
        return b, False
    x, y, d, t = regs[width]
    lt = {"f32": "f32", "u8": "u8", "u16": "u16", "f64": "f64"}[width]
    b.mem(f"ld.{sp}.{lt} {x}, [%rd41];")
    b.mem(f"ld.{sp}.{lt} {y}, [%rd43+4096];")
    if late:
        cond(b, kind)
    a, c = (x, y) if order == "xy" else (y, x)
    if op == "selp":
        b.other([f"selp.{t} {d}, {a}, {c}, %p1;"], "outer")
    else:
        # slct d, a, b, c: d = c >= 0 ? a : b (c an f32 or s32)
        b.other(["selp.f32 %f9, 0f3F800000, 0fBF800000, %p1;", f"slct.f32.f32 {d}, {a}, {c}, %f9;"], "outer")
    if arith and width == "f32":
        b.other([f"mul.f32 {d}, {d}, 0f40000000;"], "outer")
    b.other([f"mul.wide.u32 %rd44, %r1, {size};", "add.s64 %rd45, %rd2, %rd44;"], "outer")
    st = {"f32": "f32", "u8": "u8", "u16": "u16", "f64": "f64"}[width]
    b.mem(f"st.global.{st} [%rd45], {d};")
    if xused:
        if width == "f32":
            b.other(["add.f32 %f10, %f20, 0f3F800000;"], "outer")
            b.mem("st.global.f32 [%rd45+8192], %f10;")
        else:
            b.mem(f"st.global.{st} [%rd45+8192], {x};")
    return b, False


for kind in ["lane", "uniform", "loaded", "loadedf"]:
    for width in ["f32", "u8", "u16", "f64", "v2"]:
        for space in ["nc", "plain", "volatile"]:
            for order in ["xy", "yx"]:
                g.add(f"sel_{kind}_{width}_{space}_{order}", f"selp of two {space} {width} loads, {kind} condition, {order}", probe(kind, width, space, order), DECLS)
    for order in ["xy", "yx"]:
        g.add(f"sel_{kind}_f32_nc_{order}_xused", f"selp of two .nc f32 loads, {kind} condition, X also stored", probe(kind, order=order, xused=True), DECLS)
        g.add(f"sel_{kind}_f32_nc_{order}_slct", f"slct of two .nc f32 loads, {kind} condition", probe(kind, order=order, op="slct"), DECLS)
        g.add(f"sel_{kind}_f32_nc_{order}_late", f"selp of two .nc f32 loads, {kind} condition computed after the loads", probe(kind, order=order, late=True), DECLS)
        g.add(f"sel_{kind}_f32_nc_{order}_arith", f"selp of two .nc f32 loads, {kind} condition, then a mul", probe(kind, order=order, arith=True), DECLS)

if __name__ == "__main__":
    print(g.render(), end="")
