#!/usr/bin/env bash
# schema.sql as the `mysql` client and phpMyAdmin read it: calendarctl splits schema.sql into
# statements at lines that end in ';' (store/schema.cpp), so the compound bodies of its triggers
# and procedures keep their inner ';' at the start of a line; the client would split them there.
# Same rule here, each statement ended by the delimiter $$ instead, between DELIMITER lines.
#   scripts/schema-for-mysql.sh [schema.sql] > build/schema-mysql.sql
set -euo pipefail
in=${1:-"$(dirname "${BASH_SOURCE[0]}")/../schema.sql"}
if grep -q '\$\$' "$in"; then
  echo "schema-for-mysql: $in contains \$\$, the delimiter this script uses" >&2
  exit 1
fi
awk '
  BEGIN { print "-- Generated from schema.sql by scripts/schema-for-mysql.sh: load it with the mysql client"
          print "-- (mysql DBNAME < schema-mysql.sql) or phpMyAdmin'"'"'s Import. Loading it again is safe."
          print "DELIMITER $$" }
  /^[ \t]*--/ || /^[ \t\r]*$/ { next }
  { line = $0; sub(/[ \t\r]+$/, "", line)
    if (line ~ /;$/) { sub(/;$/, "$$", line); print line } else print $0 }
  END { print "DELIMITER ;" }
' "$in"
