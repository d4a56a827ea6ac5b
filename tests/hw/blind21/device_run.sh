#!/usr/bin/env bash
# The command the GPU machine runs (through the device tool) for the twenty-first blind
# batch: measure_blind21.sh into /tmp/blind21out, packed into $OUT/blind21.tgz
# (without the .ncu-rep reports, which are not brought back).
set -uo pipefail
BL=$(cd "$(dirname "$0")" && pwd)
W=/tmp/blind21out
rm -rf "$W"; mkdir -p "$W"
timeout 520 bash "$BL/measure_blind21.sh" "$W" 2>&1 | tee "$W/measure.log"
tar czf "$OUT/blind21.tgz" --exclude='*.ncu-rep' -C /tmp blind21out
ls -la "$OUT"
