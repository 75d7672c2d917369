# Sourced by tests/bench/run.sh: the bulkhead probe. A single connection reads one
# cached event, first alone, then while 16 connections flood the service with distinct searches
# (tests/bench/flood.lua), each of which would test every event of the window: the probe's p99
# shows whether expensive work can starve cheap reads. The flood's answers are mostly 503
# rest_busy (the [limits] slots are taken), or nginx's 503 when its search limit paces them; they
# are counted, not treated as failures.

# flood_probe LABEL RESPONSE_CACHE: measures and stores FLOOD_IDLE[LABEL], FLOOD_BUSY[LABEL] (p99 ms) and
# FLOOD_ANSWERS[LABEL] (the flood's requests and non-2xx count). Restarts the service (response
# cache on) with the default [limits] for the probe, and after it as the bench had it: with the
# bench's slots and [server] response_cache = RESPONSE_CACHE.
declare -A FLOOD_IDLE FLOOD_BUSY FLOOD_ANSWERS FLOOD_EVENTS
flood_probe() {
  local label=$1 restore=$2 url flood_pid out
  FLOOD_SLOTS=0 service_with_cache true  # the product's default slots ([limits] expensive_slots = 0)
  url="$api/events/$(head -n 1 "$dir/event-ids.txt")"
  curl -s -o /dev/null "$url"  # the probe's answer is cached from here on
  out=$(wrk -t1 -c1 -d"${DURATION}s" --latency "$url" 2>&1)
  FLOOD_IDLE[$label]=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  wrk -t"$WRK_THREADS" -c16 -d"$((DURATION + 4))s" --timeout 60s -s tests/bench/flood.lua "$api/events" \
    > "$dir/wrk-flood-$label.log" 2>&1 &
  flood_pid=$!
  sleep 2
  out=$(wrk -t1 -c1 -d"${DURATION}s" --latency "$url" 2>&1)
  FLOOD_BUSY[$label]=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  wait "$flood_pid" || true
  FLOOD_ANSWERS[$label]="$(awk '/requests in/ {print $1}' "$dir/wrk-flood-$label.log") searches, $(awk '/Non-2xx/ {n = $NF} END {print n + 0}' "$dir/wrk-flood-$label.log") refused"
  FLOOD_EVENTS[$label]=$(sql -e "SELECT COUNT(*) FROM posts WHERE type = 'event'")
  service_with_cache "$restore"  # back to the slots and cache of the throughput cases
  say "probe $label: cached event p99 idle ${FLOOD_IDLE[$label]} ms, under the flood ${FLOOD_BUSY[$label]} ms (${FLOOD_ANSWERS[$label]})"
}

# flood_probe_paced LABEL RESPONSE_CACHE: flood_probe with nginx's per-client search limit as
# docs/deploying.md suggests for a public site (2r/s, burst 20), then the bench's limit again.
flood_probe_paced() {
  local rate=$STACK_SEARCH_RATE burst=$STACK_SEARCH_BURST
  export STACK_SEARCH_RATE=2r/s STACK_SEARCH_BURST=20
  flood_probe "$1" "$2"
  export STACK_SEARCH_RATE=$rate STACK_SEARCH_BURST=$burst
  service_with_cache "$2"
}

flood_report() {
  local label
  echo "The bulkhead probe: one connection reads a cached event (wrk -t1 -c1 -d${DURATION}s), alone and while"
  echo "16 connections send distinct searches ([limits]: $FLOOD_LIMITS; nginx search limit $STACK_SEARCH_RATE, burst $STACK_SEARCH_BURST;"
  echo "the runs named paced: 2r/s, burst 20, as docs/deploying.md suggests for a public site)"
  echo
  printf '| %-10s | %10s | %14s | %16s | %-36s |\n' "run" "events" "p99 idle ms" "p99 flooded ms" "flood"
  printf '|%s|%s|%s|%s|%s|\n' "------------" "------------" "----------------" "------------------" "--------------------------------------"
  for label in "${!FLOOD_IDLE[@]}"; do
    printf '| %-10s | %10s | %14s | %16s | %-36s |\n' "$label" "${FLOOD_EVENTS[$label]}" "${FLOOD_IDLE[$label]}" \
      "${FLOOD_BUSY[$label]}" "${FLOOD_ANSWERS[$label]}"
  done
  echo
}
