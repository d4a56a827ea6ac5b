#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the wmma suite: measure_wmma.sh into /tmp/wmmaout, packed into $OUT/wmma.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/wmmaout
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_wmma.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/wmma.tgz" --exclude='*.ncu-rep' -C /tmp wmmaout
ls -la "$OUT"
