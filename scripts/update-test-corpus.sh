#!/usr/bin/env bash
# update-test-corpus.sh - refresh the committed, generated part of tests/corpus/
# from the big corpus that scripts/build-corpus.sh builds.
#
# usage: scripts/update-test-corpus.sh      (runs build-corpus.sh --no-libs first)
#
# Copies, for every .cu under tests/corpus/src/, examples/ and tests/hw/, its
# nvcc/NVRTC PTX for all targets into tests/corpus/nvcc/<same path>, and the
# Triton PTX into tests/corpus/triton/. NVIDIA library PTX (cuBLAS/cuDNN) is
# never copied: its licence does not allow redistribution (tests/corpus/README.md).
# Fails if tests/corpus/ would exceed 5 MB.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=${WARPSCOPE_CORPUS:-$ROOT/.corpus}
DEST=$ROOT/tests/corpus

"$ROOT/scripts/build-corpus.sh" --no-libs >/dev/null

rm -rf "$DEST/nvcc" "$DEST/triton"
mkdir -p "$DEST/nvcc" "$DEST/triton"
(cd "$CORPUS/cu" && find . -name '*.ptx' -type f) | sort | while read -r f; do
  rel=${f#./}
  out=$DEST/nvcc/${rel#tests/corpus/}          # tests/corpus/src/x.sm_90.ptx -> nvcc/src/x.sm_90.ptx
  mkdir -p "$(dirname "$out")"
  cp "$CORPUS/cu/$rel" "$out"
done
cp "$CORPUS"/triton/*.ptx "$DEST/triton/"

kb=$(du -sk --exclude='*.md' "$DEST" | cut -f1)
echo "tests/corpus: $(find "$DEST" -type f | wc -l) files, ${kb} KiB"
[[ $kb -le 5120 ]] || { echo "tests/corpus exceeds 5 MB" >&2; exit 1; }
