#!/usr/bin/env bash
# Regenerates the evidence of README.md: compiles the probes with ptxas
# (sm_90, line info) and writes the memory SASS of every probe kernel with
# the PTX access each instruction is attributed to (excerpts.txt), and the
# shared-variable layout probes' SASS (layout.txt). No GPU needed: the CUDA
# tools come from NVIDIA's PyPI wheels (scripts/build-corpus.sh --tools-only
# prints their bin folder; /work/shared/notes/ground-truth.md).
#   bash tests/hw/vecmerge/regen.sh [BIN]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$(cd "$here/../../.." && scripts/build-corpus.sh --tools-only 2>/dev/null | grep -m1 'cu13/bin$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen_probes.py" > "$tmp/probes.ptx"
cmp -s "$tmp/probes.ptx" "$here/probes.ptx" || { echo "probes.ptx is stale: python3 gen_probes.py > probes.ptx" >&2; exit 1; }
"$bin/ptxas" --version | tail -1 > "$here/excerpts.txt"
"$bin/ptxas" -arch=sm_90 -lineinfo -o "$tmp/probes.cubin" "$here/probes.ptx"
"$bin/nvdisasm" -g -c "$tmp/probes.cubin" | python3 "$here/excerpts.py" >> "$here/excerpts.txt"
"$bin/ptxas" --version | tail -1 > "$here/layout.txt"
"$bin/ptxas" -arch=sm_90 -o "$tmp/layout.cubin" "$here/layout.ptx"
"$bin/nvdisasm" -c "$tmp/layout.cubin" \
  | grep -E 'section\s+\.text|MOV R0, 0x400|VIADD R[0-9]+, R0|LEA R|STG' >> "$here/layout.txt"
echo "wrote excerpts.txt, layout.txt"
