#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the blind
# batch: measure_blind.sh into /tmp/blindout, packed into $OUT/blind.tgz
# (without the .ncu-rep reports, which go to $OUT/reps.tgz, not committed).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blindout
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind.tgz" --exclude='*.ncu-rep' -C /tmp blindout
(cd "$W" && tar czf "$OUT/reps.tgz" *.ncu-rep) 2>/dev/null
ls -la "$OUT"
