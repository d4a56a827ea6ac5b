#!/usr/bin/env bash
# Measure the twenty-second held-out batch (tests/hw/blind22) on a machine with an sm_90 GPU
# (H100 / H200), nvcc, Nsight Compute (ncu), g++, python3 with Triton and PyTorch
# (the CUDA part of tests/hw/blind13/measure_blind13.sh, then the Triton part of
# tests/hw/blind15/measure_blind15.sh):
#
#     bash tests/hw/blind22/measure_blind22.sh OUTDIR
#
# The same steps as tests/hw/measure.sh, for one module:
# blind22.cu is copied to the fixed directory /tmp/warpscope-hw-blind22 and
# built there (nvcc -gencode=arch=compute_90a,code=compute_90a -lineinfo -O3
# -ptx, then the cubin FROM that PTX with code=sm_90a: OUTDIR/ptx/blind22.ptx is
# exactly what ran; where ptxas rejects an entry, that entry is removed from the
# PTX, at most 6 times, and its launches fail alone and are skipped); SASS listings; host.cpp
# (tests/hw/blind22/host.cpp) runs every launch once without the profiler, then
# once under
#   ncu --section SourceCounters --section LaunchStats --metrics <kernel-level>
#       --import-source yes --clock-control none
# and the report is exported (source view cuda,sass and sass, raw page); then
# blind22_triton.py (names t22_*) under the same ncu with -k regex:^t22_, exported
# likewise, the Triton cubins disassembled.  Parsing (parse_ncu.py) happens on the CPU afterwards
# (tests/hw/blind22/README.md).
set -uo pipefail

HW=$(cd "$(dirname "$0")/.." && pwd)
BL="$HW/blind22"
OUTDIR=$1
mkdir -p "$OUTDIR" "$OUTDIR/ptx" "$OUTDIR/sass"
OUTDIR=$(cd "$OUTDIR" && pwd)
BUILD=/tmp/warpscope-hw-blind22
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
FLAGS="-gencode=arch=compute_90a,code=compute_90a -lineinfo -O3"
CFLAGS="-gencode=arch=compute_90a,code=sm_90a -lineinfo -O3"
T0=$(date +%s)
stamp() { echo "[measure $(( $(date +%s) - T0 ))s] $*"; }

rm -rf "$BUILD"; mkdir -p "$BUILD"
cp "$BL/blind22.cu" "$BUILD/"
stamp "build"
if ! (cd "$BUILD" && $NVCC $FLAGS -ptx -o blind22.ptx blind22.cu 2> blind22.build.log); then
    # blanking (not deleting: the line numbers stay) each kernel an error points into, once;
    # its launches then fail alone and are skipped (skip.txt)
    cat "$BUILD/blind22.build.log"; echo "build failed: blanking the kernels with errors"
    python3 - "$BUILD/blind22.cu" "$BUILD/blind22.build.log" <<'PY'
import re, sys
src = open(sys.argv[1]).read().split("\n")
bad = {int(m) for m in re.findall(r"blind22\.cu\((\d+)\): error", open(sys.argv[2]).read())}
starts = [i for i, l in enumerate(src) if l.startswith('extern "C" __global__')]
for b in sorted(bad):
    ks = [s for s in starts if s <= b - 1]
    if not ks: continue
    k = ks[-1]; e = next((s for s in starts if s > k), len(src))
    print("blanked kernel at line", k + 1)
    for i in range(k, e):
        if src[i].startswith("//") or src[i].startswith("#define") or src[i].startswith("struct") or src[i].startswith("__device__"): break
        src[i] = ""
open(sys.argv[1], "w").write("\n".join(src))
PY
    cp "$BUILD/blind22.cu" "$OUTDIR/blind22_blanked.cu"
    (cd "$BUILD" && $NVCC $FLAGS -ptx -o blind22.ptx blind22.cu 2> blind22.build2.log) || { cat "$BUILD/blind22.build2.log"; echo "build failed twice"; exit 1; }
fi
for try in 1 2 3 4 5 6 7; do
    if (cd "$BUILD" && $NVCC $CFLAGS -cubin -o blind22.cubin blind22.ptx 2> "ptxas$try.log"); then break; fi
    cat "$BUILD/ptxas$try.log" | tee -a "$OUTDIR/ptxas_errors.log" | head -20
    if [ $try = 7 ]; then echo "cubin build failed"; exit 1; fi
    # remove every .entry that a ptxas error line points into (then ptxas runs again on what is left)
    python3 - "$BUILD/blind22.ptx" "$BUILD/ptxas$try.log" <<'PY' | tee -a "$OUTDIR/ptxas_errors.log"
import re, sys
ptx = open(sys.argv[1]).read().split("\n")
bad = {int(m) for m in re.findall(r"blind22\.ptx, line (\d+); error", open(sys.argv[2]).read())}
starts = [i for i, l in enumerate(ptx) if re.match(r"\s*\.(visible|weak)\s+\.entry\s", l)]
drop = set()
for b in bad:
    ks = [s for s in starts if s <= b - 1]
    if ks: drop.add(ks[-1])
if not drop: print("no entry found for the errors"); sys.exit(1)
out = []
i = 0
while i < len(ptx):
    if i in drop:
        print("removed entry:", ptx[i].strip())
        depth = 0; seen = False
        while i < len(ptx):
            depth += ptx[i].count("{") - ptx[i].count("}")
            seen = seen or "{" in ptx[i]
            i += 1
            if seen and depth <= 0: break
        continue
    out.append(ptx[i]); i += 1
open(sys.argv[1], "w").write("\n".join(out))
PY
done
cp "$BUILD/blind22.ptx" "$OUTDIR/ptx/blind22.ptx"
cuobjdump -sass "$BUILD/blind22.cubin" > "$OUTDIR/sass/blind22.cuobjdump.sass" 2>&1
nvdisasm -g -c "$BUILD/blind22.cubin" > "$OUTDIR/sass/blind22.nvdisasm.sass" 2>&1
g++ -O2 -o "$BUILD/host" "$BL/host.cpp" -ldl || { echo "host build failed"; exit 1; }
"$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/launches.json" --dry-run > /dev/null

stamp "plain run"
: > "$OUTDIR/skip.txt"
if ! timeout 150 "$BUILD/host" --modules "$BUILD" > "$OUTDIR/plain_run.log" 2>&1; then
    tail -3 "$OUTDIR/plain_run.log"
    echo "plain run failed: running each launch alone"
    for id in $(python3 -c "import json,sys; [print(l['id']) for l in json.load(open(sys.argv[1]))['launches']]" "$OUTDIR/launches.json"); do
        if ! timeout 20 "$BUILD/host" --modules "$BUILD" --only "$id" > "$OUTDIR/alone.log" 2>&1; then
            echo "launch $id fails alone: $(tail -1 "$OUTDIR/alone.log")" | tee -a "$OUTDIR/skipped_reasons.txt"
            echo "$id" >> "$OUTDIR/skip.txt"
        fi
    done
    "$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/launches.json" --skip "$OUTDIR/skip.txt" --dry-run > /dev/null
fi
tail -2 "$OUTDIR/plain_run.log"

# kernel-level metrics: keep the ones this ncu knows
WANT="l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld
l1tex__t_requests_pipe_lsu_mem_global_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_st
l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_sectors_pipe_lsu_mem_global_op_atom
l1tex__t_requests_pipe_lsu_mem_global_op_red l1tex__t_sectors_pipe_lsu_mem_global_op_red
smsp__sass_inst_executed_op_global_ld smsp__sass_inst_executed_op_global_st
smsp__sass_inst_executed_op_global_atom smsp__sass_inst_executed_op_global_red
smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_tex_op_write
lts__t_sectors_srcunit_tex_op_atom lts__t_sectors_srcunit_tex_op_red
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass
smsp__sass_inst_executed_op_ldgsts smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_stsm
smsp__sass_inst_executed_op_shared_atom smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom l1tex__data_pipe_lsu_wavefronts_mem_shared
l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld
l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st
l1tex__m_xbar2l1tex_read_bytes l1tex__m_l1tex2xbar_write_bytes
smsp__sass_inst_executed_op_tma_ld smsp__sass_inst_executed_op_tma_st smsp__inst_executed_op_tma
lts__t_sectors_op_read lts__t_sectors_op_write lts__t_sectors_op_red lts__t_sectors_op_atom
lts__t_requests_srcunit_tex lts__t_sectors_srcunit_tex dram__bytes_read dram__bytes_write"
$NCU --query-metrics > "$OUTDIR/query_metrics.txt" 2>&1 || true
METRICS=""
for w in $WANT; do
    if grep -q "^$w " "$OUTDIR/query_metrics.txt"; then METRICS="$METRICS,$w.sum"; else echo "metric $w not offered by this ncu"; fi
done
# every other metric whose name speaks of the copy engine / async paths (kept for the record, at most 40)
EXTRA=$(grep -oE "^(l1tex|lts|smsp|sm)__[a-z0-9_]*(tma|ldgsts|ldsm|stsm|bulk|utma|ublk|dsmem|mbar|gmma)[a-z0-9_]*" "$OUTDIR/query_metrics.txt" | sort -u | head -24)
for w in $EXTRA; do
    case ",$METRICS," in *",$w.sum,"*) ;; *) METRICS="$METRICS,$w.sum";; esac
done
METRICS=${METRICS#,}
if [ -z "$METRICS" ]; then
    echo "ncu --query-metrics gave nothing usable; using the four basic metrics"
    METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
fi
echo "kernel-level metrics: $METRICS"

stamp "profile"
timeout 240 $NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
     --import-source yes --clock-control none -f -o "$OUTDIR/rep" \
     "$BUILD/host" --modules "$BUILD" --skip "$OUTDIR/skip.txt" > "$OUTDIR/ncu_profile.log" 2>&1
echo "ncu exit $?"; tail -3 "$OUTDIR/ncu_profile.log"
stamp "export"
$NCU -i "$OUTDIR/rep.ncu-rep" --page source --csv --print-source cuda,sass > "$OUTDIR/source.csv" 2> "$OUTDIR/export_source.err"
$NCU -i "$OUTDIR/rep.ncu-rep" --page source --csv --print-source sass > "$OUTDIR/source_sass.csv" 2> "$OUTDIR/export_source_sass.err"
$NCU -i "$OUTDIR/rep.ncu-rep" --page raw --csv > "$OUTDIR/raw.csv" 2> "$OUTDIR/export_raw.err"
echo "exports: $(wc -l < "$OUTDIR/source.csv") / $(wc -l < "$OUTDIR/source_sass.csv") / $(wc -l < "$OUTDIR/raw.csv") lines"

if python3 -c "import triton" 2>/dev/null; then
    stamp "triton"
    export TRITON_CACHE_DIR=/tmp/warpscope-hw-blind22-triton-cache
    rm -rf "$TRITON_CACHE_DIR"
    timeout 400 $NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
         --import-source yes --clock-control none -k regex:^t22_ -f -o "$OUTDIR/rep_triton" \
         python3 "$BL/blind22_triton.py" "$OUTDIR/triton" > "$OUTDIR/ncu_profile_triton.log" 2>&1
    echo "ncu (triton) exit $?"; grep -E "triton launch|Error|error" "$OUTDIR/ncu_profile_triton.log" | tail -20
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page source --csv --print-source cuda,sass > "$OUTDIR/source_triton.csv" 2>> "$OUTDIR/export_source.err"
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page source --csv --print-source sass > "$OUTDIR/source_sass_triton.csv" 2>> "$OUTDIR/export_source_sass.err"
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page raw --csv > "$OUTDIR/raw_triton.csv" 2>> "$OUTDIR/export_raw.err"
    for c in "$OUTDIR"/triton/*.cubin; do
        [ -f "$c" ] || continue
        b=$(basename "$c" .cubin)
        cuobjdump -sass "$c" > "$OUTDIR/sass/triton_$b.cuobjdump.sass" 2>&1
        nvdisasm -g -c "$c" > "$OUTDIR/sass/triton_$b.nvdisasm.sass" 2>&1
    done
else
    echo "python3 cannot import triton: Triton kernels not measured"
fi

T1=$(date +%s)
{
    echo "measure_seconds=$(( T1 - T0 ))"
    echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "uname=$(uname -sr)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pci.device_id,vbios_version --format=csv 2>&1
    echo "--- nvcc"; $NVCC --version 2>&1
    echo "--- ncu"; $NCU --version 2>&1
    echo "--- g++"; g++ --version 2>&1 | head -1
    echo "--- nvdisasm"; nvdisasm --version 2>&1 | tail -2
    echo "--- python"; python3 -c "import sys, torch, triton; print(sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)" 2>&1
} > "$OUTDIR/environment.txt"
echo "$METRICS" > "$OUTDIR/metrics.txt"
stamp "done"
