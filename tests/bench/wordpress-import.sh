#!/usr/bin/env bash
# The import rate of `calendarctl import-wordpress` (docs/importing-wordpress.md): builds a
# WordPress + TEC source of N events (default 100,000) beside the stack's database, shaped like
# TEC's rows (TEC's Event Tickets dump for the tables, then per event the meta TEC writes: dates
# local and UTC, zone, cost, flags, a venue, one or two organizers, a category and a tag), imports
# it into the stack's database, and prints the time of the first run and of a second run with
# nothing changed. The source database is dropped afterwards.
#
# usage: tests/bench/wordpress-import.sh STACK_DIR [EVENTS]
#   STACK_DIR: a stack of scripts/stack.sh (make start: var/) whose database may receive them.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${1:?usage: wordpress-import.sh STACK_DIR [EVENTS]}
events=${2:-100000}
db=wpbench_$$
mysql=(mariadb --no-defaults --default-character-set=utf8mb4 --socket="$dir/mysqld.sock" -uroot)
ctl=("$repo/build/calendarctl" --config "$dir/calendar.conf")
[ -n "${KEEP:-}" ] || trap '"${mysql[@]}" -e "DROP DATABASE IF EXISTS $db"' EXIT
echo "source database: $db" >&2

"${mysql[@]}" -e "CREATE DATABASE $db"
"${mysql[@]}" "$db" <"$repo/tests/fixtures/wordpress/et-dump-acceptance.sql"
"${mysql[@]}" "$db" <<SQL
UPDATE wp_options SET option_value = 'http://bench-$$.test' WHERE option_name IN ('siteurl', 'home');
SET @base = 1000;
-- 100 venues, 100 organizers, 20 categories, 50 tags.
INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt,
  post_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_type)
SELECT @base + seq, 1, '2024-01-01 10:00:00', '2024-01-01 10:00:00', '', CONCAT('Venue ', seq), '', 'publish',
  CONCAT('bench-venue-', seq), '', '', '2024-01-01 10:00:00', '2024-01-01 10:00:00', '', 'tribe_venue'
FROM seq_1_to_100;
INSERT INTO wp_postmeta (post_id, meta_key, meta_value)
SELECT @base + seq, k.k, CONCAT(k.v, seq) FROM seq_1_to_100
  JOIN (SELECT '_VenueAddress' k, 'Street ' v UNION ALL SELECT '_VenueCity', 'City '
        UNION ALL SELECT '_VenueZip', '100' UNION ALL SELECT '_VenueShowMap', '1') k;
INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt,
  post_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_type)
SELECT @base + 100 + seq, 1, '2024-01-01 10:00:00', '2024-01-01 10:00:00', '', CONCAT('Organizer ', seq), '',
  'publish', CONCAT('bench-organizer-', seq), '', '', '2024-01-01 10:00:00', '2024-01-01 10:00:00', '',
  'tribe_organizer'
FROM seq_1_to_100;
INSERT INTO wp_terms (term_id, name, slug) SELECT 100 + seq, CONCAT('Bench category ', seq),
  CONCAT('bench-category-', seq) FROM seq_1_to_20;
INSERT INTO wp_term_taxonomy (term_taxonomy_id, term_id, taxonomy, description, parent)
  SELECT 100 + seq, 100 + seq, 'tribe_events_cat', '', 0 FROM seq_1_to_20;
INSERT INTO wp_terms (term_id, name, slug) SELECT 200 + seq, CONCAT('Bench tag ', seq), CONCAT('bench-tag-', seq)
  FROM seq_1_to_50;
INSERT INTO wp_term_taxonomy (term_taxonomy_id, term_id, taxonomy, description, parent)
  SELECT 200 + seq, 200 + seq, 'post_tag', '', 0 FROM seq_1_to_50;
-- The events.
INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt,
  post_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_type)
SELECT @base + 1000 + seq, 1, '2024-01-01 10:00:00', '2024-01-01 10:00:00',
  CONCAT('<!-- wp:paragraph --><p>Event ', seq, ' at the hall.</p><!-- /wp:paragraph -->'),
  CONCAT('Bench event ', seq), '', IF(seq % 10 = 0, 'draft', 'publish'), CONCAT('bench-event-', seq), '', '',
  '2024-01-01 10:00:00', '2024-01-01 10:00:00', '', 'tribe_events'
FROM seq_1_to_$events;
INSERT INTO wp_postmeta (post_id, meta_key, meta_value)
SELECT @base + 1000 + s.seq, k.k,
  CASE k.k
    WHEN '_EventStartDate' THEN DATE_FORMAT('2025-01-01 09:00:00' + INTERVAL s.seq HOUR, '%Y-%m-%d %H:%i:%s')
    WHEN '_EventEndDate' THEN DATE_FORMAT('2025-01-01 11:00:00' + INTERVAL s.seq HOUR, '%Y-%m-%d %H:%i:%s')
    WHEN '_EventStartDateUTC' THEN DATE_FORMAT('2025-01-01 09:00:00' + INTERVAL s.seq HOUR, '%Y-%m-%d %H:%i:%s')
    WHEN '_EventEndDateUTC' THEN DATE_FORMAT('2025-01-01 11:00:00' + INTERVAL s.seq HOUR, '%Y-%m-%d %H:%i:%s')
    WHEN '_EventTimezone' THEN 'UTC'
    WHEN '_EventCost' THEN s.seq % 50
    WHEN '_EventCurrencySymbol' THEN '€'
    WHEN '_EventVenueID' THEN @base + 1 + s.seq % 100
    WHEN '_EventOrganizerID' THEN @base + 101 + s.seq % 100
    WHEN '_EventShowMap' THEN '1'
    WHEN '_EventShowMapLink' THEN '1'
    WHEN '_EventURL' THEN CONCAT('https://example.test/e/', s.seq)
  END
FROM seq_1_to_$events s
  JOIN (SELECT '_EventStartDate' k UNION ALL SELECT '_EventEndDate' UNION ALL SELECT '_EventStartDateUTC'
        UNION ALL SELECT '_EventEndDateUTC' UNION ALL SELECT '_EventTimezone' UNION ALL SELECT '_EventCost'
        UNION ALL SELECT '_EventCurrencySymbol' UNION ALL SELECT '_EventVenueID' UNION ALL SELECT '_EventOrganizerID'
        UNION ALL SELECT '_EventShowMap' UNION ALL SELECT '_EventShowMapLink' UNION ALL SELECT '_EventURL') k;
INSERT INTO wp_term_relationships (object_id, term_taxonomy_id)
  SELECT @base + 1000 + seq, 101 + seq % 20 FROM seq_1_to_$events
  UNION ALL SELECT @base + 1000 + seq, 201 + seq % 50 FROM seq_1_to_$events;
SQL
for run in first second; do
  start=$(date +%s.%N)
  "${ctl[@]}" import-wordpress --from "mysql://root@localhost/$db" --socket "$dir/mysqld.sock" >"$dir/$db-$run.txt"
  end=$(date +%s.%N)
  awk -v r=$run -v n="$events" -v s="$start" -v e="$end" \
    'BEGIN { t = e - s; printf "%s run: %d events in %.1f s (%.0f events/s)\n", r, n, t, n / t }'
  awk '$1 == "event" && NF == 5' "$dir/$db-$run.txt"
  rm -f "$dir/$db-$run.txt"
done
