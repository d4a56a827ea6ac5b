#!/usr/bin/env bash
# Measure the fifteenth held-out batch (tests/hw/blind15: Triton kernels only) on a
# machine with an sm_90 GPU (H100), Nsight Compute (ncu), python3 with Triton and
# PyTorch:
#
#     bash tests/hw/blind15/measure_blind15.sh OUTDIR
#
# The Triton section of tests/hw/blind11/measure_blind11.sh: blind15_triton.py
# (names t15_*) runs under
#   ncu --section SourceCounters --section LaunchStats --metrics <kernel-level>
#       --import-source yes --clock-control none -k regex:^t15_
# the report is exported (source view cuda,sass and sass, raw page), the cubins
# disassembled, the environment logged.  Parsing (parse_ncu.py) happens on the CPU
# afterwards (tests/hw/blind15/README.md).
set -uo pipefail

HW=$(cd "$(dirname "$0")/.." && pwd)
BL="$HW/blind15"
OUTDIR=$1
mkdir -p "$OUTDIR" "$OUTDIR/sass"
OUTDIR=$(cd "$OUTDIR" && pwd)
NCU=${NCU:-ncu}
T0=$(date +%s)
stamp() { echo "[measure $(( $(date +%s) - T0 ))s] $*"; }

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

if python3 -c "import triton" 2>/dev/null; then
    stamp "triton"
    export TRITON_CACHE_DIR=/tmp/warpscope-hw-blind15-triton-cache
    rm -rf "$TRITON_CACHE_DIR"
    timeout 400 $NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
         --import-source yes --clock-control none -k regex:^t15_ -f -o "$OUTDIR/rep_triton" \
         python3 "$BL/blind15_triton.py" "$OUTDIR/triton" > "$OUTDIR/ncu_profile_triton.log" 2>&1
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
    echo "--- nvcc"; nvcc --version 2>&1
    echo "--- ncu"; $NCU --version 2>&1
    echo "--- nvdisasm"; nvdisasm --version 2>&1 | tail -2
    echo "--- python"; python3 -c "import sys, torch, triton; print(sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)" 2>&1
} > "$OUTDIR/environment.txt"
echo "$METRICS" > "$OUTDIR/metrics.txt"
stamp "done"
