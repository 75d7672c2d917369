#!/usr/bin/env bash
# What an on-demand horizon extension costs (docs/recurring-events.md, "Horizon"): SERIES
# infinite weekly series (a category, a venue and an organizer each) written on a private stack
# (scripts/stack.sh, an empty database) whose [recurrence] horizon_months is 1, then ROUNDS
# lists whose windows end one month further each time: each list extends every series by a
# month (about 4,300 occurrences for 1,000 series) before it answers. Prints the median and the
# slowest of the lists' wall times (curl's time_total). With a second build directory, the same
# on a stack of that build, alternating the two round by round, so that a change in the
# machine's load falls on both alike.
#
#   tests/bench/series-extend.sh BUILD_DIR [OTHER_BUILD_DIR]
#
# SERIES (environment, default 1000), ROUNDS (default 3), VENUES (default 1): the series take
# the venues and organizers in turn, series k the k-th modulo VENUES, as on a site of many places
# (the extension's statements must look each one up by key, not read every venue for each row).
set -euo pipefail

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 BUILD_DIR [OTHER_BUILD_DIR]" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
builds=()
for b in "$@"; do builds+=("$(cd "$b" && pwd)"); done
cd "$repo"
series=${SERIES:-1000}
rounds=${ROUNDS:-3}
venues=${VENUES:-1}

dirs=()
cleanup() { for d in "${dirs[@]}"; do scripts/stack.sh down "$d" >/dev/null 2>&1 || true; rm -rf "$d"; done; }
trap cleanup EXIT

# The weekday of the series: tomorrow, so that every series starts after the stack is up.
first=$(date -u -d tomorrow +%Y-%m-%d)
declare -A api token times
for ((k = 0; k < ${#builds[@]}; k++)); do
  d=$(mktemp -d "${TMPDIR:-/tmp}/series-extend.XXXXXX")
  chmod 755 "$d"
  dirs+=("$d")
  port=$(scripts/stack.sh free-port)
  STACK_CONF_EXTRA=$'[recurrence]\nhorizon_months = 1' \
    scripts/stack.sh up "$d" "$port" "${builds[$k]}" >"$d/up.log" 2>&1 || { cat "$d/up.log" >&2; exit 1; }
  api[$k]="http://127.0.0.1:$port/api/cal/events/v1"
  token[$k]=$(cat "$d/admin.token")
  # Line v of places: venue id and organizer id number v.
  places="$d/places"
  : >"$places"
  for ((v = 1; v <= venues; v++)); do
    pair=()
    for kind in venue organizer; do
      id=$(curl -s -H "Authorization: Bearer ${token[$k]}" -H 'Content-Type: application/json' \
        -d "{\"$kind\":\"Bench $kind $v\",\"status\":\"publish\"}" "${api[$k]}/${kind}s" |
        grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2)
      [ -n "$id" ] || { echo "bench: no $kind created" >&2; exit 1; }
      pair+=("$id")
    done
    echo "${pair[0]} ${pair[1]}" >>"$places"
  done
  # The series, two requests at a time; each answers 201 or the bench stops.
  # shellcheck disable=SC2016  # the inner sh expands them
  seq 1 "$series" | awk -v n="$venues" -v f="$places" \
    'BEGIN { while ((getline l < f) > 0) p[++m] = l } { print $1, p[($1 - 1) % n + 1] }' |
    xargs -P 2 -L 1 sh -c '
    code=$(curl -s -o /dev/null -w "%{http_code}" -H "Authorization: Bearer $1" -H "Content-Type: application/json" \
      -d "{\"title\":\"Weekly class $4\",\"status\":\"publish\",\"start_date\":\"$2 19:00\",\"end_date\":\"$2 20:30\",\"timezone\":\"Europe/Berlin\",\"categories\":[\"Classes\"],\"venue\":$5,\"organizer\":[$6],\"recurrence\":[\"RRULE:FREQ=WEEKLY\"]}" \
      "$3/events")
    [ "$code" = 201 ] || { echo "bench: series write answered $code" >&2; exit 255; }' \
    sh "${token[$k]}" "$first" "${api[$k]}" >/dev/null ||
    { echo "bench: the series were not all written" >&2; exit 1; }
  # The search indexer takes the series' texts in after their writes (docs/search.md): the lists
  # time the extension, not that backlog, which a site meets only right after a thousand writes.
  start=$SECONDS
  until [ "$(mariadb --no-defaults --socket="$d/mysqld.sock" --user=root --batch --skip-column-names \
    calendar -e 'SELECT COUNT(*) FROM search_pending')" = 0 ]; do
    [ $((SECONDS - start)) -lt 120 ] || { echo "bench: the search indexer left events pending" >&2; exit 1; }
    sleep 0.2
  done
done

# The series' horizons start a month after their writes, and each list passes the last one by a
# few days: its extension moves them on by one month.
list() {  # list K R: prints the wall time of the list whose window ends R months and 3 days ahead
  local end out
  end=$(date -u -d "$first +$2 months +3 days" +%Y-%m-%d)
  out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' \
    "${api[$1]}/events?per_page=1&start_date=$first&end_date=$end")
  [ "${out%% *}" = 200 ] || { echo "bench: the list answered ${out%% *}" >&2; exit 1; }
  echo "${out#* }"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < ${#builds[@]}; k++)); do
    times[$k]+="$(list "$k" "$r")"$'\n'
  done
done
for ((k = 0; k < ${#builds[@]}; k++)); do
  printf '%s' "${times[$k]}" | sort -n | awk -v l="${builds[$k]}" -v s="$series" \
    '{a[NR] = $1} END {printf "horizon extension of %d infinite series by a month (%s): p50 %.1f ms, max %.1f ms (%d lists)\n", s, l, a[int((NR + 1) / 2)] * 1000, a[NR] * 1000, NR}'
done
echo "load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
