#!/usr/bin/env bash
# CGI mode's cost per request (docs/performance.md, "CGI"): N sequential requests of one event by
# id (make bench's CGI case), each a fresh process of calendar-fcgi started as a CGI program,
# against a running stack. With several binaries (say the build before and after a change) the
# requests alternate between them, so a change in the machine's load falls on all alike.
#
#   tests/bench/cgi.sh STACK_DIR BINARY [BINARY...]
#
# STACK_DIR is a stack of scripts/stack.sh (make start: var/) with some events (calendarctl demo).
# Prints, per binary, the median and 90th percentile of the wall time and the median CPU time
# (user + system) of a request, and the load average before and after: on a shared machine the
# figures follow the load.
# N (environment, default 100): requests per binary.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 STACK_DIR BINARY [BINARY...]" >&2; exit 2; }
dir=$(cd "$1" && pwd)
shift
n=${N:-100}
for b in "$@"; do [ -x "$b" ] || { echo "cgi.sh: not an executable: $b" >&2; exit 2; }; done
[ -S "$dir/mysqld.sock" ] || { echo "cgi.sh: no MariaDB socket in $dir (is the stack up?)" >&2; exit 2; }

mapfile -t ids < <(mariadb --no-defaults --socket="$dir/mysqld.sock" --user=root --batch --skip-column-names \
  -e "SELECT p.id FROM posts p WHERE p.type = 'event' AND p.status = 'publish' AND p.password = ''
      ORDER BY RAND(1) LIMIT $n" "$(sed -n 's/^name *= *//p' "$dir/calendar.conf" | head -n 1)")
[ "${#ids[@]}" -gt 0 ] || { echo "cgi.sh: no published events in $dir (calendarctl demo adds some)" >&2; exit 2; }

# request BINARY ID: one CGI request; prints "wall_ms cpu_ms", fails unless it answered 200.
request() {
  local out t0 t1 TIMEFORMAT='%3U %3S'
  t0=$EPOCHREALTIME
  { time out=$(env -i CAL_CONFIG="$dir/calendar.conf" GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
      SCRIPT_NAME=/api PATH_INFO="/cal/events/v1/events/$2" QUERY_STRING= SERVER_PROTOCOL=HTTP/1.1 \
      SERVER_PORT=80 HTTP_HOST=127.0.0.1 REMOTE_ADDR=127.0.0.1 "$1" </dev/null 2>/dev/null); } 2>"$tmp"
  t1=$EPOCHREALTIME
  [[ $out == "Status: 200"* ]] || { echo "cgi.sh: $1, event $2: ${out:0:200}" >&2; return 1; }
  awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f\n", (b - a) * 1000, ($1 + $2) * 1000}' "$tmp"
}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp".*' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for id in "${ids[@]}"; do
  for i in $(seq $#); do
    request "${!i}" "$id" >> "$tmp.$i"
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq $#); do
  median_wall=$(cut -d' ' -f1 "$tmp.$i" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  p90_wall=$(cut -d' ' -f1 "$tmp.$i" | sort -n | awk '{a[NR] = $1} END {print a[int(NR * 0.9 + 0.5)]}')
  median_cpu=$(cut -d' ' -f2 "$tmp.$i" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  echo "${!i}: ${#ids[@]} requests, wall median $median_wall ms, p90 $p90_wall ms; CPU median $median_cpu ms"
done
