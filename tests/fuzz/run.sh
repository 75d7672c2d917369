#!/usr/bin/env bash
# `make fuzz`: runs each libFuzzer target BUILD_DIR/fuzz_<name> for SECONDS seconds, starting
# from its seed corpus tests/fuzz/corpus/<name>/ (read only; new inputs go to
# BUILD_DIR/corpus/<name>/, crashes to BUILD_DIR/crashes/). Prints one line per target with its
# executions, then "fuzz: N executions, N crashes" and exits non-zero when any target crashed.
#
#   tests/fuzz/run.sh BUILD_DIR SECONDS NAME...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR SECONDS NAME..." >&2; exit 2; }
build=$1 seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number: $seconds" >&2; exit 2; }

# Every sanitizer report is fatal; the only suppression is RapidJSON's (see ubsan.supp).
export UBSAN_OPTIONS="suppressions=$PWD/tests/fuzz/ubsan.supp:halt_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"

total_execs=0
crashes=0
for name in "$@"; do
  bin="$build/fuzz_$name"
  [ -x "$bin" ] || { echo "fuzz: missing $bin (run make fuzz-build)" >&2; exit 2; }
  work="$build/corpus/$name" found="$build/crashes/$name"
  mkdir -p "$work" "$found"
  args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
        -max_len=65536 -artifact_prefix="$found/")
  [ -f "tests/fuzz/$name.dict" ] && args+=(-dict="tests/fuzz/$name.dict")
  log="$build/fuzz_$name.log"
  set +e
  "$bin" "${args[@]}" "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1 || true)
  execs=${execs:-0}
  total_execs=$((total_execs + execs))
  if [ "$rc" -ne 0 ]; then
    crashes=$((crashes + 1))
    echo "fuzz: $name CRASHED after $execs executions (exit $rc); input in $found/, log $log:"
    grep -E -A 25 'ERROR: |runtime error:|fuzz invariant violated|deadly signal|uncaught exception' "$log" | head -n 40 || tail -n 40 "$log"
  else
    echo "fuzz: $name ${seconds}s, $execs executions, corpus $(find "$work" -type f | wc -l) inputs"
  fi
done
echo "fuzz: $total_execs executions, $crashes crashes"
echo "$(($# - crashes)) passed, $crashes failed"
[ "$crashes" -eq 0 ]
