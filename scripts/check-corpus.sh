#!/usr/bin/env bash
# check-corpus.sh - validate tests/corpus/ with NVIDIA's ptxas (no GPU needed).
#
# usage: scripts/check-corpus.sh
#
#   handwritten/*.ptx, nvcc/**/*.ptx, triton/*.ptx  must be accepted by ptxas
#   invalid/*.ptx                                  must be rejected by ptxas
#
# Arch: sm_100a for files whose .target is sm_100*, sm_120 for sm_120*, else
# sm_90a (a superset of the sm_70/80/90 features used). linkage.ptx is compiled
# with -c (relocatable) since its .extern symbols are resolved by nvlink.
# ptxas comes from the CUDA 13 wheels that scripts/build-corpus.sh --tools-only
# installs; sm_70 files use CUDA 12.9's ptxas (CUDA 13 dropped sm_70).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mapfile -t TOOLS < <("$ROOT/scripts/build-corpus.sh" --tools-only)
PTXAS=${TOOLS[0]}/ptxas PTXAS12=${TOOLS[1]}
[[ -x $PTXAS && -x $PTXAS12 ]] || { echo "ptxas not found (scripts/build-corpus.sh --tools-only)" >&2; exit 1; }
C=$ROOT/tests/corpus
pass=0 fail=0

arch_of() {
  local t
  t=$(grep -a -m1 -o '^[[:space:]]*\.target[[:space:]]\+sm_[0-9]\+[a-z]\?' "$1" | grep -o 'sm_[0-9]\+[a-z]\?')
  case $t in
    sm_70) echo sm_70 ;;
    sm_10[0-9]*) echo sm_100a ;;
    sm_12[0-9]*) echo sm_120a ;;
    *) echo sm_90a ;;
  esac
}

check() {  # check EXPECT(0=accept,1=reject) FILE
  local want=$1 f=$2 extra=() arch log rc p=$PTXAS
  [[ $(basename "$f") = linkage.ptx ]] && extra=(-c)
  arch=$(arch_of "$f")
  [[ $arch = sm_70 ]] && p=$PTXAS12
  log=$("$p" -arch="$arch" "${extra[@]}" "$f" -o /dev/null 2>&1); rc=$?
  if { [[ $want = 0 && $rc = 0 ]] || [[ $want = 1 && $rc != 0 ]]; }; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    if [[ $want = 0 ]]; then echo "FAIL (should assemble): ptxas -arch=$arch ${extra[*]} ${f#$ROOT/}"
    else echo "FAIL (should be rejected): ptxas -arch=$arch ${extra[*]} ${f#$ROOT/}"; fi
    [[ -n $log ]] && echo "$log" | head -5 | sed 's/^/    /'
  fi
}

while IFS= read -r f; do check 0 "$f"; done < <(find "$C/handwritten" "$C/nvcc" "$C/triton" -name '*.ptx' 2>/dev/null | sort)
while IFS= read -r f; do check 1 "$f"; done < <(find "$C/invalid" -name '*.ptx' 2>/dev/null | sort)
echo "$pass passed, $fail failed"
[[ $fail = 0 ]]
