#!/usr/bin/env bash
# The development stack behind `make run`, `make start` and `make stop`: scripts/stack.sh's
# private MariaDB + calendar-fcgi + nginx in var/, with the binaries from build/.
#
# DEVSTACK_DIR and DEVSTACK_BUILD override var/ and build/ (relative to the repository root).
# DEMO=N (run and start; `make run DEMO=N`): once the stack is up, add N demo events with
# `calendarctl demo --events N` (seed DEMO_SEED, default 1), once per stack: the marker
# $dir/demo.added remembers each N and seed added, so a restart does not add them again.
# REPLICAS=K (run and start; `make start REPLICAS=K`): K read replicas of the MariaDB with GTID
# replication, replica k in $dir/replica-k/ (socket $dir/replica-k/mysqld.sock); see stack.sh.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${DEVSTACK_DIR:-var}
build=${DEVSTACK_BUILD:-build}
export STACK_REPLICAS=${REPLICAS:-0}

# seed_demo: the demo data asked for by DEMO/DEMO_SEED, unless this stack already has it.
seed_demo() {
  local n=${DEMO:-} seed=${DEMO_SEED:-1} mark
  [ -n "$n" ] || return 0
  [[ $n =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ ]] || { echo "devstack: DEMO and DEMO_SEED must be numbers" >&2; return 2; }
  mark="events=$n seed=$seed"
  if grep -qxF "$mark" "$dir/demo.added" 2>/dev/null; then
    echo "devstack: demo data ($mark) already added to this stack"
    return 0
  fi
  echo "devstack: adding demo data ($mark)..."
  "$build/calendarctl" --config "$dir/calendar.conf" demo --events "$n" --seed "$seed" || return 1
  echo "$mark" >> "$dir/demo.added"
}

usage() {
  cat >&2 <<'USAGE'
usage: devstack.sh run PORT     start, print the URL and the admin token, stay in the foreground
                                showing the service log; Ctrl-C (or SIGTERM) stops all three
       devstack.sh start PORT   start in the background; returns once the API answers (idempotent)
       devstack.sh stop         stop what run/start began
USAGE
  exit 2
}

run() {
  local port=$1 tail_pid=""
  trap 'echo; kill "$tail_pid" 2>/dev/null || true; scripts/stack.sh down "$dir"; exit 0' INT TERM
  # A failed up has stopped what it started and named the failed step (stack.sh).
  scripts/stack.sh up "$dir" "$port" "$build" || exit 1
  seed_demo || { echo "devstack: run failed at step: add demo data" >&2; scripts/stack.sh down "$dir"; exit 1; }
  echo
  echo "  API:         http://127.0.0.1:$port/api/cal/events/v1"
  echo "  calendar:    http://127.0.0.1:$port/calendar/   (the web calendar, build/web)"
  echo "  admin token: $(cat "$dir/admin.token")   (Authorization: Bearer <token>)"
  echo "  logs:        $dir/calendar-fcgi.log, $dir/nginx/error.log, $dir/mysqld.log"
  [ "$STACK_REPLICAS" -eq 0 ] || echo "  replicas:    $STACK_REPLICAS, sockets $dir/replica-<k>/mysqld.sock"
  echo "  Ctrl-C stops the stack."
  echo
  tail -n 0 -F "$dir/calendar-fcgi.log" &
  tail_pid=$!
  # Stay in the foreground while all three run; `wait` lets the trap run at once on a signal.
  while scripts/stack.sh status "$dir" >/dev/null 2>&1; do
    sleep 2 &
    wait $! || true
  done
  kill "$tail_pid" 2>/dev/null || true
  echo "devstack: a process of the stack stopped:" >&2
  scripts/stack.sh status "$dir" >&2 || true
  scripts/stack.sh down "$dir"
  exit 1
}

case ${1:-} in
  run | start) [[ ${2:-} =~ ^[0-9]+$ ]] || usage ;;
esac
case ${1:-} in
  run) run "$2" ;;
  start)
    scripts/stack.sh up "$dir" "$2" "$build" || exit 1
    seed_demo || { echo "devstack: start failed at step: add demo data (the stack stays up; make stop stops it)" >&2; exit 1; }
    echo "admin token in $dir/admin.token; \`make stop\` stops the stack" ;;
  stop) scripts/stack.sh down "$dir" ;;
  *) usage ;;
esac
