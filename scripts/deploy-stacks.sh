#!/usr/bin/env bash
# Starts and stops the other deployments of a running scripts/stack.sh stack, each on a free
# port on 127.0.0.1, all on the stack's database, so the integration tests can run their smoke
# suite (tests/integration/deploy/smoke_test.cpp) through every way site owners host the service:
#
#   nginx-tcp   nginx (nginx/calendar-tcp.conf) -> 127.0.0.1:PORT, calendar-fcgi started by
#               spawn-fcgi (nginx/spawn-fcgi.md); REST root /calendar/api
#   proxy, fcgid, cgi   Apache in each of its three ways (scripts/apache-stack.sh); /calendar/api
# (The stack itself is the fourth: nginx -> unix socket, REST root /api.)
#
# deploy.env names: CAL_TEST_NGINX_TCP_PREFIX, CAL_TEST_APACHE_PROXY, CAL_TEST_APACHE_FCGID,
# CAL_TEST_APACHE_CGI. The nginx-tcp files live in STACK_DIR/nginx-tcp/.
set -euo pipefail
shopt -s inherit_errexit   # errors inside $(...) stop the script too

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
umask 022   # what is written here is read by the web servers' user
# shellcheck disable=SC2034  # read by deploy-lib.sh
me=deploy-stacks
# shellcheck source-path=SCRIPTDIR source=deploy-lib.sh
. "$repo/scripts/deploy-lib.sh"

usage() {
  cat >&2 <<'USAGE'
usage: deploy-stacks.sh up STACK_DIR BUILD_DIR   start what is not running; writes STACK_DIR/deploy.env
                                                 (one VAR=BASE_URL line per deployment that answers)
                                                 and exits non-zero if any did not start
       deploy-stacks.sh down STACK_DIR           stop exactly what `up` started
USAGE
  exit 2
}

readonly prefix=/calendar/api
readonly apache_modes=(proxy fcgid cgi)

env_name() {
  case $1 in
    nginx-tcp) echo CAL_TEST_NGINX_TCP_PREFIX ;;
    proxy) echo CAL_TEST_APACHE_PROXY ;;
    fcgid) echo CAL_TEST_APACHE_FCGID ;;
    cgi) echo CAL_TEST_APACHE_CGI ;;
  esac
}

# port_of NAME: the port this deployment had in deploy.env, if any (restarts keep their URLs).
port_of() {
  [ -s "$stack/deploy.env" ] || return 0
  sed -n "s|^$(env_name "$1")=http://127.0.0.1:\([0-9]*\)/.*|\1|p" "$stack/deploy.env" | head -n 1
}

# --- nginx -> spawn-fcgi -> calendar-fcgi over TCP ------------------------------------------

fcgi_mark() { echo "--config $ndir/service.conf"; }
nginx_mark() { echo "-c $ndir/nginx.conf "; }

start_spawned_service() {
  local port pid i user=()
  if running_pid "$ndir/calendar-fcgi.pid" "$(fcgi_mark)" >/dev/null; then
    cat "$ndir/fcgi.port"
    return 0
  fi
  port=$("$repo/scripts/stack.sh" free-port)
  # A copy of the binary and of the stack's config, both readable by the user it runs as.
  mkdir -p "$ndir/bin"
  install -m 0755 "$build/calendar-fcgi" "$ndir/bin/calendar-fcgi"
  rm -rf "$ndir/bin/locale"
  [ ! -d "$build/locale" ] || cp -R "$build/locale" "$ndir/bin/locale"   # the language catalogs
  install -m 0644 "$stack/calendar.conf" "$ndir/service.conf"
  # www-data (as root) reaches the copies here and the MariaDB socket in the stack directory.
  require_reachable "$stack"
  [ "$(id -u)" -ne 0 ] || user=(-u www-data)
  # -n: spawn-fcgi binds the port, puts the socket on fd 0 and execs the service in its own
  # place (its log stays ours; forking, spawn-fcgi would send it to /dev/null).
  setsid spawn-fcgi -n -a 127.0.0.1 -p "$port" "${user[@]}" -- \
    "$ndir/bin/calendar-fcgi" --config "$ndir/service.conf" \
    </dev/null >/dev/null 2>>"$ndir/calendar-fcgi.log" &
  pid=$!
  echo "$pid" > "$ndir/calendar-fcgi.pid"
  echo "$port" > "$ndir/fcgi.port"
  for ((i = 0; i < 100; i++)); do
    port_free_check "$port" || { echo "$port"; return 0; }
    alive "$pid" || break
    sleep 0.1
  done
  show_log "$ndir/calendar-fcgi.log"
  die "spawn-fcgi/calendar-fcgi did not listen on 127.0.0.1:$port"
}

# port_free_check PORT: true while nothing accepts on 127.0.0.1:PORT.
port_free_check() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

up_nginx_tcp() {
  local port fcgi_port user_sed pid
  ndir=$stack/nginx-tcp
  mkdir -p "$ndir/tmp"
  fcgi_port=$(start_spawned_service)
  port=$(port_of nginx-tcp)
  [ -n "$port" ] || port=$("$repo/scripts/stack.sh" free-port)
  if [ "$(id -u)" -eq 0 ]; then user_sed="s|@USER@|www-data|g"; else user_sed='/^user @USER@;/d'; fi
  copy_web "$build" "$ndir/web"
  sed -e "$user_sed" -e "s|@PORT@|$port|g" -e "s|@FCGI@|127.0.0.1:$fcgi_port|g" \
      -e "s|@DIR@|$(sed_escape "$ndir")|g" -e "s|@WEB@|$(sed_escape "$ndir/web")|g" \
      -e "s|@SEARCH_RATE@|${STACK_SEARCH_RATE:-200r/s}|g" -e "s|@SEARCH_BURST@|${STACK_SEARCH_BURST:-1000}|g" \
      "$repo/nginx/calendar-tcp.conf" > "$ndir/nginx.conf.new"
  if pid=$(running_pid "$ndir/nginx.pid" "$(nginx_mark)"); then
    if cmp -s "$ndir/nginx.conf.new" "$ndir/nginx.conf"; then
      rm -f "$ndir/nginx.conf.new"
      echo "$port"
      return 0
    fi
    stop_pid "$pid" nginx QUIT 10
  fi
  mv "$ndir/nginx.conf.new" "$ndir/nginx.conf"
  say "starting nginx (TCP to calendar-fcgi on 127.0.0.1:$fcgi_port) on 127.0.0.1:$port"
  nginx -p "$ndir/" -c "$ndir/nginx.conf" -e "$ndir/error.log" </dev/null >"$ndir/start.log" 2>&1 ||
    { show_log "$ndir/start.log"; die "nginx did not start"; }
  wait_url "http://127.0.0.1:$port$prefix/cal/events/v1" "$ndir/nginx.pid" "$(nginx_mark)" \
    "$ndir/error.log" "$ndir/calendar-fcgi.log" >&2
  echo "$port"
}

down_nginx_tcp() {
  local pid
  ndir=$stack/nginx-tcp
  [ -d "$ndir" ] || return 0
  if pid=$(running_pid "$ndir/nginx.pid" "$(nginx_mark)"); then stop_pid "$pid" nginx QUIT 10; fi
  if pid=$(running_pid "$ndir/calendar-fcgi.pid" "$(fcgi_mark)"); then stop_pid "$pid" calendar-fcgi TERM 15; fi
  rm -f "$ndir/calendar-fcgi.pid"
}

# --- commands -------------------------------------------------------------------------------

# up_one NAME OUT: starts one deployment; writes "VAR=BASE_URL" to OUT once it answers.
up_one() {
  local name=$1 out=$2 port
  if [ "$name" = nginx-tcp ]; then
    port=$(up_nginx_tcp)
  else
    port=$(port_of "$name")
    [ -n "$port" ] || port=$("$repo/scripts/stack.sh" free-port)
    "$repo/scripts/apache-stack.sh" up "$stack" "$name" "$port" "$build"
  fi
  echo "$(env_name "$name")=http://127.0.0.1:$port$prefix" > "$out"
}

cmd_up() {
  [ $# -eq 2 ] || usage
  stack=$(cd "$1" 2>/dev/null && pwd) || die "no stack directory $1"
  build=$(cd "$2" 2>/dev/null && pwd) || die "no build directory $2"
  local name failed=0 pids=() names=()
  # In parallel: each waits for its server to answer.
  for name in nginx-tcp "${apache_modes[@]}"; do
    rm -f "$stack/deploy.$name.env"
    ( up_one "$name" "$stack/deploy.$name.env" ) &
    pids+=($!)
    names+=("$name")
  done
  : > "$stack/deploy.env.new"
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}" && [ -s "$stack/deploy.${names[$i]}.env" ]; then
      cat "$stack/deploy.${names[$i]}.env" >> "$stack/deploy.env.new"
    else
      say "error: deployment ${names[$i]} did not start"
      failed=1
    fi
    rm -f "$stack/deploy.${names[$i]}.env"
  done
  mv "$stack/deploy.env.new" "$stack/deploy.env"
  return $failed
}

cmd_down() {
  [ $# -eq 1 ] || usage
  [ -d "$1" ] || return 0
  stack=$(cd "$1" && pwd)
  local mode
  for mode in "${apache_modes[@]}"; do "$repo/scripts/apache-stack.sh" down "$stack" "$mode" || true; done
  down_nginx_tcp
}

case ${1:-} in
  up) shift; cmd_up "$@" ;;
  down) shift; cmd_down "$@" ;;
  *) usage ;;
esac
