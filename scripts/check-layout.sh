#!/usr/bin/env bash
# The layering rules of docs/architecture.md, checked on the source tree (run by `make test`, where
# each rule counts as one test). Prints one line per violation and "N passed, N failed" last;
# exits non-zero when a rule is broken. Takes well under a second.
#
# Rules (folders F mean src/F and include/cal/F; "project include" means a quoted include or
# one of <cal/...>; an include without a folder is one beside the includer and always allowed):
#   sql-in-store      no SQL text in a string literal outside store (comments do not count)
#   db-in-store       no call of Db::query/execute/run_script outside src/store/
#   core-includes     core includes only core
#   http-includes     http includes only http and core; libfcgi's headers only in
#                     src/http/fcgi_server.cpp (anywhere in src and include)
#   store-includes    store includes only store and core
#   cache-includes    cache includes only cache, core, http and store
#   driver-includes   Connector/C++ and MariaDB client headers only in src/store/
#   api-subfolders    api/access, api/discovery and api/posts include no resource folder
#                     (events, linked, terms); resources include each other only from events
#   internal-headers  headers beside sources (src/**.h) are included only from their own folder
set -uo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: check-layout.sh [ROOT]      ROOT defaults to the repository
       check-layout.sh --self-test proves each rule can fail: a clean made-up tree passes every
                                   rule, and one violating file per rule breaks exactly that rule
USAGE
  exit 2
}

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

# --- the checks -------------------------------------------------------------------------------

passed=0
failed=0

# rule NAME VIOLATIONS: one test; VIOLATIONS is a text of "file:line: what" lines, empty if none.
rule() {
  if [ -z "$2" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'layout: rule %s broken:\n%s\n' "$1" "$2"
  fi
}

# sources DIR...: C++ files below the folders.
sources() { find "$@" -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) 2>/dev/null | sort; }

# bad_includes ALLOWED FILE...: the project includes of the files whose folder (the first path
# component after an optional cal/) does not match the regex ALLOWED.
bad_includes() {
  local allowed=$1
  shift
  [ $# -gt 0 ] || return 0
  grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("[^"]*/|<cal/)' "$@" |
    grep -vE "^[^:]+:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<](cal/)?($allowed)/" || true
}

# includes_matching REGEX FILE...: the #include lines whose quoted or bracketed path matches.
includes_matching() {
  local re=$1
  shift
  [ $# -gt 0 ] || return 0
  grep -HnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($re)" "$@" || true
}

# code_rules FILE...: a C++ lexer (comments, string, raw string and character literals) for
# the two rules that look at code; prints "sql<TAB>file:line: ..." for string literals that are
# SQL and "db<TAB>file:line: ..." for Db calls outside comments and strings.
code_rules() {
  [ $# -gt 0 ] || return 0
  perl -e '
    use strict; use warnings;
    # SQL as the store writes it: upper-case keywords, "?" placeholders. Any one marks a literal.
    my $sql = qr{
        \b(?:SELECT|INSERT\s+(?:IGNORE\s+)?INTO|REPLACE\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM
           |JOIN|WHERE|HAVING|UNION|VALUES|ORDER\s+BY|GROUP\s+BY|WITH\s+RECURSIVE|LOCK\s+IN\s+SHARE\s+MODE|FOR\s+UPDATE
           |EXISTS|BETWEEN|LIKE|AND|OR|IS\s+(?:NOT\s+)?NULL
           |(?:CREATE|ALTER|DROP|TRUNCATE)\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?
              (?:TABLE|DATABASE|SCHEMA|TRIGGER|INDEX|VIEW|PROCEDURE|FUNCTION)
           |START\s+TRANSACTION|COMMIT|ROLLBACK|SET\s+(?:NAMES|SESSION|GLOBAL)
           |UTC_TIMESTAMP|UNIX_TIMESTAMP|FROM_UNIXTIME|LAST_INSERT_ID|CONCAT(?:_WS)?|COALESCE|DATE_FORMAT|ST_\w+
           |CURRENT_(?:DATE|TIME|TIMESTAMP)
           |CASE\s+WHEN|WHEN|THEN|INTERVAL|DIV|NULL|COLLATE|CHARSET|ENGINE|FOR\s+EACH\s+ROW
           |AS\s+(?:SIGNED|UNSIGNED|DATETIME|DATE|CHAR|DECIMAL))\b
      | \b(?:IF|ELT|LOWER|UPPER|CAST|ROUND|FLOOR|CEIL|POW|LPAD|RPAD|NOW|CURDATE|CURTIME|SYSDATE|UTC_DATE|UTC_TIME
           |SUBSTRING(?:_INDEX)?|CHAR_LENGTH|UNHEX|HEX|SHA2|MD5|CRC32|POINT|GREATEST|LEAST|COUNT|SUM|MIN|MAX)\(
      | \b(?:NOT\s+)?IN\s*\(
      | \bSET\s+\@
      | \b(?:LIMIT|OFFSET)\s+(?:\?|\d)
      | ^\s*(?:ASC|DESC)\s*$
      | \(\?(?:,\s*\?)*\)
      | (?:\s[=<>]{1,2}|\bIN)\s*\?
    }x;
    my $db_call = qr{(?:\.|->)\s*(?:query|execute|run_script)\s*\(};
    for my $file (@ARGV) {
      open(my $fh, "<", $file) or die "check-layout: $file: $!\n";
      my $src = do { local $/; <$fh> };
      close $fh;
      my ($line, $code) = (1, "");
      my $newlines = sub { my $n = () = $_[0] =~ /\n/g; $line += $n; return "\n" x $n };
      my $literal = sub {
        my ($text, $at) = @_;
        return unless $text =~ $sql;
        (my $shown = $text) =~ s/\s*\n\s*/ /g;
        $shown = substr($shown, 0, 100) . "..." if length $shown > 100;
        print "sql\t$file:$at: SQL in a string literal: \"$shown\"\n";
      };
      pos($src) = 0;
      while (pos($src) < length $src) {
        if ($src =~ m{\G//[^\n]*}gc) { $code .= " " }
        elsif ($src =~ m{\G/\*(.*?)(?:\*/|\z)}gcs) { $code .= " " . $newlines->($1) }
        elsif ($src =~ m{\G(?:u8|[uUL])?R"([^()\\\s]{0,16})\((.*?)\)\1"}gcs) {
          my $at = $line; $literal->($2, $at); $code .= q("") . $newlines->($2);
        }
        elsif ($src =~ m{\G"((?:[^"\\\n]|\\.)*)"}gcs) { $literal->($1, $line); $code .= q("") }
        elsif ($src =~ m{\G\x27(?:[^\x27\\\n]|\\.)+\x27}gc) { $code .= "0" }
        elsif ($src =~ m{\G\.?\d(?:[eEpP][+-]|\x27?[\w.])*}gc) { $code .= "0" }
        elsif ($src =~ m{\G[A-Za-z_]\w*}gc) { $code .= $& }
        elsif ($src =~ m{\G([^/"\x27A-Za-z_0-9.]+|.)}gcs) { my $t = $1; $newlines->($t); $code .= $t }
      }
      my @lines = split /\n/, $src, -1;
      my $n = 0;
      for my $l (split /\n/, $code, -1) {
        $n++;
        print "db\t$file:$n: a Db call: " . ($lines[$n - 1] =~ s/^\s+|\s+$//gr) . "\n" if $l =~ $db_call;
      }
    }
  ' "$@"
}

check() {
  local root=$1
  cd "$root" || exit 2
  local core http store cache outside_store api_shared api_linked api_terms code header folder rel user internal
  mapfile -t core < <(sources src/core include/cal/core)
  mapfile -t http < <(sources src/http include/cal/http)
  mapfile -t store < <(sources src/store include/cal/store)
  mapfile -t cache < <(sources src/cache include/cal/cache)
  mapfile -t outside_store < <(sources src include | grep -vE '^(src|include/cal)/store/')
  mapfile -t api_shared < <(sources src/api/access src/api/discovery src/api/posts \
                                    include/cal/api/access include/cal/api/discovery include/cal/api/posts)
  mapfile -t api_linked < <(sources src/api/linked include/cal/api/linked)
  mapfile -t api_terms < <(sources src/api/terms include/cal/api/terms)

  code=$(code_rules "${outside_store[@]}")
  rule sql-in-store "$(grep -P '^sql\t' <<<"$code" | cut -f2-)"
  rule db-in-store "$(grep -P '^db\t' <<<"$code" | cut -f2-)"
  rule core-includes "$(bad_includes 'core' "${core[@]}")"
  local all
  mapfile -t all < <(sources src include)
  rule http-includes "$(bad_includes 'http|core' "${http[@]}"
                       includes_matching 'fcgiapp\.h|fcgio\.h|fcgi_stdio\.h|fcgi_config\.h' "${all[@]}" |
                         grep -v '^src/http/fcgi_server\.cpp:')"
  rule store-includes "$(bad_includes 'store|core' "${store[@]}")"
  rule cache-includes "$(bad_includes 'cache|core|http|store' "${cache[@]}")"
  rule driver-includes "$(includes_matching 'cppconn/|conncpp|mariadb/|mysql/|mysql_[a-z_]*\.h|mysql\.h|mysqld_error\.h|errmsg\.h' \
                          "${outside_store[@]}")"
  rule api-subfolders "$(includes_matching '(cal/)?api/(events|linked|terms)/' "${api_shared[@]}"
                        includes_matching '(cal/)?api/(events|terms)/' "${api_linked[@]}"
                        includes_matching '(cal/)?api/(events|linked)/' "${api_terms[@]}")"
  internal=""
  while IFS= read -r header; do
    folder=$(dirname "$header")
    rel=${header#src/}
    while IFS= read -r user; do
      [ "$(dirname "${user%%:*}")" = "$folder" ] || internal+="$user (internal header $header)"$'\n'
    done < <(grep -rHnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]${rel//./\\.}[\">]" src include 2>/dev/null |
             grep -v "^$header:" || true)
  done < <(find src -name '*.h' 2>/dev/null | sort)
  rule internal-headers "${internal%$'\n'}"

  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# --- the self-test ----------------------------------------------------------------------------

# A made-up tree that keeps every rule, then for each rule one file that breaks it: the check
# must pass the clean tree, and fail the rule, and only it, with each violation. One test per case.
self_test() {
  local tmp st_passed=0 st_failed=0 out
  tmp=$(mktemp -d) || exit 2
  trap "rm -rf '$tmp'" EXIT
  local clean="$tmp/tree"
  mkdir -p "$clean"/{src,include/cal}/{core,http,store,cache,api/{access,posts,discovery,events,linked,terms}} \
           "$clean/src/core/dates"
  put() { mkdir -p "$(dirname "$1")"; cat > "$1"; }
  put "$clean/src/store/events.cpp" <<'EOF'
#include "cal/store/events.h"
#include "cal/core/config.h"
#include <cppconn/statement.h>
// SQL belongs here.
void f(Db& db) { db.query("SELECT id FROM posts WHERE status = ?", {}); db.execute(R"(DELETE FROM x)"); }
EOF
  put "$clean/src/core/dates/posix_tz.h" <<'EOF'
#pragma once
EOF
  put "$clean/src/core/dates/dates.cpp" <<'EOF'
#include "cal/core/dates/dates.h"
#include "core/dates/posix_tz.h"
#include "posix_tz.h"
#include <string>
EOF
  put "$clean/src/http/fcgi_server.cpp" <<'EOF'
#include "cal/http/fcgi_server.h"
#include "cal/core/config.h"
#include <fcgiapp.h>
EOF
  put "$clean/src/cache/response_cache.cpp" <<'EOF'
#include "cal/cache/response_cache.h"
#include "cal/store/data_version.h"
#include "cal/http/request.h"
EOF
  put "$clean/src/api/events/event_list.cpp" <<'EOF'
#include "cal/api/events/event_list.h"
#include "cal/api/linked/linked_fields.h"
#include "cal/api/terms/term_fields.h"
#include "cal/api/posts/post_common.h"
#include "cal/store/events.h"
// Messages and comments may say anything: "SELECT * FROM posts", ctx.db.query("...").
/* A block comment: db.execute("DELETE FROM posts WHERE 1") */
const char* kHelp = "Events, newest first; see https://example.org/select?q=1.";
const char* kCodes = "UTC+H[:MM] YYYY-MM-DD HH:MM:SS !#$%&'*+/=?^_`{|}~-.";
char quote = '"';
long big = 1'000'000;
const char* kAfter = "not SQL";  // "WHERE" in a comment
void g(Store& s) { s.events(); }
EOF
  put "$clean/include/cal/api/access/auth.h" <<'EOF'
#pragma once
#include "cal/api/pipeline/context.h"
#include "cal/core/config.h"
EOF
  put "$clean/include/cal/core/config.h" <<'EOF'
#pragma once
#include <string>
EOF

  # case NAME RULE FILE: the violating FILE's text (stdin) added to a copy of the clean tree
  # must break RULE and only RULE, and each of its lines containing "BAD" must be reported.
  case_() {
    local name=$1 want=$2 file=$3 dir="$tmp/$1" rules ok=1 bad
    cp -r "$clean" "$dir"
    put "$dir/$file"
    out=$(bash "$self" "$dir" 2>&1)
    rules=$(grep -oE '^layout: rule [a-z-]+ broken' <<<"$out" | awk '{print $3}' | tr '\n' ' ')
    [ "$rules" = "${want:+$want }" ] || ok=0
    while IFS= read -r bad; do
      grep -qF "$file:${bad%%:*}:" <<<"$out" || ok=0
    done < <(grep -n 'BAD' "$dir/$file" || true)
    if [ $ok -eq 1 ]; then
      st_passed=$((st_passed + 1))
    else
      st_failed=$((st_failed + 1))
      printf 'layout self-test %s: expected rule(s) "%s" broken with every BAD line, got:\n%s\n' \
        "$name" "$want" "$out"
    fi
  }

  case_ none "" src/core/empty.cpp </dev/null
  case_ sql-literal sql-in-store src/api/linked/linked_lists.cpp <<'EOF'
const char* a = " WHERE p.type = ?";  // BAD
std::string b = std::string(" AND d.start_utc >= ") + "x";  // BAD
const char* c = "EXISTS (SELECT 1 FROM t)"; const char* d = "fine";  // BAD
const char* e = R"sql( -- reported where it starts: BAD
  UPDATE posts SET x = 1)sql";
const char* f = "p.id IN (";  // BAD
EOF
  case_ sql-in-header sql-in-store include/cal/api/events/event_conditions.h <<'EOF'
#pragma once
inline const char* kJoin = " JOIN venue_details vd ON vd.venue_id = ev.venue_id";  // BAD
EOF
  case_ sql-in-tool sql-in-store src/tools/calendarctl.cpp <<'EOF'
void create(std::string n) { run("CREATE DATABASE IF NOT EXISTS `" + n + "`"); }  // BAD
EOF
  case_ db-call db-in-store src/tools/calendarctl.cpp <<'EOF'
void f(Db& server, Db* other) {
  server.run_script(schema);  // BAD
  other->query(text, args);  // BAD
  ctx.db.execute(sql_text);  // BAD
}
EOF
  case_ core-includes core-includes src/core/text/slug.cpp <<'EOF'
#include "cal/core/text/slug.h"
#include "cal/store/posts.h"  // BAD
#include "cal/http/request.h"  // BAD
#include <cal/api/pipeline/context.h>  // BAD
#include <string>
EOF
  case_ http-includes http-includes src/http/request.cpp <<'EOF'
#include "cal/http/request.h"
#include "cal/cache/response_cache.h"  // BAD
#include "cal/api/pipeline/router.h"  // BAD
EOF
  case_ fcgi-outside http-includes src/main.cpp <<'EOF'
#include <fcgiapp.h>  // BAD
#include "cal/http/fcgi_server.h"
EOF
  case_ store-includes store-includes include/cal/store/posts.h <<'EOF'
#pragma once
#include "cal/core/config.h"
#include "cal/http/request.h"  // BAD
#include "cal/cache/version_flights.h"  // BAD
EOF
  case_ cache-includes cache-includes src/cache/version_flights.cpp <<'EOF'
#include "cal/cache/version_flights.h"
#include "cal/api/pipeline/context.h"  // BAD
EOF
  case_ driver-includes driver-includes src/api/posts/post_common.cpp <<'EOF'
#include "cal/api/posts/post_common.h"
#include <cppconn/resultset.h>  // BAD
#include <mysql_driver.h>  // BAD
#include <mariadb/conncpp.hpp>  // BAD
EOF
  case_ api-shared api-subfolders src/api/access/permissions.cpp <<'EOF'
#include "cal/api/access/permissions.h"
#include "cal/api/events/event_record.h"  // BAD
#include "cal/api/terms/term_fields.h"  // BAD
EOF
  case_ api-resources api-subfolders include/cal/api/terms/term_list.h <<'EOF'
#pragma once
#include "cal/api/linked/linked_fields.h"
#include "cal/api/events/event_filter.h"  // BAD
EOF
  case_ api-linked-terms api-subfolders src/api/linked/linked_lists.cpp <<'EOF'
#include "cal/api/terms/term_fields.h"  // BAD
EOF
  case_ internal-headers internal-headers src/api/events/event_dates.cpp <<'EOF'
#include "cal/core/dates/dates.h"
#include "core/dates/posix_tz.h"  // BAD
EOF
  echo "$st_passed passed, $st_failed failed"
  [ "$st_failed" -eq 0 ]
}

case ${1:-} in
  --self-test) self_test ;;
  -*) usage ;;
  *) check "${1:-$(cd "$(dirname "$self")/.." && pwd)}" ;;
esac
