#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the tenth blind
# batch: measure_blind10.sh into /tmp/blind10out, packed into $OUT/blind10.tgz
# (without the .ncu-rep reports, which go to $OUT/reps.tgz, not committed).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind10out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind10.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind10.tgz" --exclude='*.ncu-rep' -C /tmp blind10out
(cd "$W" && tar czf "$OUT/reps.tgz" *.ncu-rep) 2>/dev/null
ls -la "$OUT"
