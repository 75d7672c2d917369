#!/usr/bin/env bash
# Prints the SQL that seeds the benchmark dataset (issue 8), for the `mariadb` client:
#
#   seed-sql.sh base AUTHOR_ID         40 categories, 200 tags, 500 venues, 300 organizers, 50 images
#   seed-sql.sh events FIRST LAST      events number FIRST..LAST (1-based), with their links
#
# Bulk INSERT ... SELECT over MariaDB's sequence engine (seq_1_to_N), never through the API, so a
# million events load in about a minute. Deterministic: every value is a function of the row
# number through CRC32 (no RAND(), no clock) except that event dates are offsets from the UTC
# day the seed runs, so the default list window always sees the same share of the data. Event
# number n gets posts.id 1000 + n; venues are ids 1-500, organizers 501-800, images 801-850,
# terms 1-40 (categories) and 41-240 (tags). Seed into a fresh database only.
#
# Shape of an event n (h(k) = CRC32('e<n>:<k>'), a fixed pseudo-random 32-bit number):
#   start: a quarter hour within ±2 years of today, duration 1-4 h, 5% all-day;
#   status: 94% publish, 3% draft, 2% private, 1% future (publication date in the future);
#   1% hidden from listings; 10% featured; 20% with an image;
#   venue: 90% of events, uniform over the 500 venues;
#   organizers: 1-3 distinct ones, in a fixed order;
#   terms: 0-3 (first a category, skewed so that category 1 is the most common, then tags);
#   title/description: words from a 20-word vocabulary, so `search=jazz` matches about 10%.
set -euo pipefail

vocabulary="'jazz','rock','yoga','chess','poetry','cinema','garden','market','dance','science',
  'history','cooking','theatre','football','design','comedy','opera','running','painting','coding'"

base() {
  local author=$1
  cat <<EOF
SET SESSION foreign_key_checks = 0, unique_checks = 0;
INSERT INTO terms (id, taxonomy, name, slug, description, parent)
  SELECT seq, 'cal_events_cat', CONCAT('Category ', seq), CONCAT('category-', seq),
         CONCAT('Events of kind ', seq, '.'), 0
  FROM seq_1_to_40;
INSERT INTO terms (id, taxonomy, name, slug, description, parent)
  SELECT 40 + seq, 'post_tag', CONCAT('Tag ', seq), CONCAT('tag-', seq), '', 0
  FROM seq_1_to_200;

INSERT INTO posts (id, type, status, author, title, content, excerpt, slug, password, parent, image_id,
                   date_local, date_utc, modified_local, modified_utc)
  SELECT seq, 'venue', 'publish', $author, CONCAT('Venue ', seq),
         CONCAT('<p>Venue ', seq, ' is a hall with room for ', 50 + MOD(CRC32(CONCAT('v', seq)), 950), ' people.</p>'),
         '', CONCAT('venue-', seq), '', 0, NULL,
         '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00'
  FROM seq_1_to_500;
INSERT INTO venue_details (venue_id, address, city, country, province, state, zip, phone, website,
                           stateprovince, show_map, show_map_link, geo_lat, geo_lng)
  SELECT seq, CONCAT(1 + MOD(CRC32(CONCAT('va', seq)), 999), ' Main Street'),
         ELT(1 + MOD(seq, 5), 'Springfield', 'Riverside', 'Fairview', 'Madison', 'Georgetown'),
         'United States', '', ELT(1 + MOD(seq, 4), 'CA', 'NY', 'TX', 'WA'),
         LPAD(MOD(CRC32(CONCAT('vz', seq)), 100000), 5, '0'), CONCAT('+1 555 ', LPAD(seq, 4, '0')),
         CONCAT('https://venue', seq, '.example.org/'), ELT(1 + MOD(seq, 4), 'CA', 'NY', 'TX', 'WA'),
         1, 1, NULL, NULL
  FROM seq_1_to_500;

INSERT INTO posts (id, type, status, author, title, content, excerpt, slug, password, parent, image_id,
                   date_local, date_utc, modified_local, modified_utc)
  SELECT 500 + seq, 'organizer', 'publish', $author, CONCAT('Organizer ', seq),
         CONCAT('<p>Organizer ', seq, ' runs events in town.</p>'), '', CONCAT('organizer-', seq), '', 0, NULL,
         '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00'
  FROM seq_1_to_300;
INSERT INTO organizer_details (organizer_id, phone, website, email)
  SELECT 500 + seq, CONCAT('+1 555 ', LPAD(1000 + seq, 4, '0')), CONCAT('https://org', seq, '.example.org/'),
         CONCAT('contact@org', seq, '.example.org')
  FROM seq_1_to_300;

INSERT INTO posts (id, type, status, author, title, content, excerpt, slug, password, parent, image_id,
                   date_local, date_utc, modified_local, modified_utc)
  SELECT 800 + seq, 'attachment', 'publish', $author, CONCAT('https://img.example.org/bench/', seq, '.jpg'),
         '', '', CONCAT('bench-image-', seq), '', 0, NULL,
         '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00', '2020-01-01 10:00:00'
  FROM seq_1_to_50;
INSERT INTO attachment_details (attachment_id, url, url_hash)
  SELECT 800 + seq, CONCAT('https://img.example.org/bench/', seq, '.jpg'),
         UNHEX(SHA2(CONCAT('https://img.example.org/bench/', seq, '.jpg'), 256))
  FROM seq_1_to_50;
EOF
}

# events FIRST LAST: one INSERT ... SELECT per table over seq_FIRST_to_LAST, in chunks of 100,000
# rows so that no single statement holds a huge transaction.
events() {
  local first=$1 last=$2 from to
  echo "SET SESSION foreign_key_checks = 0, unique_checks = 0;"
  echo "SET @anchor = TIMESTAMP(UTC_DATE());"
  for ((from = first; from <= last; from += 100000)); do
    to=$((from + 99999 > last ? last : from + 99999))
    events_chunk "$from" "$to"
  done
}

events_chunk() {
  local s="seq_$1_to_$2"
  # h K: CRC32 of 'e<n>:<K>', a fixed pseudo-random number per event n (column e.seq) and purpose K.
  h() { echo "CRC32(CONCAT('e', e.seq, ':$1'))"; }
  # Start (local wall clock): a quarter hour in [-730 days, +730 days) around today 00:00.
  local start="@anchor + INTERVAL (CAST(MOD($(h 1), 1460 * 96) AS SIGNED) * 15 - 730 * 1440) MINUTE"
  local status="CASE WHEN MOD($(h 2), 100) < 94 THEN 'publish' WHEN MOD($(h 2), 100) < 97 THEN 'draft'
                     WHEN MOD($(h 2), 100) < 99 THEN 'private' ELSE 'future' END"
  local word1="ELT(1 + MOD($(h 3), 20), $vocabulary)" word2="ELT(1 + MOD($(h 4), 20), $vocabulary)"
  cat <<EOF
INSERT INTO posts (id, type, status, author, title, content, excerpt, slug, password, parent, image_id,
                   date_local, date_utc, modified_local, modified_utc)
  SELECT 1000 + e.seq, 'event', $status, @author,
         CONCAT('Event ', e.seq, ': ', $word1, ' and ', $word2),
         CONCAT('<p>A gathering about ', $word1, ' with friends of ', $word2,
                '. Bring a chair, a smile and something to share.</p>'),
         CONCAT('All about ', $word1, '.'), CONCAT('event-', e.seq), '', 0,
         IF(MOD($(h 5), 5) = 0, 801 + MOD($(h 5) DIV 5, 50), NULL),
         e.published, e.published, e.published, e.published
  FROM (SELECT seq, IF(MOD($(h 2), 100) = 99, @anchor + INTERVAL 400 DAY + INTERVAL seq SECOND,
                       @anchor - INTERVAL 800 DAY + INTERVAL MOD($(h 5), 700) DAY) AS published
        FROM $s e) e;
INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, all_day, cost,
                           website, show_map, show_map_link, hide_from_listings, sticky, featured)
  SELECT 1000 + t.seq, t.start_local, t.end_local, t.start_local - INTERVAL t.offset_h HOUR,
         t.end_local - INTERVAL t.offset_h HOUR, ELT(1 + t.zone, 'UTC', 'UTC', 'UTC', 'UTC+1', 'UTC-5'), t.all_day,
         ELT(1 + MOD(t.h7, 6), '', 'Free', '\$10', '20€', '\$5 - \$25', '0\$, 20\$, 30\$'),
         IF(MOD(t.h7, 3) = 0, CONCAT('https://tickets.example.org/e/', t.seq), ''), 1, 1,
         IF(MOD(t.h8, 100) = 0, 1, 0), 0, IF(MOD(t.h8, 10) = 1, 1, 0)
  FROM (SELECT e.seq, MOD($(h 6), 5) AS zone, CASE MOD($(h 6), 5) WHEN 3 THEN 1 WHEN 4 THEN -5 ELSE 0 END AS offset_h,
               $(h 7) AS h7, $(h 8) AS h8, IF(MOD($(h 9), 20) = 0, 1, 0) AS all_day,
               IF(MOD($(h 9), 20) = 0, TIMESTAMP(DATE($start)), $start) AS start_local,
               IF(MOD($(h 9), 20) = 0, TIMESTAMP(DATE($start)) + INTERVAL 86399 SECOND,
                  $start + INTERVAL (1 + MOD($(h 9) DIV 20, 4)) HOUR) AS end_local
        FROM $s e) t;
INSERT INTO event_venues (event_id, venue_id)
  SELECT 1000 + e.seq, 1 + MOD($(h 3) DIV 7, 500) FROM $s e WHERE MOD($(h 8) DIV 100, 10) <> 0;
INSERT INTO event_organizers (event_id, organizer_id, position)
  SELECT 1000 + e.seq, 501 + MOD($(h 4) DIV 3 + k.seq * 97, 300), k.seq - 1
  FROM $s e JOIN seq_1_to_3 k ON k.seq <= 1 + MOD($(h 9) DIV 80, 3);
INSERT INTO term_relationships (event_id, term_id)
  SELECT 1000 + e.seq,
         IF(k.seq = 1, 1 + FLOOR(POW(MOD($(h 10), 10000) / 10000, 2) * 40), 41 + MOD($(h 11) + k.seq * 67, 200))
  FROM $s e JOIN seq_1_to_3 k ON k.seq <= MOD($(h 12), 4);
EOF
}

case ${1:-} in
  base) [ $# -eq 2 ] || exit 2; base "$2" ;;
  events) [ $# -eq 3 ] || exit 2; echo "SET @author = (SELECT MIN(id) FROM users);"; events "$2" "$3" ;;
  *) sed -n '2,6p' "$0" >&2; exit 2 ;;
esac
