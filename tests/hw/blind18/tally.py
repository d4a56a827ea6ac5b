#!/usr/bin/env python3
"""Per-category tally of a blind18 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind18.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind18/tally.py tests/hw/blind18/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("sparse and BLAS storage, tensor cores", ["bsr_spmv_4x4", "tpmv_packed_lower", "gbmv_band", "laswp_colmajor",
                                               "floyd_warshall_phase3", "tf32_mma_gemm"]),
    ("image codecs and vision", ["dct8x8_jpeg", "canny_nms", "stereo_sad_disparity", "resize_bicubic_nchw",
                                 "marching_squares_cases", "fft64_radix4_cols"]),
    ("grid algorithms, automata, point clouds", ["jfa_step", "life_bitpacked", "voxelize_atomicor", "transpose_inplace_sq"]),
    ("hashing and tensor reshaping", ["crc32_slice4", "kron_2d", "gather_nd_i64x3", "roll2d_nchw"]),
    ("Triton GEMM, sparse and gathers", ["t18_linear_abt", "t18_ell_spmv", "t18_codebook_dequant_gather",
                                         "t18_resize_bilinear_nhwc", "t18_interp_linear_1d"]),
    ("Triton rows, stencils and pointwise", ["t18_int4_pack_quant", "t18_fir_cols_static_range", "t18_bcast_muladd3d",
                                             "t18_fused_add_rmsnorm", "t18_block_ptr_stencil5"]),
]
snap = open(sys.argv[1]).read()
sec = {
    "rows": snap.split("## Per access, launch simulated")[1].split("## Kernel totals")[0],
    "totals": snap.split("## Kernel totals")[1].split("## Copy-engine traffic")[0],
    "copy": snap.split("## Copy-engine traffic")[1].split("## Per access, static analysis without the grid")[0],
    "static": snap.split("## Per access, static analysis without the grid")[1],
}
def cat_of(launch):
    for name, ls in CATS:
        if launch.split("@")[0] in ls:
            return name
    return "?"
names = [c for c, _ in CATS] + ["all"]
t = {n: {k: [0, 0] for k in sec} for n in names}
for k, s in sec.items():
    for l in s.splitlines():
        if not l.startswith("| ") or l.startswith("| launch") or l.startswith("| ---"):
            continue
        cells = [c.strip() for c in l.strip().strip("|").split("|")]
        verdict = cells[-1]
        if verdict.startswith("never"):
            continue
        ok = verdict == "yes"
        for n in (cat_of(cells[0]), "all"):
            t[n][k][0] += ok
            t[n][k][1] += 1
print("| category | rows | kernel totals | copy-engine | static |")
print("| --- | --- | --- | --- | --- |")
for n in names:
    print("| %s | %d/%d | %d/%d | %d/%d | %d/%d |" % ((n,) + tuple(t[n]["rows"]) + tuple(t[n]["totals"]) + tuple(t[n]["copy"])
                                              + tuple(t[n]["static"])))
