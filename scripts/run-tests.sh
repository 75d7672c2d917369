#!/usr/bin/env bash
# `make test`: checks the layering rules (scripts/check-layout.sh, and its --self-test), the
# code style (scripts/check-format.sh) and that docs/configuration.md is what the binary prints
# (scripts/config-doc.sh --check), runs the web calendar's JavaScript unit tests (node), then
# BUILD_DIR/unit-tests, then BUILD_DIR/integration-tests against a private stack
# (scripts/stack.sh) and its other deployments (scripts/deploy-stacks.sh) in a fresh directory
# ${TMPDIR:-/tmp}/calendar-test.XXXXXX on free ports, and its test suites "geoloc-on" and
# "lease-on" against a second stack with the geolocation extension and a 20 ms cache lease on (in
# geoloc/ below that directory), and its test suite "replicas" against a third stack with two
# GTID read replicas (in replicas/), its test suite "bulkhead" against a fourth stack with one
# expensive slot over 100,000 demo events (in bulkhead/; about a minute to load), and the requests
# of docs/examples.md against a stack of their own with a fresh database (scripts/doc-examples.sh
# --check, in examples/).
# Shows every runner's output and ends with the line "N passed, N failed": doctest test cases
# summed over the binaries plus one per layout rule and self-test case, a crash or a failed
# start counting as (at least) one failure. The layout checks run only without doctest options
# (they are no doctest cases a -tc filter could select).
# The stack directory is removed after a clean run and kept (with its logs) otherwise.
#
#   run-tests.sh BUILD_DIR [doctest options...]   (options go to both binaries, e.g. -tc='*slash*')
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [doctest options...]" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run-tests: no build directory $1" >&2; exit 2; }
shift

passed=0
failed=0

# run_counted NAME COMMAND [ARGS...]: runs one test runner with its output shown, and adds its
# counts to passed/failed; returns non-zero when that runner failed. The counts come from the
# last summary line: doctest's "[doctest] test cases: 12 | 11 passed | 1 failed | 0 skipped"
# or a script's "11 passed, 1 failed" (colour codes stripped).
run_counted() {
  local name=$1 log rc summary p=0 f=0
  shift
  log=$(mktemp)
  echo "=== $name ==="
  set +e
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" |
            grep -E '^\[doctest\] test cases:|^[0-9]+ passed, [0-9]+ failed$' | tail -n 1 || true)
  rm -f "$log"
  if [[ $summary =~ \|\ *([0-9]+)\ passed\ *\|\ *([0-9]+)\ failed ]] ||
     [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=${BASH_REMATCH[1]}
    f=${BASH_REMATCH[2]}
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    if [ "$rc" -gt 128 ]; then
      echo "run-tests: $name crashed (signal $((rc - 128)))"
    elif [ -z "$summary" ]; then
      echo "run-tests: $name exited with status $rc without a summary"
    else
      echo "run-tests: $name exited with status $rc"
    fi
    f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  [ "$f" -eq 0 ]
}

if [ $# -eq 0 ]; then
  run_counted layout scripts/check-layout.sh || true
  run_counted layout-self-test scripts/check-layout.sh --self-test || true
  run_counted format scripts/check-format.sh || true
  run_counted configuration-doc scripts/config-doc.sh --check "$build" || true
  run_counted web-recurrence node tests/browser/webcal/recurrence_test.mjs || true
  run_counted web-daycap node tests/browser/webcal/daycap_test.mjs || true
fi
run_counted unit-tests "$build/unit-tests" "$@" || true

# --- integration: a private stack in a fresh directory ---------------------------------------
# Outside the checkout: run as root, Apache's children, mod_fcgid's and spawn-fcgi's services run
# as www-data, which cannot enter a checkout below a directory only its owner may enter (mktemp -d
# and /root are 0700), and the user's directories are not ours to open. So the run directory is
# a new one of our own, opened to others (0755), and the stack scripts stage in it everything
# those servers read, execute or connect to (copies of the binary and the catalogs, configs,
# sockets). A TMPDIR that www-data cannot enter, or so long that the unix socket paths below
# the directory would not fit (107 bytes at most), gives way to /tmp.
make_run_dir() {
  local base d
  for base in "${TMPDIR:-/tmp}" /tmp; do
    d=$(mktemp -d "${base%/}/calendar-test.XXXXXX") || continue
    chmod 0755 "$d"
    if [ ${#d} -le 50 ] && others_can_enter "$d"; then echo "$d"; return 0; fi
    rmdir "$d"
  done
  echo "run-tests: no directory for the test stack that www-data can enter" >&2
  return 1
}

# others_can_enter DIR: true unless we are root and www-data (the web servers' user) cannot
# reach DIR.
others_can_enter() {
  [ "$(id -u)" -eq 0 ] && id www-data >/dev/null 2>&1 && command -v runuser >/dev/null || return 0
  runuser -u www-data -- test -x "$1" 2>/dev/null
}

if ! run_dir=$(make_run_dir); then
  echo "$passed passed, $((failed + 1)) failed"
  exit 1
fi
keep=1          # cleared only after a clean integration run
stack_down() {
  trap - EXIT INT TERM
  scripts/deploy-stacks.sh down "$run_dir" || true
  scripts/stack.sh down "$run_dir" || true
  # The database-death test runs its own stack below the run dir; stop it even after a crash.
  [ -d "$run_dir/dbdeath" ] && { scripts/stack.sh down "$run_dir/dbdeath" || true; }
  [ -d "$run_dir/geoloc" ] && { scripts/stack.sh down "$run_dir/geoloc" || true; }
  [ -d "$run_dir/replicas" ] && { scripts/stack.sh down "$run_dir/replicas" || true; }
  [ -d "$run_dir/examples" ] && { scripts/stack.sh down "$run_dir/examples" || true; }
  [ -d "$run_dir/bulkhead" ] && { scripts/stack.sh down "$run_dir/bulkhead" || true; }
  # Sanitizer reports of an ASan/UBSan service build (leaks appear at exit) are in its logs only
  # (the deployments' calendar-fcgi processes log to their web server's error log).
  local log pattern='ERROR: (Address|Leak)Sanitizer|runtime error:'
  for log in "$run_dir/calendar-fcgi.log" "$run_dir/geoloc/calendar-fcgi.log" "$run_dir/replicas/calendar-fcgi.log" "$run_dir"/nginx-tcp/calendar-fcgi.log \
             "$run_dir"/apache-*/error.log; do
    if [ -f "$log" ] && grep -qE "$pattern" "$log"; then
      echo "run-tests: calendar-fcgi reported sanitizer errors in $log:"
      grep -E -A 12 "$pattern" "$log" | head -n 60 || true
      failed=$((failed + 1))
      keep=1
    fi
  done
  if [ "$keep" -eq 0 ]; then
    rm -rf "$run_dir"
  else
    echo "run-tests: integration stack directory kept for inspection: $run_dir"
  fi
}
trap stack_down EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port=$(scripts/stack.sh free-port)
# The second origin of the browser test (access/cors_browser_test.cpp serves its page there), listed in
# [cors] origins with the origin the plain CORS tests send (access/cors_test.cpp).
export CAL_TEST_CORS_PAGE_PORT
CAL_TEST_CORS_PAGE_PORT=$(scripts/stack.sh free-port)
# Tests read X-Cal-Statements to prove lists cost a constant number of SQL statements.
# [ical] max_events = 5: a feed without page/per_page reaches its cap with a few events (ical/feed_test.cpp).
# [metrics] on, with a token of this run (ops/metrics_test.cpp reads it from calendar.conf).
metrics_token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
if STACK_CONF_EXTRA=$'[ical]\nmax_events = 5\n[server]\nstatement_count_header = true\n[metrics]\nenabled = true\ntoken = '"$metrics_token"$'\n[cors]\norigins = https://app.example http://127.0.0.1:'"$CAL_TEST_CORS_PAGE_PORT" \
   scripts/stack.sh up "$run_dir" "$port" "$build"; then
  # The other deployments (nginx over TCP, Apache in its three ways) on the same database; the
  # smoke suite (deploy/smoke_test.cpp) finds their URLs in CAL_TEST_NGINX_TCP_PREFIX etc.
  deploy_ok=1
  if ! scripts/deploy-stacks.sh up "$run_dir" "$build"; then
    echo "run-tests: a deployment did not start (logs in $run_dir)"
    failed=$((failed + 1))
    deploy_ok=0
  fi
  # Only what started counts: nothing from the caller's environment stands in for a deployment,
  # and none may be skipped (CAL_TEST_NO_DEPLOY=1 is for hand runs of integration-tests only).
  unset CAL_TEST_NO_DEPLOY CAL_TEST_NGINX_TCP_PREFIX CAL_TEST_APACHE_PROXY CAL_TEST_APACHE_FCGID CAL_TEST_APACHE_CGI
  # The geolocation cases check that the stack is what CAL_TEST_GEOLOC says; the "on" ones are
  # skipped here and run against the geoloc stack below.
  export CAL_TEST_GEOLOC=off CAL_TEST_LEASE=off
  while IFS= read -r line; do export "${line?}"; done < <(cat "$run_dir/deploy.env" 2>/dev/null || true)
  if CAL_TEST_BASE="http://127.0.0.1:$port/api" \
     CAL_TEST_TOKEN="$(cat "$run_dir/admin.token")" \
     CAL_TEST_CTL="$build/calendarctl --config $run_dir/calendar.conf" \
     CAL_TEST_DIR="$run_dir" \
     run_counted integration-tests "$build/integration-tests" "$@"; then
    keep=$((1 - deploy_ok))
  fi
else
  echo "run-tests: the integration stack did not start (logs in $run_dir)"
  failed=$((failed + 1))
fi

# --- docs/examples.md: its requests answer as the page says -----------------------------------
# On a stack of their own (examples/ below the run directory): the page's ids and lists are those
# of a database that starts empty, which the integration tests' stack no longer is. Not a doctest
# case, so only without doctest options, like the layout checks.
if [ $# -eq 0 ]; then
  DOC_EXAMPLES_DIR="$run_dir/examples" run_counted examples-doc scripts/doc-examples.sh --check "$build" || keep=1
fi

# --- the geolocation extension and the cache lease on: a second, small stack -----------------
# Only when the doctest options select a case of the suites "geoloc-on" or "lease-on" (listing
# needs no stack).
second_suites=geoloc-on,lease-on
geoloc_cases() {
  CAL_TEST_BASE=http://127.0.0.1:1/api CAL_TEST_GEOLOC=on CAL_TEST_LEASE=on "$build/integration-tests" -ts=$second_suites "$@" -ltc 2>/dev/null |
    sed -n 's/^\[doctest\] unskipped test cases passing the current filters: \([0-9]*\)$/\1/p'
}
geoloc_count=$(geoloc_cases "$@" || true)
if [ "${geoloc_count:-1}" != 0 ]; then
  geoloc_port=$(scripts/stack.sh free-port)
  if STACK_CONF_EXTRA=$'[ical]\nmax_events = 5\n[geoloc]\nenabled = true\n[server]\nstatement_count_header = true\ncache_lease_ms = 20' scripts/stack.sh up "$run_dir/geoloc" "$geoloc_port" "$build"; then
    geoloc_keep=1
    if CAL_TEST_BASE="http://127.0.0.1:$geoloc_port/api" \
       CAL_TEST_TOKEN="$(cat "$run_dir/geoloc/admin.token")" \
       CAL_TEST_CTL="$build/calendarctl --config $run_dir/geoloc/calendar.conf" \
       CAL_TEST_DIR="$run_dir/geoloc" \
       CAL_TEST_GEOLOC=on CAL_TEST_LEASE=on \
       run_counted integration-tests-geoloc-on "$build/integration-tests" -ts=$second_suites "$@"; then
      geoloc_keep=0
    fi
    [ "$geoloc_keep" -eq 0 ] || keep=1
  else
    echo "run-tests: the geoloc stack did not start (logs in $run_dir/geoloc)"
    failed=$((failed + 1))
    keep=1
  fi
fi

# --- read replicas: a third stack with two GTID replicas ---------------------------------------
# Only when the doctest options select a case of the suite "replicas".
replica_cases() {
  CAL_TEST_BASE=http://127.0.0.1:1/api CAL_TEST_REPLICAS=2 "$build/integration-tests" -ts=replicas "$@" -ltc 2>/dev/null |
    sed -n 's/^\[doctest\] unskipped test cases passing the current filters: \([0-9]*\)$/\1/p'
}
replica_count=$(replica_cases "$@" || true)
if [ "${replica_count:-1}" != 0 ]; then
  replica_port=$(scripts/stack.sh free-port)
  if STACK_REPLICAS=2 STACK_CONF_EXTRA=$'[database]\nmax_replica_lag = 3\n[server]\nstatement_count_header = true' \
     scripts/stack.sh up "$run_dir/replicas" "$replica_port" "$build"; then
    replica_keep=1
    if CAL_TEST_BASE="http://127.0.0.1:$replica_port/api" \
       CAL_TEST_TOKEN="$(cat "$run_dir/replicas/admin.token")" \
       CAL_TEST_CTL="$build/calendarctl --config $run_dir/replicas/calendar.conf" \
       CAL_TEST_DIR="$run_dir/replicas" \
       CAL_TEST_REPLICAS=2 \
       run_counted integration-tests-replicas "$build/integration-tests" -ts=replicas "$@"; then
      replica_keep=0
    fi
    [ "$replica_keep" -eq 0 ] || keep=1
  else
    echo "run-tests: the replicas stack did not start (logs in $run_dir/replicas)"
    failed=$((failed + 1))
    keep=1
  fi
fi
# --- bulkheads: a fourth stack, one expensive slot, over 100,000 demo events --------
# Only when the doctest options select a case of the suite "bulkhead". Loading the events takes
# about a minute here (calendarctl demo: ~0.5 ms an event); CAL_TEST_BULKHEAD_EVENTS changes the
# count. The flood case compares a cached event's p99 alone and under 16 flooding connections.
bulkhead_cases() {
  CAL_TEST_BASE=http://127.0.0.1:1/api CAL_TEST_BULKHEAD=on "$build/integration-tests" -ts=bulkhead "$@" -ltc 2>/dev/null |
    sed -n 's/^\[doctest\] unskipped test cases passing the current filters: \([0-9]*\)$/\1/p'
}
bulkhead_count=$(bulkhead_cases "$@" || true)
if [ "${bulkhead_count:-1}" != 0 ]; then
  bulkhead_port=$(scripts/stack.sh free-port)
  if STACK_CONF_EXTRA=$'[limits]\nexpensive_slots = 1\nslot_wait_ms = 50\nstatement_seconds = 0.3\n[server]\nstatement_count_header = true' \
     scripts/stack.sh up "$run_dir/bulkhead" "$bulkhead_port" "$build" &&
     "$build/calendarctl" --config "$run_dir/bulkhead/calendar.conf" demo --events "${CAL_TEST_BULKHEAD_EVENTS:-100000}"; then
    bulkhead_keep=1
    if CAL_TEST_BASE="http://127.0.0.1:$bulkhead_port/api" \
       CAL_TEST_TOKEN="$(cat "$run_dir/bulkhead/admin.token")" \
       CAL_TEST_CTL="$build/calendarctl --config $run_dir/bulkhead/calendar.conf" \
       CAL_TEST_DIR="$run_dir/bulkhead" \
       CAL_TEST_BULKHEAD=on \
       run_counted integration-tests-bulkhead "$build/integration-tests" -ts=bulkhead "$@"; then
      bulkhead_keep=0
    fi
    [ "$bulkhead_keep" -eq 0 ] || keep=1
  else
    echo "run-tests: the bulkhead stack did not start (logs in $run_dir/bulkhead)"
    failed=$((failed + 1))
    keep=1
  fi
fi
stack_down

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
