#!/usr/bin/env bash
# The device command of the second cp.async probe (through the device tool,
# from a copy of this folder under .devcarry/):
#   cd .devcarry/cpasync && bash probe2/run_probe2.sh
# Builds cpa_probe2.cu for sm_90 (PTX, cubin and its line-annotated SASS kept),
# runs every configuration once plainly, then under ncu (per-instruction source
# counters plus kernel-level LDGSTS metrics), exports the report and packs the
# results into $OUT/probe2.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/probe2
rm -rf "$W"; mkdir -p "$W"
cd "$W"
cp "$D/cpa_probe2.cu" "$D/configs.txt" .
T0=$(date +%s)
nvcc -arch=sm_90 -O3 -lineinfo -ptx -o cpa_probe2.ptx cpa_probe2.cu
nvcc -arch=sm_90 -O3 -lineinfo -cubin -o cpa_probe2.cubin cpa_probe2.cu
nvcc -arch=sm_90 -O3 -lineinfo -o cpa_probe2 cpa_probe2.cu
nvdisasm -g -c cpa_probe2.cubin > cpa_probe2.sass
./cpa_probe2 configs.txt > launches.txt || { echo "plain run failed"; tail -3 launches.txt; }
tail -1 launches.txt
# kernel-level LDGSTS metrics, those this ncu knows
WANT="sm__sass_inst_executed_op_ldgsts.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts_cache_access.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts_cache_bypass.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"
ncu --query-metrics > qm.txt 2>&1 || true
M=""
for m in $WANT; do grep -q "^${m%.sum} " qm.txt && M="$M${M:+,}$m"; done
echo "metrics: $M"
T1=$(date +%s)
timeout 420 ncu --section SourceCounters ${M:+--metrics $M} -o p2 ./cpa_probe2 configs.txt > ncu.log 2>&1
echo "ncu exit $?"
T2=$(date +%s)
ncu -i p2.ncu-rep --page source --csv --print-source sass > source_sass.csv 2>> ncu.log
ncu -i p2.ncu-rep --page raw --csv > raw.csv 2>> ncu.log
gzip source_sass.csv raw.csv
rm -f p2.ncu-rep qm.txt cpa_probe2
T3=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version; ncu --version
  echo "build+plain $((T1-T0)) s, ncu $((T2-T1)) s, export $((T3-T2)) s"; } > env.txt
tar czf "$OUT/probe2.tgz" -C /tmp probe2
ls -la "$OUT" "$W"; tail -3 ncu.log; cat env.txt
