#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the twentieth blind
# batch: measure_blind20.sh into /tmp/blind20out, packed into $OUT/blind20.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind20out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind20.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind20.tgz" --exclude='*.ncu-rep' -C /tmp blind20out
ls -la "$OUT"
