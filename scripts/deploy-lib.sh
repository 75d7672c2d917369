# Shell functions shared by scripts/stack.sh, scripts/apache-stack.sh and scripts/deploy-stacks.sh
# (sourced, not run): messages, process checks by pid file, stopping exactly one process, waiting
# for a URL.
# The caller sets `me` (the message prefix) before sourcing.
# shellcheck shell=bash

: "${me:=deploy}"

say() { echo "$me: $*" >&2; }
die() { say "error: $*"; exit 1; }

# show_log FILE: the last lines of a log, for error messages.
show_log() {
  [ -s "$1" ] || return 0
  echo "----- last lines of $1 -----" >&2
  tail -n 25 "$1" >&2
  echo "-----" >&2
}

# alive PID: true while PID runs and is not a zombie.
alive() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# running_pid PIDFILE MARK: prints the pid from PIDFILE if that process is alive and its command
# line contains MARK, so a stale pid reused by another process never counts.
running_pid() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(tr -dc '0-9' < "$1")
  [ -n "$pid" ] && alive "$pid" || return 1
  { tr '\0' ' ' < "/proc/$pid/cmdline"; echo; } 2>/dev/null | grep -qF -- "$2" || return 1
  echo "$pid"
}

# stop_pid PID NAME SIGNAL SECONDS: sends SIGNAL, waits up to SECONDS, then SIGKILL.
stop_pid() {
  local pid=$1 name=$2 sig=$3 secs=$4 i
  kill "-$sig" "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 10; i++)); do
    alive "$pid" || { say "$name stopped (pid $pid)"; return 0; }
    sleep 0.1
  done
  say "$name (pid $pid) did not stop within ${secs}s after SIG$sig; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do alive "$pid" || return 0; sleep 0.1; done
  die "$name (pid $pid) survives SIGKILL"
}

# wait_url URL PIDFILE MARK LOG...: until URL answers 200 (30 s at most) while the process of
# PIDFILE/MARK runs; fails with the tails of the LOG files.
wait_url() {
  local url=$1 pidfile=$2 mark=$3 code i log
  shift 3
  for ((i = 0; i < 150; i++)); do
    code=$(curl --noproxy '*' -s -o /dev/null -w '%{http_code}' --max-time 5 "$url" || true)
    [ "$code" = 200 ] && return 0
    running_pid "$pidfile" "$mark" >/dev/null || break
    sleep 0.2
  done
  for log in "$@"; do show_log "$log"; done
  die "$url did not answer 200 (last status: ${code:-none})"
}

sed_escape() { printf '%s' "$1" | sed 's/[\\|&]/\\&/g'; }

# web_user: the user the web servers run their children and the service as: www-data when we
# are root, else ourselves (nothing changes users then).
web_user() { if [ "$(id -u)" -eq 0 ]; then echo www-data; else id -un; fi; }

# require_reachable DIR: dies unless the web servers' user can enter DIR. Everything they read,
# execute or connect to is staged below the stack directory, which must therefore be open to
# them up from / (a checkout in a 0700 directory such as /root or `mktemp -d` is not; this
# script opens no directory it did not create). scripts/run-tests.sh makes its stack directory
# in ${TMPDIR:-/tmp}, mode 0755.
require_reachable() {
  local user
  user=$(web_user)
  [ "$user" != "$(id -un)" ] && command -v runuser >/dev/null || return 0
  # Without libfaketime (make test-clock preloads it into every process): a process it starts
  # as www-data now and then cannot open the shared clock state a root process left under the
  # same id, and fails, though the directory is open to it. The check needs no clock.
  env -u LD_PRELOAD -u FAKETIME_SHARED runuser -u "$user" -- test -x "$1" 2>/dev/null ||
    die "$user cannot enter $1 (a directory on its path is closed to others); use a stack directory it can reach, e.g. below /tmp"
}

# copy_web BUILD_DIR DEST: the web calendar (BUILD_DIR/web from `make web`) copied to DEST, which
# the web servers' user can read (the checkout need not be reachable for it). Missing: a warning,
# and /calendar/ answers 404, which the deployment tests report.
copy_web() {
  rm -rf "$2"
  if [ -d "$1/web" ]; then cp -R "$1/web" "$2" && chmod -R a+rX "$2"; else say "no $1/web (make web)"; mkdir -p "$2"; fi
}
