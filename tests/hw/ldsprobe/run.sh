#!/usr/bin/env bash
# Device run of the shared-memory width probe (README.md), from a copy of this
# folder: bash run.sh [configs_heldout.txt]; results packed into $OUT/ldsprobe.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/ldsprobe${1:+_heldout}; rm -rf "$W"; mkdir -p "$W"; cd "$W"
CFG=${1:-configs.txt}
cp "$D/ldsprobe.cu" "$D/$CFG" .
T0=$(date +%s)
nvcc -arch=sm_90 -O3 -lineinfo -cubin -o ldsprobe.cubin ldsprobe.cu > build.log 2>&1
nvcc -arch=sm_90 -O3 -lineinfo -o ldsprobe ldsprobe.cu >> build.log 2>&1; echo "nvcc exit $?" >> build.log
nvdisasm -g -c ldsprobe.cubin > ldsprobe.sass
./ldsprobe $CFG > launches.txt 2> plain.log; echo "plain exit $?" >> plain.log
T1=$(date +%s)
timeout 400 ncu --section SourceCounters -o rep ./ldsprobe $CFG > ncu.log 2>&1; echo "ncu exit $?" >> ncu.log
ncu -i rep.ncu-rep --page source --csv --print-source sass > source_sass.csv 2>> ncu.log
T2=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; ncu --version | tail -1
  echo "build+plain $((T1-T0)) s, ncu+export $((T2-T1)) s"; } > env.txt
gzip -9 source_sass.csv ldsprobe.sass
rm -f rep.ncu-rep ldsprobe ldsprobe.cubin
tar czf "$OUT/ldsprobe.tgz" -C /tmp "$(basename "$W")"
ls -la "$W"; tail -3 ncu.log; cat env.txt plain.log
