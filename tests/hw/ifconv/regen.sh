#!/usr/bin/env bash
# Regenerates the evidence of README.md: compiles the probes with ptxas
# (sm_90, line info, as the measured builds) and writes, per probe kernel,
# the SASS size of its guarded block and its memory instructions, branches
# and exits with their predicates (excerpts.txt); and the same for the
# nvcc -O3 kernels of loops.cu (loops.txt, with loops.ptx kept). No GPU
# needed: the CUDA tools come from NVIDIA's PyPI wheels
# (scripts/build-corpus.sh --tools-only prints their bin folder;
# /work/shared/notes/ground-truth.md).
#   bash tests/hw/ifconv/regen.sh [BIN]
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
python3 "$here/guarded_ops.py" > "$tmp/guarded_ops.ptx"
cmp -s "$tmp/guarded_ops.ptx" "$here/guarded_ops.ptx" || { echo "guarded_ops.ptx is stale: python3 guarded_ops.py > guarded_ops.ptx" >&2; exit 1; }
"$bin/ptxas" --version | tail -1 > "$here/guarded_ops.txt"
"$bin/ptxas" -arch=sm_90 -lineinfo -o "$tmp/guarded_ops.cubin" "$here/guarded_ops.ptx"
"$bin/nvdisasm" -g -c "$tmp/guarded_ops.cubin" | python3 "$here/excerpts.py" >> "$here/guarded_ops.txt"
if [ -f "$here/loops.cu" ]; then
  "$bin/nvcc" -arch=sm_90 -O3 -lineinfo -ptx -o "$here/loops.ptx" "$here/loops.cu"
  "$bin/ptxas" --version | tail -1 > "$here/loops.txt"
  "$bin/ptxas" -arch=sm_90 -lineinfo -o "$tmp/loops.cubin" "$here/loops.ptx"
  "$bin/nvdisasm" -g -c "$tmp/loops.cubin" | python3 "$here/excerpts.py" >> "$here/loops.txt"
fi
if [ -f "$here/atomics.cu" ]; then
  # guarded global atomics: branch or predicate (the lines that say which)
  "$bin/nvcc" -arch=sm_90 -cubin -o "$tmp/atomics.cubin" "$here/atomics.cu"
  "$bin/ptxas" --version | tail -1 > "$here/atomics.txt"
  "$bin/nvdisasm" -c "$tmp/atomics.cubin" \
    | grep -E '^\s+\.section\s+\.text|BRA|ATOM|RED|LDG|STS|BAR' | grep -v 'BRA `(.L_x_[0-9]*);' >> "$here/atomics.txt"
fi
# guarded loads: predicated or branched around (guarded_loads.txt; the PTX
# is kept for tests/guarded_load_probes.rs)
python3 "$here/guarded_loads.py" > "$tmp/guarded_loads.cu"
"$bin/nvcc" -arch=sm_90a -O3 -ptx -o "$here/guarded_loads.ptx" "$tmp/guarded_loads.cu"
"$bin/ptxas" -arch=sm_90a -O3 -o "$tmp/guarded_loads.cubin" "$here/guarded_loads.ptx"
{ "$bin/ptxas" --version | tail -1; "$bin/nvdisasm" -c "$tmp/guarded_loads.cubin" > "$tmp/guarded_loads.sass"; python3 "$here/guarded_loads_table.py" "$tmp/guarded_loads.sass"; } > "$here/guarded_loads.txt"
# stop 32: blocks of parallel address chains (blocks.txt, sm_90a as the
# blind batches) and the variants of blind13's cutlass_gemm_cpasync_swz
# (blocks.ptx and convert.ptx are kept gzipped: the working tree that
# travels to the GPU machine must stay under 64 MiB)
python3 "$here/blocks.py" > "$tmp/blocks.ptx"
gunzip -c "$here/blocks.ptx.gz" | cmp -s "$tmp/blocks.ptx" - || { echo "blocks.ptx.gz is stale: python3 blocks.py | gzip -n -9 > blocks.ptx.gz" >&2; exit 1; }
{ "$bin/ptxas" --version | tail -1; "$bin/ptxas" -arch=sm_90a -lineinfo -o "$tmp/blocks.cubin" "$tmp/blocks.ptx"; "$bin/nvdisasm" -g -c "$tmp/blocks.cubin" | python3 "$here/excerpts.py"; } > "$here/blocks.txt"
python3 "$here/cutlass_delta.py" "$bin" > "$here/cutlass_delta.txt"
# stop 33: a guarded store at the end behind a label or a forward bra
{ echo "# ptxas $("$bin/ptxas" --version | tail -1 | sed 's/^Cuda compilation tools, //') -arch=sm_90 -lineinfo of exit_joins.ptx, nvdisasm -c, the STG and EXIT lines of each kernel (regen.sh)"; "$bin/ptxas" -arch=sm_90 -lineinfo -o "$tmp/exit_joins.cubin" "$here/exit_joins.ptx"; "$bin/nvdisasm" -c "$tmp/exit_joins.cubin" | grep -E '^\s*//-+ \.text|STG|EXIT' | sed 's/^ *//'; } > "$here/exit_joins.txt"
{ "$bin/ptxas" --version | tail -1; "$bin/ptxas" -arch=sm_90a -o "$tmp/tail_stores.cubin" "$here/tail_stores.ptx"; "$bin/nvdisasm" -c "$tmp/tail_stores.cubin" | grep -E '^\s*//-+ \.text|STG|EXIT|BRA' | grep -v 'BRA `(.L_x_[0-9]*);$' | sed 's/^ *//'; } > "$here/tail_stores.txt"
# stop 33: conversions, FP64 and MUFU instructions in guarded blocks, runs of
# blocks in if/else arms (convert.txt), and selects of two loads (selects.txt)
for p in convert selects; do
  python3 "$here/$p.py" > "$tmp/$p.ptx"
  if [ -f "$here/$p.ptx.gz" ]; then
    gunzip -c "$here/$p.ptx.gz" | cmp -s "$tmp/$p.ptx" - || { echo "$p.ptx.gz is stale: python3 $p.py | gzip -n -9 > $p.ptx.gz" >&2; exit 1; }
  else
    cmp -s "$tmp/$p.ptx" "$here/$p.ptx" || { echo "$p.ptx is stale: python3 $p.py > $p.ptx" >&2; exit 1; }
  fi
  { "$bin/ptxas" --version | tail -1; "$bin/ptxas" -arch=sm_90a -lineinfo -o "$tmp/$p.cubin" "$tmp/$p.ptx"; "$bin/nvdisasm" -g -c "$tmp/$p.cubin" | python3 "$here/excerpts.py"; } > "$here/$p.txt"
done
echo "wrote excerpts.txt, guarded_ops.txt, guarded_loads.txt, loops.ptx, loops.txt, atomics.txt, blocks.txt, cutlass_delta.txt, exit_joins.txt, tail_stores.txt, convert.txt, selects.txt"
