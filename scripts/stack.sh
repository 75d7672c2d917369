#!/usr/bin/env bash
# Starts and stops a complete private calendar stack in one directory: MariaDB (own datadir,
# socket and port), calendar-fcgi on a unix socket, nginx on 127.0.0.1:HTTP_PORT with the REST
# root at /api. No system service or system path is touched. Used by devstack.sh and run-tests.sh.
#
# STACK_CONF_EXTRA (environment): INI settings merged into calendar.conf when it is first written:
# a key the default config has is replaced in place (the service rejects a key given twice),
# others are added to their section, new sections at the end; e.g. $'[geoloc]\nenabled = true'.
# STACK_SEARCH_RATE, STACK_SEARCH_BURST (environment, default 200r/s and 1000): nginx's per-client
# limit on requests with `search` (nginx/calendar.conf @SEARCH_RATE@, @SEARCH_BURST@), generous
# by default so that the test suite's back-to-back searches from 127.0.0.1 are never throttled.
# STACK_REPLICAS=K (environment, default 0): the MariaDB is a GTID replication primary (server_id
# 1, binary log, gtid_strict_mode) with K read-only replicas, replica k (from 1) in DIR/replica-k/
# (datadir mysql/, mysqld.{sock,pid,log}, mysql.port; the socket path DIR/replica-k/mysqld.sock is
# relied on outside the repository), seeded from the primary by mariadb-dump --gtid once the schema
# exists and then replicating with MASTER_USE_GTID=slave_pos as user `repl`. K=0 changes nothing.
# DIR holds: mysql/ (datadir), mysqld.{sock,pid,log}, mysql.port, calendar.conf (written once,
# edit freely), admin.token (0600), calendar.sock, calendar-fcgi.{pid,log}, nginx.conf and
# nginx/ (pid, logs, temp files). nginx also serves BUILD_DIR/web (`make web`) at /calendar/.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# shellcheck disable=SC2034  # read by deploy-lib.sh
me=stack
# say, die, show_log, alive, running_pid, stop_pid, sed_escape
# shellcheck source-path=SCRIPTDIR source=deploy-lib.sh
. "$repo/scripts/deploy-lib.sh"

usage() {
  cat >&2 <<'USAGE'
usage: stack.sh up DIR HTTP_PORT BUILD_DIR   start whatever is not running (idempotent, repairs a
                                             half-running stack); returns once the API answers
       stack.sh down DIR                     stop exactly the processes `up` started; data stays
       stack.sh status DIR                   show each process; exit 0 only if all three (and the replicas) run
       stack.sh free-port                    print a free TCP port on 127.0.0.1
USAGE
  exit 2
}

# free_port: a TCP port on 127.0.0.1 that nothing uses right now.
free_port() {
  if command -v python3 >/dev/null 2>&1 &&
     python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null; then
    return 0
  fi
  local p
  for _ in $(seq 200); do            # no python: probe random ports until one refuses
    p=$((20000 + RANDOM % 30000))
    port_free "$p" && { echo "$p"; return 0; }
  done
  die "no free port found"
}

# port_free PORT: true when nothing listens on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# lock DIR: one stack.sh at a time per directory (fd 9; started daemons get `9>&-`).
lock() {
  exec 9>>"$1/stack.lock"
  flock -w 300 9 || die "another stack.sh keeps $1/stack.lock"
}

# --- MariaDB --------------------------------------------------------------------------------

mysql_admin() { mariadb-admin --no-defaults --socket="$dir/mysqld.sock" --user=root --connect-timeout=2 "$@"; }

# wait_mariadb PID: until mariadbd PID answers (60 s at most); fails with its log tail.
wait_mariadb() {
  local i
  for ((i = 0; i < 600; i++)); do
    mysql_admin ping >/dev/null 2>&1 && return 0
    alive "$1" || { show_log "$dir/mysqld.log"; die "mariadbd exited during start-up"; }
    sleep 0.1
  done
  show_log "$dir/mysqld.log"
  die "mariadbd (pid $1) did not answer within 60 s"
}

# init_datadir DIR LABEL: a fresh MariaDB datadir in DIR/mysql, initialized into a side
# directory and renamed, so an interrupted run leaves no half datadir. The bootstrap server gets
# the stack's own tmpdir, as the server does (start_mariadb): two stacks initialized at once in
# /tmp removed each other's temporary tables ("Unknown table 'mysql.tmp_user_sys'").
init_datadir() {
  local dir=$1
  say "initializing $2 $dir/mysql"
  rm -rf "$dir/mysql.init"
  mkdir -p "$dir/mysql-tmp"
  mariadb-install-db --no-defaults --user=root --datadir="$dir/mysql.init" --tmpdir="$dir/mysql-tmp" \
    --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
    >"$dir/mysql-install.log" 2>&1 9>&- || { show_log "$dir/mysql-install.log"; die "mariadb-install-db failed"; }
  mv "$dir/mysql.init" "$dir/mysql"
}

start_mariadb() {
  local pid port
  if pid=$(running_pid "$dir/mysqld.pid" "--datadir=$dir/mysql "); then
    wait_mariadb "$pid"       # running (maybe still starting): never restarted behind one's back
    return 0
  fi
  [ -d "$dir/mysql/mysql" ] || init_datadir "$dir" "MariaDB datadir"
  # Keep the port chosen the first time unless something else has taken it since.
  port=$(cat "$dir/mysql.port" 2>/dev/null || true)
  if ! [[ $port =~ ^[0-9]+$ ]] || ! port_free "$port"; then
    port=$(free_port)
    echo "$port" > "$dir/mysql.port"
  fi
  say "starting mariadbd on $dir/mysqld.sock and 127.0.0.1:$port"
  # Its own tmpdir: temporary tables of several private servers never meet in /tmp (another
  # server's cleanup there made statements fail with "Error on delete of '/tmp/#sql-temptable").
  mkdir -p "$dir/mysql-tmp"
  # Durable commits (flush_log_at_trx_commit=1; no binary log, so no sync_binlog). The buffer pool
  # and redo log are sized for the 1M-event demo, 4.0 GB of tables and indexes, 2.4 GB of them the
  # search index, as a server of that size is given: with the defaults (128 MB, 96 MB) `calendarctl
  # demo --events 1000000` read 4 GB back and wrote 20 GB while checkpointing, and with a 1 GB pool
  # a search's postings and records came from disk (O_DIRECT) at about 0.3 ms a page.
  # Pages are taken only as used, so small stacks stay small.
  # With replicas: a GTID primary. Row-based, so the replicas apply the rows the triggers wrote
  # (cal_note_change shards by CONNECTION_ID(), which a replayed statement would not reproduce).
  local primary_args=()
  [ "$replicas" -eq 0 ] || primary_args=(--server-id=1 --log-bin="$dir/mysql/binlog" --binlog-format=ROW
    --gtid-strict-mode=1 --log-bin-trust-function-creators=1)
  setsid mariadbd --no-defaults --datadir="$dir/mysql" --socket="$dir/mysqld.sock" --tmpdir="$dir/mysql-tmp" \
    --port="$port" --bind-address=127.0.0.1 --pid-file="$dir/mysqld.pid" --user=root \
    --log-error="$dir/mysqld.log" --skip-name-resolve --max-connections=500 "${primary_args[@]}" \
    --innodb-flush-log-at-trx-commit=1 --innodb-buffer-pool-size=6G --innodb-log-file-size=512M \
    --character-set-server=utf8mb4 \
    --collation-server=utf8mb4_unicode_ci </dev/null >>"$dir/mysqld.log" 2>&1 9>&- &
  started+=("mariadbd $!")
  wait_mariadb $!
}

# --- replicas (STACK_REPLICAS) ----------------------------------------------------------------

primary_sql() { mariadb --no-defaults --socket="$dir/mysqld.sock" --user=root --batch --skip-column-names -e "$1" 9>&-; }

# check_primary_binlog: a primary that runs without its binary log (started before replicas were
# asked for) cannot feed them; it is not restarted behind one's back.
check_primary_binlog() {
  [ "$(primary_sql 'SELECT @@log_bin')" = 1 ] ||
    die "the running MariaDB of $dir has no binary log: stop the stack (make stop), then start it with REPLICAS"
  primary_sql "CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
    GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1'" || die "could not create the replication user"
}

# start_replica K: replica K running and replicating (initialized and seeded the first time).
start_replica() {
  local k=$1 rdir="$dir/replica-$1" pid port i
  local rsock="$rdir/mysqld.sock"
  rsql() { mariadb --no-defaults --socket="$rsock" --user=root --batch --skip-column-names -e "$1" 9>&-; }
  mkdir -p "$rdir/mysql-tmp"
  if pid=$(running_pid "$rdir/mysqld.pid" "--datadir=$rdir/mysql "); then
    wait_replica "$pid" "$rdir"
    return 0
  fi
  local fresh=0
  if [ ! -d "$rdir/mysql/mysql" ]; then
    init_datadir "$rdir" "replica $k datadir"
    fresh=1
  fi
  port=$(cat "$rdir/mysql.port" 2>/dev/null || true)
  if ! [[ $port =~ ^[0-9]+$ ]] || ! port_free "$port"; then
    port=$(free_port)
    echo "$port" > "$rdir/mysql.port"
  fi
  say "starting replica $k on $rsock and 127.0.0.1:$port"
  setsid mariadbd --no-defaults --datadir="$rdir/mysql" --socket="$rsock" --tmpdir="$rdir/mysql-tmp" \
    --port="$port" --bind-address=127.0.0.1 --pid-file="$rdir/mysqld.pid" --user=root \
    --log-error="$rdir/mysqld.log" --skip-name-resolve --max-connections=500 \
    --server-id=$((100 + k)) --read-only=1 --gtid-strict-mode=1 --relay-log="$rdir/mysql/relay" \
    --innodb-flush-log-at-trx-commit=2 --innodb-buffer-pool-size=256M \
    --character-set-server=utf8mb4 \
    --collation-server=utf8mb4_unicode_ci </dev/null >>"$rdir/mysqld.log" 2>&1 9>&- &
  pid=$!
  started+=("replica-$k-mariadbd $pid")
  wait_replica "$pid" "$rdir"
  if [ "$fresh" -eq 1 ] || [ -z "$(rsql 'SHOW SLAVE STATUS')" ]; then
    # Seed: a consistent dump of the calendar database with the GTID position it was taken at
    # (--gtid --master-data=1 writes SET GLOBAL gtid_slave_pos=...), then replicate from there.
    say "seeding replica $k from the primary"
    local name
    name=$(sed -n 's/^name *= *//p' "$dir/calendar.conf" | head -n 1)
    rsql "STOP SLAVE; RESET SLAVE ALL" >/dev/null 2>&1 || true
    rsql "DROP DATABASE IF EXISTS \`$name\`; CREATE DATABASE \`$name\`" || die "replica $k: could not create $name"
    mariadb-dump --no-defaults --socket="$dir/mysqld.sock" --user=root --single-transaction --gtid \
      --master-data=1 --routines --triggers --events "$name" 9>&- > "$rdir/seed.sql" || die "mariadb-dump of the primary failed"
    mariadb --no-defaults --socket="$rsock" --user=root "$name" < "$rdir/seed.sql" 9>&- ||
      die "replica $k: loading the seed failed"
    rm -f "$rdir/seed.sql"
    rsql "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$(cat "$dir/mysql.port"), MASTER_USER='repl',
      MASTER_PASSWORD='repl', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos; START SLAVE" ||
      die "replica $k: could not start replication"
  fi
  for ((i = 0; i < 300; i++)); do
    [ "$(rsql "SHOW SLAVE STATUS" | cut -f11,12)" = $'Yes\tYes' ] && { say "replica $k replicating"; return 0; }
    sleep 0.1
  done
  rsql "SHOW SLAVE STATUS\G" >&2 || true
  die "replica $k is not replicating after 30 s"
}

wait_replica() {
  local i
  for ((i = 0; i < 600; i++)); do
    mariadb-admin --no-defaults --socket="$2/mysqld.sock" --user=root --connect-timeout=2 ping >/dev/null 2>&1 && return 0
    alive "$1" || { show_log "$2/mysqld.log"; die "replica mariadbd exited during start-up"; }
    sleep 0.1
  done
  show_log "$2/mysqld.log"
  die "replica mariadbd (pid $1) did not answer within 60 s"
}

stop_mariadb_in() {    # DIR (a primary's or a replica's directory)
  local d=$1 pid i
  if pid=$(running_pid "$d/mysqld.pid" "--datadir=$d/mysql "); then
    # A clean shutdown flushes InnoDB; SIGTERM does the same if the client cannot connect.
    mariadb-admin --no-defaults --socket="$d/mysqld.sock" --user=root --connect-timeout=2 shutdown >/dev/null 2>&1 9>&- ||
      kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 600; i++)); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then stop_pid "$pid" mariadbd TERM 30; else say "mariadbd stopped (pid $pid)"; fi
  fi
}

# --- calendar-fcgi --------------------------------------------------------------------------

# merge_ini DEFAULT EXTRA: the INI file DEFAULT with the settings of the INI file EXTRA merged
# in: "key = value" lines of EXTRA replace DEFAULT's line of that key in that section, or are
# added at the end of the section (sections of EXTRA that DEFAULT lacks come last). EXTRA's
# comments and blank lines are dropped; keys before any section belong to section "".
merge_ini() {
  awk '
    function key(line) { sub(/^[ \t]*/, "", line); sub(/[ \t]*=.*$/, "", line); return line }
    function flush(sec,   i) {
      for (i = 1; i <= n[sec]; i++) if (!((sec, keys[sec, i]) in used)) print lines[sec, i]
    }
    function blank_lines() { for (; blanks > 0; blanks--) print "" }
    FILENAME == ARGV[1] {
      if ($0 ~ /^[ \t]*\[.*\][ \t]*$/) {
        sec = $0; gsub(/^[ \t]*\[|\][ \t]*$/, "", sec)
        if (!(sec in order_of)) { order_of[sec] = ++sections; order[sections] = sec }
      } else if ($0 ~ /^[ \t]*[^#;[ \t][^=]*=/) {
        k = key($0); n[sec]++; keys[sec, n[sec]] = k; lines[sec, n[sec]] = $0; extra[sec, k] = $0
      }
      next
    }
    !started { started = 1; sec = "" }
    /^[ \t]*$/ { blanks++; next }
    /^[ \t]*\[.*\][ \t]*$/ {
      flush(sec); blank_lines()
      sec = $0; gsub(/^[ \t]*\[|\][ \t]*$/, "", sec); seen[sec] = 1
      print; next
    }
    { blank_lines() }
    /^[ \t]*[^#;[ \t][^=]*=/ && ((sec, key($0)) in extra) { print extra[sec, key($0)]; used[sec, key($0)] = 1; next }
    { print }
    END {
      flush(sec); blank_lines()
      for (j = 1; j <= sections; j++) {
        if (order[j] in seen) continue
        printf "\n[%s]\n", order[j]; flush(order[j])
      }
    }
  ' "$2" "$1"
}

# replica_setting: the [database] replicas line for STACK_REPLICAS replicas.
replica_setting() {
  local k list=""
  for ((k = 1; k <= replicas; k++)); do list+="${list:+, }$dir/replica-$k/mysqld.sock"; done
  echo "replicas = $list"
}

write_config() {
  if [ -e "$dir/calendar.conf" ]; then    # written once: local edits survive restarts
    # ...but a stack first started without replicas learns of them.
    if [ "$replicas" -gt 0 ] && ! grep -qE '^[[:space:]]*replicas[[:space:]]*=' "$dir/calendar.conf"; then
      sed -i "/^\[database\]/a $(replica_setting)" "$dir/calendar.conf"
    fi
    return 0
  fi
  cat > "$dir/calendar.conf.new" <<EOF
# calendar-fcgi configuration of the private stack in $dir (written by scripts/stack.sh).
[database]
# socket, when set, is used instead of host/port
socket = $dir/mysqld.sock
host = 127.0.0.1
port = $(cat "$dir/mysql.port")
user = root
name = calendar

[site]
# url = https://example.org/api   (unset: absolute URLs come from the request)
timezone = UTC
locale = en_US
per_page = 10
per_page_max = 50

[server]
# threads = 0 means 2 x cores
threads = 0
max_body = 1048576

[geoloc]
enabled = false
geofence_km = 40
EOF
  local extra=${STACK_CONF_EXTRA:-}
  [ "$replicas" -eq 0 ] || extra=$'[database]\n'"$(replica_setting)"$'\n'"$extra"
  printf '%s\n' "$extra" > "$dir/calendar.conf.extra"
  merge_ini "$dir/calendar.conf.new" "$dir/calendar.conf.extra" > "$dir/calendar.conf.merged" ||
    die "could not merge STACK_CONF_EXTRA into the config"
  rm -f "$dir/calendar.conf.new" "$dir/calendar.conf.extra"
  mv "$dir/calendar.conf.merged" "$dir/calendar.conf"
}

ctl() { "$build/calendarctl" --config "$dir/calendar.conf" "$@" 9>&-; }

create_admin() {
  [ -s "$dir/admin.token" ] && return 0
  local token
  if ! token=$(ctl user add admin --role administrator 2>"$dir/calendarctl.err"); then
    # The user exists but its token file is gone: give it a fresh password instead.
    token=$(ctl password add admin 2>>"$dir/calendarctl.err") ||
      { cat "$dir/calendarctl.err" >&2; die "could not create user admin"; }
  fi
  rm -f "$dir/calendarctl.err"
  [[ -n $token && $token != *$'\n'* ]] || die "calendarctl printed no single-line password: '$token'"
  (umask 077 && printf '%s\n' "$token" > "$dir/admin.token.new")
  chmod 600 "$dir/admin.token.new"
  mv "$dir/admin.token.new" "$dir/admin.token"
  say "created user admin; its password is in $dir/admin.token"
}

start_service() {
  local bin="$build/calendar-fcgi" pid i
  if pid=$(running_pid "$dir/calendar-fcgi.pid" "--config $dir/calendar.conf "); then
    # Keep it unless it is another build or the binary was rebuilt since it started.
    if { tr '\0' ' ' < "/proc/$pid/cmdline"; echo; } | grep -qF -- "$bin " &&
       ! [ "$bin" -nt "$dir/calendar-fcgi.pid" ]; then
      return 0
    fi
    say "restarting calendar-fcgi (new binary)"
    stop_pid "$pid" calendar-fcgi TERM 15
  fi
  rm -f "$dir/calendar.sock"
  say "starting calendar-fcgi on $dir/calendar.sock"
  setsid "$bin" --config "$dir/calendar.conf" --socket "unix:$dir/calendar.sock" \
    </dev/null >>"$dir/calendar-fcgi.log" 2>&1 9>&- &
  pid=$!
  started+=("calendar-fcgi $pid")
  echo "$pid" > "$dir/calendar-fcgi.pid"
  for ((i = 0; i < 300; i++)); do
    [ -S "$dir/calendar.sock" ] && return 0
    alive "$pid" || { show_log "$dir/calendar-fcgi.log"; die "calendar-fcgi exited during start-up"; }
    sleep 0.1
  done
  show_log "$dir/calendar-fcgi.log"
  die "calendar-fcgi did not create $dir/calendar.sock within 30 s"
}

# --- nginx ----------------------------------------------------------------------------------

nginx_cmd() { nginx -p "$dir/nginx/" -e "$dir/nginx/error.log" "$@" </dev/null 9>&-; }

start_nginx() {
  local pid user_sed
  mkdir -p "$dir/nginx/tmp"
  # Workers run as our own user so they can reach the socket inside a private DIR; without
  # root the `user` directive means nothing and is dropped.
  if [ "$(id -u)" -eq 0 ]; then user_sed="s|@USER@|$(id -un)|g"; else user_sed='/^user @USER@;/d'; fi
  sed -e "$user_sed" -e "s|@PORT@|$http_port|g" -e "s|@SOCKET@|$(sed_escape "$dir/calendar.sock")|g" \
      -e "s|@DIR@|$(sed_escape "$dir")|g" -e "s|@WEB@|$(sed_escape "$build/web")|g" \
      -e "s|@SEARCH_RATE@|${STACK_SEARCH_RATE:-200r/s}|g" -e "s|@SEARCH_BURST@|${STACK_SEARCH_BURST:-1000}|g" \
      "$repo/nginx/calendar.conf" > "$dir/nginx.conf.new"
  if pid=$(running_pid "$dir/nginx/nginx.pid" "-c $dir/nginx.conf "); then
    if cmp -s "$dir/nginx.conf.new" "$dir/nginx.conf"; then rm -f "$dir/nginx.conf.new"; return 0; fi
    nginx_cmd -t -q -c "$dir/nginx.conf.new" || die "the generated nginx config is invalid"
    mv "$dir/nginx.conf.new" "$dir/nginx.conf"
    say "reloading nginx (config changed)"
    kill -HUP "$pid"
    return 0
  fi
  mv "$dir/nginx.conf.new" "$dir/nginx.conf"
  say "starting nginx on 127.0.0.1:$http_port"
  nginx_cmd -c "$dir/nginx.conf" >"$dir/nginx/start.log" 2>&1 ||
    { show_log "$dir/nginx/start.log"; die "nginx did not start (is port $http_port taken?)"; }
  local i
  for ((i = 0; i < 50; i++)); do    # the daemon writes its pid file just after the parent returns
    if pid=$(running_pid "$dir/nginx/nginx.pid" "-c $dir/nginx.conf "); then started+=("nginx $pid"); break; fi
    sleep 0.1
  done
}

# wait_api: until the API answers with any status of its own (nginx's 502/504 mean the
# service is not reachable yet).
wait_api() {
  local url="http://127.0.0.1:$http_port/api/cal/events/v1" code i
  for ((i = 0; i < 150; i++)); do
    code=$(curl --noproxy '*' -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 9>&- || true)
    case $code in 000 | 502 | 504) ;; *) return 0 ;; esac
    running_pid "$dir/calendar-fcgi.pid" "--config $dir/calendar.conf " >/dev/null ||
      { show_log "$dir/calendar-fcgi.log"; die "calendar-fcgi exited"; }
    sleep 0.2
  done
  show_log "$dir/calendar-fcgi.log"
  show_log "$dir/nginx/error.log"
  die "$url did not answer within 30 s (last status: $code)"
}

# --- commands -------------------------------------------------------------------------------

# What this `up` started, "NAME PID" each, in order, and the step it is at: when `up` fails it
# stops exactly these (processes of a stack that was already running were not started here and
# keep running) and names the step, instead of leaving a private mariadbd behind.
started=()
step=""

# on_up_exit: the EXIT trap of `up`.
on_up_exit() {
  local rc=$? i name pid
  [ "$rc" -eq 0 ] && return 0
  trap - EXIT
  say "up failed at step: $step"
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    read -r name pid <<<"${started[i]}"
    if alive "$pid"; then
      say "stopping $name (pid $pid), which this up started"
      stop_pid "$pid" "$name" TERM 30
    fi
  done
  exit "$rc"
}

cmd_up() {
  [ $# -eq 3 ] || usage
  [[ $2 =~ ^[0-9]+$ ]] || die "HTTP_PORT must be a number: $2"
  mkdir -p "$1"
  dir=$(cd "$1" && pwd) http_port=$2
  build=$(cd "$3" 2>/dev/null && pwd) || die "no build directory $3 (run make build)"
  local b
  for b in calendar-fcgi calendarctl; do
    [ -x "$build/$b" ] || die "missing $build/$b (run make build)"
  done
  # A unix socket path has at most 107 bytes.
  [ ${#dir} -le 90 ] || die "directory path too long for unix sockets (max 90 bytes): $dir"
  lock "$dir"
  trap on_up_exit EXIT
  replicas=${STACK_REPLICAS:-0}
  [[ $replicas =~ ^[0-9]+$ ]] || die "STACK_REPLICAS must be a number: $replicas"
  step="start mariadbd"
  start_mariadb
  step="write the config ($dir/calendar.conf)"
  write_config
  step="calendarctl migrate (reads $dir/calendar.conf)"
  ctl migrate >&2 || die "calendarctl migrate failed"
  step="create the admin user"
  create_admin
  echo "$replicas" > "$dir/replicas.count"    # what `status` checks
  if [ "$replicas" -gt 0 ]; then
    step="prepare the primary for replication"
    check_primary_binlog
    local k
    for ((k = 1; k <= replicas; k++)); do
      step="start replica $k"
      start_replica "$k"
    done
  fi
  step="start calendar-fcgi"
  start_service
  step="start nginx"
  start_nginx
  step="wait for the API to answer"
  wait_api
  trap - EXIT
  say "up: http://127.0.0.1:$http_port/api/cal/events/v1"
}

cmd_down() {
  [ $# -eq 1 ] || usage
  [ -d "$1" ] || { say "no stack in $1"; return 0; }
  dir=$(cd "$1" && pwd)
  lock "$dir"
  local pid i
  if pid=$(running_pid "$dir/nginx/nginx.pid" "-c $dir/nginx.conf "); then
    stop_pid "$pid" nginx QUIT 10
  fi
  if pid=$(running_pid "$dir/calendar-fcgi.pid" "--config $dir/calendar.conf "); then
    stop_pid "$pid" calendar-fcgi TERM 15
  fi
  rm -f "$dir/calendar-fcgi.pid"
  local r
  for r in "$dir"/replica-*/; do [ -d "$r" ] && stop_mariadb_in "${r%/}"; done
  stop_mariadb_in "$dir"
}

cmd_status() {
  [ $# -eq 1 ] || usage
  dir=$(cd "$1" 2>/dev/null && pwd) || { echo "no stack in $1"; return 1; }
  local ok=0 name pidfile mark pid
  for name in mariadbd calendar-fcgi nginx; do
    case $name in
      mariadbd) pidfile=mysqld.pid mark="--datadir=$dir/mysql " ;;
      calendar-fcgi) pidfile=calendar-fcgi.pid mark="--config $dir/calendar.conf " ;;
      nginx) pidfile=nginx/nginx.pid mark="-c $dir/nginx.conf " ;;
    esac
    if pid=$(running_pid "$dir/$pidfile" "$mark"); then
      printf '%-14s running (pid %s)\n' "$name" "$pid"
    else
      printf '%-14s stopped\n' "$name"
      ok=1
    fi
  done
  local k count
  count=$(tr -dc '0-9' < "$dir/replicas.count" 2>/dev/null || true)
  for ((k = 1; k <= ${count:-0}; k++)); do
    if pid=$(running_pid "$dir/replica-$k/mysqld.pid" "--datadir=$dir/replica-$k/mysql "); then
      printf '%-14s running (pid %s)\n' "replica-$k" "$pid"
    else
      printf '%-14s stopped\n' "replica-$k"
      ok=1
    fi
  done
  return $ok
}

case ${1:-} in
  up) shift; cmd_up "$@" ;;
  down) shift; cmd_down "$@" ;;
  status) shift; cmd_status "$@" ;;
  free-port) free_port ;;
  *) usage ;;
esac
