#!/usr/bin/env bash
# Starts and stops a private Apache (Debian's apache2 with its own ServerRoot, port, pid file and
# logs, never the system service) in front of the calendar service of a running
# scripts/stack.sh stack, in one of the three ways site owners deploy it on Apache. The REST
# root is at /calendar/api; the database is the stack's.
#
# MODE:  proxy  mod_proxy_fcgi to the stack's calendar-fcgi socket (apache/calendar-proxy-fcgi.conf)
#        fcgid  mod_fcgid starting a copy of BUILD_DIR/calendar-fcgi itself (apache/calendar-fcgid.conf)
#        cgi    plain CGI through .htaccess (apache/calendar-cgi.htaccess), one process per request
# Everything lives in STACK_DIR/apache-MODE/: httpd.conf, calendar.conf (the filled-in example),
# service.conf (a copy of the stack's calendar.conf readable by Apache's user), htdocs/, run/,
# error.log, access.log, httpd.pid.
set -euo pipefail
shopt -s inherit_errexit   # errors inside $(...) stop the script too

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
umask 022   # what is written here is read by Apache's user
# shellcheck disable=SC2034  # read by deploy-lib.sh
me=apache-stack
# shellcheck source-path=SCRIPTDIR source=deploy-lib.sh
. "$repo/scripts/deploy-lib.sh"

usage() {
  cat >&2 <<'USAGE'
usage: apache-stack.sh up STACK_DIR MODE HTTP_PORT BUILD_DIR   start (idempotent); returns once
                                                               the API answers through Apache
       apache-stack.sh down STACK_DIR MODE                     stop exactly that Apache
       apache-stack.sh status STACK_DIR MODE                   exit 0 only if it runs
USAGE
  exit 2
}

readonly prefix=/calendar/api

# set_dirs STACK_DIR MODE: stack, mode, adir.
set_dirs() {
  case $2 in proxy | fcgid | cgi) mode=$2 ;; *) die "MODE must be proxy, fcgid or cgi: $2" ;; esac
  stack=$(cd "$1" 2>/dev/null && pwd) || die "no stack directory $1"
  adir=$stack/apache-$mode
  me="apache-stack ($mode)"
}

apache_cmd() { apache2 -d "$adir" -f "$adir/httpd.conf" -D "MODE_$mode" "$@" </dev/null; }
apache_pid() { running_pid "$adir/httpd.pid" "-f $adir/httpd.conf "; }

# set_define FILE NAME VALUE: rewrites the line "Define NAME ..." of an example config.
set_define() {
  grep -q "^Define $2 " "$1" || die "$1 has no 'Define $2' line"
  sed -i "s|^Define $2 .*|Define $2 $(sed_escape "$3")|" "$1"
}

# copy_catalogs DIR: the language catalogs beside a copy of the binary (DIR/locale), where the
# service looks for them.
copy_catalogs() {
  rm -rf "$1/locale"
  [ ! -d "$build/locale" ] || cp -R "$build/locale" "$1/locale"
}

# write_files HTTP_PORT: httpd.conf, the mode's example filled in, and what it serves (copies of
# $build's binary and catalogs).
write_files() {
  local port=$1 user_sed
  # As root, Apache runs its children (and the programs they start) as www-data, which must
  # reach everything below: the stack directory (the sockets) and this one (the copies).
  require_reachable "$stack"
  if [ "$(id -u)" -eq 0 ]; then
    user_sed="s|@USER@|www-data|; s|@GROUP@|www-data|"
  else
    user_sed='/^User @USER@$/d; /^Group @GROUP@$/d'
  fi
  rm -rf "${adir:?}/htdocs" "${adir:?}/bin"
  mkdir -p "$adir/run" "$adir/htdocs"
  sed -e "s|@DIR@|$(sed_escape "$adir")|g" -e "s|@PORT@|$port|g" -e "$user_sed" \
      "$repo/apache/test-httpd.conf" > "$adir/httpd.conf"
  # The stack's config, readable by Apache's user (the original stays as it is).
  install -m 0644 "$stack/calendar.conf" "$adir/service.conf"
  case $mode in
    proxy)
      cp "$repo/apache/calendar-proxy-fcgi.conf" "$adir/calendar.conf"
      set_define "$adir/calendar.conf" CAL_PREFIX "$prefix"
      set_define "$adir/calendar.conf" CAL_SOCKET "$stack/calendar.sock"
      set_define "$adir/calendar.conf" CAL_PAGE "${prefix%/*}"
      set_define "$adir/calendar.conf" CAL_WEB "$adir/web"
      copy_web "$build" "$adir/web"
      ;;
    fcgid)
      # A copy of the binary: a rebuild during the tests does not change the running service.
      mkdir -p "$adir/bin" "$adir/run/fcgid"
      install -m 0755 "$build/calendar-fcgi" "$adir/bin/calendar-fcgi"
      copy_catalogs "$adir/bin"
      [ "$(id -u)" -ne 0 ] || chown www-data: "$adir/run/fcgid"
      cp "$repo/apache/calendar-fcgid.conf" "$adir/calendar.conf"
      set_define "$adir/calendar.conf" CAL_PREFIX "$prefix"
      set_define "$adir/calendar.conf" CAL_BINARY "$adir/bin/calendar-fcgi"
      set_define "$adir/calendar.conf" CAL_CONFIG "$adir/service.conf"
      set_define "$adir/calendar.conf" CAL_PAGE "${prefix%/*}"
      set_define "$adir/calendar.conf" CAL_WEB "$adir/web"
      copy_web "$build" "$adir/web"
      ;;
    cgi)
      # The shared-hosting layout: htdocs/calendar/.htaccess, the binary as htdocs/calendar/api and
      # the web calendar's files beside them.
      copy_web "$build" "$adir/htdocs${prefix%/*}"
      install -m 0755 "$build/calendar-fcgi" "$adir/htdocs$prefix"
      copy_catalogs "$adir/htdocs${prefix%/*}"
      grep -q '^SetEnv CAL_CONFIG ' "$repo/apache/calendar-cgi.htaccess" || die "no SetEnv CAL_CONFIG line"
      sed "s|^SetEnv CAL_CONFIG .*|SetEnv CAL_CONFIG $(sed_escape "$adir/service.conf")|" \
          "$repo/apache/calendar-cgi.htaccess" > "$adir/htdocs${prefix%/*}/.htaccess"
      ;;
  esac
}

cmd_up() {
  [ $# -eq 4 ] || usage
  set_dirs "$1" "$2"
  [[ $3 =~ ^[0-9]+$ ]] || die "HTTP_PORT must be a number: $3"
  local port=$3 build pid
  build=$(cd "$4" 2>/dev/null && pwd) || die "no build directory $4"
  [ -x "$build/calendar-fcgi" ] || die "missing $build/calendar-fcgi"
  [ -s "$stack/calendar.conf" ] || die "$stack is not a running stack (no calendar.conf)"
  [ "$mode" != proxy ] || [ -S "$stack/calendar.sock" ] || die "no calendar-fcgi socket in $stack (stack.sh up first)"
  command -v apache2 >/dev/null || die "apache2 is not installed (scripts/install-deps.sh)"
  if pid=$(apache_pid); then
    if grep -q "^Listen 127.0.0.1:$port\$" "$adir/httpd.conf"; then return 0; fi
    stop_pid "$pid" apache2 TERM 15
  fi
  mkdir -p "$adir"
  write_files "$port"
  apache_cmd -t >"$adir/configtest.log" 2>&1 || { show_log "$adir/configtest.log"; die "invalid Apache config"; }
  say "starting apache2 on 127.0.0.1:$port"
  apache_cmd -k start >"$adir/start.log" 2>&1 || { show_log "$adir/start.log"; show_log "$adir/error.log"; die "apache2 did not start"; }
  wait_url "http://127.0.0.1:$port$prefix/cal/events/v1" "$adir/httpd.pid" "-f $adir/httpd.conf " \
    "$adir/error.log" "$stack/calendar-fcgi.log"
  say "up: http://127.0.0.1:$port$prefix/cal/events/v1"
}

cmd_down() {
  [ $# -eq 2 ] || usage
  [ -d "$1/apache-$2" ] || return 0
  set_dirs "$1" "$2"
  local pid
  # SIGTERM: Apache stops its children, and mod_fcgid the calendar-fcgi processes it started.
  if pid=$(apache_pid); then stop_pid "$pid" apache2 TERM 20; fi
  return 0
}

cmd_status() {
  [ $# -eq 2 ] || usage
  set_dirs "$1" "$2"
  local pid
  if pid=$(apache_pid); then echo "apache2 ($mode) running (pid $pid)"; else echo "apache2 ($mode) stopped"; return 1; fi
}

case ${1:-} in
  up) shift; cmd_up "$@" ;;
  down) shift; cmd_down "$@" ;;
  status) shift; cmd_status "$@" ;;
  *) usage ;;
esac
