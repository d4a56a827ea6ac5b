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
#   scripts/fuzz.sh par TARGET SECONDS JOBS
#                                       JOBS independent processes of one target
#                                       for SECONDS each (a many-core machine),
#                                       then the total of their executions
#
# MAX_LEN (environment) caps the input size (default 65536 bytes, the binary
# reader 262144): a smaller cap runs many more executions per second.
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
triple="$(rustc -vV 2>/dev/null | sed -n 's/^host: //p' || true)"
# The analyzer's own target directory; the explicit --target keeps the
# instrumented artifacts in target/$triple, apart from the normal build, and
# keeps the instrumentation off build scripts.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
# FUZZ_BIN_DIR: where the built targets are, when not in the target dir (a
# machine without Rust running binaries built here).
bindir="${FUZZ_BIN_DIR:-$CARGO_TARGET_DIR/$triple/release}"
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
    local bin="$bindir/$t"
    [ -x "$bin" ] || build
    seed "$t"
    mkdir -p "$root/fuzz/artifacts/$t"
    # One process, one core; inputs up to 64 KiB (the binary reader up to
    # 256 KiB); a run slower than 10 s is a hang; 2 GiB of RSS is a leak.
    "$bin" "$root/fuzz/corpus/$t" -runs="$runs" -max_len="$(max_len "$t")" -timeout="$timeout" \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$root/fuzz/artifacts/$t/"
}

# A run slower than this is a hang. The launch simulation may run up to
# 3,000,000 warp instructions per kernel (analysis::totals::DEFAULT_BUDGET),
# which a file of several looping kernels reaches in a few seconds of this
# instrumented build with debug assertions: 30 s, not libFuzzer's usual 10 s.
timeout="${FUZZ_TIMEOUT:-30}"

max_len() {
    local m=65536
    [ "$1" = binary ] && m=262144
    echo "${MAX_LEN:-$m}"
}

# JOBS processes of one target side by side, each for SECONDS, each with its
# own log in fuzz/logs; prints the sum of libFuzzer's executed units and
# fails if any process found a crash, a hang (timeout) or a leak (rss).
par() {
    local t=$1 secs=$2 jobs=$3
    local bin="$bindir/$t"
    [ -x "$bin" ] || build
    seed "$t"
    mkdir -p "$root/fuzz/artifacts/$t" "$root/fuzz/logs"
    local pids=() j
    for ((j = 0; j < jobs; j++)); do
        "$bin" "$root/fuzz/corpus/$t" -max_total_time="$secs" -max_len="$(max_len "$t")" \
            -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 -seed=$((j + 1)) \
            -artifact_prefix="$root/fuzz/artifacts/$t/" >"$root/fuzz/logs/$t.$j.log" 2>&1 &
        pids+=($!)
    done
    local failed=0
    for j in "${pids[@]}"; do wait "$j" || failed=1; done
    local total
    total=$(cat "$root"/fuzz/logs/"$t".*.log | sed -n 's/^stat::number_of_executed_units: *//p' |
        awk '{s += $1} END {print s + 0}')
    echo "$t: $jobs processes x ${secs} s, max_len $(max_len "$t"): $total executions"
    if [ "$failed" = 1 ] || ls "$root/fuzz/artifacts/$t" | grep -q .; then
        echo "$t: FOUND a crash, hang or leak: see fuzz/artifacts/$t and fuzz/logs/$t.*.log"
        return 1
    fi
}

case "${1:-}" in
build) build ;;
run) run "${2:?target}" "${3:-1000000}" ;;
all) for t in "${targets[@]}"; do run "$t" "${2:-1000000}"; done ;;
par) par "${2:?target}" "${3:?seconds}" "${4:?jobs}" ;;
*)
    sed -n '2,26p' "$0"
    exit 2
    ;;
esac
