#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the nineteenth blind
# batch: measure_blind19.sh into /tmp/blind19out, packed into $OUT/blind19.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind19out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind19.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind19.tgz" --exclude='*.ncu-rep' -C /tmp blind19out
ls -la "$OUT"
