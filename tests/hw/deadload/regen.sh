#!/usr/bin/env bash
# Regenerates probes.ptx and probes.txt: the load instructions ptxas emits
# for each probe kernel (sm_90a, -O3). CUDA bin directory in $CUDA_BIN
# (default: the one scripts/build-corpus.sh installs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${CUDA_BIN:-$here/../../../.cuda/cu13/nvidia/cu13/bin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$here/probes.py" > "$here/probes.ptx"
"$bin/ptxas" -arch=sm_90a -O3 -o "$tmp/p.cubin" "$here/probes.ptx"
"$bin/cuobjdump" -sass "$tmp/p.cubin" > "$tmp/p.sass"
"$bin/ptxas" --version | tail -1 > "$here/probes.txt"
python3 - "$tmp/p.sass" >> "$here/probes.txt" <<'PY'
import re, sys
cur = None; loads = {}
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m:
        cur = m.group(1); loads[cur] = []; continue
    m = re.search(r'/\*[0-9a-f]{4}\*/\s+(.*?)\s*;', line)
    if m and cur and re.search(r'\b(LDG|LDS|LD|LDL)\b', m.group(1)) and '@!PT' not in m.group(1):
        loads[cur].append(re.sub(r'\s+', ' ', m.group(1)))
for k in sorted(loads):
    print(f"{k}\t{len(loads[k])}\t{' | '.join(loads[k])}")
PY
