#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the eighteenth blind
# batch: measure_blind18.sh into /tmp/blind18out, packed into $OUT/blind18.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind18out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind18.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind18.tgz" --exclude='*.ncu-rep' -C /tmp blind18out
ls -la "$OUT"
