#!/usr/bin/env bash
# `make bench` (docs/performance.md): starts a private stack (MariaDB + nginx + calendar-fcgi, scripts/stack.sh)
# in a fresh directory, seeds the deterministic dataset (`calendarctl demo`), and measures
# with wrk against the FastCGI floor (tests/bench/floor.cpp behind the same nginx). Prints one
# table: req/s, p50, p99 and the ratio to the floor. Exits non-zero only if something failed to
# run (a stack that does not start, a case answering errors), never because a target is missed.
#
#   tests/bench/run.sh BUILD_DIR        (BUILD_DIR holds calendar-fcgi, calendarctl, bench-floor)
#
# Environment (all optional):
#   (every run: the bulkhead probe of tests/bench/flood.sh, a cached event's p99 alone and under
#   16 connections of searches, at the base size and, with SCALE, at SCALE events)
#   SCALE=1000000   after the 10,000-event run, grow the dataset to SCALE events and compare the
#                   p50 of cases 1, 4 and 6 (default 10000: no scale run); case 6 uncached there
#                   has a target (docs/performance.md: a 1,000-event feed at a million events under 50 ms)
#   DURATION=15     seconds per measurement     WARMUP=3    seconds of warm-up before each
#   WARMUP_WALK=20  seconds of the first warm-up of case 3, which walks every event id once
#   CONNECTIONS=16  wrk connections             WRK_THREADS=2
#   ROUNDS=3        rounds of floor / case 1 / case 3, interleaved; the median round is shown
#   SERVICE_THREADS=8  calendar-fcgi [server] threads (0 = its default, 2 x cores)
#   BENCH_LEASE_MS=0   [server] cache_lease_ms of the second cached run (cases 1L-4L) and of the
#                   second run of case 5 (5L); the first runs use the default (10 ms)
#   FRAGMENT_CACHE_MB  [server] fragment_cache_mb (unset: the service's default; 0: records rendered anew)
#   REPLICAS=2      that many GTID read replicas of the stack's MariaDB (scripts/stack.sh
#                   STACK_REPLICAS): reads spread over them; the report counts each server's
#                   statements (default 0)
#   SEARCH_RATE=100000r/s SEARCH_BURST=100000  nginx's per-client search limit (limit_req): out of
#                   the way by default; e.g. 10r/s and 20 to see the shipped pacing in the probe
#   BENCH_SLOTS=8   [limits] expensive_slots of the throughput cases (default SERVICE_THREADS: no
#                   bulkhead; 0 = the product's default, then expensive cases count 503 answers)
#   KEEP=1          keep the stack directory (and leave nothing running) for inspection
#   SERIES_WRITES=10  series writes timed by tests/bench/series-write.sh (520 occurrences each)
#   EXTEND_SERIES=1000  infinite series extended by each list of tests/bench/series-extend.sh (3 lists)
#   (every run: tests/bench/series-lists.sh, the default list and a category window one at a time
#   on a demo with recurring series against one without, at the base size and, with SCALE, at SCALE)
#   SETUP_ONLY=1    stop after seeding and leave the stack and the floor running, for profiling
#                   (prints where; stop it with scripts/stack.sh down DIR and kill the floor)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "bench: no build directory $1" >&2; exit 2; }

SCALE=${SCALE:-10000}
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-3}
CONNECTIONS=${CONNECTIONS:-16}
WRK_THREADS=${WRK_THREADS:-2}
ROUNDS=${ROUNDS:-3}
WARMUP_WALK=${WARMUP_WALK:-20}
REPLICAS=${REPLICAS:-0}
[[ $REPLICAS =~ ^[0-9]+$ ]] || { echo "bench: REPLICAS must be a number" >&2; exit 2; }
export STACK_REPLICAS=$REPLICAS
# nginx's per-client search limit (nginx/calendar.conf) out of the way: every case, the mixed
# workload and the bulkhead probe come from one address, and the figures are the service's.
export STACK_SEARCH_RATE=${SEARCH_RATE:-100000r/s} STACK_SEARCH_BURST=${SEARCH_BURST:-100000}
# 8 service threads on this 2-core machine, not the product's default of 2 x cores: a worker
# spends part of each request waiting on MariaDB (the cache's version check, the queries of a
# miss), and 4 workers leave the cores idle meanwhile; 8 gave +7% req/s and a lower p99 on
# case 1 (docs/performance.md). The floor keeps 2 x cores threads, its own best.
SERVICE_THREADS=${SERVICE_THREADS:-8}
# The throughput cases measure the engine: every worker may run expensive work at once (16
# connections of uncached searches or feeds would otherwise mostly be refused with 503). The
# bulkhead probe (tests/bench/flood.sh) runs with the product's default instead.
BENCH_SLOTS=${BENCH_SLOTS:-$SERVICE_THREADS}
BASE_EVENTS=${BASE_EVENTS:-10000}  # smaller only to check the script quickly (engine.sh)

say() { echo "bench: $*" >&2; }
die() { say "error: $*"; exit 1; }

for b in calendar-fcgi calendarctl bench-floor; do [ -x "$build/$b" ] || die "missing $build/$b (make bench builds it)"; done
command -v wrk >/dev/null || die "wrk is not installed (scripts/install-deps.sh installs it)"
[[ $SCALE =~ ^[0-9]+$ ]] && [ "$SCALE" -ge "$BASE_EVENTS" ] || die "SCALE must be a number >= $BASE_EVENTS"

dir=$(mktemp -d /tmp/calendar-bench.XXXXXX)
port=$(scripts/stack.sh free-port)
api="http://127.0.0.1:$port/api/cal/events/v1"
floor_pid=
floor50_pid=
failed=0

cleanup() {
  trap - EXIT INT TERM
  [ -n "$floor_pid" ] && kill "$floor_pid" 2>/dev/null || true
  [ -n "$floor50_pid" ] && kill "$floor50_pid" 2>/dev/null || true
  [ -n "${engine_floor_pid:-}" ] && kill "$engine_floor_pid" 2>/dev/null || true
  scripts/stack.sh down "$dir" >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" = 1 ] || [ "$failed" -ne 0 ]; then say "stack directory kept: $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the stack -----------------------------------------------------------------------------

# The service config, written before the first `stack.sh up` (which keeps an existing file).
write_config() {
  cat > "$dir/calendar.conf" <<EOF
# calendar-fcgi configuration of the benchmark stack (written by tests/bench/run.sh).
[database]
socket = $dir/mysqld.sock
user = root
name = calendar
[site]
timezone = UTC
locale = en_US
per_page = 10
per_page_max = 50
[server]
threads = $SERVICE_THREADS
EOF
  [ -z "$1" ] || echo "response_cache = $1" >> "$dir/calendar.conf"
  [ -z "${FRAGMENT_CACHE_MB:-}" ] || echo "fragment_cache_mb = $FRAGMENT_CACHE_MB" >> "$dir/calendar.conf"
  [ -z "${LEASE_MS:-}" ] || echo "cache_lease_ms = $LEASE_MS" >> "$dir/calendar.conf"
  [ -z "${SEARCH_INDEX:-}" ] || printf '[search]\nindex = %s\n' "$SEARCH_INDEX" >> "$dir/calendar.conf"
  printf '[limits]\nexpensive_slots = %s\n' "${FLOOD_SLOTS:-$BENCH_SLOTS}" >> "$dir/calendar.conf"
  # /metrics from 127.0.0.1: the fragment cache's hits and memory in the mixed workload.
  printf '[metrics]\nenabled = true\n' >> "$dir/calendar.conf"
}

# Adds the floors' locations to the stack's nginx.conf (same server block, same settings as the
# API) and reloads nginx: /floor answers as many bytes as case 1, /floor50 as many as case 2.
# stack.sh regenerates nginx.conf from nginx/calendar.conf on every `up`, so this runs after
# each one.
add_floor_location() {
  local conf="$dir/nginx.conf" block="" f
  for f in floor floor50; do
    block+="        location = /$f {\n            fastcgi_pass unix:$dir/$f.sock;\n            include /etc/nginx/fastcgi_params;\n        }\n\n"
  done
  grep -q 'location = /floor' "$conf" && return 0
  grep -qE '^ *location / \{' "$conf" || die "no 'location / {' in $conf to put the floor before"
  sed -i -E "0,/^ *location \/ \{/s||${block}&|" "$conf"
  nginx -p "$dir/nginx/" -e "$dir/nginx/error.log" -t -q -c "$conf" || die "nginx rejects the floor location"
  kill -HUP "$(cat "$dir/nginx/nginx.pid")"
  for _ in $(seq 50); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/floor")" = 200 ] && return 0
    sleep 0.1
  done
  die "the floor does not answer through nginx"
}

# (Re)starts calendar-fcgi with the response cache on or off.
service_with_cache() {
  local pid
  write_config "$1"
  if [ -s "$dir/calendar-fcgi.pid" ]; then
    pid=$(cat "$dir/calendar-fcgi.pid")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  scripts/stack.sh up "$dir" "$port" "$build" 2>>"$dir/stack.log" || { cat "$dir/stack.log" >&2; die "stack did not start"; }
  add_floor_location
}

sql() { mariadb --no-defaults --socket="$dir/mysqld.sock" --user=root --batch --skip-column-names calendar "$@"; }

# replicas_caught_up: waits until every replica has applied all the primary has written (a bulk
# load keeps them behind for a while; within max_replica_lag they would serve the past).
replicas_caught_up() {
  local pos k
  [ "$REPLICAS" -gt 0 ] || return 0
  pos=$(sql -e "SELECT @@gtid_binlog_pos")
  for ((k = 1; k <= REPLICAS; k++)); do
    [ "$(mariadb --no-defaults --socket="$dir/replica-$k/mysqld.sock" --user=root --batch --skip-column-names \
         -e "SELECT MASTER_GTID_WAIT('$pos', 600)")" = 0 ] || die "replica $k did not catch up with $pos"
  done
  sleep 2   # and every service process has seen them caught up (health checks once a second)
}

# statements_of SOCKET: the server's Com_select count so far (reads it answered).
statements_of() {
  mariadb --no-defaults --socket="$1" --user=root --batch --skip-column-names \
    -e "SHOW GLOBAL STATUS LIKE 'Com_select'" 2>/dev/null | cut -f2
}

# --- measuring -----------------------------------------------------------------------------

# to_ms VALUE: wrk's "812.00us" / "1.23ms" / "1.02s" / "2.00m" in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.3f", n }'
}

# cpu_ticks PIDFILE...: user + system clock ticks so far of the processes the files name, and of
# their children (nginx's workers under its master).
cpu_ticks() {
  local f pid ticks=0
  for f in "$@"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    for p in "$pid" $(pgrep -P "$pid" 2>/dev/null); do
      [ -r "/proc/$p/stat" ] && ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$p/stat")))
    done
  done
  echo "$ticks"
}
CPU_PIDFILES_DB=("$dir/mysqld.pid")
CPU_PIDFILES_SERVICE=("$dir/calendar-fcgi.pid")
CPU_PIDFILES_WEB=("$dir/nginx/nginx.pid")
CLOCK_TICKS=$(getconf CLK_TCK)
# cpu_ms_per TICKS REQUESTS: milliseconds of CPU per request.
cpu_ms_per() { awk -v t="$1" -v n="$2" -v hz="$CLOCK_TICKS" 'BEGIN {printf "%.2f", (n > 0 ? t * 1000 / hz / n : 0)}'; }

# measure NAME URL [SCRIPT SCRIPT_ARG]: warm-up, then one wrk run (with a Lua script and its
# argument when given); sets R_RPS, R_P50, R_P99 (ms) and keeps wrk's output in
# $dir/wrk-NAME.log. A run with socket errors or non-2xx answers marks the bench failed. Also
# sets R_CPU: the CPU milliseconds per request of MariaDB, calendar-fcgi and nginx during the run
# (from /proc, so wrk's own is not counted; with replicas, the primary's only).
# WARM_UP_ARGS (when set): the warm-up runs with these script arguments instead.
measure() {
  local name=$1 url=$2 out
  local -a script=() warm=()
  [ $# -lt 4 ] || script=(-s "$3" "$url" -- "$4")
  [ $# -ge 4 ] || script=("$url")
  warm=("${script[@]}")
  [ -z "${WARM_UP_ARGS:-}" ] || warm=(-s "$3" "$url" -- "$4" $WARM_UP_ARGS)
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${WARM_UP_SECONDS:-$WARMUP}s" --timeout 60s "${warm[@]}" >/dev/null 2>&1 || true
  local db0 svc0 web0 requests
  db0=$(cpu_ticks "${CPU_PIDFILES_DB[@]}"); svc0=$(cpu_ticks "${CPU_PIDFILES_SERVICE[@]}"); web0=$(cpu_ticks "${CPU_PIDFILES_WEB[@]}")
  out=$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 60s --latency "${script[@]}" 2>&1) || { echo "$out" >&2; die "wrk failed on $name"; }
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  R_CPU="$(cpu_ms_per $(($(cpu_ticks "${CPU_PIDFILES_DB[@]}") - db0)) "${requests:-0}") $(cpu_ms_per $(($(cpu_ticks "${CPU_PIDFILES_SERVICE[@]}") - svc0)) "${requests:-0}") $(cpu_ms_per $(($(cpu_ticks "${CPU_PIDFILES_WEB[@]}") - web0)) "${requests:-0}")"
  CPU[$name]=$R_CPU
  echo "$out" > "$dir/wrk-$name.log"
  R_RPS=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")
  R_P50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")
  R_P99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  if grep -qE 'Non-2xx or 3xx responses|Socket errors' <<<"$out"; then
    say "case $name had errors:"; grep -E 'Non-2xx|Socket errors' <<<"$out" >&2
    failed=1
  fi
  [ -n "$R_RPS" ] || { echo "$out" >&2; die "no result from wrk on $name"; }
  say "$(printf '%-8s %8s req/s  p50 %7s ms  p99 %7s ms  CPU ms/request db/service/web %s  (load %s)' "$name" "$R_RPS" "$R_P50" "$R_P99" "${R_CPU// //}" "$(cut -d' ' -f1 /proc/loadavg)")"
}

declare -A RPS P50 P99 NOTE CPU

# median_of NAME VALUES...: the median of the rounds, by req/s; stores the round's numbers.
keep_median() {
  local name=$1 best rounds=$(($# - 1))
  best=$(printf '%s\n' "${@:2}" | sort -t' ' -k1,1n | sed -n "$(( (rounds + 1) / 2 ))p")
  read -r RPS[$name] P50[$name] P99[$name] <<<"$best"
}

# prime URL: one complete 200 answer (three tries: nginx may just have been reloaded).
prime() {
  local i
  for i in 1 2 3; do
    [ "$(curl -s -o /dev/null --max-time 600 -w '%{http_code}' "$1" || true)" = 200 ] && return 0
    sleep 1
  done
  say "no 200 from $1"
  failed=1
}

# sequential_p50 URL: the median time of 5 sequential requests (ms), after one more to warm up.
sequential_p50() {
  prime "$1"
  for _ in 1 2 3 4 5; do curl -s -o /dev/null --max-time 600 -w '%{time_total}\n' "$1" || true; done |
    sort -n | awk 'NR == 3 {printf "%.3f", $1 * 1000}'
}

row() {  # row KEY LABEL
  local ratio=""
  [[ -n ${RPS[floor]:-} && $1 != floor* && $1 != 5* ]] && ratio=$(awk -v a="${RPS[$1]}" -v b="${RPS[floor]}" 'BEGIN {printf "%.2f", a / b}')
  printf '| %-58s | %8s | %7s | %7s | %6s |\n' "$2" "${RPS[$1]}" "${P50[$1]}" "${P99[$1]}" "$ratio"
}

# --- run -----------------------------------------------------------------------------------

say "stack in $dir on port $port (load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$build/bench-floor" --socket "$dir/floor.sock" --size 1000 >"$dir/floor.log" 2>&1 &   # restarted below at the right size
floor_pid=$!
service_with_cache "${CACHE_ON-true}"

say "seeding $BASE_EVENTS events (calendarctl demo)"
start=$SECONDS
"$build/calendarctl" --config "$dir/calendar.conf" demo --events "$BASE_EVENTS" --seed 1 >&2 || die "calendarctl demo failed"
sql -e "ANALYZE TABLE posts, event_details, event_venues, event_organizers, term_relationships, terms" >/dev/null
replicas_caught_up
say "seeded in $((SECONDS - start)) s"
# Case 4's category: the demo's most used one (its ids depend on what the database held before).
category=$(sql -e "SELECT c.term_id FROM term_counts c JOIN terms t ON t.id = c.term_id WHERE t.taxonomy = 'cal_events_cat' GROUP BY c.term_id ORDER BY SUM(c.published) DESC, c.term_id LIMIT 1")
[ -n "$category" ] || die "no category after seeding"
sql -e "SELECT id FROM posts WHERE type = 'event' AND status = 'publish' AND password = ''" > "$dir/event-ids.txt"

# The floor answers with a body of exactly the size of case 1's.
case1_bytes=$(curl -s "$api/events" | wc -c)
[ "$case1_bytes" -gt 1000 ] || die "GET /events answered only $case1_bytes bytes"
kill "$floor_pid"; wait "$floor_pid" 2>/dev/null || true
"$build/bench-floor" --socket "$dir/floor.sock" --size "$case1_bytes" --threads $((2 * $(nproc))) >"$dir/floor.log" 2>&1 &
floor_pid=$!
sleep 0.3
[ "$(curl -s "http://127.0.0.1:$port/floor" | wc -c)" = "$case1_bytes" ] || die "the floor does not answer $case1_bytes bytes"
# The same at case 2's size: what nginx, FastCGI and wrk alone allow for 50-event pages.
case2_bytes=$(curl -s "$api/events?per_page=50" | wc -c)
"$build/bench-floor" --socket "$dir/floor50.sock" --size "$case2_bytes" --threads $((2 * $(nproc))) >"$dir/floor50.log" 2>&1 &
floor50_pid=$!
sleep 0.3
[ "$(curl -s "http://127.0.0.1:$port/floor50" | wc -c)" = "$case2_bytes" ] || die "the floor does not answer $case2_bytes bytes"

if [ "${SETUP_ONLY:-0}" = 1 ]; then
  trap - EXIT
  echo "stack: $dir  api: $api  floor: http://127.0.0.1:$port/floor (pid $floor_pid), /floor50 (pid $floor50_pid)"
  echo "stop: scripts/stack.sh down $dir; kill $floor_pid $floor50_pid"
  exit 0
fi

today=$(date -u +%F)
# A year: case 4 then fills its page (28 matches at 10,000 events, 2,800 at a million), so both
# sizes answer the same amount of JSON and the scale run compares like with like.
in_a_year=$(date -u -d '+1 year' +%F)
# Case 6 (docs/feeds.md): an iCalendar feed of [ical] max_events = 1,000 events, the most a feed
# without page/per_page holds (ten years ahead: full at 10,000 events already).
in_ten_years=$(date -u -d '+10 years' +%F)
declare -A URL=(
  [1]="$api/events"
  [2]="$api/events?per_page=50"
  [4]="$api/events?search=jazz&start_date=$today&end_date=$in_a_year&categories=$category"
  [6]="$api/events?ical=1&start_date=$today&end_date=$in_ten_years"
)
feed_events=$(curl -s "${URL[6]}" | grep -c '^BEGIN:VEVENT' || true)
say "case 6: the feed holds $feed_events events"
[ "$feed_events" -ge 1 ] || die "the feed of case 6 holds no event"

run_cases() {  # run_cases SUFFIX: the measurements of one service configuration
  local suffix=$1 r
  local -a floor_rounds=() c1_rounds=() c3_rounds=()
  for ((r = 1; r <= ROUNDS; r++)); do
    if [ "$suffix" = "" ]; then measure "floor" "http://127.0.0.1:$port/floor"; floor_rounds+=("$R_RPS $R_P50 $R_P99"); fi
    measure "1$suffix" "${URL[1]}"; c1_rounds+=("$R_RPS $R_P50 $R_P99")
    # Case 3's first warm-up walks every id once, so that the cache (when on) holds them all
    # as in a steady state; later rounds are warm already.
    if [ "$r" = 1 ]; then
      WARM_UP_ARGS="walk $WRK_THREADS" WARM_UP_SECONDS=$WARMUP_WALK \
        measure "3$suffix" "$api/events" tests/bench/event-ids.lua "$dir/event-ids.txt"
    else
      measure "3$suffix" "$api/events" tests/bench/event-ids.lua "$dir/event-ids.txt"
    fi
    c3_rounds+=("$R_RPS $R_P50 $R_P99")
  done
  [ "$suffix" = "" ] && keep_median floor "${floor_rounds[@]}"
  keep_median "1$suffix" "${c1_rounds[@]}"
  keep_median "3$suffix" "${c3_rounds[@]}"
  if [ "$suffix" = "" ]; then
    measure "floor50" "http://127.0.0.1:$port/floor50"; RPS[floor50]=$R_RPS P50[floor50]=$R_P50 P99[floor50]=$R_P99
  fi
  measure "2$suffix" "${URL[2]}"; RPS[2$suffix]=$R_RPS P50[2$suffix]=$R_P50 P99[2$suffix]=$R_P99
  measure "4$suffix" "${URL[4]}"; RPS[4$suffix]=$R_RPS P50[4$suffix]=$R_P50 P99[4$suffix]=$R_P99
  measure "6$suffix" "${URL[6]}"; RPS[6$suffix]=$R_RPS P50[6$suffix]=$R_P50 P99[6$suffix]=$R_P99
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
run_cases ""

# The same cached cases with another cache lease (by default none: every hit waits for a version
# read of its own, as before the lease was the default).
BENCH_LEASE_MS=${BENCH_LEASE_MS:-0}
say "the cached cases with [server] cache_lease_ms = $BENCH_LEASE_MS"
LEASE_MS=$BENCH_LEASE_MS service_with_cache true
ROUNDS=1 run_cases "L"
service_with_cache "${CACHE_ON-true}"

# Plain CGI: 100 sequential runs of case 3, the binary started as a CGI program each time.
say "CGI mode: 100 sequential requests of case 3"
cgi_times=()
mapfile -t sample_ids < <(shuf -n 100 --random-source=<(yes) "$dir/event-ids.txt")
for id in "${sample_ids[@]}"; do
  t0=$EPOCHREALTIME
  out=$(env -i CAL_CONFIG="$dir/calendar.conf" GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET SCRIPT_NAME=/api \
        PATH_INFO="/cal/events/v1/events/$id" QUERY_STRING= SERVER_PROTOCOL=HTTP/1.1 SERVER_PORT="$port" \
        HTTP_HOST=127.0.0.1 REMOTE_ADDR=127.0.0.1 "$build/calendar-fcgi" </dev/null 2>/dev/null)
  t1=$EPOCHREALTIME
  [[ $out == "Status: 200"* ]] || { say "CGI request for event $id: ${out:0:200}"; failed=1; }
  cgi_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) * 1000}')")
done
cgi_median=$(printf '%s\n' "${cgi_times[@]}" | sort -n | sed -n 50p)
say "CGI     median $cgi_median ms (100 sequential requests)"

# Case 5 last: it adds events (every POST is a new one).
token=$(cat "$dir/admin.token")
measure "5" "$api/events" tests/bench/post-event.lua "$token"; RPS[5]=$R_RPS P50[5]=$R_P50 P99[5]=$R_P99
# The server's indexer indexes the writes' words after them (docs/search.md): what it had not
# reached when the run ended, and about how long it took to.
pending_end=$(sql -e "SELECT COUNT(*) FROM search_pending")
start=$SECONDS
until [ "$(sql -e "SELECT COUNT(*) FROM search_pending")" = 0 ] || [ $((SECONDS - start)) -ge 120 ]; do sleep 0.2; done
pending_drained=$((SECONDS - start))
say "case 5: $pending_end events pending when the writes ended, none after about $pending_drained s"
created=$(sql -e "SELECT COUNT(*) FROM posts WHERE type = 'event' AND title LIKE 'Bench post %'")
rss_kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$(cat "$dir/calendar-fcgi.pid")/status")
hwm_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$(cat "$dir/calendar-fcgi.pid")/status")
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
# The same writes without the search index's upkeep (docs/search.md): what the index costs them.
say "case 5 with [search] index = false"
SEARCH_INDEX=false service_with_cache "${CACHE_ON-true}"
measure "5n" "$api/events" tests/bench/post-event.lua "$token"; RPS[5n]=$R_RPS P50[5n]=$R_P50 P99[5n]=$R_P99
# And with the other lease: what waiting out the default lease costs writers.
say "case 5 with [server] cache_lease_ms = $BENCH_LEASE_MS"
LEASE_MS=$BENCH_LEASE_MS service_with_cache "${CACHE_ON-true}"
measure "5L" "$api/events" tests/bench/post-event.lua "$token"; RPS[5L]=$R_RPS P50[5L]=$R_P50 P99[5L]=$R_P99
service_with_cache "${CACHE_ON-true}"
# The writes of case 5 go away again, so the uncached cases see the same 10k dataset.
sql -e "DELETE FROM posts WHERE type = 'event' AND title LIKE 'Bench post %'"
# Incremental sync (docs/sync.md, tests/bench/sync.sh): GET /changes since a token 100 changes old.
source tests/bench/sync.sh
sync_changes_p50 base
source tests/bench/search.sh
search_figures base

# The same cases without the response cache: what the SQL and JSON code alone sustain.
say "the same cases with [server] response_cache = false"
service_with_cache "${CACHE_OFF-false}"
cache_stats=$(grep -o 'response cache: .*' "$dir/calendar-fcgi.log" | tail -n 1 || true)
# The bulkhead probe (tests/bench/flood.sh): a cached event alone and under a search flood.
source tests/bench/flood.sh
flood_threads=$SERVICE_THREADS
[ "$flood_threads" -gt 0 ] || flood_threads=$(($(nproc) * 2))
FLOOD_LIMITS="the defaults: $((flood_threads >= 8 ? flood_threads / 4 : 1)) slots of $flood_threads threads, 50 ms wait, 2 s statement budget"
flood_probe base "${CACHE_OFF-false}"
flood_probe_paced paced "${CACHE_OFF-false}"
ROUNDS=1 run_cases "u"
# The feed's target (docs/performance.md) is for one feed at a time: case 6 uncached, 5 sequential requests.
P50[6seq]=$(sequential_p50 "${URL[6]}")
say "6u       p50 ${P50[6seq]} ms (5 sequential requests)"

# The engine behind the cache (docs/architecture.md, tests/bench/engine.sh): cases 1-4 one at a time without
# it and the floors of cases 3 and 4, then the mixed workload; leaves the uncached service running.
source tests/bench/engine.sh
engine_base

# Scale run: the same dataset grown to SCALE events.
if [ "$SCALE" -gt "$BASE_EVENTS" ]; then
  for c in 1 4 6; do
    P50[${c}uS]=$(sequential_p50 "${URL[$c]}")
    say "${c}u       p50 ${P50[${c}uS]} ms (5 sequential requests)"
  done
  engine_grow_below "$SCALE"  # through 100,000 (1,000,000) events first, measured there
  say "growing the dataset to $SCALE events (calendarctl demo)"
  start=$SECONDS
  "$build/calendarctl" --config "$dir/calendar.conf" demo --events $((SCALE - engine_events)) --seed 2 >&2 ||
    die "calendarctl demo failed"
  sql -e "ANALYZE TABLE posts, event_details, event_venues, event_organizers, term_relationships" >/dev/null
  replicas_caught_up
  say "grown in $((SECONDS - start)) s"
  # Without the cache a request takes seconds here: wrk's 16 connections would only queue up,
  # so both sizes are compared on 5 sequential requests.
  for c in 1 4 6; do
    P50[${c}uM]=$(sequential_p50 "${URL[$c]}")
    say "${c}uM      p50 ${P50[${c}uM]} ms (5 sequential requests)"
  done
  engine_events=$SCALE
  engine_one_at_a_time
  service_with_cache true
  # With the cache, as a site runs: the first answer computed, the next ones the cache's.
  sync_changes_p50 scale
  for c in 1 4 6; do
    prime "${URL[$c]}"  # the one computation the cache then serves
    measure "${c}M" "${URL[$c]}"; RPS[${c}M]=$R_RPS P50[${c}M]=$R_P50 P99[${c}M]=$R_P99
  done
  engine_mixed
  search_figures scale
  flood_probe scale true
  # Upgrades must stay quick on large sites: what `calendarctl migrate` costs at this size, as an
  # upgrade from the first released schema (a v1 copy of the database) and as the re-run of every
  # start. Last of the scale run: indexing the copy fills MariaDB's buffer pool with its pages,
  # which the measurements above would otherwise read back from disk.
  say "timing calendarctl migrate at $SCALE events (tests/bench/migrate-timing.sh)"
  migrate_times=$(tests/bench/migrate-timing.sh "$dir" "$build") || die "calendarctl migrate failed"
  read -r MIGRATE_UPGRADE MIGRATE_RERUN <<<"$migrate_times"
  say "migrate: upgrade from v1 $MIGRATE_UPGRADE s, re-run $MIGRATE_RERUN s"
fi

# Series writes (docs/recurring-events.md): a weekly series of 520 occurrences, on a stack of its own.
say "series writes (tests/bench/series-write.sh)"
# Its first line is the figure (a pipe into head would stop the script at its second line).
series_write=$(N=${SERIES_WRITES:-10} tests/bench/series-write.sh "$build") ||
  die "tests/bench/series-write.sh failed"
series_write=${series_write%%$'\n'*}
# Horizon extension (docs/recurring-events.md, "Horizon"): lists that extend many infinite series.
say "horizon extensions (tests/bench/series-extend.sh)"
series_extend=$(SERIES=${EXTEND_SERIES:-1000} ROUNDS=3 tests/bench/series-extend.sh "$build") ||
  die "tests/bench/series-extend.sh failed"
series_extend=${series_extend%%$'\n'*}

# Lists with and without recurring series (docs/performance.md, tests/bench/series-lists.sh): two
# stacks of their own with the same number of events, at BASE_EVENTS and, with SCALE, at SCALE.
say "lists with and without series (tests/bench/series-lists.sh)"
series_lists=$(N=$BASE_EVENTS tests/bench/series-lists.sh "$build") || die "tests/bench/series-lists.sh failed"
if [ "$SCALE" -gt "$BASE_EVENTS" ]; then
  series_lists+=$'\n'$(N=$SCALE tests/bench/series-lists.sh "$build") ||
    die "tests/bench/series-lists.sh failed at $SCALE events"
fi

# --- report ------------------------------------------------------------------------------------

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo
echo "make bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s" \
     "(after ${WARMUP}s warm-up), $BASE_EVENTS events, calendar-fcgi threads $SERVICE_THREADS, $REPLICAS replicas;" \
     "load average $load_start before, $load_end after"
echo
printf '| %-58s | %8s | %7s | %7s | %6s |\n' "case" "req/s" "p50 ms" "p99 ms" "×floor"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..60})" "----------" "---------" "---------" "--------"
row floor "floor: libfcgi, fixed $case1_bytes-byte body (median of $ROUNDS)"
row 1 "1 GET /events (median of $ROUNDS)"
row 2 "2 GET /events?per_page=50"
row floor50 "floor at case 2's size ($case2_bytes bytes)"
row 3 "3 GET /events/{id}, random ids (median of $ROUNDS)"
row 4 "4 GET /events?search&start_date&end_date&categories"
row 6 "6 GET /events?ical=1 (feed of $feed_events events)"
row 1L "1 with cache_lease_ms = $BENCH_LEASE_MS"
row 2L "2 with cache_lease_ms = $BENCH_LEASE_MS"
row 3L "3 with cache_lease_ms = $BENCH_LEASE_MS"
row 4L "4 with cache_lease_ms = $BENCH_LEASE_MS"
row 6L "6 with cache_lease_ms = $BENCH_LEASE_MS"
row 5 "5 POST /events (authenticated; $created created)"
row 5L "5 with cache_lease_ms = $BENCH_LEASE_MS"
row 1u "1 without the response cache"
row 2u "2 without the response cache"
row 3u "3 without the response cache"
row 4u "4 without the response cache"
row 6u "6 without the response cache"
echo
if [ "$SCALE" -gt "$BASE_EVENTS" ]; then
  printf '| %-44s | %10s | %10s | %6s |\n' "p50 at $BASE_EVENTS vs $SCALE events" "$BASE_EVENTS ms" "$SCALE ms" "ratio"
  printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "------------" "------------" "--------"
  for c in 1 4 6; do
    printf '| %-44s | %10s | %10s | %6s |\n' "case $c (wrk, 16 connections)" "${P50[$c]}" "${P50[${c}M]}" "$(ratio "${P50[${c}M]}" "${P50[$c]}")"
    printf '| %-44s | %10s | %10s | %6s |\n' "case $c without the response cache (*)" "${P50[${c}uS]}" "${P50[${c}uM]}" "$(ratio "${P50[${c}uM]}" "${P50[${c}uS]}")"
  done
  echo "(*) median of 5 sequential requests, after one that warms the database's buffers"
  printf '| %-44s | %23s |\n' "calendarctl migrate at $SCALE events" "seconds"
  printf '|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "-------------------------"
  printf '| %-44s | %23s |\n' "upgrade of a v1 copy (schema-v1.sql)" "$MIGRATE_UPGRADE"
  printf '| %-44s | %23s |\n' "re-run on the current schema (every start)" "$MIGRATE_RERUN"
  echo
fi
echo "CPU per request during each case's run (ms; /proc of each process, wrk's own not counted; with"
echo "16 connections on $(nproc) cores, so a process waiting for another is not counted as busy):"
echo
printf '| %-40s | %8s | %13s | %7s |\n' "case" "MariaDB" "calendar-fcgi" "nginx"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "----------" "---------------" "---------"
for c in 1 3 5 5n 5L 1u 2u 3u 4u; do
  [ -n "${CPU[$c]:-}" ] || continue
  read -r cpu_db cpu_service cpu_web <<<"${CPU[$c]}"
  case $c in
    5n) label="5 POST, [search] index = false" ;;
    5L) label="5 POST, cache_lease_ms = $BENCH_LEASE_MS" ;;
    5) label="5 POST /events" ;;
    *u) label="case ${c%u} without the response cache" ;;
    *) label="case $c, response cache on" ;;
  esac
  printf '| %-40s | %8s | %13s | %7s |\n' "$label" "$cpu_db" "$cpu_service" "$cpu_web"
done
echo
engine_report
echo "case 6 (a $feed_events-event iCalendar feed) without the response cache, one at a time:" \
     "p50 ${P50[6seq]} ms (5 sequential requests, $BASE_EVENTS events)"
sync_report
search_report
flood_report
echo "CGI mode, case 3: median wall time of 100 sequential requests: $cgi_median ms"
echo "$series_write"
echo "$series_extend"
echo "$series_lists"
echo "calendar-fcgi RSS after the run (cached cases and case 5): $((rss_kb / 1024)) MB (peak $((hwm_kb / 1024)) MB)"
echo "calendar-fcgi ${cache_stats:-response cache: no statistics logged}"
if [ "$REPLICAS" -gt 0 ]; then
  line="SELECTs answered over the whole run (Com_select): primary $(statements_of "$dir/mysqld.sock")"
  for ((k = 1; k <= REPLICAS; k++)); do line+=", replica-$k $(statements_of "$dir/replica-$k/mysqld.sock")"; done
  echo "$line"
fi
[ "$failed" -eq 0 ] || { say "some cases failed (see above)"; exit 1; }
