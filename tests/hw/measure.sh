#!/usr/bin/env bash
# Re-measure the warpscope hardware suite on a machine with an sm_90 GPU
# (H100), nvcc and Nsight Compute (ncu) on the PATH, and python3:
#
#     bash tests/hw/measure.sh [OUTDIR]          (default OUTDIR: tests/hw/out)
#
# Steps:
#   1. copies tests/hw/{kernels,modern,modern90a,arith}.cu (+ arith_helpers.cuh)
#      and examples/kernels/<m>/<m>.cu to the fixed
#      directory /tmp/warpscope-hw (so the .file paths in the PTX do not
#      depend on where the repository lives) and builds, for every module,
#        nvcc -arch=sm_90 -lineinfo -O3 -ptx   -o <m>.ptx   <m>.cu
#        nvcc -arch=sm_90 -lineinfo -O3 -cubin -o <m>.cubin <m>.ptx
#      i.e. the cubin that runs is assembled from exactly the PTX that is
#      committed (OUTDIR/ptx/<m>.ptx; copy it over the committed one);
#      modern90a (wgmma) uses -gencode=arch=compute_90a,code=compute_90a for
#      the PTX and ...,code=sm_90a for the cubin.  Every cubin is listed with
#      `cuobjdump -sass` and `nvdisasm -g -c` (OUTDIR/sass/);
#   2. builds tests/hw/host.cpp, writes OUTDIR/launches.json and runs every
#      launch once without the profiler (sanity check); if that fails, runs
#      each launch alone and leaves out (host --skip) the ones that fail;
#   3. profiles all launches once with
#        ncu --section SourceCounters --section LaunchStats --metrics <kernel-level>
#            --import-source yes --clock-control none
#   4. exports the per-SASS-instruction source view
#        ncu -i rep --page source --csv --print-source cuda,sass
#      and the SASS-only view keyed by SASS offset (--print-source sass)
#      and the kernel-level metrics (ncu -i rep --page raw --csv);
#   5. python3 tests/hw/parse_ncu.py -> OUTDIR/measured.json
#   6. writes OUTDIR/environment.json (GPU, driver, CUDA, ncu versions, timing);
#   7. when python3 can import triton: runs tests/hw/triton_kernels.py under
#      ncu (kernels named tt_*; PTX, cubin, metadata into OUTDIR/triton) and
#      exports its source views and raw metrics the same way (*_triton.csv).
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
cp "$HW/kernels.cu" "$HW/modern.cu" "$HW/modern90a.cu" "$HW/arith.cu" "$HW/arith_helpers.cuh" "$BUILD/"
MODULES="kernels indirect transactions fma common_cases transpose modern modern90a arith"
for m in indirect transactions fma common_cases transpose; do
    cp "$ROOT/examples/kernels/$m/$m.cu" "$BUILD/$m.cu"
done

stamp "build"
for m in $MODULES; do
    if [ "$m" = modern90a ]; then
        PF="-gencode=arch=compute_90a,code=compute_90a -lineinfo -O3"; CF="-gencode=arch=compute_90a,code=sm_90a -lineinfo -O3"
    else
        PF=$FLAGS; CF=$FLAGS
    fi
    (cd "$BUILD" && $NVCC $PF -ptx -o "$m.ptx" "$m.cu" 2> "$m.build.log" && $NVCC $CF -cubin -o "$m.cubin" "$m.ptx") || { cat "$BUILD/$m.build.log"; echo "build of $m failed"; exit 1; }
    cp "$BUILD/$m.ptx" "$OUTDIR/ptx/$m.ptx"
done
mkdir -p "$OUTDIR/sass"
for m in $MODULES; do
    cuobjdump -sass "$BUILD/$m.cubin" > "$OUTDIR/sass/$m.cuobjdump.sass" 2>&1 || echo "cuobjdump $m failed"
    nvdisasm -g -c "$BUILD/$m.cubin" > "$OUTDIR/sass/$m.nvdisasm.sass" 2>&1 || echo "nvdisasm $m failed"
done
g++ -O2 -o "$BUILD/host" "$HW/host.cpp" -ldl || { echo "host build failed"; exit 1; }

stamp "plain run"
: > "$OUTDIR/skip.txt"
if ! timeout 120 "$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/launches.json" > "$OUTDIR/plain_run.log" 2>&1; then
    tail -3 "$OUTDIR/plain_run.log"
    echo "plain run failed: running each launch alone"
    "$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/all_launches.json" --dry-run > /dev/null
    for id in $(python3 -c "import json,sys; [print(l['id']) for l in json.load(open(sys.argv[1]))['launches']]" "$OUTDIR/all_launches.json"); do
        if ! timeout 30 "$BUILD/host" --modules "$BUILD" --only "$id" > "$OUTDIR/alone.log" 2>&1; then
            echo "launch $id fails alone: $(tail -1 "$OUTDIR/alone.log")" | tee -a "$OUTDIR/skipped_reasons.txt"
            echo "$id" >> "$OUTDIR/skip.txt"
        fi
    done
    timeout 120 "$BUILD/host" --modules "$BUILD" --launches "$OUTDIR/launches.json" --skip "$OUTDIR/skip.txt" > "$OUTDIR/plain_run.log" 2>&1 || { tail -3 "$OUTDIR/plain_run.log"; echo "plain run failed again"; exit 1; }
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
$NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
     --import-source yes --clock-control none -f -o "$OUTDIR/rep" \
     "$BUILD/host" --modules "$BUILD" --skip "$OUTDIR/skip.txt" > "$OUTDIR/ncu_profile.log" 2>&1
echo "ncu exit $?"; tail -5 "$OUTDIR/ncu_profile.log"

stamp "export"
$NCU -i "$OUTDIR/rep.ncu-rep" --page source --csv --print-source cuda,sass > "$OUTDIR/source.csv" 2> "$OUTDIR/export_source.err"
echo "source export exit $? ($(wc -l < "$OUTDIR/source.csv") lines)"
$NCU -i "$OUTDIR/rep.ncu-rep" --page source --csv --print-source sass > "$OUTDIR/source_sass.csv" 2> "$OUTDIR/export_source_sass.err"
echo "sass source export exit $? ($(wc -l < "$OUTDIR/source_sass.csv") lines)"
$NCU -i "$OUTDIR/rep.ncu-rep" --page raw --csv > "$OUTDIR/raw.csv" 2> "$OUTDIR/export_raw.err"
echo "raw export exit $? ($(wc -l < "$OUTDIR/raw.csv") lines)"

if python3 -c "import triton" 2>/dev/null; then
    stamp "triton"
    export TRITON_CACHE_DIR=/tmp/warpscope-hw-triton-cache
    rm -rf "$TRITON_CACHE_DIR"
    timeout 400 $NCU --section SourceCounters --section LaunchStats ${METRICS:+--metrics $METRICS} \
         --import-source yes --clock-control none -k regex:^tt_ -f -o "$OUTDIR/rep_triton" \
         python3 "$HW/triton_kernels.py" "$OUTDIR/triton" > "$OUTDIR/ncu_profile_triton.log" 2>&1
    echo "ncu (triton) exit $?"; grep -E "triton launch|Error|error" "$OUTDIR/ncu_profile_triton.log" | tail -12
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page source --csv --print-source cuda,sass > "$OUTDIR/source_triton.csv" 2>> "$OUTDIR/export_source.err"
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page source --csv --print-source sass > "$OUTDIR/source_sass_triton.csv" 2>> "$OUTDIR/export_source_sass.err"
    $NCU -i "$OUTDIR/rep_triton.ncu-rep" --page raw --csv > "$OUTDIR/raw_triton.csv" 2>> "$OUTDIR/export_raw.err"
    echo "triton exports: $(wc -l < "$OUTDIR/source_triton.csv") / $(wc -l < "$OUTDIR/source_sass_triton.csv") / $(wc -l < "$OUTDIR/raw_triton.csv") lines"
    for c in "$OUTDIR"/triton/*.cubin; do
        [ -f "$c" ] || continue
        b=$(basename "$c" .cubin)
        cuobjdump -sass "$c" > "$OUTDIR/sass/triton_$b.cuobjdump.sass" 2>&1
        nvdisasm -g -c "$c" > "$OUTDIR/sass/triton_$b.nvdisasm.sass" 2>&1
    done
else
    echo "python3 cannot import triton: Triton kernels not measured"
fi

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
    echo "--- nvdisasm"; nvdisasm --version 2>&1 | tail -2
    echo "--- python"; python3 -c "import sys, torch, triton; print(sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)" 2>&1
} > "$OUTDIR/environment.txt"
python3 "$HW/parse_ncu.py" --environment "$OUTDIR/environment.txt" --metrics "$METRICS" --out "$OUTDIR/environment.json"
stamp "done"
