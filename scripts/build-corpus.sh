#!/usr/bin/env bash
# build-corpus.sh - build warpscope's big, uncommitted corpus of real PTX.
#
# usage: scripts/build-corpus.sh [--no-libs] [--no-cu] [--no-triton] [--keep-unpacked]
#                                [--tools-only] [-h]
#
#   --no-libs        skip (a): PTX embedded in NVIDIA's cuBLAS / cuDNN wheels
#   --no-cu          skip (b): examples/**/*.cu, tests/hw/*.cu, tests/corpus/src/*.cu -> PTX
#   --no-triton      skip (c): Triton kernels (scripts/triton_ptx.py) -> PTX
#   --keep-unpacked  keep the unzipped library .so files (about 1.6 GB) after extraction
#   --no-sass        skip the SASS listings of the libraries (see libs/ below)
#   --tools-only     only install the CUDA tools into $WARPSCOPE_CUDA and print two lines:
#                    CUDA 13 bin dir (nvcc, ptxas, cuobjdump) and the CUDA 12 ptxas
#                    (for sm_70); used by scripts/check-corpus.sh
#
# Output ($WARPSCOPE_CORPUS, default <repo>/.corpus/, git-ignored):
#   libs/<wheel>-<version>/<lib.so>/<lib>.<n>.sm_XX.ptx   every PTX module cuobjdump -xptx all
#                                                         finds in every .so of the wheel
#   libs/<wheel>-<version>/<lib.so>/<lib.so>.sm_XX.sass   cuobjdump -sass -arch sm_XX of the .so, for
#                                                         each of $SASS_ARCHS (warpscope parse --stats
#                                                         over them: zero diagnostics expected)
#   cu/<path_of_source>/<name>.sm_XX.ptx                  nvcc -ptx -lineinfo -arch=sm_XX
#   triton/triton_<kernel>_sm<XX>.ptx                     Triton 3.x, no GPU needed
#   MANIFEST.tsv                                          path, bytes, where it came from
#   wheels/, venv/                                        download cache, Triton venv
# CUDA tools go to $WARPSCOPE_CUDA (default <repo>/.cuda/, git-ignored).
#
# Needs: python3 with pip and venv, a host C++ compiler for nvcc's preprocessing
# (Debian: apt-get install python3-pip python3-venv g++), network access to PyPI.
# No GPU. Idempotent: downloads are cached, finished extractions are stamped, a
# .cu is recompiled only when it is newer than its PTX. Re-run freely.
#
# sm_70: CUDA 13 dropped Volta (nvcc 13.x: "Unsupported gpu architecture 'sm_70'",
# and cicc rejects compute_70). The CUDA 12 wheel nvidia-cuda-nvcc-cu12 ships only
# ptxas and libnvvm - no nvcc driver and no cicc - so the sm_70 PTX is compiled
# with CUDA 12.9's NVRTC (nvidia-cuda-nvrtc-cu12) by scripts/nvrtc_ptx.py, with
# -lineinfo, after stripping host-only code (NVRTC compiles device code only).
# All other targets use nvcc 13.x.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=${WARPSCOPE_CORPUS:-$ROOT/.corpus}
CUDA=${WARPSCOPE_CUDA:-$ROOT/.cuda}
PY=${PYTHON:-python3}

# Pinned versions (override via environment). Current on PyPI as of 2026-11.
CUDA13_VER=${CUDA13_VER:-13.5.37}          # nvcc, crt, nvvm, runtime, cuobjdump
CCCL13_VER=${CCCL13_VER:-13.3.5.0.6}
CUBLAS_VER=${CUBLAS_VER:-13.10.0.20}       # nvidia-cublas
CUDNN_VER=${CUDNN_VER:-9.28.0.42}          # nvidia-cudnn-cu13
# More library wheels for (a), space-separated PKG==VERSION, e.g. the set the
# README's coverage section measured: EXTRA_LIBS="nvidia-cusparse==12.9.4.2
# nvidia-cusolver-cu12==11.7.1.2 nvidia-curand-cu12==10.3.7.77
# nvidia-nccl-cu13==2.27.7 nvidia-nvjpeg==13.3.2.43"
EXTRA_LIBS=${EXTRA_LIBS:-}
NVRTC12_VER=${NVRTC12_VER:-12.9.86}        # nvidia-cuda-nvrtc-cu12, nvidia-cuda-nvcc-cu12 (sm_70 only)
CUDART12_VER=${CUDART12_VER:-12.9.79}      # nvidia-cuda-runtime-cu12 (headers, sm_70 only)
CCCL12_VER=${CCCL12_VER:-12.9.27}          # nvidia-cuda-cccl-cu12 (headers, sm_70 only)
TRITON_VER=${TRITON_VER:-3.9.0}
CU_ARCHS=${CU_ARCHS:-"70 80 90 100 120"}
SASS_ARCHS=${SASS_ARCHS:-"90"}
TRITON_ARCHS=${TRITON_ARCHS:-"80 90 100"}

DO_LIBS=1 DO_CU=1 DO_TRITON=1 KEEP_UNPACKED=0 TOOLS_ONLY=0 DO_SASS=1
for a in "$@"; do
  case $a in
    --no-libs) DO_LIBS=0 ;;
    --no-cu) DO_CU=0 ;;
    --no-triton) DO_TRITON=0 ;;
    --keep-unpacked) KEEP_UNPACKED=1 ;;
    --no-sass) DO_SASS=0 ;;
    --tools-only) TOOLS_ONLY=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $a (try --help)" >&2; exit 2 ;;
  esac
done

log() { printf '[build-corpus] %s\n' "$*" >&2; }
die() { printf '[build-corpus] error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$CORPUS/wheels" "$CUDA/wheels"
command -v "$PY" >/dev/null || die "python3 not found"
"$PY" -m pip --version >/dev/null 2>&1 || die "pip not found (Debian: apt-get install python3-pip)"

# fetch DIR PKG VERSION: download PKG==VERSION's wheel into DIR unless cached.
fetch() {
  local dir=$1 pkg=$2 ver=$3 norm
  norm=$(echo "$pkg" | tr '-' '_')
  if ! compgen -G "$dir/${norm}-${ver}-*.whl" >/dev/null; then
    log "downloading $pkg==$ver"
    local t0=$SECONDS
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: -d "$dir" "$pkg==$ver" >&2
    log "  $pkg: $(du -m "$dir/${norm}-${ver}-"*.whl | cut -f1 | head -1) MB in $((SECONDS - t0)) s"
  fi
  compgen -G "$dir/${norm}-${ver}-*.whl" | head -1
}

# unwheel WHEEL DEST [GLOB...]: unzip (all, or members matching a glob), keeping
# the executable bits that wheels record (python's zipfile drops them; unzip may be absent).
unwheel() {
  "$PY" - "$@" <<'EOF'
import fnmatch, os, sys, zipfile
whl, dest, pats = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(whl) as z:
    for info in z.infolist():
        if pats and not any(fnmatch.fnmatch(info.filename, p) for p in pats):
            continue
        path = z.extract(info, dest)
        mode = (info.external_attr >> 16) & 0o777
        if mode and not info.is_dir():
            os.chmod(path, mode)
EOF
}

# ---------------------------------------------------------------- CUDA tools
setup_cuda13() {
  local stamp="$CUDA/cu13/.stamp-$CUDA13_VER"
  if [[ ! -f $stamp ]]; then
    local pkgs=(nvidia-cuda-nvcc nvidia-cuda-crt nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)
    rm -rf "$CUDA/cu13"; mkdir -p "$CUDA/cu13"
    for p in "${pkgs[@]}"; do unwheel "$(fetch "$CUDA/wheels" "$p" "$CUDA13_VER")" "$CUDA/cu13"; done
    unwheel "$(fetch "$CUDA/wheels" nvidia-cuda-cccl "$CCCL13_VER")" "$CUDA/cu13"
    touch "$stamp"
  fi
  CU13="$CUDA/cu13/nvidia/cu13"
  NVCC="$CU13/bin/nvcc"; CUOBJDUMP="$CU13/bin/cuobjdump"
  [[ -x $NVCC && -x $CUOBJDUMP && -x $CU13/bin/nvdisasm ]] || die "CUDA 13 tools missing under $CU13 (delete $CUDA/cu13 and re-run)"
}

setup_nvrtc12() {
  local stamp="$CUDA/cu12/.stamp2-$NVRTC12_VER-$CUDART12_VER-$CCCL12_VER"
  if [[ ! -f $stamp ]]; then
    rm -rf "$CUDA/cu12"; mkdir -p "$CUDA/cu12"
    unwheel "$(fetch "$CUDA/wheels" nvidia-cuda-nvrtc-cu12 "$NVRTC12_VER")" "$CUDA/cu12"
    # CUDA 12 device headers for NVRTC: mma.h, cooperative_groups (runtime wheel),
    # crt/*.h (the nvcc wheel's include/ only), libcu++ (cccl wheel).
    unwheel "$(fetch "$CUDA/wheels" nvidia-cuda-runtime-cu12 "$CUDART12_VER")" "$CUDA/cu12" 'nvidia/cuda_runtime/include/*'
    unwheel "$(fetch "$CUDA/wheels" nvidia-cuda-nvcc-cu12 "$NVRTC12_VER")" "$CUDA/cu12" 'nvidia/cuda_nvcc/include/*' \
      'nvidia/cuda_nvcc/bin/ptxas'      # CUDA 12 ptxas: the last that assembles sm_70
    unwheel "$(fetch "$CUDA/wheels" nvidia-cuda-cccl-cu12 "$CCCL12_VER")" "$CUDA/cu12" 'nvidia/cuda_cccl/include/*'
    touch "$stamp"
  fi
  NVRTC12="$CUDA/cu12/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
  NVRTC12_INC=(-I "$CUDA/cu12/nvidia/cuda_runtime/include" -I "$CUDA/cu12/nvidia/cuda_nvcc/include"
               -I "$CUDA/cu12/nvidia/cuda_cccl/include")
  [[ -f $NVRTC12 ]] || die "libnvrtc.so.12 missing under $CUDA/cu12"
}

MANIFEST_TMP=$(mktemp)
trap 'rm -f "$MANIFEST_TMP"' EXIT

# ------------------------------------------------ (a) NVIDIA library wheels
build_libs() {
  local spec pkg ver whl name out n so base tmp total
  local specs=("nvidia-cublas $CUBLAS_VER" "nvidia-cudnn-cu13 $CUDNN_VER") x
  for x in $EXTRA_LIBS; do specs+=("${x%%==*} ${x##*==}"); done
  for spec in "${specs[@]}"; do
    read -r pkg ver <<<"$spec"
    whl=$(fetch "$CORPUS/wheels" "$pkg" "$ver")
    name="$pkg-$ver"; out="$CORPUS/libs/$name"
    if [[ -f $out/.done ]]; then
      log "$name: already extracted"
    else
      rm -rf "$out"; mkdir -p "$out"
      tmp="$CORPUS/unpacked/$name"
      if [[ ! -d $tmp ]]; then
        log "$name: unpacking shared libraries and licence"
        unwheel "$whl" "$tmp" '*.so*' '*.dist-info/*'
      fi
      cp "$tmp"/*.dist-info/licenses/* "$tmp"/*.dist-info/METADATA "$out/" 2>/dev/null || true
      total=0
      while IFS= read -r so; do
        n=$("$CUOBJDUMP" -lptx "$so" 2>/dev/null | grep -c '^PTX file' || true)
        [[ $n -gt 0 ]] || continue
        base=$(basename "$so")
        mkdir -p "$out/$base"
        (cd "$out/$base" && "$CUOBJDUMP" -xptx all "$so" >/dev/null)
        log "$name: $base: $n PTX modules"
        if [[ $DO_SASS = 1 ]]; then
          for a in $SASS_ARCHS; do
            "$CUOBJDUMP" -sass -arch "sm_$a" "$so" > "$out/$base/$base.sm_$a.sass" 2>/dev/null || rm -f "$out/$base/$base.sm_$a.sass"
          done
        fi
        total=$((total + n))
      done < <(find "$tmp" -name '*.so*' -type f | sort)
      log "$name: $total PTX modules"
      touch "$out/.done"
      [[ $KEEP_UNPACKED = 1 ]] || rm -rf "$tmp"
    fi
  done
  rmdir "$CORPUS/unpacked" 2>/dev/null || true
}

# ------------------------------------------------ (b) .cu sources -> PTX
build_cu() {
  local srcs=() f rel dir stem arch out fails=0 built=0 flags src
  while IFS= read -r f; do srcs+=("$f"); done < <(
    cd "$ROOT" && { find examples -name '*.cu' -type f 2>/dev/null
                    find tests/hw -maxdepth 1 -name '*.cu' -type f 2>/dev/null
                    find tests/corpus/src -maxdepth 1 -name '*.cu' -type f 2>/dev/null; } | sort)
  log "${#srcs[@]} .cu files under examples/, tests/hw/, tests/corpus/src/"
  command -v "${CXX:-g++}" >/dev/null || command -v c++ >/dev/null ||
    die "nvcc needs a host C++ compiler (Debian: apt-get install g++)"
  for f in "${srcs[@]}"; do
    rel=${f%.cu}; dir="$CORPUS/cu/$(dirname "$rel")"; stem=$(basename "$rel")
    mkdir -p "$dir"
    for arch in $CU_ARCHS; do
      out="$dir/$stem.sm_$arch.ptx"
      if [[ ! -f $out || $ROOT/$f -nt $out ]]; then
        if [[ $arch = 70 ]]; then
          flags="NVRTC $NVRTC12_VER --gpu-architecture=compute_70 -lineinfo -std=c++17"
          if ! "$PY" "$ROOT/scripts/nvrtc_ptx.py" --lib "$NVRTC12" --arch compute_70 --lineinfo \
               -I "$ROOT/$(dirname "$f")" "${NVRTC12_INC[@]}" "$ROOT/$f" -o "$out" 2>"$out.log"; then
            log "FAILED sm_70 (NVRTC) $f: $(grep -m1 -i error "$out.log" || tail -1 "$out.log")"
            rm -f "$out"; fails=$((fails + 1)); continue
          fi
        else
          # A kernel using arch-specific features (wgmma, tcgen05, ...) needs sm_XXa: retry with it.
          if ! (cd "$ROOT" && "$NVCC" -ptx -lineinfo -arch=sm_$arch "$f" -o "$out") 2>"$out.log"; then
            if (cd "$ROOT" && "$NVCC" -ptx -lineinfo -arch=sm_${arch}a "$f" -o "$out") 2>"$out.log"; then
              log "$f: sm_$arch needed sm_${arch}a"
            else
              log "FAILED sm_$arch $f: $(grep -m1 -i error "$out.log" || tail -1 "$out.log")"
              rm -f "$out"; fails=$((fails + 1)); continue
            fi
          fi
        fi
        rm -f "$out.log"; built=$((built + 1))
      fi
    done
  done
  # drop PTX whose source is gone (a renamed or deleted .cu)
  while IFS= read -r f; do
    src=${f%.sm_*.ptx}.cu
    [[ -f $ROOT/$src ]] || { rm -f "$CORPUS/cu/$f"; log "removed stale cu/$f"; }
  done < <(cd "$CORPUS/cu" && find . -name '*.ptx' -type f | sed 's|^\./||')
  find "$CORPUS/cu" -mindepth 1 -type d -empty -delete
  log ".cu -> PTX: $built (re)built, $fails failed"
}

# ------------------------------------------------ (c) Triton
build_triton() {
  local venv="$CORPUS/venv"
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import triton, sys; sys.exit(triton.__version__ != '$TRITON_VER')" 2>/dev/null; then
    log "installing triton==$TRITON_VER into $venv"
    "$PY" -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/pip" install --quiet "triton==$TRITON_VER" >&2
  fi
  local stamp="$CORPUS/triton/.stamp-$TRITON_VER-$(cksum <"$ROOT/scripts/triton_ptx.py" | cut -d' ' -f1)"
  if [[ ! -f $stamp ]]; then
    rm -rf "$CORPUS/triton"
    # shellcheck disable=SC2086
    TRITON_DEFAULT_FP_FUSION=1 "$venv/bin/python" "$ROOT/scripts/triton_ptx.py" "$CORPUS/triton" $TRITON_ARCHS >&2
    touch "$stamp"
  fi
}

if [[ $TOOLS_ONLY = 1 ]]; then
  setup_cuda13; setup_nvrtc12
  echo "$CU13/bin"; echo "$CUDA/cu12/nvidia/cuda_nvcc/bin/ptxas"; exit 0
fi
[[ $DO_LIBS = 1 || $DO_CU = 1 ]] && setup_cuda13
[[ $DO_CU = 1 ]] && setup_nvrtc12
[[ $DO_LIBS = 1 ]] && build_libs
[[ $DO_CU = 1 ]] && build_cu
[[ $DO_TRITON = 1 ]] && build_triton

# ------------------------------------------------ summary (everything in the corpus, built now or before)
for d in "$CORPUS"/libs/*/; do
  [[ -d $d ]] || continue
  name=$(basename "$d")
  find "$d" -name '*.ptx' -type f -printf "%P\t%s\n" | sort |
    awk -v d="libs/$name" -v src="$(echo "$name" | sed 's/-\([0-9][0-9.]*\)$/==\1/') wheel, cuobjdump $CUDA13_VER -xptx all" \
      -F'\t' '{ print d "/" $1 "\t" $2 "\t" src }' >>"$MANIFEST_TMP"
done
if [[ -d $CORPUS/cu ]]; then
  find "$CORPUS/cu" -name '*.ptx' -type f -printf "%P\t%s\n" | sort |
    awk -F'\t' -v v="$CUDA13_VER" -v v12="$NVRTC12_VER" '{
      src = ($1 ~ /\.sm_70\.ptx$/) ? "NVRTC " v12 " (CUDA 12) --gpu-architecture=compute_70 -lineinfo" \
                                   : "nvcc " v " -ptx -lineinfo -arch=sm_XX";
      print "cu/" $1 "\t" $2 "\t" src }' >>"$MANIFEST_TMP"
fi
if [[ -d $CORPUS/triton ]]; then
  find "$CORPUS/triton" -name '*.ptx' -type f -printf "%P\t%s\n" | sort |
    awk -F'\t' -v v="$TRITON_VER" '{ print "triton/" $1 "\t" $2 "\ttriton " v " scripts/triton_ptx.py" }' >>"$MANIFEST_TMP"
fi
{ printf 'path\tbytes\tsource\n'; cat "$MANIFEST_TMP"; } >"$CORPUS/MANIFEST.tsv"
echo "warpscope PTX corpus in $CORPUS"
printf '%-48s %7s %9s %12s\n' "part" "files" "MB" "statements"
for part in $(cut -f1 "$MANIFEST_TMP" | awk -F/ '{ print ($1 == "libs") ? $1 "/" $2 "/" $3 : ($1 == "cu") ? $1 "/" $2 : $1 }' | sort -u); do
  files=$(awk -F'\t' -v p="$part/" 'index($1, p) == 1' "$MANIFEST_TMP" | wc -l)
  mb=$(awk -F'\t' -v p="$part/" 'index($1, p) == 1 { s += $2 } END { printf "%.1f", s / 1048576 }' "$MANIFEST_TMP")
  stmts=$(awk -F'\t' -v p="$part/" 'index($1, p) == 1 { print $1 }' "$MANIFEST_TMP" |
          (cd "$CORPUS" && xargs -r cat) | grep -c ';' || true)
  printf '%-48s %7d %9s %12d\n' "$part" "$files" "$mb" "$stmts"
done
files=$(wc -l <"$MANIFEST_TMP")
mb=$(awk -F'\t' '{ s += $2 } END { printf "%.1f", s / 1048576 }' "$MANIFEST_TMP")
stmts=$(cut -f1 "$MANIFEST_TMP" | (cd "$CORPUS" && xargs -r cat) | grep -c ';' || true)
printf '%-48s %7d %9s %12d\n' "TOTAL" "$files" "$mb" "$stmts"
echo "(statements = lines containing ';'; list: $CORPUS/MANIFEST.tsv)"
