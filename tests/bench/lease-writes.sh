#!/usr/bin/env bash
# What waiting out the cache lease costs a writer (docs/performance.md, "The lease"): N sequential
# POST /events as the administrator on a private stack (scripts/stack.sh, an empty database), once
# with the default `[server] cache_lease_ms` and once with 0, alternating the two stacks request
# by request so that a change in the machine's load falls on both alike. Prints the median and
# 90th percentile of the wall time (curl's time_total) per configuration and the load average.
#
#   tests/bench/lease-writes.sh BUILD_DIR
#
# N (environment, default 100): requests per configuration, after 10 of each to warm up.
# Throughput under 16 connections is make bench's case 5 (default) against 5L (BENCH_LEASE_MS).
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd)
cd "$repo"
n=${N:-100}

dirs=()
cleanup() { for d in "${dirs[@]}"; do scripts/stack.sh down "$d" >/dev/null 2>&1 || true; rm -rf "$d"; done; }
trap cleanup EXIT

declare -A api token times
for config in default none; do
  d=$(mktemp -d "${TMPDIR:-/tmp}/lease-writes.XXXXXX")
  chmod 755 "$d"
  dirs+=("$d")
  port=$(scripts/stack.sh free-port)
  extra=""
  [ "$config" = none ] && extra=$'[server]\ncache_lease_ms = 0'
  STACK_CONF_EXTRA="$extra" scripts/stack.sh up "$d" "$port" "$build" >"$d/up.log" 2>&1 ||
    { cat "$d/up.log" >&2; exit 1; }
  api[$config]="http://127.0.0.1:$port/api/cal/events/v1/events"
  token[$config]=$(cat "$d/admin.token")
done

post() {  # post CONFIG I: prints the request's wall time in seconds
  local day=$((1 + $2 % 28))
  curl -s -o /dev/null -w '%{time_total}' -H "Authorization: Bearer ${token[$1]}" \
    -H 'Content-Type: application/json' \
    -d "{\"title\":\"Lease write $2\",\"status\":\"publish\",\"start_date\":\"2030-01-$(printf %02d $day) 10:00\",\"end_date\":\"2030-01-$(printf %02d $day) 11:00\",\"categories\":[\"Cat $(($2 % 7))\"]}" \
    "${api[$1]}"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((i = 1; i <= n + 10; i++)); do
  for config in default none; do
    t=$(post "$config" "$i")
    [ "$i" -le 10 ] || times[$config]+="$t"$'\n'
  done
done
for config in default none; do
  label="cache_lease_ms = 0"
  [ "$config" = default ] && label="the default cache lease"
  printf '%s' "${times[$config]}" | sort -n | awk -v l="$label" \
    '{a[NR] = $1} END {printf "POST /events, %s: p50 %.2f ms, p90 %.2f ms (%d requests)\n", l, a[int((NR + 1) / 2)] * 1000, a[int(NR * 0.9)] * 1000, NR}'
done
echo "load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
