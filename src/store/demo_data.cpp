// SQL of the demo dataset (see cal/store/demo_data.h). The inputs (cities, zones, term names,
// authors) go into session-private MEMORY tables through bound values; every record is then made
// by INSERT ... SELECT over the sequence engine's seq_0_to_N tables, events in chunks of
// kChunk per transaction so the undo log and the locks stay bounded. Pseudo-random choices are
// CRC32 of (seed, row number, purpose): no RAND(), no clock but the day bound in.
#include "cal/store/demo_data.h"

#include "store/bulk_load.h"
#include "store/day_counts.h"
#include "cal/store/search_index.h"

#include <algorithm>
#include <stdexcept>

namespace cal {
namespace {

constexpr long long kChunk = 50'000;              // events per statement and transaction (seq_0_to_49999)
constexpr int kFirstDay = -1000, kLastDay = 900;  // the days the zone tables cover

// Inserts rows of bound values in statements of at most 500 rows.
void insert_values(Db& db, const std::string& head, size_t columns,
                   const std::vector<std::vector<SqlValue>>& rows) {
  const std::string row = "(" + placeholders(columns) + ")";
  for (size_t first = 0; first < rows.size(); first += 500) {
    const size_t last = std::min(rows.size(), first + 500);
    std::string sql = head + " VALUES ";
    std::vector<SqlValue> args;
    for (size_t i = first; i < last; ++i) {
      sql += (i == first ? "" : ", ") + row;
      args.insert(args.end(), rows[i].begin(), rows[i].end());
    }
    db.execute(sql, args);
  }
}

long long single(Db& db, const char* sql, const std::vector<SqlValue>& args = {}) {
  Rows rows = db.query(sql, args);
  return rows.next() ? rows.integer(0) : 0;
}

// The session's input tables. MEMORY: small, fixed-width, gone with the connection.
void create_work_tables(Db& db) {
  const char* const drops[] = {"demo_cities",  "demo_tz_a",  "demo_tz_b",  "demo_tz_c", "demo_venues",
                               "demo_authors", "demo_names", "demo_terms", "demo_ev"};
  for (const char* t : drops) db.execute(std::string("DROP TEMPORARY TABLE IF EXISTS ") + t);
  // Room for a chunk of demo_ev (about 12 MB per 50,000 events) in MEMORY tables of this session.
  db.execute("SET SESSION max_heap_table_size = 64 * 1024 * 1024");
  db.execute(
      "CREATE TEMPORARY TABLE demo_cities (idx INT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL, "
      "country VARCHAR(64) NOT NULL, code CHAR(2) NOT NULL, region VARCHAR(64) NOT NULL, zone_idx INT NOT "
      "NULL, "
      "zone VARCHAR(64) NOT NULL, lat DOUBLE NOT NULL, lng DOUBLE NOT NULL, zip VARCHAR(16) NOT NULL, "
      "phone VARCHAR(16) NOT NULL, streets VARCHAR(200) NOT NULL) ENGINE=MEMORY DEFAULT CHARSET=utf8mb4");
  db.execute(
      "CREATE TEMPORARY TABLE demo_tz_a (zone_idx INT NOT NULL, day INT NOT NULL, early INT NOT NULL, "
      "late INT NOT NULL, switch_second INT NOT NULL, PRIMARY KEY (zone_idx, day)) ENGINE=MEMORY");
  // Copies: a temporary table can be named only once per statement.
  db.execute("CREATE TEMPORARY TABLE demo_tz_b LIKE demo_tz_a");
  db.execute("CREATE TEMPORARY TABLE demo_tz_c LIKE demo_tz_a");
  db.execute(
      "CREATE TEMPORARY TABLE demo_venues (idx INT NOT NULL PRIMARY KEY, post_id BIGINT NOT NULL, "
      "city_idx INT NOT NULL, zone_idx INT NOT NULL, zone VARCHAR(64) NOT NULL) ENGINE=MEMORY DEFAULT "
      "CHARSET=utf8mb4");
  db.execute(
      "CREATE TEMPORARY TABLE demo_authors (idx INT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL) "
      "ENGINE=MEMORY");
  db.execute(
      "CREATE TEMPORARY TABLE demo_names (idx INT NOT NULL PRIMARY KEY, kind TINYINT NOT NULL, parent_idx "
      "INT NOT NULL, "
      "name VARCHAR(200) NOT NULL, slug VARCHAR(200) NOT NULL, parent_id BIGINT NOT NULL DEFAULT 0) "
      "ENGINE=MEMORY DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci");
  db.execute(
      "CREATE TEMPORARY TABLE demo_terms (idx INT NOT NULL PRIMARY KEY, term_id BIGINT NOT NULL) "
      "ENGINE=MEMORY");
  db.execute(
      "CREATE TEMPORARY TABLE demo_ev (n BIGINT NOT NULL PRIMARY KEY, id BIGINT NOT NULL, h1 BIGINT NOT "
      "NULL, "
      "h2 BIGINT NOT NULL, h3 BIGINT NOT NULL, h4 BIGINT NOT NULL, h5 BIGINT NOT NULL, h6 BIGINT NOT NULL, "
      "status VARCHAR(10) CHARACTER SET ascii NOT NULL, zone_idx INT NOT NULL, "
      "zone VARCHAR(64) CHARACTER SET ascii NOT NULL, venue_id BIGINT NULL, "
      "author BIGINT NOT NULL, start_day INT NOT NULL, start_sec INT NOT NULL, end_day INT NOT NULL, "
      "end_sec INT NOT NULL, all_day TINYINT NOT NULL, pub_day INT NOT NULL, pub_sec INT NOT NULL) "
      "ENGINE=MEMORY DEFAULT CHARSET=utf8mb4");
}

// Zone 0 is the site's (publication dates, events without a venue); then each city zone once.
void fill_zones_and_cities(Db& db, const DemoOptions& o) {
  std::vector<std::string> zones{o.site_timezone};
  std::vector<std::vector<SqlValue>> cities;
  const auto& list = demo_cities();
  for (size_t i = 0; i < list.size(); ++i) {
    const DemoCity& c = list[i];
    auto z = std::find(zones.begin() + 1, zones.end(), c.zone);
    if (z == zones.end()) z = zones.insert(zones.end(), c.zone);
    cities.push_back({static_cast<long long>(i), c.name, c.country, c.code, c.region,
                      static_cast<long long>(z - zones.begin()), c.zone, c.lat, c.lng, c.zip, c.phone,
                      c.streets});
  }
  insert_values(db,
                "INSERT INTO demo_cities (idx, name, country, code, region, zone_idx, zone, lat, lng, zip, "
                "phone, streets)",
                12, cities);
  std::vector<std::vector<SqlValue>> days;
  for (size_t z = 0; z < zones.size(); ++z)
    for (const DemoZoneDay& d : demo_zone_days(zones[z], o.today_utc, kFirstDay, kLastDay))
      days.push_back({static_cast<long long>(z), static_cast<long long>(d.day),
                      static_cast<long long>(d.early), static_cast<long long>(d.late),
                      static_cast<long long>(d.switch_second)});
  insert_values(db, "INSERT INTO demo_tz_a (zone_idx, day, early, late, switch_second)", 5, days);
  db.execute("INSERT INTO demo_tz_b SELECT * FROM demo_tz_a");
  db.execute("INSERT INTO demo_tz_c SELECT * FROM demo_tz_a");
}

// Authors: the users who may publish, in id order; none of them: the error below.
long long fill_authors(Db& db) {
  db.execute(
      "INSERT INTO demo_authors (idx, user_id) SELECT ROW_NUMBER() OVER (ORDER BY id) - 1, id FROM users "
      "WHERE role IN ('administrator', 'editor', 'author')");
  const long long n = single(db, "SELECT COUNT(*) FROM demo_authors");
  if (n == 0)
    throw std::runtime_error("no user to be the author of demo data: add one with `calendarctl user add`");
  return n;
}

// Terms: an existing term of the same taxonomy, parent and name is reused (a second run adds
// events to the same tree); a new one takes the plain slug when free, else slug-<prefix>.
// Returns {categories created, tags created}.
std::pair<long long, long long> add_terms(Db& db, const std::string& prefix) {
  const auto& names = demo_term_names();
  std::vector<std::vector<SqlValue>> rows;
  for (size_t i = 0; i < names.size(); ++i) {
    const DemoTermName& t = names[i];
    rows.push_back({static_cast<long long>(i), t.tag ? 2LL : (t.parent < 0 ? 0LL : 1LL),
                    static_cast<long long>(t.parent), t.name, t.slug});
  }
  insert_values(db, "INSERT INTO demo_names (idx, kind, parent_idx, name, slug)", 5, rows);
  long long created[3] = {0, 0, 0};
  for (long long kind : {0LL, 1LL, 2LL}) {
    if (kind == 1)
      db.execute(
          "UPDATE demo_names n JOIN demo_terms p ON p.idx = n.parent_idx SET n.parent_id = p.term_id WHERE "
          "n.kind = 1");
    const std::string taxonomy = kind == 2 ? "post_tag" : "cal_events_cat";
    for (bool prefixed : {false, true})
      created[kind] += db.execute(
          "INSERT IGNORE INTO terms (taxonomy, name, slug, description, parent) "
          "SELECT ?, n.name, IF(?, CONCAT(n.slug, '-', ?), n.slug), IF(n.kind = 2, '', CONCAT('Events about "
          "', "
          "LOWER(n.name), '.')), n.parent_id FROM demo_names n WHERE n.kind = ? ORDER BY n.idx",
          {taxonomy, prefixed, prefix, kind});
    db.execute(
        "INSERT INTO demo_terms (idx, term_id) SELECT n.idx, t.id FROM demo_names n JOIN terms t "
        "ON t.taxonomy = ? AND t.parent = n.parent_id AND t.name_lower = LOWER(n.name) WHERE n.kind = ?",
        {taxonomy, kind});
  }
  if (single(db, "SELECT COUNT(*) FROM demo_terms") != static_cast<long long>(names.size()))
    throw std::runtime_error("demo terms: a name or slug is held in a way the demo cannot reuse");
  return {created[0] + created[1], created[2]};
}

// Publication columns of a post made `days` (SQL expression) after day 0 at `seconds` site time,
// through the site zone table demo_tz_c joined as `c`.
const char* const kPublished = "CAST(? AS DATETIME) + INTERVAL {d} DAY + INTERVAL {s} SECOND";

std::string published(const std::string& days, const std::string& seconds) {
  std::string out = kPublished;
  out.replace(out.find("{d}"), 3, days);
  out.replace(out.find("{s}"), 3, seconds);
  return out;
}

// Venues (posts + venue_details) round-robin over the cities, organizers, and image attachments.
void add_linked(Db& db, const DemoOptions& o, const std::string& prefix, const std::string& day0,
                long long author, long long venue0, long long org0, long long image0,
                const DemoScale& scale) {
  const std::string seed = "s" + std::to_string(o.seed) + ":";
  // Published a thousand days ago at 10:00 site time.
  const std::string local = published("-1000", "36000");
  const std::string utc = local + " - INTERVAL IF(36000 < c.switch_second, c.early, c.late) SECOND";
  const std::string post_head =
      "INSERT INTO posts (id, type, status, author, title, content, excerpt, slug, password, parent, "
      "image_id, "
      "date_local, date_utc, modified_local, modified_utc) ";
  db.execute(
      "INSERT INTO demo_venues (idx, post_id, city_idx, zone_idx, zone) SELECT s.seq, ? + s.seq, c.idx, "
      "c.zone_idx, "
      "c.zone FROM seq_0_to_1999 s JOIN demo_cities c ON c.idx = s.seq % ? WHERE s.seq < ?",
      {venue0, static_cast<long long>(demo_cities().size()), scale.venues});
  const char* const venue_names =
      "ELT(1 + CRC32(CONCAT(?, 'vn', v.idx)) % 16, 'Town Hall', 'Riverside Theatre', 'Community Center', "
      "'Blue Note Club', 'Central Library', 'Art Gallery', 'Concert Hall', 'Old Market Hall', 'Park "
      "Pavilion', "
      "'Grand Ballroom', 'Harbor Stage', 'University Auditorium', 'Botanical Garden', 'Sports Arena', 'Jazz "
      "Cellar', "
      "'Conference Center')";
  db.execute(
      post_head + "SELECT v.post_id, 'venue', 'publish', ?, CONCAT(" + venue_names + ", ' ', ci.name), " +
          "CONCAT('<p>A venue in ', ci.name, ' with room for ', 50 + CRC32(CONCAT(?, 'vc', v.idx)) % 950, " +
          "' guests.</p>'), '', CONCAT('venue-', ?, '-', v.idx + 1), '', 0, NULL, " + local + ", " + utc +
          ", " + local + ", " + utc +
          " FROM demo_venues v JOIN demo_cities ci ON ci.idx = v.city_idx JOIN demo_tz_c c ON c.zone_idx = 0 "
          "AND c.day = -1000",
      {author, seed, seed, prefix, day0, day0, day0, day0});
  // Address, zip and phone in the country's own format.
  db.execute(
      "INSERT INTO venue_details (venue_id, address, city, country, province, state, zip, phone, website, "
      "stateprovince, show_map, show_map_link, geo_lat, geo_lng) "
      "SELECT x.post_id, CASE x.code WHEN 'DE' THEN CONCAT(x.street, ' ', x.num) WHEN 'ES' THEN "
      "CONCAT(x.street, ', ', x.num) "
      "WHEN 'JP' THEN CONCAT(1 + x.h % 5, '-', 1 + x.h DIV 5 % 20, '-', x.num % 30 + 1, ' ', x.street) "
      "ELSE CONCAT(x.num, ' ', x.street) END, x.city, x.country, IF(x.code = 'US', '', x.region), "
      "IF(x.code = 'US', x.region, ''), "
      "CASE x.code WHEN 'CA' THEN CONCAT(x.zip, ' ', x.h % 10, CHAR(65 + x.h DIV 10 % 26), x.h DIV 260 % 10) "
      "WHEN 'GB' THEN CONCAT(x.zip, ' ', x.h % 10, CHAR(65 + x.h DIV 10 % 26), CHAR(65 + x.h DIV 260 % 26)) "
      "WHEN 'JP' THEN CONCAT(x.zip, '-', LPAD(x.h % 10000, 4, '0')) "
      "ELSE LPAD(CAST(x.zip AS UNSIGNED) + x.h % 40, CHAR_LENGTH(x.zip), '0') END, "
      "IF(x.code IN ('US', 'CA'), CONCAT(x.phone, ' 555 ', LPAD(x.h DIV 7 % 10000, 4, '0')), "
      "CONCAT(x.phone, ' ', LPAD(x.h DIV 7 % 10000, 4, '0'), ' ', LPAD(x.h DIV 70000 % 10000, 4, '0'))), "
      "CONCAT('https://venue-', ?, '-', x.idx + 1, '.example.org/'), x.region, 1, 1, "
      "ROUND(x.lat + (x.h % 1000 - 500) / 10000, 6), ROUND(x.lng + (x.h DIV 1000 % 1000 - 500) / 10000, 6) "
      "FROM (SELECT v.post_id, v.idx, ci.name AS city, ci.country, ci.code, ci.region, ci.zip, ci.phone, "
      "ci.lat, ci.lng, "
      "CAST(CRC32(CONCAT(?, 'va', v.idx)) AS SIGNED) AS h, 1 + CRC32(CONCAT(?, 'vb', v.idx)) % 240 AS num, "
      "SUBSTRING_INDEX(SUBSTRING_INDEX(ci.streets, '|', 1 + CRC32(CONCAT(?, 'vs', v.idx)) % 3), '|', -1) AS "
      "street "
      "FROM demo_venues v JOIN demo_cities ci ON ci.idx = v.city_idx) x",
      {prefix, seed, seed, seed});

  const char* const first_names =
      "ELT(1 + x.h % 24, 'Anna', 'Ben', 'Chloé', 'David', 'Emma', 'Felix', 'Grace', 'Hiro', 'Isabel', "
      "'Jack', "
      "'Keiko', 'Lucas', 'Maria', 'Noah', 'Olivia', 'Pablo', 'Quinn', 'Rosa', 'Sam', 'Tom', 'Uma', 'Victor', "
      "'Wendy', "
      "'Yuki')";
  const char* const last_names =
      "ELT(1 + x.h DIV 24 % 24, 'Smith', 'Tremblay', 'Jones', 'Müller', 'Martin', 'García', 'Sato', 'Brown', "
      "'Wilson', 'Schmidt', 'Bernard', 'López', 'Suzuki', 'Taylor', 'Roy', 'Fischer', 'Dubois', 'Fernández', "
      "'Tanaka', 'Walker', 'Evans', 'Weber', 'Moreau', 'Kelly')";
  const std::string org_name = std::string("IF(x.h DIV 576 % 3 = 0, CONCAT(") + last_names +
                               ", ' ', ELT(1 + x.h DIV 1728 % 4, " +
                               "'Productions', 'Events', 'Collective', 'Society')), CONCAT(" + first_names +
                               ", ' ', " + last_names + "))";
  const std::string org_rows =
      " FROM (SELECT s.seq AS idx, ? + s.seq AS post_id, CAST(CRC32(CONCAT(?, 'o', s.seq)) AS SIGNED) AS h, "
      "ci.phone, ci.code "
      "FROM seq_0_to_799 s JOIN demo_cities ci ON ci.idx = s.seq % ? WHERE s.seq < ?) x";
  const std::vector<SqlValue> org_args{org0, seed, static_cast<long long>(demo_cities().size()),
                                       scale.organizers};
  std::vector<SqlValue> args{author, prefix, day0, day0, day0, day0};
  args.insert(args.end(), org_args.begin(), org_args.end());
  db.execute(post_head + "SELECT x.post_id, 'organizer', 'publish', ?, " + org_name + ", CONCAT('<p>', " +
                 org_name +
                 ", ' organizes events for the whole community.</p>'), '', CONCAT('organizer-', ?, '-', "
                 "x.idx + 1), " +
                 "'', 0, NULL, " + local + ", " + utc + ", " + local + ", " + utc + org_rows +
                 " JOIN demo_tz_c c ON c.zone_idx = 0 AND c.day = -1000",
             args);
  args = {prefix};
  args.insert(args.end(), org_args.begin(), org_args.end());
  db.execute(
      "INSERT INTO organizer_details (organizer_id, phone, website, email) SELECT x.post_id, "
      "IF(x.code IN ('US', 'CA'), CONCAT(x.phone, ' 555 ', LPAD(x.h DIV 7 % 10000, 4, '0')), "
      "CONCAT(x.phone, ' ', LPAD(x.h DIV 7 % 10000, 4, '0'), ' ', LPAD(x.h DIV 70000 % 10000, 4, '0'))), "
      "CONCAT('https://organizer-', ?, '-', x.idx + 1, '.example.org/'), "
      "CONCAT('contact', x.idx + 1, '@organizer', x.h % 1000, '.example.org')" +
          org_rows,
      args);

  const std::string url = "CONCAT('https://images.example.org/demo/', ?, '/', s.seq + 1, '.jpg')";
  db.execute(post_head + "SELECT ? + s.seq, 'attachment', 'publish', ?, " + url +
                 ", '', '', CONCAT('image-', ?, '-', " + "s.seq + 1), '', 0, NULL, " + local + ", " + utc +
                 ", " + local + ", " + utc +
                 " FROM seq_0_to_199 s JOIN demo_tz_c c ON c.zone_idx = 0 AND c.day = -1000 WHERE s.seq < ?",
             {image0, author, prefix, prefix, day0, day0, day0, day0, scale.images});
  db.execute("INSERT INTO attachment_details (attachment_id, url, url_hash) SELECT ? + s.seq, " + url +
                 ", UNHEX(SHA2(" + url + ", 256)) FROM seq_0_to_199 s WHERE s.seq < ?",
             {image0, prefix, prefix, scale.images});
}

// The words of titles and descriptions: `search=jazz` matches about 10% of the events; each
// excerpt's edition (`search=k417`) about 0.1%.
const char* const kWord1 =
    "ELT(1 + e.h1 DIV 4000 % 20, 'Jazz', 'Rock', 'Yoga', 'Chess', 'Poetry', 'Cinema', 'Garden', 'Market', "
    "'Dance', "
    "'Science', 'History', 'Cooking', 'Theatre', 'Football', 'Design', 'Comedy', 'Opera', 'Running', "
    "'Painting', 'Coding')";
const char* const kWord2 =
    "ELT(1 + (e.h1 DIV 4000 + 1 + e.h1 DIV 640000 % 19) % 20, 'jazz', 'rock', 'yoga', 'chess', 'poetry', "
    "'cinema', 'garden', 'market', 'dance', "
    "'science', 'history', 'cooking', 'theatre', 'football', 'design', 'comedy', 'opera', 'running', "
    "'painting', 'coding')";
const char* const kKind =
    "ELT(1 + e.h1 DIV 80000 % 8, 'Night', 'Workshop', 'Festival', 'Meetup', 'Evening', 'Class', 'Fair', "
    "'Showcase')";

// The copies of their event's list columns that the link tables carry (schema.sql): their BEFORE
// INSERT triggers leave them to the loader while @cal_bulk_load is set.
constexpr const char* kListCopies = ", status, hide_from_listings, start_utc, end_utc";
constexpr const char* kListValues = ", d.status, d.hide_from_listings, d.start_utc, d.end_utc";

// Events first..first+count-1 (1-based numbers of this run), one transaction.
void add_event_chunk(Db& db, const DemoOptions& o, const std::string& prefix, const std::string& day0,
                     long long event0, long long org0, long long image0, const DemoScale& scale,
                     long long authors, long long total, long long first, long long count) {
  const std::string seed = "s" + std::to_string(o.seed) + ":";
  Transaction tx(db);
  BulkLoad bulk(db);
  db.execute("DELETE FROM demo_ev");
  // Shape (u = h % 1000 and friends, see the columns): status 88% publish, 3% draft, 2% pending,
  // 2% private, 2% future (scheduled, published in the days ahead), 3% trash; 6% all-day, 3%
  // all-day over 2-3 days, 4% over 2-4 days 9:00-17:00, else 1-4 h starting 8:00-19:45 local;
  // the start within ±2 years of day 0; 90% at a venue (its zone), else in the site's zone.
  const char* const kind = "t.h2 % 100";
  // Event n of N (`total`) starts on day -730 + n * 1461 / N: ids follow the calendar, so each chunk writes
  // into one stretch of the date indexes (event_details_*, posts_status_date) instead of all of
  // them, which kept a million-event load within the buffer pool's reach.
  const std::string start_day = "(FLOOR((t.n - 1) * 1461 / ?) - 730)";
  const std::string start_sec =
      std::string("CASE WHEN ") + kind + " < 9 THEN 0 WHEN " + kind +
      " < 13 THEN (9 + t.h2 DIV 100 % 4) * 3600 ELSE 28800 + t.h3 DIV 1461 % 48 * 900 END";
  db.execute(
      std::string(
          "INSERT INTO demo_ev (n, id, h1, h2, h3, h4, h5, h6, status, zone_idx, zone, venue_id, author, ") +
          "start_day, start_sec, end_day, end_sec, all_day, pub_day, pub_sec) "
          "SELECT t.n, ? + t.n, t.h1, t.h2, t.h3, t.h4, t.h5, t.h6, "
          "CASE WHEN t.h1 % 1000 < 880 THEN 'publish' WHEN t.h1 % 1000 < 910 THEN 'draft' WHEN t.h1 % 1000 < "
          "930 "
          "THEN 'pending' WHEN t.h1 % 1000 < 950 THEN 'private' WHEN t.h1 % 1000 < 970 THEN 'future' ELSE "
          "'trash' END, "
          "COALESCE(v.zone_idx, 0), COALESCE(v.zone, ?), v.post_id, a.user_id, " +
          start_day + ", " + start_sec + ", " + start_day + " + CASE WHEN " + kind + " < 6 THEN 0 WHEN " +
          kind + " < 9 THEN 1 + t.h2 DIV 100 % 2 WHEN " + kind +
          " < 13 THEN 1 + t.h2 DIV 100 % 3 ELSE 0 END, " + "CASE WHEN " + kind + " < 9 THEN 86399 WHEN " +
          kind + " < 13 THEN 61200 ELSE " + start_sec + " + (1 + t.h2 DIV 100 % 4) * 3600 END, " + kind +
          " < 9, " + "IF(t.h1 % 1000 BETWEEN 950 AND 969, 1 + t.h5 DIV 7 % 90, LEAST(-1 - t.h5 DIV 7 % 30, " +
          start_day +
          " - 1 - t.h5 DIV 7 % 60)), 32400 + t.h5 DIV 420 % 480 * 60 "
          "FROM (SELECT s.seq + ? AS n, CAST(CRC32(CONCAT(?, s.seq + ?, 'a')) AS SIGNED) AS h1, "
          "CAST(CRC32(CONCAT(?, s.seq + ?, 'b')) AS SIGNED) AS h2, "
          "CAST(CRC32(CONCAT(?, s.seq + ?, 'c')) AS SIGNED) AS h3, CAST(CRC32(CONCAT(?, s.seq + ?, 'd')) AS "
          "SIGNED) AS h4, "
          "CAST(CRC32(CONCAT(?, s.seq + ?, 'e')) AS SIGNED) AS h5, CAST(CRC32(CONCAT(?, s.seq + ?, 'f')) AS "
          "SIGNED) AS h6 "
          "FROM seq_0_to_49999 s WHERE s.seq < ?) t "
          "LEFT JOIN demo_venues v ON t.h4 % 10 <> 0 AND v.idx = t.h4 DIV 10 % ? "
          "JOIN demo_authors a ON a.idx = t.h5 % ?",
      {event0, o.site_timezone, total, total, total, first, seed,  first,        seed,   first, seed, first,
       seed,   first,           seed,  first, seed,  first, count, scale.venues, authors});

  const std::string w1 = kWord1, w2 = kWord2, k = kKind;
  const std::string local = published("e.pub_day", "e.pub_sec");
  const std::string utc = local + " - INTERVAL IF(e.pub_sec < c.switch_second, c.early, c.late) SECOND";
  db.execute(
      "INSERT INTO posts (id, type, status, status_before_trash, author, title, content, excerpt, slug, "
      "password, "
      "parent, image_id, date_local, date_utc, modified_local, modified_utc) "
      "SELECT e.id, 'event', e.status, IF(e.status = 'trash', IF(e.h1 DIV 1000 % 4 = 0, 'draft', 'publish'), "
      "NULL), "
      "e.author, CONCAT(" +
          w1 + ", ' ', " + k + ", ' with ', " + w2 + "), " + "CONCAT('<p>A ', LOWER(" + k +
          "), ' for everyone who loves ', LOWER(" + w1 + "), ' and ', " + w2 +
          ", '. Bring a friend, a smile and something to share.</p>'), " + "CONCAT('All about ', LOWER(" +
          w1 + "), '. Edition k', e.h3 % 1000, '.'), " + "CONCAT(LOWER(" + w1 + "), '-', LOWER(" + k +
          "), '-', ?, '-', e.n), " +
          "IF(e.h6 DIV 100000 % 50 = 0, 'demo', ''), 0, IF(e.h6 % 5 = 0, ? + e.h6 DIV 5 % ?, NULL), " +
          local + ", " + utc + ", " + local + ", " + utc +
          " FROM demo_ev e JOIN demo_tz_c c ON c.zone_idx = 0 AND c.day = e.pub_day",
      {prefix, image0, scale.images, day0, day0, day0, day0});

  const std::string start_local = published("e.start_day", "e.start_sec");
  const std::string end_local = published("e.end_day", "e.end_sec");
  db.execute(
      "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, all_day, "
      "cost, "
      "website, show_map, show_map_link, hide_from_listings, sticky, featured, status, author, publish_utc) "
      "SELECT e.id, " +
          start_local + ", " + end_local + ", " + start_local +
          " - INTERVAL IF(e.start_sec < a.switch_second, a.early, a.late) SECOND, " + end_local +
          " - INTERVAL IF(e.end_sec < b.switch_second, b.early, b.late) SECOND, e.zone, e.all_day, "
          "ELT(1 + e.h2 DIV 10000 % 6, '', 'Free', '10', '15', '20', '5 - 25'), "
          "IF(e.h6 DIV 5000000 % 3 = 0, CONCAT('https://tickets.example.org/', ?, '/', e.n), ''), 1, 1, "
          "e.h6 DIV 1000 % 100 = 99, e.h6 DIV 1000 % 100 = 98, e.h6 DIV 1000 % 100 < 8, "
          // The post's visibility, as event_details_visibility_bi copies it outside a bulk load.
          "p.status, p.author, p.date_utc "
          "FROM demo_ev e JOIN posts p ON p.id = e.id "
          "JOIN demo_tz_a a ON a.zone_idx = e.zone_idx AND a.day = e.start_day "
          "JOIN demo_tz_b b ON b.zone_idx = e.zone_idx AND b.day = e.end_day",
      {day0, day0, day0, day0, prefix});
  db.execute("INSERT INTO event_venues (event_id, venue_id" + std::string(kListCopies) +
             ") SELECT e.id, e.venue_id" + kListValues +
             " FROM demo_ev e JOIN event_details d ON d.event_id = e.id WHERE e.venue_id "
             "IS NOT NULL");
  // 1-3 distinct organizers in order (60% one, 30% two, 10% three) (organizers are a multiple of 10, stride
  // 97: never equal).
  db.execute("INSERT INTO event_organizers (event_id, organizer_id, position" + std::string(kListCopies) +
                 ") "
                 "SELECT e.id, ? + (e.h4 DIV 7 + k.seq * 97) % ?, k.seq - 1" +
                 kListValues +
                 " FROM demo_ev e JOIN event_details d ON d.event_id = e.id JOIN seq_1_to_3 k "
                 "ON k.seq <= ELT(1 + e.h5 DIV 3000 % 10, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3)",
             {org0, scale.organizers});
  // 0-4 terms (20% none, 40% one, 20% two, 10% three, 10% four): a category (skewed: the
  // first ones are the most common), then tags. Events hidden from listings get none, so that a
  // term's count (published events) equals the total of the list filtered by it.
  const long long categories = static_cast<long long>(std::count_if(
      demo_term_names().begin(), demo_term_names().end(), [](const DemoTermName& t) { return !t.tag; }));
  const long long tags = static_cast<long long>(demo_term_names().size()) - categories;
  db.execute("INSERT INTO term_relationships (event_id, term_id" + std::string(kListCopies) +
                 ") SELECT e.id, m.term_id" + kListValues +
                 " FROM demo_ev e JOIN event_details d ON d.event_id = e.id JOIN "
                 "seq_1_to_4 k "
                 "ON k.seq <= ELT(1 + e.h5 DIV 100000 % 10, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4) JOIN demo_terms m "
                 "ON m.idx = "
                 "IF(k.seq = 1, "
                 "FLOOR(POW(e.h3 DIV 70128 % 1000 / 1000, 2) * ?), ? + (e.h4 DIV 100000 + k.seq * 67) % ?) "
                 "WHERE e.h6 DIV 1000 % 100 <> 99",
             {categories, categories, tags});
  // What the skipped triggers would have done, once for the chunk (schema.sql): the published
  // events per term, and one data version bump inside the same transaction.
  db.execute(
      "INSERT INTO term_counts (term_id, published) SELECT r.term_id, COUNT(*) FROM demo_ev e "
      "JOIN term_relationships r ON r.event_id = e.id WHERE e.status = 'publish' GROUP BY r.term_id "
      "ON DUPLICATE KEY UPDATE published = published + VALUES(published)");
  // The list engine's rollups (event_details copied its posts' visibility by its BEFORE INSERT
  // trigger, which always runs), in this connection's shard as the triggers' would be.
  count_event_days(db, "FROM demo_ev e JOIN event_details d ON d.event_id = e.id", {});
  count_term_days(db, "FROM demo_ev e JOIN term_relationships r ON r.event_id = e.id", {});
  index_event_range(db, event0 + first, event0 + first + count - 1);
  db.execute("UPDATE data_version SET version = version + 1 WHERE shard = CONNECTION_ID() % 16");
  bulk.end();
  tx.commit();
}

}  // namespace

namespace {

// The ids of `sql` (one column), in order.
std::vector<long long> ids_of(Db& db, const char* sql) {
  std::vector<long long> out;
  Rows rows = db.query(sql);
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

}  // namespace

DemoRun start_demo_data(Db& db, const DemoOptions& o) {
  if (o.events < 1 || o.events > kDemoMaxEvents) throw std::runtime_error("demo: events must be 1..10000000");
  const std::string day0 = o.today_utc + " 00:00:00";
  DemoRun run;
  run.scale = demo_scale(o.events);
  create_work_tables(db);
  fill_zones_and_cities(db, o);
  fill_authors(db);
  const long long author = single(db, "SELECT user_id FROM demo_authors WHERE idx = 0");

  DemoSummary& summary = run.summary;
  Transaction tx(db);
  // Ids after every existing post; the prefix makes every slug of this run new.
  const long long base = single(db, "SELECT COALESCE(MAX(id), 0) + 1 FROM posts");
  summary.slug_prefix = "d" + std::to_string(o.seed) + "-" + std::to_string(base);
  const long long venue0 = base, org0 = venue0 + run.scale.venues, image0 = org0 + run.scale.organizers;
  std::tie(summary.categories, summary.tags) = add_terms(db, summary.slug_prefix);
  add_linked(db, o, summary.slug_prefix, day0, author, venue0, org0, image0, run.scale);
  tx.commit();
  summary.venues = run.scale.venues;
  summary.organizers = run.scale.organizers;
  summary.images = run.scale.images;
  run.image0 = image0;
  Rows venues = db.query("SELECT post_id, zone FROM demo_venues ORDER BY idx");
  while (venues.next()) run.venues.push_back({venues.integer(0), venues.text(1)});
  for (long long i = 0; i < run.scale.organizers; ++i) run.organizers.push_back(org0 + i);
  run.categories = ids_of(db,
                          "SELECT m.term_id FROM demo_terms m JOIN demo_names n ON n.idx = m.idx "
                          "WHERE n.kind <> 2 ORDER BY m.idx");
  run.tags = ids_of(db,
                    "SELECT m.term_id FROM demo_terms m JOIN demo_names n ON n.idx = m.idx "
                    "WHERE n.kind = 2 ORDER BY m.idx");
  run.authors = ids_of(db, "SELECT user_id FROM demo_authors ORDER BY idx");
  return run;
}

void add_demo_events(Db& db, const DemoOptions& o, DemoRun& run, long long count) {
  if (count <= 0) return;
  const std::string day0 = o.today_utc + " 00:00:00";
  const long long org0 = run.organizers.empty() ? 0 : run.organizers.front();
  // Event number n gets id event0 + n: after every post, those written since start_demo_data too.
  const long long event0 = single(db, "SELECT COALESCE(MAX(id), 0) FROM posts");
  const long long authors = static_cast<long long>(run.authors.size());
  for (long long first = 1; first <= count; first += kChunk)
    add_event_chunk(db, o, run.summary.slug_prefix, day0, event0, org0, run.image0, run.scale, authors, count,
                    first, std::min(kChunk, count - first + 1));
  run.summary.events += count;
}

DemoSummary add_demo_data(Db& db, const DemoOptions& o) {
  DemoRun run = start_demo_data(db, o);
  add_demo_events(db, o, run, o.events);
  return run.summary;
}

}  // namespace cal
