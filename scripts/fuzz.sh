#!/usr/bin/env bash
# Coverage-guided fuzzing of warpscope on the stable toolchain: libFuzzer
# (the libfuzzer-sys crate, built from its C++ source with the system
# compiler) and rustc's SanitizerCoverage pass (`-C passes=sancov-module`,
# stable), as `cargo fuzz --sanitizer none` would build it, without
# cargo-fuzz or a nightly toolchain.
#
#   scripts/fuzz.sh build               build the four targets (release, instrumented)
#   scripts/fuzz.sh run TARGET [RUNS]   fuzz one target in ONE process (one core)
#                                       for RUNS executions (default 1000000)
#   scripts/fuzz.sh all [RUNS]          each target in turn
#
# Targets: parse (PTX parser + sema), analyze (the whole pipeline on a PTX
# module, calls inlined), sass (SASS listing parser + lowering + analysis),
# binary (ELF/fatbin/archive reader, .nv.info). Seeds come from
# tests/corpus, tests/fixtures, tests/sass and tests/binary; the working
# corpus lives in fuzz/corpus/TARGET and crashes in fuzz/artifacts/TARGET
# (both ignored by git). A crash found is to be fixed with a regression test
# (none found yet: see the README's Fuzzing section for the runs so far).
# libFuzzer prints its own statistics at the end ("stat::number_of_executed_units").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
triple="$(rustc -vV | sed -n 's/^host: //p')"
# The analyzer's own target directory; the explicit --target keeps the
# instrumented artifacts in target/$triple, apart from the normal build, and
# keeps the instrumentation off build scripts.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
targets=(parse analyze sass binary)

build() {
    (cd "$root/fuzz" && cargo build --release --target "$triple" --bins -j1)
}

seed() {
    local t=$1 dir="$root/fuzz/corpus/$1"
    mkdir -p "$dir"
    [ -n "$(ls -A "$dir")" ] && return
    local src=()
    case $t in
    parse | analyze) src=(tests/corpus tests/fixtures) ;;
    sass) src=(tests/sass) ;;
    binary) src=(tests/binary) ;;
    esac
    (cd "$root" && find "${src[@]}" -type f \( -name '*.ptx' -o -name '*.sass' -o -name '*.cubin' \
        -o -name '*.fatbin' -o -name '*.so' -o -name '*.o' \) -size -200k) |
        while read -r f; do cp "$root/$f" "$dir/$(echo "$f" | tr / _)"; done
}

run() {
    local t=$1 runs=${2:-1000000}
    local bin="$CARGO_TARGET_DIR/$triple/release/$t"
    [ -x "$bin" ] || build
    seed "$t"
    mkdir -p "$root/fuzz/artifacts/$t"
    # One process, one core; inputs up to 64 KiB (the binary reader up to
    # 256 KiB); a run slower than 10 s is a hang; 2 GiB of RSS is a leak.
    local max_len=65536
    [ "$t" = binary ] && max_len=262144
    "$bin" "$root/fuzz/corpus/$t" -runs="$runs" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$root/fuzz/artifacts/$t/"
}

case "${1:-}" in
build) build ;;
run) run "${2:?target}" "${3:-1000000}" ;;
all) for t in "${targets[@]}"; do run "$t" "${2:-1000000}"; done ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
