#!/usr/bin/env bash
# Third run: cd .devcarry/cpasync && bash probe2/run_tt2.sh  (tt_replica2.cu; results in $OUT/tt2.tgz)
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/tt2
rm -rf "$W"; mkdir -p "$W"; cd "$W"
cp "$D/tt_replica2.cu" "$D/tt_matmul_ampere.cubin" .
nvcc -arch=sm_90 -O3 -lineinfo -o tt_replica2 tt_replica2.cu -ldl
nvcc -arch=sm_90 -O3 -lineinfo -cubin -o tt_replica2.cubin tt_replica2.cu
nvdisasm -g -c tt_replica2.cubin > tt_replica2.sass
./tt_replica2 tt_matmul_ampere.cubin > tt2_launches.txt; cat tt2_launches.txt
timeout 120 ncu --section SourceCounters -o t ./tt_replica2 tt_matmul_ampere.cubin > ncu_tt2.log 2>&1
echo "ncu exit $?"
ncu -i t.ncu-rep --page source --csv --print-source sass > tt2_source_sass.csv 2>> ncu_tt2.log
gzip tt2_source_sass.csv; rm -f t.ncu-rep tt_replica2
tar czf "$OUT/tt2.tgz" -C /tmp tt2; ls -la "$OUT"
