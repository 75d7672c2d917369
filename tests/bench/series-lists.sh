#!/usr/bin/env bash
# What recurring series cost the lists (docs/performance.md): a list should cost about the same
# whether its rows are occurrences or one-off events. Two private stacks (scripts/stack.sh) of
# the same build, each with N demo events (`calendarctl demo`), one with SHARE% of them
# occurrences of recurring series and one without any (--series-share 0), and the same lists on
# both, one request at a time (wrk -t1 -c1) without the response cache: the default list, and a
# category window of a year holding recurring events (the category with the most occurrences in
# it). Prints one line per list: the p50 with series, without, and their ratio. The rounds
# alternate the stacks, so that a change in the machine's load falls on both.
#
#   tests/bench/series-lists.sh BUILD_DIR
#
# Environment (all optional): N=10000 events per stack; SHARE=5 (calendarctl's default);
# DURATION=3 seconds per measurement; ROUNDS=3 (the median round's p50 is shown).
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd)
cd "$repo"
n=${N:-10000}
share=${SHARE:-5}
duration=${DURATION:-3}
rounds=${ROUNDS:-3}

say() { echo "series-lists: $*" >&2; }
die() { say "error: $*"; exit 1; }

dirs=()
cleanup() { for d in "${dirs[@]}"; do scripts/stack.sh down "$d" >/dev/null 2>&1 || true; rm -rf "$d"; done; }
trap cleanup EXIT

declare -A api dir
sql() { mariadb --no-defaults --socket="$1/mysqld.sock" --user=root -N -B calendar -e "$2"; }

# Stack "series" (SHARE%) and stack "plain" (none), the engine measured without the response cache.
for kind in series plain; do
  d=$(mktemp -d "${TMPDIR:-/tmp}/series-lists.XXXXXX")
  chmod 755 "$d"
  dirs+=("$d")
  dir[$kind]=$d
  port=$(scripts/stack.sh free-port)
  STACK_CONF_EXTRA=$'[server]\nresponse_cache = false' scripts/stack.sh up "$d" "$port" "$build" >"$d/up.log" 2>&1 ||
    { cat "$d/up.log" >&2; exit 1; }
  api[$kind]="http://127.0.0.1:$port/api/cal/events/v1"
  [ "$kind" = series ] && s=$share || s=0
  say "$kind: calendarctl demo --events $n --series-share $s"
  "$build/calendarctl" --config "$d/calendar.conf" demo --events "$n" --seed 1 --series-share "$s" >&2 ||
    die "calendarctl demo failed"
done

# The category of the most occurrences starting in the coming year, by slug (ids are the same in
# both databases, but the slug says it).
today=$(date -u +%Y-%m-%d)
year=$(date -u -d "$today + 1 year" +%Y-%m-%d)
slug=$(sql "${dir[series]}" "SELECT t.slug FROM event_occurrences eo JOIN event_details d ON d.event_id = eo.event_id
  JOIN term_relationships r ON r.event_id = eo.event_id JOIN terms t ON t.id = r.term_id
  WHERE t.taxonomy = 'cal_events_cat' AND d.start_utc >= '$today' AND d.start_utc < '$year'
  GROUP BY t.id ORDER BY COUNT(*) DESC, t.id LIMIT 1")
[ -n "$slug" ] || die "no category holds occurrences in the coming year"
declare -A category
for kind in series plain; do
  category[$kind]=$(sql "${dir[$kind]}" "SELECT id FROM terms WHERE taxonomy = 'cal_events_cat' AND slug = '$slug'")
  [ -n "${category[$kind]}" ] || die "no category $slug in the $kind database"
done

# p50 KIND URL: the p50 in ms of requests sent one at a time, after one that warms the buffers.
p50() {
  local out
  curl -s -o /dev/null "$2"
  out=$(wrk -t1 -c1 -d"${duration}s" --timeout 60s --latency "$2" 2>&1) || { echo "$out" >&2; die "wrk failed on $2"; }
  if grep -qE 'Non-2xx or 3xx responses|Socket errors' <<<"$out"; then echo "$out" >&2; die "errors from $2"; fi
  awk '$1 == "50%" {v = $2; n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; printf "%.2f\n", n}' <<<"$out"
}

# median of the lines read
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

declare -A label times
label[default]="GET /events (the default list)"
label[category]="GET /events?categories=$slug&start_date&end_date (a year)"
for ((r = 1; r <= rounds; r++)); do
  for kind in series plain; do
    times[default@$kind]+="$(p50 "$kind" "${api[$kind]}/events")"$'\n'
    times[category@$kind]+="$(p50 "$kind" "${api[$kind]}/events?categories=${category[$kind]}&start_date=$today&end_date=$year")"$'\n'
  done
done
occurrences=$(sql "${dir[series]}" "SELECT COUNT(*) FROM event_occurrences")
for c in default category; do
  with=$(printf '%s' "${times[$c@series]}" | median)
  without=$(printf '%s' "${times[$c@plain]}" | median)
  printf '%s at %s events (%s of them occurrences): p50 %s ms with series, %s ms without, ratio %s\n' \
    "${label[$c]}" "$n" "$occurrences" "$with" "$without" "$(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.2f", a / b}')"
done
