#!/usr/bin/env bash
# The device command of the probe (through the device tool, from .devcarry):
#   cd .devcarry && bash tests/hw/probe/run_probe.sh
# Builds cpa_probe.cu for sm_90 (PTX and SASS kept), runs every configuration
# once under ncu (per-instruction source counters), and packs the results into
# $OUT/probe.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/probe
rm -rf "$W"; mkdir -p "$W"
cd "$W"
cp "$D/cpa_probe.cu" .
nvcc -arch=sm_90 -O3 -ptx -o cpa_probe.ptx cpa_probe.cu
nvcc -arch=sm_90 -O3 -o cpa_probe cpa_probe.cu
cuobjdump -sass cpa_probe > cpa_probe.sass
./cpa_probe --list > configs.txt
./cpa_probe
# Per-instruction source counters ("L1 Wavefronts Shared" of the LDGSTS:
# the kernel-level shared wavefront metric counts LDGSTS differently,
# e.g. 4.25 per request where the source view says 12 for cpa_cg16_off16).
time timeout 400 ncu --section SourceCounters -o probe ./cpa_probe > ncu.log 2>&1
time ncu -i probe.ncu-rep --page source --csv --print-source sass > source_sass.csv 2>> ncu.log
gzip source_sass.csv
rm -f probe.ncu-rep
nvidia-smi --query-gpu=name,driver_version --format=csv > env.txt; nvcc --version >> env.txt; ncu --version >> env.txt
tar czf "$OUT/probe.tgz" -C /tmp probe
ls -la "$OUT"; tail -3 ncu.log; wc -l configs.txt; ls -la
