#!/usr/bin/env bash
# The confirmation run (through the device tool, from a copy of this folder and
# of tests/hw/triton/tt_matmul_ampere.cubin under .devcarry/):
#   cd .devcarry/cpasync && bash probe2/run_confirm.sh
# 1. the probe kernels of cpa_probe2.cu over configs_heldout.txt (layouts the
#    rules were not fitted on; heldout_predicted.txt was committed before);
# 2. tt_replica.cu: Triton's A-tile copy replicated in several launch shapes,
#    then the Triton cubin itself. Results packed into $OUT/confirm.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/confirm
rm -rf "$W"; mkdir -p "$W"
cd "$W"
cp "$D/cpa_probe2.cu" "$D/configs_heldout.txt" "$D/tt_replica.cu" "$D/tt_matmul_ampere.cubin" .
T0=$(date +%s)
nvcc -arch=sm_90 -O3 -lineinfo -cubin -o cpa_probe2.cubin cpa_probe2.cu
nvcc -arch=sm_90 -O3 -lineinfo -o cpa_probe2 cpa_probe2.cu
nvdisasm -g -c cpa_probe2.cubin > cpa_probe2.sass
nvcc -arch=sm_90 -O3 -lineinfo -o tt_replica tt_replica.cu -ldl
nvcc -arch=sm_90 -O3 -lineinfo -cubin -o tt_replica.cubin tt_replica.cu
nvdisasm -g -c tt_replica.cubin > tt_replica.sass
./cpa_probe2 configs_heldout.txt > launches.txt || echo "plain run failed"
./tt_replica tt_matmul_ampere.cubin > tt_launches.txt || echo "replica run failed"
cat tt_launches.txt
T1=$(date +%s)
timeout 300 ncu --section SourceCounters -o h ./cpa_probe2 configs_heldout.txt > ncu.log 2>&1
echo "ncu (held-out) exit $?"
timeout 120 ncu --section SourceCounters -o t ./tt_replica tt_matmul_ampere.cubin > ncu_tt.log 2>&1
echo "ncu (replica) exit $?"
T2=$(date +%s)
ncu -i h.ncu-rep --page source --csv --print-source sass > source_sass.csv 2>> ncu.log
ncu -i t.ncu-rep --page source --csv --print-source sass > tt_source_sass.csv 2>> ncu_tt.log
gzip source_sass.csv tt_source_sass.csv
rm -f h.ncu-rep t.ncu-rep cpa_probe2 tt_replica
T3=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version; ncu --version
  echo "build+plain $((T1-T0)) s, ncu $((T2-T1)) s, export $((T3-T2)) s"; } > env.txt
tar czf "$OUT/confirm.tgz" -C /tmp confirm
ls -la "$OUT" "$W"; tail -2 ncu.log ncu_tt.log; cat env.txt
