#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the fifth blind
# batch: measure_blind5.sh into /tmp/blind5out, packed into $OUT/blind5.tgz
# (without the .ncu-rep reports, which go to $OUT/reps.tgz, not committed).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind5out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind5.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind5.tgz" --exclude='*.ncu-rep' -C /tmp blind5out
(cd "$W" && tar czf "$OUT/reps.tgz" *.ncu-rep) 2>/dev/null
ls -la "$OUT"
