# Sourced by tests/bench/run.sh: what a search costs with the search index (docs/search.md), one
# request at a time and never from the response cache (each request's query string differs), and
# the index's size. The demo's texts hold `k000`…`k999` (each in 0.1% of the events), `jazz`
# (about 10%), `friend` (every event).

# search_p50 N QUERY: the median time of N sequential GET /events?search=QUERY, in ms; the
# `search` value gets `%s` replaced by the request's number when it has one.
search_p50() {
  local n=$1 query=$2 i q t
  local -a times=()
  for ((i = 0; i < n; i++)); do
    q=${query//%s/$(printf '%03d' $((100 + i)))}
    t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "$api/events?search=$q&bench_search=$RANDOM$i")
    [ "${t%% *}" = 200 ] || { say "search $q answered ${t%% *}"; failed=1; }
    times+=("$(awk -v s="${t#* }" 'BEGIN {printf "%.3f", s * 1000}')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((n + 1) / 2))p"
}

declare -A SEARCH_MS SEARCH_EVENTS SEARCH_BYTES
search_figures() {
  local label=$1 events bytes
  SEARCH_MS[$label:rare]=$(search_p50 21 "k%s")
  SEARCH_MS[$label:jazz]=$(search_p50 11 "jazz")
  SEARCH_MS[$label:two]=$(search_p50 11 "jazz%20night")
  SEARCH_MS[$label:short]=$(search_p50 5 "zz")
  SEARCH_MS[$label:every]=$(search_p50 5 "friend")
  events=$(sql -e "SELECT COUNT(*) FROM posts WHERE type = 'event'")
  bytes=$(sql -e "SELECT SUM(data_length + index_length) FROM information_schema.tables
                  WHERE table_schema = DATABASE() AND table_name LIKE 'search!_%' ESCAPE '!'")
  SEARCH_EVENTS[$label]=$events
  SEARCH_BYTES[$label]=$((bytes / events))
  say "search $label: k-code ${SEARCH_MS[$label:rare]} ms, jazz ${SEARCH_MS[$label:jazz]} ms, 'jazz night'" \
      "${SEARCH_MS[$label:two]} ms, zz ${SEARCH_MS[$label:short]} ms, friend ${SEARCH_MS[$label:every]} ms;" \
      "index ${SEARCH_BYTES[$label]} bytes an event"
}

search_report() {
  local label
  echo "Search (GET /events?search=…, default window, one request at a time, uncached; p50 ms):"
  echo
  printf '| %-6s | %9s | %11s | %10s | %12s | %8s | %12s | %13s |\n' "run" "events" "k417 (0.1%)" "jazz (10%)" \
    "jazz night" "zz" "friend (all)" "index B/event"
  printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' "--------" "-----------" "-------------" "------------" "--------------" \
    "----------" "--------------" "---------------"
  for label in base scale; do
    [ -n "${SEARCH_EVENTS[$label]:-}" ] || continue
    printf '| %-6s | %9s | %11s | %10s | %12s | %8s | %12s | %13s |\n' "$label" "${SEARCH_EVENTS[$label]}" \
      "${SEARCH_MS[$label:rare]}" "${SEARCH_MS[$label:jazz]}" "${SEARCH_MS[$label:two]}" \
      "${SEARCH_MS[$label:short]}" "${SEARCH_MS[$label:every]}" "${SEARCH_BYTES[$label]}"
  done
  echo
  echo "case 5 (POST /events) with the search index ${RPS[5]:-?} req/s, with [search] index = false ${RPS[5n]:-?} req/s"
  echo "case 5: ${pending_end:-?} events left for the search indexer when the writes ended, indexed within about ${pending_drained:-?} s"
  echo
}
