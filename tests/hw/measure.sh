#!/usr/bin/env bash
# Re-measure the warpscope hardware suite on a machine with an sm_90 GPU
# (H100), nvcc and Nsight Compute (ncu) on the PATH, and python3:
#
#     bash tests/hw/measure.sh [OUTDIR]          (default OUTDIR: tests/hw/out)
#
# Steps:
#   1. copies tests/hw/kernels.cu and examples/kernels/<m>/<m>.cu to the fixed
#      directory /tmp/warpscope-hw (so the .file paths in the PTX do not
#      depend on where the repository lives) and builds, for every module,
#        nvcc -arch=sm_90 -lineinfo -O3 -ptx   -o <m>.ptx   <m>.cu
#        nvcc -arch=sm_90 -lineinfo -O3 -cubin -o <m>.cubin <m>.ptx
#      i.e. the cubin that runs is assembled from exactly the PTX that is
#      committed (OUTDIR/ptx/<m>.ptx; copy it over the committed one);
#   2. builds tests/hw/host.cpp, writes OUTDIR/launches.json and runs every
#      launch once without the profiler (sanity check);
#   3. profiles all launches once with
#        ncu --section SourceCounters --section LaunchStats --metrics <kernel-level>
#            --import-source yes --clock-control none
#   4. exports the per-SASS-instruction source view
#        ncu -i rep --page source --csv --print-source cuda,sass
#      and the kernel-level metrics (ncu -i rep --page raw --csv);
#   5. python3 tests/hw/parse_ncu.py -> OUTDIR/measured.json
#   6. writes OUTDIR/environment.json (GPU, driver, CUDA, ncu versions, timing).
set -uo pipefail

HW=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HW/../.." && pwd)
OUTDIR=${1:-$HW/out}
mkdir -p "$OUTDIR" "$OUTDIR/ptx"
OUTDIR=$(cd "$OUTDIR" && pwd)
BUILD=/tmp/warpscope-hw
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
FLAGS="-arch=sm_90 -lineinfo -O3"
T0=$(date +%s)
stamp() { echo "[measure $(( $(date +%s) - T0 ))s] $*"; }

rm -rf "$BUILD"
mkdir -p "$BUILD"
cp "$HW/kernels.cu" "$BUILD/kernels.cu"
for m in indirect transactions fma common_cases transpose; do
    cp "$ROOT/examples/kernels/$m/$m.cu" "$BUILD/$m.cu"
done

stamp "build"
for m in kernels indirect transactions fma common_cases transpose; do
    (cd "$BUILD" && $NVCC $FLAGS -ptx -o "$m.ptx" "$m.cu" && $NVCC $FLAGS -cubin -o "$m.cubin" "$m.ptx") || { echo "build of $m failed"; exit 1; }
    cp "$BUILD/$m.ptx" "$OUTDIR/ptx/$m.ptx"
done
if command -v cuobjdump >/dev/null; then
    for m in kernels indirect transactions fma common_cases transpose; do
        cuobjdump -sass "$BUILD/$m.cubin" > "$OUTDIR/ptx/$m.sass" 2>&1 || true
    done
fi
g++ -O2 -o "$BUILD/host" "$HW/host.cpp" -ldl || { echo "host build failed"; exit 1; }

stamp "plain run"
"$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/launches.json" || { echo "plain run failed"; exit 1; }

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
lts__t_sectors_srcunit_tex_op_atom lts__t_sectors_srcunit_tex_op_red"
$NCU --query-metrics > "$OUTDIR/query_metrics.txt" 2>&1 || true
METRICS=""
for w in $WANT; do
    if grep -q "^$w " "$OUTDIR/query_metrics.txt"; then METRICS="$METRICS,$w.sum"; else echo "metric $w not offered by this ncu"; fi
done
METRICS=${METRICS#,}
if [ -z "$METRICS" ]; then
    echo "ncu --query-metrics gave nothing usable; using the four basic metrics"
    METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
fi
echo "kernel-level metrics: $METRICS"

stamp "profile"
$NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
     --import-source yes --clock-control none -f -o "$OUTDIR/rep" \
     "$BUILD/host" --modules "$BUILD" > "$OUTDIR/ncu_profile.log" 2>&1
echo "ncu exit $?"; tail -5 "$OUTDIR/ncu_profile.log"

stamp "export"
$NCU -i "$OUTDIR/rep.ncu-rep" --page source --csv --print-source cuda,sass > "$OUTDIR/source.csv" 2> "$OUTDIR/export_source.err"
echo "source export exit $? ($(wc -l < "$OUTDIR/source.csv") lines)"
$NCU -i "$OUTDIR/rep.ncu-rep" --page raw --csv > "$OUTDIR/raw.csv" 2> "$OUTDIR/export_raw.err"
echo "raw export exit $? ($(wc -l < "$OUTDIR/raw.csv") lines)"

stamp "parse"
python3 "$HW/parse_ncu.py" --source "$OUTDIR/source.csv" --raw "$OUTDIR/raw.csv" \
    --launches "$OUTDIR/launches.json" --out "$OUTDIR/measured.json"
echo "parse exit $?"

T1=$(date +%s)
stamp "environment"
{
    echo "measure_seconds=$(( T1 - T0 ))"
    echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "uname=$(uname -sr)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pci.device_id,vbios_version --format=csv 2>&1
    echo "--- nvcc"; $NVCC --version 2>&1
    echo "--- ncu"; $NCU --version 2>&1
    echo "--- g++"; g++ --version 2>&1 | head -1
} > "$OUTDIR/environment.txt"
python3 "$HW/parse_ncu.py" --environment "$OUTDIR/environment.txt" --metrics "$METRICS" --out "$OUTDIR/environment.json"
stamp "done"
