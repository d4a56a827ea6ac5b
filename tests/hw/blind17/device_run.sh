#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the seventeenth blind
# batch: measure_blind17.sh into /tmp/blind17out, packed into $OUT/blind17.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind17out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind17.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind17.tgz" --exclude='*.ncu-rep' -C /tmp blind17out
ls -la "$OUT"
