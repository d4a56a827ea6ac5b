#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the fourteenth blind
# batch: measure_blind14.sh into /tmp/blind14out, packed into $OUT/blind14.tgz
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind14out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind14.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind14.tgz" --exclude='*.ncu-rep' -C /tmp blind14out
ls -la "$OUT"
