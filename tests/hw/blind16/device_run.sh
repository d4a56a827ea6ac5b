#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the sixteenth blind
# batch: measure_blind16.sh into /tmp/blind16out, packed into $OUT/blind16.tgz
# (without the .ncu-rep reports, which go to $OUT/reps.tgz, not committed).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind16out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind16.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind16.tgz" --exclude='*.ncu-rep' -C /tmp blind16out
(cd "$W" && tar czf "$OUT/reps.tgz" *.ncu-rep) 2>/dev/null
ls -la "$OUT"
