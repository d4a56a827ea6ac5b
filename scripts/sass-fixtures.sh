#!/usr/bin/env bash
# sass-fixtures.sh - regenerate the committed SASS listings (tests/sass/) and
# binaries (tests/binary/) from committed PTX/CUDA with the CUDA 13 tools.
#
# usage: scripts/sass-fixtures.sh
#
# Tools: scripts/build-corpus.sh --tools-only (ptxas, nvcc, nvdisasm,
# cuobjdump from NVIDIA's PyPI wheels, no GPU) and g++ for nvcc's host pass.
# sm_70: CUDA 13's nvdisasm and cuobjdump refuse it ("SM70 is deprecated")
# and no CUDA 12 disassembler ships as a wheel, so no sm_70 listing is made.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$("$ROOT/scripts/build-corpus.sh" --tools-only | sed -n 1p)
export PATH="$BIN:$PATH"
S="$ROOT/tests/sass"; B="$ROOT/tests/binary"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$S" "$B"

# cubin NAME PTX ARCH: ptxas -lineinfo for sm_ARCH (the PTX's .target rewritten).
cubin() {
  sed "s/^\.target sm_[0-9a-z]*/.target sm_$3/" "$2" > "$TMP/$1.sm_$3.ptx"
  ptxas -arch="sm_$3" -lineinfo -o "$TMP/$1.sm_$3.cubin" "$TMP/$1.sm_$3.ptx"
  echo "$TMP/$1.sm_$3.cubin"
}

# Every architecture, both tools: the seeds' indirect kernel.
for a in 75 80 86 89 90 100 120; do
  c=$(cubin indirect "$ROOT/examples/kernels/indirect/indirect.ptx" $a)
  nvdisasm -g -c "$c" > "$S/indirect.sm_$a.nvdisasm.sass"
  cuobjdump -sass "$c" > "$S/indirect.sm_$a.cuobjdump.sass"
done
# nvdisasm's other forms.
c=$(cubin transpose "$ROOT/examples/kernels/transpose/transpose.ptx" 90)
nvdisasm -c -hex -gi "$c" > "$S/transpose.sm_90.nvdisasm-hex-gi.sass"
c=$(cubin indirect "$ROOT/examples/kernels/indirect/indirect.ptx" 90)
nvdisasm -g "$c" > "$S/indirect.sm_90.nvdisasm-full.sass"
nvdisasm -c -gp "$c" > "$S/indirect.sm_90.nvdisasm-gp.sass"
c=$(cubin fma "$ROOT/examples/kernels/fma/fma.ptx" 120)
nvdisasm -c -raw "$c" > "$S/fma.sm_120.nvdisasm-raw.sass"
c=$(cubin transactions "$ROOT/examples/kernels/transactions/transactions.ptx" 100)
nvdisasm -g -c "$c" > "$S/transactions.sm_100.nvdisasm.sass"
# Newer memory paths and control flow from the hand-written corpus, at the
# architecture each file targets.
for n in warp_ops:90 ldmatrix_mma:90 atomics:90 brx_idx:90 calls:90 tma_mbarrier:90a wgmma:90a tcgen05_sm100:100a memory_ops_sm100:100a; do
  f=${n%%:*}; a=${n##*:}
  ptxas -arch="sm_$a" -lineinfo -o "$TMP/$f.cubin" "$ROOT/tests/corpus/handwritten/$f.ptx"
  nvdisasm -g -c "$TMP/$f.cubin" > "$S/$f.sm_$a.nvdisasm.sass"
done

# Binaries: a cubin, fatbins in every compression mode, a shared library.
cp "$TMP/indirect.sm_90.cubin" "$B/indirect.sm_90.cubin"
cd "$TMP"
cp "$ROOT/examples/kernels/indirect/indirect.cu" .
G="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]"
nvcc -fatbin $G -lineinfo -o "$B/indirect.fatbin" indirect.cu                      # ELF plain, PTX zstd
nvcc -fatbin -compress-mode=speed $G -lineinfo -o "$B/indirect.lz4.fatbin" indirect.cu       # PTX LZ4
nvcc -fatbin -compress-mode=size $G -lineinfo -o "$B/indirect.zstd.fatbin" indirect.cu       # all zstd
nvcc -fatbin -compress-mode=none $G -lineinfo -o "$B/indirect.none.fatbin" indirect.cu       # nothing compressed
nvcc -shared -Xcompiler -fPIC -cudart none $G -lineinfo -o "$B/libindirect.so" indirect.cu
cuobjdump -sass "$B/libindirect.so" > "$S/libindirect.so.cuobjdump.sass"
ls -la "$S" "$B"

# Launch values and parameters in constant bank 0, per architecture
# (the table in src/lower/sass.rs).
for a in 75 90 100 120; do
  sed "s/sm_90/sm_$a/" "$ROOT/tests/sass/launch_values.ptx" > "$TMP/lv.ptx"
  ptxas -arch="sm_$a" -o "$TMP/lv.cubin" "$TMP/lv.ptx"
  cuobjdump -sass "$TMP/lv.cubin" > "$S/launch_values.sm_$a.cuobjdump.sass"
done
