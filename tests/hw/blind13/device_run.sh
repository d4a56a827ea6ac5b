#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the thirteenth blind
# batch: measure_blind13.sh into /tmp/blind13out, packed into $OUT/blind13.tgz
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind13out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind13.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind13.tgz" --exclude='*.ncu-rep' -C /tmp blind13out
ls -la "$OUT"
