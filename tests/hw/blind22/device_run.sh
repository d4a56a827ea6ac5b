#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the twenty-second blind
# batch: measure_blind22.sh into /tmp/blind22out, packed into $OUT/blind22.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind22out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind22.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind22.tgz" --exclude='*.ncu-rep' -C /tmp blind22out
ls -la "$OUT"
