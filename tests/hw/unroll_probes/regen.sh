#!/usr/bin/env bash
# Regenerates the evidence of README.md: compiles probes.cu (written by
# probes.py) with nvcc -O3 to PTX and with ptxas to SASS for sm_90a, and
# writes per probe kernel (sm_90a; the same for sm_80 and sm_120 in
# table_<arch>.txt, loops_<arch>.txt) the PTX and SASS memory instructions of each body
# line (table.txt: `access:PTX->SASS`) and the shape of each PTX loop
# (loops.txt: instructions, memory instructions, 64-bit instructions,
# inner branches, `.pragma "nounroll"`). No GPU needed: the CUDA tools come
# from NVIDIA's PyPI wheels (/work/shared/notes/ground-truth.md).
#   bash tests/hw/unroll_probes/regen.sh [BIN]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$(cd "$here/../../.." && scripts/build-corpus.sh --tools-only 2>/dev/null | grep -m1 'cu13/bin$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/probes.py" > "$tmp/probes.cu"
cmp -s "$tmp/probes.cu" "$here/probes.cu" || { echo "probes.cu is stale: python3 probes.py > probes.cu" >&2; exit 1; }
"$bin/nvcc" -arch=sm_90a -O3 -lineinfo -ptx -o "$tmp/probes.ptx" "$here/probes.cu" 2>/dev/null
cp "$tmp/probes.ptx" "$here/probes.ptx"   # read by tests/unroll_probes.rs
"$bin/ptxas" -arch=sm_90a -O3 -lineinfo -o "$tmp/probes.cubin" "$tmp/probes.ptx"
"$bin/nvdisasm" -g -c "$tmp/probes.cubin" > "$tmp/probes.sass"
{ "$bin/ptxas" --version | tail -1; python3 "$here/count.py" "$tmp/probes.ptx" "$tmp/probes.sass"; } > "$here/table.txt"
{ "$bin/ptxas" --version | tail -1; python3 "$here/loops.py" "$tmp/probes.ptx"; } > "$here/loops.txt"
# The same source for sm_80 and sm_120 (nvcc's PTX differs by target).
for a in sm_80 sm_120; do
  "$bin/nvcc" -arch=$a -O3 -lineinfo -ptx -o "$tmp/$a.ptx" "$here/probes.cu" 2>/dev/null
  "$bin/ptxas" -arch=$a -O3 -lineinfo -o "$tmp/$a.cubin" "$tmp/$a.ptx"
  "$bin/nvdisasm" -g -c "$tmp/$a.cubin" > "$tmp/$a.sass"
  { "$bin/ptxas" --version | tail -1; python3 "$here/count.py" "$tmp/$a.ptx" "$tmp/$a.sass"; } > "$here/table_$a.txt"
  { "$bin/ptxas" --version | tail -1; python3 "$here/loops.py" "$tmp/$a.ptx"; } > "$here/loops_$a.txt"
done
echo "wrote table*.txt, loops*.txt"
