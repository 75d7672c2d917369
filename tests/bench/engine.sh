# shellcheck shell=bash
# `make bench` measures the list engine (docs/performance.md): sourced by tests/bench/run.sh, whose stack,
# floors and helpers (measure, sql, prime, service_with_cache, say, die ...) it uses. run.sh's
# cases are mostly answered by the response cache; these measure what is behind it:
#
#  1. Cases 1-4 with [server] response_cache = false: the p50 of requests sent one at a time
#     (wrk -t1 -c1 --latency, no queueing: the cost of one request) at 10,000 events and at each
#     larger step up to SCALE (100,000, 1,000,000, SCALE), and at 10,000 events the req/s of
#     run.sh's uncached run (16 connections) as a ratio of the floor answering the same bytes
#     (cases 1 and 2: run.sh's floors; 3 and 4: a floor started here at their size).
#  2. A mixed workload (tests/bench/mixed.lua): 90% visitors' reads over many distinct queries,
#     10% authenticated writes, 16 connections, with the response cache on: req/s, p50, p99 and
#     the cache's hit rate (counted from X-Cal-Statements: 0, see mixed.lua), at 10,000 events
#     and at SCALE.
#
# How to reproduce: `make bench SCALE=1000000` (about an hour: seeding a million events is most
# of it) prints these tables after run.sh's. A quick check that everything runs (figures
# meaningless at that size):
#   BASE_EVENTS=2000 ENGINE_STEPS=4000 SCALE=6000 DURATION=3 WARMUP=1 WARMUP_WALK=2 ROUNDS=1 \
#     tests/bench/run.sh build
#
# Environment (all optional, besides run.sh's):
#   ENGINE_STEPS="100000 1000000"  dataset sizes between BASE_EVENTS and SCALE measured on the way
#                                  (the steps below SCALE are used; SCALE itself always is)
#   ONE_DURATION=$DURATION         seconds of each one-at-a-time measurement

ENGINE_STEPS=${ENGINE_STEPS:-100000 1000000}
ONE_DURATION=${ONE_DURATION:-$DURATION}
engine_floor_pid=
engine_events=$BASE_EVENTS   # events the demo has seeded so far
declare -a ENGINE_SIZES=()   # the dataset sizes measured one at a time, in order
declare -A ONE ONE_N MIXED   # ONE[case@events] p50 ms, ONE_N[...] requests; MIXED[events] its row

# engine_floor NAME BYTES: req/s of a floor answering BYTES bytes, behind the stack's nginx like
# run.sh's floors (a location added to the running nginx.conf; the next `stack.sh up` drops it).
engine_floor() {
  local name=$1 bytes=$2 conf="$dir/nginx.conf"
  "$build/bench-floor" --socket "$dir/$name.sock" --size "$bytes" --threads $((2 * $(nproc))) >"$dir/$name.log" 2>&1 &
  engine_floor_pid=$!
  if ! grep -q "location = /$name " "$conf"; then
    sed -i -E "0,/^ *location \/ \{/s||        location = /$name {\n            fastcgi_pass unix:$dir/$name.sock;\n            include /etc/nginx/fastcgi_params;\n        }\n\n&|" "$conf"
    nginx -p "$dir/nginx/" -e "$dir/nginx/error.log" -t -q -c "$conf" || die "nginx rejects the $name location"
    kill -HUP "$(cat "$dir/nginx/nginx.pid")"
  fi
  for _ in $(seq 50); do
    [ "$(curl -s "http://127.0.0.1:$port/$name" | wc -c)" = "$bytes" ] && break
    sleep 0.1
  done
  [ "$(curl -s "http://127.0.0.1:$port/$name" | wc -c)" = "$bytes" ] || die "the floor $name does not answer $bytes bytes"
  measure "$name" "http://127.0.0.1:$port/$name"
  kill "$engine_floor_pid"; wait "$engine_floor_pid" 2>/dev/null || true
  engine_floor_pid=
}

# engine_one CASE URL [SCRIPT ARG...]: the p50 of requests sent one at a time (wrk -t1 -c1) at
# the current dataset size, after one request that warms the database's buffers.
engine_one() {
  local c=$1 url=$2 out n p50
  local -a script=("$url")
  [ $# -lt 3 ] || script=(-s "$3" "$url" -- "${@:4}")
  prime "$url"
  out=$(wrk -t1 -c1 -d"${ONE_DURATION}s" --timeout 120s --latency "${script[@]}" 2>&1) || { echo "$out" >&2; die "wrk failed on case $c one at a time"; }
  echo "$out" > "$dir/wrk-one-$c-$engine_events.log"
  n=$(awk '/ requests in / {print $1}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  if grep -qE 'Non-2xx or 3xx responses|Socket errors' <<<"$out"; then
    say "case $c one at a time had errors:"; grep -E 'Non-2xx|Socket errors' <<<"$out" >&2
    failed=1
  fi
  ONE[$c@$engine_events]=$([ -n "$p50" ] && to_ms "$p50" || echo "-")
  ONE_N[$c@$engine_events]=${n:-0}
  say "$(printf 'case %s one at a time, %s events: p50 %s ms over %s requests' "$c" "$engine_events" "${ONE[$c@$engine_events]}" "${n:-0}")"
}

# engine_ids: the published event ids of the current dataset, for case 3 and the mixed workload.
engine_ids() {
  sql -e "SELECT id FROM posts WHERE type = 'event' AND status = 'publish' AND password = ''" > "$dir/engine-ids.txt"
}

# engine_one_at_a_time: cases 1-4 one at a time on the running (uncached) service.
engine_one_at_a_time() {
  engine_ids
  ENGINE_SIZES+=("$engine_events")
  engine_one 1 "${URL[1]}"
  engine_one 2 "${URL[2]}"
  engine_one 3 "$api/events" tests/bench/event-ids.lua "$dir/engine-ids.txt"
  engine_one 4 "${URL[4]}"
}

# engine_base: at BASE_EVENTS, after run.sh's uncached run (the service runs without the cache):
# the floors of cases 3 and 4, cases 1-4 one at a time, then the mixed workload (with the cache),
# and the uncached service again for what follows.
engine_base() {
  local id sizes
  say "engine: floors at the size of cases 3 and 4"
  # Case 3's size: the median of 21 events' answers (descriptions differ in length).
  sizes=$(for id in $(shuf -n 21 --random-source=<(yes) "$dir/event-ids.txt"); do curl -s "$api/events/$id" | wc -c; done | sort -n)
  ENGINE_BYTES3=$(sed -n 11p <<<"$sizes")
  ENGINE_BYTES4=$(curl -s "${URL[4]}" | wc -c)
  engine_floor floor3 "$ENGINE_BYTES3"; RPS[floor3]=$R_RPS
  engine_floor floor4 "$ENGINE_BYTES4"; RPS[floor4]=$R_RPS
  say "engine: cases 1-4 one at a time without the response cache, $engine_events events"
  engine_one_at_a_time
  engine_mixed
  service_with_cache "${CACHE_OFF-false}"
}

# engine_grow_below SCALE: grows the dataset through each of ENGINE_STEPS below SCALE and measures
# cases 1-4 one at a time there (uncached service running); run.sh then grows it to SCALE.
engine_grow_below() {
  local step seed=3 start
  for step in $ENGINE_STEPS; do
    [ "$step" -gt "$engine_events" ] && [ "$step" -lt "$1" ] || continue
    say "engine: growing the dataset to $step events (calendarctl demo)"
    start=$SECONDS
    "$build/calendarctl" --config "$dir/calendar.conf" demo --events $((step - engine_events)) --seed $seed >&2 ||
      die "calendarctl demo failed"
    sql -e "ANALYZE TABLE posts, event_details, event_venues, event_organizers, term_relationships" >/dev/null
    say "engine: grown in $((SECONDS - start)) s"
    engine_events=$step
    seed=$((seed + 1))
    engine_one_at_a_time
  done
}

# fragment_stats: "hits misses entries bytes" of the primary's fragment cache (/metrics).
fragment_stats() {
  curl -s --max-time 10 "http://127.0.0.1:$port/api/metrics" | awk '
    $1 == "calendar_fragment_cache_hits_total{cache=\"primary\"}" {h = $2}
    $1 == "calendar_fragment_cache_misses_total{cache=\"primary\"}" {m = $2}
    $1 == "calendar_fragment_cache_entries{cache=\"primary\"}" {e = $2}
    $1 == "calendar_fragment_cache_bytes{cache=\"primary\"}" {b = $2}
    END {printf "%d %d %d %d\n", h, m, e, b}'
}

# engine_mixed: the mixed workload at the current size, with the response cache on and the
# statement count header that tells its hits; the events it wrote are removed afterwards.
engine_mixed() {
  local out line month max_page reads hits writes posts patches deletes non2xx f_hits0 f_miss0 f_hits f_miss f_entries f_bytes
  say "engine: mixed workload, $engine_events events"
  # The header is one more line of the [server] section write_config ends with.
  service_with_cache "$(printf 'true\nstatement_count_header = true')"
  engine_ids
  sql -e "SELECT IF(taxonomy = 'post_tag', 't', 'c'), id FROM terms WHERE taxonomy IN ('post_tag', 'cal_events_cat')
          UNION ALL SELECT 'v', id FROM posts WHERE type = 'venue' AND status = 'publish'" > "$dir/engine-terms.txt"
  month=$(date -u +%Y-%m)
  # The demo spreads its events evenly over 1,461 days: about events / 48 a month, some of them
  # not published; events / 600 pages of 10 are surely there.
  max_page=$((engine_events / 600)); [ "$max_page" -le 5 ] || max_page=5; [ "$max_page" -ge 1 ] || max_page=1
  local -a args=(-s tests/bench/mixed.lua "$api/events" -- "$(cat "$dir/admin.token")" "$dir/engine-ids.txt"
                 "$dir/engine-terms.txt" "$month" "$max_page")
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 60s "${args[@]}" >/dev/null 2>&1 || true
  read -r f_hits0 f_miss0 _ _ <<<"$(fragment_stats)"
  out=$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 60s --latency "${args[@]}" 2>&1) ||
    { echo "$out" >&2; die "wrk failed on the mixed workload"; }
  echo "$out" > "$dir/wrk-mixed-$engine_events.log"
  line=$(grep '^mixed: ' <<<"$out") || { echo "$out" >&2; die "no counts from mixed.lua"; }
  # mixed: reads R hits H writes W posts P patches A deletes D non2xx N
  read -r _ _ reads _ hits _ writes _ posts _ patches _ deletes _ non2xx <<<"$line"
  read -r f_hits f_miss f_entries f_bytes <<<"$(fragment_stats)"
  f_hits=$((f_hits - f_hits0)); f_miss=$((f_miss - f_miss0))
  R_RPS=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")
  R_P50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")
  R_P99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  if [ "$non2xx" -ne 0 ] || grep -q 'Socket errors' <<<"$out"; then
    say "the mixed workload had errors ($non2xx non-2xx answers; see $dir/wrk-mixed-$engine_events.log)"
    grep -E 'Socket errors' <<<"$out" >&2 || true
    failed=1
  fi
  MIXED[$engine_events]="$R_RPS $R_P50 $R_P99 $(awk -v h="$hits" -v r="$reads" 'BEGIN {printf "%.1f%%", r ? 100 * h / r : 0}') $reads $writes $posts/$patches/$deletes $(awk -v h="$f_hits" -v m="$f_miss" 'BEGIN {printf "%.1f%%", h + m ? 100 * h / (h + m) : 0}') $f_entries/$(awk -v b="$f_bytes" 'BEGIN {printf "%.1f", b / 1048576}')"
  say "mixed    ${MIXED[$engine_events]} (req/s p50 p99 hits reads writes posts/patches/deletes records-reused records/MiB)"
  # Trashed ones included: the same dataset for the measurements that follow.
  sql -e "DELETE FROM posts WHERE type = 'event' AND title LIKE 'Bench mixed %'"
}

engine_report() {
  local c s label
  local -A floor_of=([1]=floor [2]=floor50 [3]=floor3 [4]=floor4)
  local -A bytes_of=([1]="$case1_bytes" [2]="$case2_bytes" [3]="$ENGINE_BYTES3" [4]="$ENGINE_BYTES4")
  local -A label_of=([1]="1 GET /events" [2]="2 GET /events?per_page=50" [3]="3 GET /events/{id}, random ids"
                     [4]="4 GET /events?search&start_date&end_date&categories")
  echo "The engine: cases 1-4 with [server] response_cache = false. req/s: run.sh's uncached run," \
       "$BASE_EVENTS events, $CONNECTIONS connections, against a floor answering the same bytes;" \
       "p50 one at a time: wrk -t1 -c1 --latency -d${ONE_DURATION}s (requests in parentheses)"
  echo
  printf '| %-60s | %8s | %6s | %6s |' "case (bytes at $BASE_EVENTS events)" "req/s" "floor" "×floor"
  for s in "${ENGINE_SIZES[@]}"; do printf ' %17s |' "p50 ms at $s"; done
  echo
  printf '|%s|%s|%s|%s|' "$(printf -- '-%.0s' {1..62})" "----------" "--------" "--------"
  for s in "${ENGINE_SIZES[@]}"; do printf '%s|' "-------------------"; done
  echo
  for c in 1 2 3 4; do
    label="${label_of[$c]} (${bytes_of[$c]})"
    printf '| %-60s | %8s | %6s | %6s |' "$label" "${RPS[${c}u]}" "${RPS[${floor_of[$c]}]}" \
      "$(awk -v a="${RPS[${c}u]}" -v b="${RPS[${floor_of[$c]}]}" 'BEGIN {printf "%.2f", a / b}')"
    for s in "${ENGINE_SIZES[@]}"; do printf ' %17s |' "${ONE[$c@$s]} (${ONE_N[$c@$s]})"; done
    echo
  done
  echo
  echo "Cached answers against a floor answering the same bytes (the cases of the first table, response" \
       "cache on; the issue's targets: case 1 >= 0.6, case 3 >= 0.7)"
  echo
  printf '| %-60s | %6s | %8s | %6s | %8s | %6s |\n' "case (bytes at $BASE_EVENTS events)" "floor" "cached" "×floor" "other" "×floor"
  printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..62})" "--------" "----------" "--------" "----------" "--------"
  for c in 1 2 3 4; do
    printf '| %-60s | %6s | %8s | %6s | %8s | %6s |\n' "${label_of[$c]} (${bytes_of[$c]})" "${RPS[${floor_of[$c]}]}" \
      "${RPS[$c]}" "$(awk -v a="${RPS[$c]}" -v b="${RPS[${floor_of[$c]}]}" 'BEGIN {printf "%.2f", a / b}')" \
      "${RPS[${c}L]}" "$(awk -v a="${RPS[${c}L]}" -v b="${RPS[${floor_of[$c]}]}" 'BEGIN {printf "%.2f", a / b}')"
  done
  echo "(cached: the default configuration, a 10 ms cache lease; other: [server] cache_lease_ms = $BENCH_LEASE_MS," \
       "0 meaning a version read for every cached answer)"
  echo
  echo "Mixed workload (tests/bench/mixed.lua): 90% visitors' reads over many distinct queries, 10%" \
       "authenticated writes; response cache on; wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s"
  echo
  printf '| %-10s | %8s | %7s | %7s | %10s | %8s | %7s | %-22s | %15s | %14s |\n' "events" "req/s" "p50 ms" "p99 ms" "cache hits" "reads" "writes" "posts/patches/deletes" "records reused" "records / MiB"
  printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' "------------" "----------" "---------" "---------" "------------" "----------" "---------" "------------------------" "-----------------" "----------------"
  for s in $(printf '%s\n' "${!MIXED[@]}" | sort -n); do
    # shellcheck disable=SC2086
    printf '| %-10s | %8s | %7s | %7s | %10s | %8s | %7s | %-22s | %15s | %14s |\n' "$s" ${MIXED[$s]}
  done
  echo "(cache hits: of the reads, those answered from the response cache; records reused: of the event"
  echo " records the other answers wrote, those written from the fragment cache; records / MiB: what it"
  echo " held at the end of the run)"
  echo
}
