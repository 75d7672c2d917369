#!/usr/bin/env bash
# The time `calendarctl migrate` takes on a stack's database (docs/performance.md), in two ways:
#   upgrade  a copy of the database in the first released schema (tests/fixtures/schema-v1.sql):
#            every v1 column of every v1 table copied over, then migrated to the current schema,
#            as an upgrade of a site of that size would be;
#   rerun    migrate again on the stack's own database (already current): the cost of every start.
# Prints "UPGRADE_SECONDS RERUN_SECONDS" on stdout; progress on stderr. The copy is dropped again.
#
#   migrate-timing.sh STACK_DIR BUILD_DIR
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 STACK_DIR BUILD_DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
copy=calendar_v1_copy

q() { mariadb --no-defaults --default-character-set=utf8mb4 --socket="$dir/mysqld.sock" -uroot -N -B "$@"; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b - a}'; }

src=$(awk -F' *= *' '/^\[database\]/ {s = 1; next} /^\[/ {s = 0} s && $1 == "name" {print $2}' "$dir/calendar.conf")
[ -n "$src" ] || { echo "migrate-timing: no database name in $dir/calendar.conf" >&2; exit 1; }
q -e "DROP DATABASE IF EXISTS $copy; CREATE DATABASE $copy CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
trap 'q -e "DROP DATABASE IF EXISTS $copy" || true; rm -f "$dir/calendar-v1-copy.conf"' EXIT
q "$copy" < "$repo/tests/fixtures/schema-v1.sql"

# The v1 columns (stored generated ones are computed again), table by table in foreign-key order;
# the rows the fixture schema writes itself (data_version, schema_migrations) stay as written.
echo "migrate-timing: copying $src into $copy (v1 schema)" >&2
t0=$EPOCHREALTIME
copy_sql="SET FOREIGN_KEY_CHECKS = 0; SET @cal_bulk_load = 1;"
for table in users app_passwords posts event_details venue_details organizer_details attachment_details \
             event_venues event_organizers terms term_relationships term_counts options; do
  cols=$(q -e "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS
               WHERE TABLE_SCHEMA = '$copy' AND TABLE_NAME = '$table' AND EXTRA NOT LIKE '%GENERATED%'")
  if [ "$table" = term_counts ]; then  # sharded since (schema_migrations 7): one row per term in v1
    copy_sql+=" INSERT INTO $copy.$table ($cols) SELECT term_id, SUM(published) FROM $src.$table GROUP BY term_id;"
  elif [ "$table" = posts ]; then  # v1 has no series (schema_migrations 14): their occurrences stay, as events
    copy_sql+=" INSERT INTO $copy.$table ($cols) SELECT $cols FROM $src.$table WHERE type <> 'series';"
  else
    copy_sql+=" INSERT INTO $copy.$table ($cols) SELECT $cols FROM $src.$table;"
  fi
done
q "$copy" -e "$copy_sql"
echo "migrate-timing: copied in $(seconds "$t0" "$EPOCHREALTIME") s ($(q -e "SELECT COUNT(*) FROM $copy.posts WHERE type = 'event'") events)" >&2

sed "s/^name *= *$src\$/name = $copy/" "$dir/calendar.conf" > "$dir/calendar-v1-copy.conf"
t0=$EPOCHREALTIME
"$build/calendarctl" --config "$dir/calendar-v1-copy.conf" migrate >&2
upgrade=$(seconds "$t0" "$EPOCHREALTIME")
t0=$EPOCHREALTIME
"$build/calendarctl" --config "$dir/calendar.conf" migrate >&2
rerun=$(seconds "$t0" "$EPOCHREALTIME")
echo "$upgrade $rerun"
