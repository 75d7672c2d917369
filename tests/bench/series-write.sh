#!/usr/bin/env bash
# What a series write costs (docs/recurring-events.md, "Speed"): N sequential POST /events of a
# weekly series of 520 occurrences (ten years) with a category, a venue and an organizer, on a
# private stack (scripts/stack.sh, an empty database). Prints the median and 90th percentile of
# the wall time (curl's time_total). With a second build directory, the same on a stack of that
# build, alternating the two request by request, so that a change in the machine's load falls on
# both alike (how the figures of the docs compare an older build with the current one).
#
#   tests/bench/series-write.sh BUILD_DIR [OTHER_BUILD_DIR]
#
# N (environment, default 20): series per build, after 3 of each to warm up.
set -euo pipefail

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 BUILD_DIR [OTHER_BUILD_DIR]" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
builds=()
for b in "$@"; do builds+=("$(cd "$b" && pwd)"); done
cd "$repo"
n=${N:-20}

dirs=()
cleanup() { for d in "${dirs[@]}"; do scripts/stack.sh down "$d" >/dev/null 2>&1 || true; rm -rf "$d"; done; }
trap cleanup EXIT

declare -A api token times venue organizer
for ((k = 0; k < ${#builds[@]}; k++)); do
  d=$(mktemp -d "${TMPDIR:-/tmp}/series-write.XXXXXX")
  chmod 755 "$d"
  dirs+=("$d")
  port=$(scripts/stack.sh free-port)
  scripts/stack.sh up "$d" "$port" "${builds[$k]}" >"$d/up.log" 2>&1 || { cat "$d/up.log" >&2; exit 1; }
  api[$k]="http://127.0.0.1:$port/api/cal/events/v1"
  token[$k]=$(cat "$d/admin.token")
  for kind in venue organizer; do
    id=$(curl -s -H "Authorization: Bearer ${token[$k]}" -H 'Content-Type: application/json' \
      -d "{\"$kind\":\"Bench $kind\",\"status\":\"publish\"}" "${api[$k]}/${kind}s" |
      grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2)
    [ -n "$id" ] || { echo "bench: no $kind created" >&2; exit 1; }
    [ "$kind" = venue ] && venue[$k]=$id || organizer[$k]=$id
  done
done

post() {  # post K I: prints the series write's wall time in seconds
  local day=$((1 + $2 % 28)) out
  out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer ${token[$1]}" \
    -H 'Content-Type: application/json' \
    -d "{\"title\":\"Weekly class $2\",\"status\":\"publish\",\"start_date\":\"2030-01-$(printf %02d $day) 19:00\",\"end_date\":\"2030-01-$(printf %02d $day) 20:30\",\"timezone\":\"Europe/Berlin\",\"categories\":[\"Classes\"],\"venue\":${venue[$1]},\"organizer\":[${organizer[$1]}],\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=520\"]}" \
    "${api[$1]}/events")
  [ "${out%% *}" = 201 ] || { echo "bench: series write answered ${out%% *}" >&2; exit 1; }
  echo "${out#* }"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((i = 1; i <= n + 3; i++)); do
  for ((k = 0; k < ${#builds[@]}; k++)); do
    t=$(post "$k" "$i")
    [ "$i" -le 3 ] || times[$k]+="$t"$'\n'
  done
done
for ((k = 0; k < ${#builds[@]}; k++)); do
  printf '%s' "${times[$k]}" | sort -n | awk -v l="${builds[$k]}" \
    '{a[NR] = $1} END {printf "series write of 520 occurrences (%s): p50 %.1f ms, p90 %.1f ms (%d writes)\n", l, a[int((NR + 1) / 2)] * 1000, a[int(NR * 0.9)] * 1000, NR}'
done
echo "load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
