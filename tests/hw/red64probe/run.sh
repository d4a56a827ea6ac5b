#!/usr/bin/env bash
# Device run: bash tests/hw/red64probe/run.sh (from the repository root); results in $OUT/red64probe.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/red64probe; rm -rf "$W"; mkdir -p "$W"
cd "$W"
nvcc -arch=sm_90a -O3 -lineinfo -o probe "$D/red64_probe.cu" > build.log 2>&1; echo "nvcc exit $?" >> build.log
./probe > plain.log 2>&1
M=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_atom.sum,smsp__inst_executed.sum
timeout 300 ncu --metrics "$M" --csv --page raw ./probe > ncu.csv 2> ncu.err; echo "ncu exit $?" >> ncu.err
timeout 200 ncu --section SourceCounters -o rep ./probe > ncu_src.log 2>&1
ncu -i rep.ncu-rep --page source --csv --print-source sass > source_sass.csv 2>> ncu.err
cuobjdump -sass probe > sass.txt 2>&1
rm -f rep.ncu-rep probe
tar czf "$OUT/red64probe.tgz" -C /tmp red64probe
