#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for a full
# measurement: tests/hw/measure.sh into /tmp/hwout, then everything packed
# into $OUT/hw.tgz (CSV exports, PTX, SASS listings, Triton fixtures, logs)
# and $OUT/reps.tgz (the two .ncu-rep reports).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=/tmp/hwout
rm -rf "$W" "$W.log"
mkdir -p "$W"
timeout 540 bash "$ROOT/tests/hw/measure.sh" "$W" 2>&1 | tee "$W.log"
cp "$W.log" "$W/measure.log"
tar czf "$OUT/hw.tgz" --exclude='*.ncu-rep' -C /tmp hwout
(cd "$W" && tar czf "$OUT/reps.tgz" *.ncu-rep)
ls -la "$OUT"
