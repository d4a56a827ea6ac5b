#!/usr/bin/env python3
"""Probe kernels for ptxas's treatment of loads whose results are unused
(deleted, or a vector narrowed to its used elements), and of identical loads
(`cse_*`). Writes probes.ptx to stdout; regen.sh compiles it with ptxas for
sm_90a and tabulates each kernel's load instructions (probes.txt)."""
import itertools
import sys
HDR = """.version 8.7
.target sm_90a
.address_size 64
"""
def kern(name, body, shared=False):
    sh = ""
    return f"""{sh}.visible .entry {name}(.param .u64 p, .param .u64 q, .param .u64 o, .param .u32 n)
{{
  .reg .pred %p<8>; .reg .b16 %rs<16>; .reg .b32 %r<64>; .reg .b64 %rd<32>;
  ld.param.u64 %rd1, [p]; ld.param.u64 %rd9, [q]; ld.param.u64 %rd3, [o]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x; mov.u32 %r3, %ctaid.x; mad.lo.s32 %r4, %r3, 128, %r2;
  shr.s32 %r5, %r4, 3;
  setp.lt.s32 %p1, %r4, %r1;
  setp.lt.s32 %p2, %r2, 100;
  cvt.s64.s32 %rd4, %r5; add.s64 %rd2, %rd1, %rd4;
  mul.wide.s32 %rd5, %r4, 4; add.s64 %rd6, %rd3, %rd5; add.s64 %rd10, %rd9, %rd5;
{body}
  ret;
}}
"""
def ld(dst, guard="@%p1", q="ld.global", ty="b8", addr="[%rd2+0]"):
    init = f"  mov.u16 {dst}, 0;\n" if dst.startswith("%rs") else f"  mov.u32 {dst}, 0;\n"
    return init + f"  {guard} {q}.{ty} {{{dst}}}, {addr};\n"
USE2 = "  cvt.u32.u16 %r10, %rs1; cvt.u32.u16 %r11, %rs2; add.s32 %r12, %r10, %r11; st.global.u32 [%rd6], %r12;\n"
def use_r(a, b):
    return f"  add.s32 %r12, {a}, {b}; st.global.u32 [%rd6], %r12;\n"

# --- identical loads (common subexpressions) ---
K = []
K.append(("cse_base", ld("%rs1") + ld("%rs2") + USE2))
K.append(("cse_eight", "".join(ld(f"%rs{i}") for i in range(1, 9)) +
          "".join(f"  cvt.u32.u16 %r{20+i}, %rs{i};\n" for i in range(1, 9)) +
          "  add.s32 %r30,%r21,%r22; add.s32 %r30,%r30,%r23; add.s32 %r30,%r30,%r24; add.s32 %r30,%r30,%r25; add.s32 %r30,%r30,%r26; add.s32 %r30,%r30,%r27; add.s32 %r30,%r30,%r28; st.global.u32 [%rd6], %r30;\n"))
K.append(("cse_unguarded", ld("%r40", guard="", ty="b32") + ld("%r41", guard="", ty="b32") + use_r("%r40", "%r41")))
K.append(("cse_b32", ld("%r40", ty="b32") + ld("%r41", ty="b32") + use_r("%r40", "%r41")))
K.append(("cse_v4", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  @%p1 ld.global.v4.b32 {%r44,%r45,%r46,%r47}, [%rd2];\n" + use_r("%r40", "%r47")))
K.append(("cse_diffpred", ld("%rs1") + ld("%rs2", guard="@%p2") + USE2))
K.append(("cse_negpred", ld("%rs1") + ld("%rs2", guard="@!%p1") + USE2))
K.append(("cse_st_glob_between", ld("%rs1") + "  st.global.u32 [%rd10], %r4;\n" + ld("%rs2") + USE2))
K.append(("cse_st_glob_same_between", ld("%rs1") + "  st.global.u8 [%rd2], %rs9;\n" + ld("%rs2") + USE2))
K.append(("cse_st_shared_between", ld("%rs1") + "  st.shared.u32 [smem], %r4;\n" + ld("%rs2") + USE2, True))
K.append(("cse_bar_between", ld("%rs1") + "  bar.sync 0;\n" + ld("%rs2") + USE2))
K.append(("cse_membar_between", ld("%rs1") + "  membar.gl;\n" + ld("%rs2") + USE2))
K.append(("cse_atom_between", ld("%rs1") + "  atom.global.add.u32 %r50, [%rd10], 1;\n" + ld("%rs2") + USE2 + "  st.global.u32 [%rd10+4], %r50;\n"))
K.append(("cse_diffwidth", ld("%rs1") + ld("%rs2", ty="b16") + USE2))
K.append(("cse_nc", ld("%rs1", q="ld.global.nc") + ld("%rs2", q="ld.global.nc") + USE2))
K.append(("cse_nc_vs_plain", ld("%rs1", q="ld.global.nc") + ld("%rs2") + USE2))
K.append(("cse_volatile", ld("%rs1", q="ld.volatile.global") + ld("%rs2", q="ld.volatile.global") + USE2))
K.append(("cse_relaxed", ld("%rs1", q="ld.relaxed.gpu.global") + ld("%rs2", q="ld.relaxed.gpu.global") + USE2))
K.append(("cse_evict_last", ld("%rs1", q="ld.global.L1::evict_last") + ld("%rs2", q="ld.global.L1::evict_last") + USE2))
K.append(("cse_evict_mixed", ld("%rs1", q="ld.global.L1::evict_last") + ld("%rs2") + USE2))
K.append(("cse_recomputed", ld("%rs1") + "  cvt.s64.s32 %rd7, %r5; add.s64 %rd8, %rd1, %rd7;\n" + ld("%rs2", addr="[%rd8+0]") + USE2))
K.append(("cse_offset", ld("%rs1") + ld("%rs2", addr="[%rd2+1]") + USE2))
K.append(("cse_shared", "  cvt.u32.u64 %r60, %rd4; mov.u32 %r61, smem; add.u32 %r62, %r61, %r60;\n" + ld("%rs1", q="ld.shared", addr="[%r62]") + ld("%rs2", q="ld.shared", addr="[%r62]") + USE2, True))
K.append(("cse_crossblock", ld("%rs1") + "  setp.eq.s32 %p3, %r1, 7;\n  @%p3 bra L1;\n  add.s32 %r4, %r4, 1;\nL1:\n" + ld("%rs2") + USE2))
K.append(("cse_after_use", ld("%rs1") + "  cvt.u32.u16 %r10, %rs1; st.global.u32 [%rd6], %r10;\n" + ld("%rs2") + "  cvt.u32.u16 %r11, %rs2; st.global.u32 [%rd6+4], %r11;\n"))
K.append(("cse_st_other_param_between", ld("%rs1") + "  st.global.u32 [%rd6+8], %r4;\n" + ld("%rs2") + USE2))
K.append(("cse_generic", ld("%rs1", q="ld") + ld("%rs2", q="ld") + USE2))
K.append(("cse_ca", ld("%rs1", q="ld.global.ca") + ld("%rs2", q="ld.global.ca") + USE2))
K.append(("cse_cg", ld("%rs1", q="ld.global.cg") + ld("%rs2", q="ld.global.cg") + USE2))
K.append(("cse_cv", ld("%rs1", q="ld.global.cv") + ld("%rs2", q="ld.global.cv") + USE2))
K.append(("cse_lu", ld("%rs1", q="ld.global.lu") + ld("%rs2", q="ld.global.lu") + USE2))
K.append(("cse_acquire", ld("%rs1", q="ld.acquire.gpu.global") + ld("%rs2", q="ld.acquire.gpu.global") + USE2))
K.append(("cse_dup_later_unguarded", ld("%rs1") + ld("%rs2", guard="") + USE2))
K.append(("cse_dup_first_unguarded", ld("%rs1", guard="") + ld("%rs2") + USE2))
K.append(("cse_pred_recomputed", ld("%rs1") + "  setp.lt.s32 %p4, %r4, %r1;\n" + ld("%rs2", guard="@%p4") + USE2))
K.append(("cse_cp_async_between", ld("%rs1") + "  cvt.u32.u64 %r60, %rd4; mov.u32 %r61, smem; add.u32 %r62, %r61, %r60;\n  cp.async.ca.shared.global [%r62], [%rd10], 4;\n  cp.async.wait_all;\n" + ld("%rs2") + USE2, True))

# --- loads whose results are unused ---

ST = "  st.global.u32 [%rd6], %r4;\n"
def dead(name, q="ld.global", ty="b32", guard="@%p1", addr="[%rd2+0]", extra="", shared=False):
    K.append((name, ld("%r40", guard=guard, q=q, ty=ty, addr=addr) + extra + ST))
dead("dead_plain")
dead("dead_unguarded", guard="")
dead("dead_volatile", q="ld.volatile.global")
dead("dead_relaxed", q="ld.relaxed.gpu.global")
dead("dead_acquire", q="ld.acquire.gpu.global")
dead("dead_nc", q="ld.global.nc")
dead("dead_cg", q="ld.global.cg")
dead("dead_cv", q="ld.global.cv")
dead("dead_lu", q="ld.global.lu")
dead("dead_L2_128", q="ld.global.L2::128B")
dead("dead_evict", q="ld.global.L1::evict_last")
dead("dead_generic", q="ld")
SH = "  cvt.u32.u64 %r60, %rd4; mov.u32 %r61, smem; add.u32 %r62, %r61, %r60;\n"
K.append(("dead_shared", SH + ld("%r40", q="ld.shared", addr="[%r62]") + ST))
K.append(("dead_shared_volatile", SH + ld("%r40", q="ld.volatile.shared", addr="[%r62]") + ST))
K.append(("dead_arith_only", ld("%r40") + "  add.s32 %r41, %r40, 7; mul.lo.s32 %r42, %r41, 3;\n" + ST))
K.append(("v4_x", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  st.global.u32 [%rd6], %r40;\n"))
K.append(("v4_xy", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  add.s32 %r44, %r40, %r41; st.global.u32 [%rd6], %r44;\n"))
K.append(("v4_xw", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  add.s32 %r44, %r40, %r43; st.global.u32 [%rd6], %r44;\n"))
K.append(("v4_zw", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  add.s32 %r44, %r42, %r43; st.global.u32 [%rd6], %r44;\n"))
K.append(("v4_w", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  st.global.u32 [%rd6], %r43;\n"))
K.append(("v4_none", "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n" + ST))
K.append(("v2_y", "  @%p1 ld.global.v2.b32 {%r40,%r41}, [%rd2];\n  st.global.u32 [%rd6], %r41;\n"))
K.append(("v4_sink", "  @%p1 ld.global.v4.b32 {%r40,_,_,%r43}, [%rd2];\n  st.global.u32 [%rd6], %r43;\n"))
K.append(("v4_shared_x", SH + "  ld.shared.v4.b32 {%r40,%r41,%r42,%r43}, [%r62];\n  st.global.u32 [%rd6], %r40;\n"))
K.append(("v4_x_u16", "  @%p1 ld.global.v4.b16 {%rs1,%rs2,%rs3,%rs4}, [%rd2];\n  cvt.u32.u16 %r40, %rs1; st.global.u32 [%rd6], %r40;\n"))
K.append(("v4_nc_x", "  @%p1 ld.global.nc.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  st.global.u32 [%rd6], %r40;\n"))
K.append(("dead_in_loop", "  mov.u32 %r50, 0;\nLOOP:\n" + ld("%r40", addr="[%rd6]") + "  add.s32 %r50, %r50, 1; setp.lt.s32 %p5, %r50, %r1; @%p5 bra LOOP;\n" + ST))
K.append(("dead_sel_only", ld("%r40") + "  selp.b32 %r41, %r40, 0, %p2;\n" + ST))

# --- vector loads with some elements used ---

names = "xyzw"
for vec, ty, rp in [(4, "b32", "%r"), (2, "b32", "%r"), (2, "b64", "%rd"), (4, "b16", "%rs"), (4, "b8", "%rs"), (2,"b16","%rs")]:
    base = {"%r": 40, "%rd": 20, "%rs": 10}[rp]
    regs = [f"{rp}{base+i}" for i in range(vec)]
    for k in range(1, vec):
        for used in itertools.combinations(range(vec), k):
            tag = "".join(names[i] for i in used)
            body = f"  ld.global.v{vec}.{ty} {{{','.join(regs)}}}, [%rd2];\n"
            # sum used into a 64-bit and store
            body += "  mov.u64 %rd30, 0;\n"
            for i in used:
                r = regs[i]
                if rp == "%rd": body += f"  add.s64 %rd30, %rd30, {r};\n"
                elif rp == "%r": body += f"  cvt.u64.u32 %rd29, {r}; add.s64 %rd30, %rd30, %rd29;\n"
                else: body += f"  cvt.u64.u16 %rd29, {r}; add.s64 %rd30, %rd30, %rd29;\n"
            body += "  st.global.u64 [%rd6], %rd30;\n"
            K.append((f"v{vec}_{ty}_{tag}", body))

# --- guarded (Triton-style) and other uses ---

INIT = "  mov.u32 %r40, 0; mov.u32 %r41, 0; mov.u32 %r42, 0; mov.u32 %r43, 0;\n"
for tag, used in [("x", [40]), ("xy", [40, 41]), ("xz", [40, 42]), ("xyz", [40, 41, 42]), ("none", [])]:
    body = INIT + "  @%p1 ld.global.v4.b32 {%r40,%r41,%r42,%r43}, [%rd2];\n  mov.u32 %r50, 0;\n"
    for u in used:
        body += f"  add.s32 %r50, %r50, %r{u};\n"
    body += "  st.global.u32 [%rd6], %r50;\n"
    K.append((f"g_v4_{tag}", body))
# scalar guarded dead with init, used-only-in-own-guard? and load feeding only a predicate that guards nothing
K.append(("g_dead_init", "  mov.u32 %r40, 0;\n  @%p1 ld.global.b32 %r40, [%rd2];\n  st.global.u32 [%rd6], %r4;\n"))
K.append(("feeds_setp_unused", "  ld.global.b32 %r40, [%rd2];\n  setp.eq.s32 %p6, %r40, 0;\n  st.global.u32 [%rd6], %r4;\n"))
K.append(("feeds_branch", "  ld.global.b32 %r40, [%rd2];\n  setp.eq.s32 %p6, %r40, 0;\n  @%p6 bra END;\n  st.global.u32 [%rd6], %r4;\nEND:\n"))
K.append(("feeds_dead_store_addr", "  ld.global.b32 %r40, [%rd2];\n  mul.wide.s32 %rd20, %r40, 4; add.s64 %rd21, %rd3, %rd20;\n  st.global.u32 [%rd21], %r4;\n"))
K.append(("overwritten", "  ld.global.b32 %r40, [%rd2];\n  mov.u32 %r40, 5;\n  st.global.u32 [%rd6], %r40;\n"))
K.append(("ld_local_dead", "  .local .align 4 .b8 lbuf[64];\n  mov.u64 %rd22, lbuf;\n  st.local.u32 [%rd22], %r4;\n  ld.local.u32 %r40, [%rd22];\n  st.global.u32 [%rd6], %r4;\n"))

if __name__ == "__main__":
    sys.stdout.write(HDR + ".shared .align 16 .b8 smem[1024];\n")
    for k in K:
        sys.stdout.write(kern(k[0], k[1]))
