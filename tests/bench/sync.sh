# shellcheck shell=bash
# `make bench`, incremental sync (docs/sync.md): sourced by tests/bench/run.sh, whose stack and helpers
# (sql, say, api, dir) it uses.
#
#  1. GET /changes?since=TOKEN&per_page=100 where TOKEN is 100 record changes old (100 event
#     titles updated after it was taken), one request at a time, at 10,000 events and at SCALE.
#     Target: p50 <= 2 ms at a million events. Four figures: as the administrator and as a
#     visitor, the first request (computed: the engine's cost; then kept by the response cache
#     when it is on, under a key of the caller's) and the median of 21 more (the cache's answers,
#     what further polls with that token get until something changes).
#  2. Writes with the change log: case 5 of run.sh (POST /events, 16 connections) writes the log
#     in every transaction (the log has no switch); its req/s is reported here against the
#     target of >= 1,000 writes/s.
#
# Standalone against a running stack (figures meaningless at small sizes):
#   source tests/bench/sync.sh; api=http://127.0.0.1:PORT/api/cal/events/v1 dir=STACK_DIR \
#     sql() { mariadb --no-defaults --socket="$dir/mysqld.sock" --user=root -N -B calendar "$@"; }; \
#     say() { echo "$*" >&2; }; sync_changes_p50 here; echo "${SYNC_P50[here]}"

declare -A SYNC_P50 SYNC_ADMIN_FIRST SYNC_EVENTS SYNC_VISITOR_FIRST SYNC_VISITOR_P50 SYNC_CACHE

# first_and_p50 URL [CURL_ARGS...]: "STATUS FIRST_MS P50_MS": the first request's status and
# time, then the median of 21 more.
first_and_p50() {
  local url=$1 first p50
  shift
  first=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "$@" "$url")
  p50=$(for _ in $(seq 21); do curl -s -o /dev/null -w '%{time_total}\n' "$@" "$url"; done | sort -n |
    awk 'NR == 11 {print $1}')
  awk -v s="${first%% *}" -v f="${first#* }" -v p="$p50" 'BEGIN {printf "%s %.3f %.3f", s, f * 1000, p * 1000}'
}

# sync_changes_p50 LABEL: measures case 1 on the current dataset.
sync_changes_p50() {
  local label=$1 token auth next ids id i
  token=$(cat "$dir/admin.token")
  auth="Authorization: Bearer $token"
  next=$(curl -s -H "$auth" "$api/changes" | sed -n 's/.*"next":"\([^"]*\)".*/\1/p')
  [ -n "$next" ] || { say "sync: no token from GET /changes"; failed=1; return 0; }
  ids=$(sql -e "SELECT id FROM posts WHERE type = 'event' AND status = 'publish' ORDER BY id DESC LIMIT 100")
  i=0
  for id in $ids; do
    i=$((i + 1))
    curl -s -o /dev/null -X PUT -H "$auth" -H 'Content-Type: application/json' \
      -d "{\"title\":\"Sync bench $i\"}" "$api/events/$id"
  done
  local url="$api/changes?since=$next&per_page=100"
  local status first p50
  read -r status first p50 <<<"$(first_and_p50 "$url" -H "$auth")"
  [ "$status" = 200 ] || { say "sync: /changes failed"; failed=1; return 0; }
  SYNC_ADMIN_FIRST[$label]=$first SYNC_P50[$label]=$p50
  read -r status first p50 <<<"$(first_and_p50 "$url")"
  SYNC_VISITOR_FIRST[$label]=$first SYNC_VISITOR_P50[$label]=$p50
  SYNC_EVENTS[$label]=$(sql -e "SELECT COUNT(*) FROM posts WHERE type = 'event'")
  # Both runs measure with the response cache on (run.sh), as a site runs.
  SYNC_CACHE[$label]=on
  ! grep -q '^response_cache = false' "$dir/calendar.conf" || SYNC_CACHE[$label]=off
  say "sync     /changes since 100 changes: administrator first ${SYNC_ADMIN_FIRST[$label]} ms then p50 ${SYNC_P50[$label]} ms, visitor first ${SYNC_VISITOR_FIRST[$label]} ms then p50 ${SYNC_VISITOR_P50[$label]} ms, at ${SYNC_EVENTS[$label]} events"
}

sync_report() {
  echo
  printf '| %-58s | %8s | %9s |\n' "incremental sync (GET /changes)" "events" "p50 ms"
  printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..60})" "----------" "-----------"
  local label
  for label in base scale; do
    [ -n "${SYNC_P50[$label]:-}" ] || continue
    printf '| %-58s | %8s | %9s |\n' "GET /changes since 100 changes, administrator: the first" \
      "${SYNC_EVENTS[$label]}" "${SYNC_ADMIN_FIRST[$label]}"
    printf '| %-58s | %8s | %9s |\n' "... the next ones (response cache ${SYNC_CACHE[$label]}; target 2)" \
      "${SYNC_EVENTS[$label]}" "${SYNC_P50[$label]}"
    printf '| %-58s | %8s | %9s |\n' "... as a visitor: the first request" "${SYNC_EVENTS[$label]}" \
      "${SYNC_VISITOR_FIRST[$label]}"
    printf '| %-58s | %8s | %9s |\n' "... as a visitor: the next ones (response cache ${SYNC_CACHE[$label]})" "${SYNC_EVENTS[$label]}" \
      "${SYNC_VISITOR_P50[$label]}"
  done
  echo "writes with the change log: case 5 (POST /events, 16 connections) ${RPS[5]:-?} req/s (target 1,000)"
}
