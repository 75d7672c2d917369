// The recurring series of `calendarctl demo` (docs/calendarctl.md), read through the API: each
// series' record and occurrences are what its rule gives (python3-dateutil through
// tests/unit/recurrence_oracle.py as the independent expander), lists count them exactly, with
// hide_subsequent_recurrences too, and every row derived from a series equals that of the same
// series written through POST /events (plus the same occurrence edited alone).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/client.h"
#include "support/demo.h"
#include "support/engine.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
namespace fs = std::filesystem;

const char* const kStatuses = "publish,future,draft,pending,private";

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) out.push_back(part);
  return out;
}

// A series of the run as event_series stores it, in the oracle's terms.
struct StoredSeries {
  long long id = 0;
  std::string zone, anchor;  // anchor: the first start's wall clock, YYYYMMDDTHHMMSS
  long long length = 0;      // minutes (timed), days (all-day)
  bool all_day = false, infinite = false;
  std::string lines;    // normal form, joined by "|"
  std::string horizon;  // YYYYMMDDTHHMMSSZ
};

std::vector<StoredSeries> series_of(const DemoRun& d) {
  const std::string rows = engine::sql(
      "SELECT s.series_id, s.timezone, DATE_FORMAT(s.start_local, '%Y%m%dT%H%i%s'), "
      "IF(s.all_day, DATEDIFF(s.end_local, s.start_local) + 1, TIMESTAMPDIFF(MINUTE, s.start_local, "
      "s.end_local)), s.all_day, s.is_infinite, REPLACE(s.recurrence, CHAR(10), '|'), "
      "DATE_FORMAT(s.horizon_utc, '%Y%m%dT%H%i%sZ') FROM event_series s JOIN posts p ON p.id = s.series_id "
      "WHERE p.type = 'series' AND p.slug LIKE '%-" +
      d.prefix + "-s%' ORDER BY s.series_id");
  std::vector<StoredSeries> out;
  for (const std::string& line : split(rows, '\n')) {
    const std::vector<std::string> f = split(line, '\t');
    REQUIRE_MESSAGE(f.size() == 8, line);
    out.push_back({std::stoll(f[0]), f[1], f[2], std::stoll(f[3]), f[4] == "1", f[5] == "1", f[6], f[7]});
  }
  return out;
}

fs::path oracle_script() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = exe.parent_path().parent_path() / "tests" / "unit" / "recurrence_oracle.py";
  if (!ec && fs::exists(beside)) return beside;
  return fs::current_path() / "tests" / "unit" / "recurrence_oracle.py";
}

// "20270302T190000" → "2027-03-02 19:00:00" (a trailing Z dropped).
std::string sql_time(const std::string& compact) {
  return compact.substr(0, 4) + "-" + compact.substr(4, 2) + "-" + compact.substr(6, 2) + " " +
         compact.substr(9, 2) + ":" + compact.substr(11, 2) + ":" + compact.substr(13, 2);
}

// Per series id, the sorted "original local|original UTC" of every occurrence dateutil finds
// before the series' horizon (a finite one's, year 9999, is past what Python's dates hold: 2100).
std::map<long long, std::vector<std::string>> oracle(const std::vector<StoredSeries>& all) {
  const fs::path input = fs::temp_directory_path() / ("calendar-demo-oracle-" + std::to_string(::getpid()));
  {
    std::ofstream out(input);
    for (const StoredSeries& s : all)
      out << s.id << '\t' << s.zone << '\t' << s.anchor << '\t' << s.length << '\t' << (s.all_day ? 1 : 0)
          << '\t' << (s.infinite ? s.horizon : "21000101T000000Z") << '\t' << s.lines << '\n';
  }
  const Run r = run("python3 '" + oracle_script().string() + "' < '" + input.string() + "' ");
  fs::remove(input);
  INFO("oracle: " << r.out);
  REQUIRE(r.exit_code == 0);
  std::map<long long, std::vector<std::string>> out;
  for (const std::string& line : split(r.out, '\n')) {
    const std::vector<std::string> f = split(line, '\t');
    REQUIRE_MESSAGE(f.size() == 6, line);
    CHECK_MESSAGE(f[1] == "ok", line);
    std::vector<std::string>& got = out[std::stoll(f[0])];
    for (const std::string& o : split(f[5], ' ')) {
      const std::vector<std::string> parts = split(o, '/');
      REQUIRE_MESSAGE(parts.size() == 3, o);
      got.push_back(sql_time(parts[0]) + "|" + sql_time(parts[1]));
    }
    std::sort(got.begin(), got.end());
  }
  return out;
}

// Every occurrence of series `id` through GET /events/{id}/occurrences, page by page: its sorted
// "original local|original UTC", checking each item's series members on the way.
std::vector<std::string> listed_occurrences(long long id, long long& exceptions) {
  std::vector<std::string> out;
  long long total = -1;
  for (int page = 1; total < 0 || static_cast<long long>(out.size()) < total; ++page) {
    const HttpResponse r =
        get(path_of(id) + "/occurrences?per_page=50&page=" + std::to_string(page) + "&status=" + kStatuses,
            {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    total = std::stoll(r.header("X-WP-Total"));
    const rapidjson::Document body = r.json();
    REQUIRE(body["events"].Size() > 0);
    for (const auto& e : body["events"].GetArray()) {
      CHECK(int_at(e, {"series_id"}) == id);
      CHECK(flag_at(e, {"is_recurring"}) == "true");
      const std::string original = string_at(e, {"original_start_date"});
      if (flag_at(e, {"is_exception"}) == "true") {
        ++exceptions;
        CHECK(string_at(e, {"title"}).ends_with(": guest night"));
      } else {
        CHECK(string_at(e, {"start_date"}) == original);
      }
      out.push_back(original + "|" + string_at(e, {"original_start_date_utc"}));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every row derived from series `id` and its occurrences, its own ids and slugs and the write's
// clock (post dates) left out: occurrence identity, posts, details, link rows with their list
// copies, search postings and pending marks, change-log notes; the parked series and its links.
std::string derived_rows(long long id) {
  const std::string s = std::to_string(id);
  const auto links = [](const std::string& table, const std::string& columns, const std::string& order) {
    return "(SELECT GROUP_CONCAT(CONCAT_WS(':', " + columns +
           ", l.status, l.hide_from_listings, l.start_utc, l.end_utc) ORDER BY " + order + ") FROM " + table +
           " l WHERE l.event_id = eo.event_id)";
  };
  return engine::sql(
             "SELECT eo.original_local, eo.original_utc, eo.is_exception, p.type, p.status, "
             "IFNULL(p.status_before_trash, ''), p.author, p.title, p.content, p.excerpt, p.password, "
             "IFNULL(p.image_id, 0), p.parent = eo.series_id, d.start_local, d.end_local, d.start_utc, "
             "d.end_utc, "
             "d.timezone, d.all_day, d.cost, d.website, d.show_map, d.show_map_link, d.hide_from_listings, "
             "d.sticky, d.featured, d.status, d.author, d.publish_utc = p.date_utc, " +
             links("event_venues", "l.venue_id", "l.venue_id") + ", " +
             links("event_organizers", "l.organizer_id, l.position", "l.position") + ", " +
             links("term_relationships", "l.term_id", "l.term_id") + ", " +
             links("search_postings", "l.word_id", "l.word_id") +
             ", EXISTS (SELECT 1 FROM search_pending x WHERE x.event_id = eo.event_id), "
             "EXISTS (SELECT 1 FROM data_changes c WHERE c.kind = 'event' AND c.record_id = eo.event_id) "
             "FROM event_occurrences eo JOIN posts p ON p.id = eo.event_id JOIN event_details d ON "
             "d.event_id = "
             "eo.event_id WHERE eo.series_id = " +
             s + " ORDER BY eo.original_utc") +
         "\n--\n" +
         engine::sql(
             "SELECT p.type, p.status, p.author, p.title, p.content, p.excerpt, s.start_local, "
             "s.end_local, s.start_utc, s.end_utc, s.timezone, s.all_day, s.cost, s.website, s.show_map, "
             "s.show_map_link, s.hide_from_listings, s.sticky, s.featured, REPLACE(s.recurrence, "
             "CHAR(10), '|'), s.is_infinite, IF(s.is_infinite, DATE(s.horizon_utc), s.horizon_utc), "
             "EXISTS (SELECT 1 FROM data_changes c WHERE c.kind = 'series' AND c.record_id = p.id) "
             "FROM posts p JOIN event_series s ON s.series_id = p.id WHERE p.id = " +
             s) +
         "\n--\n" +
         engine::sql("SELECT kind, target_id, position FROM series_links WHERE series_id = " + s +
                     " ORDER BY kind, target_id, position");
}

std::string ids_text(const rapidjson::Value& record, const char* member) {
  std::string out;
  for (const auto& v : record[member].GetArray())
    out += (out.empty() ? "" : ",") + std::to_string(int_at(v, {"id"}));
  return out;
}

// Series `id` written again through POST /events from its record, with the same occurrences
// edited alone in the same way; returns the new series' id.
long long written_again(long long id) {
  const HttpResponse got = get(path_of(id), {admin()});
  REQUIRE_MESSAGE(got.status == 200, describe(got));
  const rapidjson::Document r = got.json();
  std::string lines;
  for (const auto& line : r["recurrence"].GetArray())
    lines += (lines.empty() ? "" : ",") + events::quoted(line.GetString());
  std::string body = "{\"title\":" + events::quoted(string_at(r, {"title"})) +
                     ",\"description\":" + events::quoted(string_at(r, {"description"})) +
                     ",\"status\":" + events::quoted(string_at(r, {"status"})) +
                     ",\"author\":" + std::to_string(int_at(r, {"author"})) +
                     ",\"timezone\":" + events::quoted(string_at(r, {"timezone"})) +
                     ",\"start_date\":" + events::quoted(string_at(r, {"start_date"})) +
                     ",\"end_date\":" + events::quoted(string_at(r, {"end_date"})) +
                     ",\"all_day\":" + flag_at(r, {"all_day"}) +
                     ",\"cost\":" + events::quoted(string_at(r, {"cost"})) + ",\"organizer\":[" +
                     ids_text(r, "organizer") + "],\"categories\":[" + ids_text(r, "categories") +
                     "],\"tags\":[" + ids_text(r, "tags") + "]";
  if (r["venue"].IsObject()) body += ",\"venue\":" + std::to_string(int_at(r, {"venue", "id"}));
  body += ",\"recurrence\":[" + lines + "]}";
  const rapidjson::Document copy = create(body);
  const long long copy_id = id_of(copy);
  // The demo's occurrences edited alone: the same fields on the copy's occurrence of the same identity.
  const std::string edited = engine::sql(
      "SELECT eo.original_utc, p.title, DATE_FORMAT(d.start_local, '%Y-%m-%d %H:%i'), "
      "DATE_FORMAT(d.end_local, '%Y-%m-%d %H:%i'), d.all_day FROM event_occurrences eo JOIN posts p ON p.id "
      "= "
      "eo.event_id JOIN event_details d ON d.event_id = eo.event_id WHERE eo.is_exception = 1 AND "
      "eo.series_id = " +
      std::to_string(id));
  for (const std::string& line : split(edited, '\n')) {
    const std::vector<std::string> f = split(line, '\t');
    REQUIRE_MESSAGE(f.size() == 5, line);
    const std::string occurrence =
        engine::sql("SELECT event_id FROM event_occurrences WHERE series_id = " + std::to_string(copy_id) +
                    " AND original_utc = '" + f[0] + "'");
    REQUIRE(!occurrence.empty());
    std::string patch = "{\"title\":" + events::quoted(f[1]);
    if (f[4] == "0")
      patch += ",\"start_date\":" + events::quoted(f[2]) + ",\"end_date\":" + events::quoted(f[3]);
    const HttpResponse r2 = patch_json(path_of(std::stoll(occurrence)), patch + "}", {admin()});
    REQUIRE_MESSAGE(r2.status == 200, describe(r2));
  }
  return copy_id;
}

long long list_total(const std::string& query, std::vector<std::string> headers) {
  const HttpResponse r = get(std::string(kEvents) + "?" + query, std::move(headers));
  REQUIRE_MESSAGE(r.status == 200, query << " -> " << describe(r));
  return int_at(r.json(), {"total"});
}

}  // namespace

TEST_CASE("calendarctl demo: its recurring series read back as their rules give them, counted exactly") {
  const DemoRun d = run_demo(1500, 11, "--series-share 40");
  // N counts what lists can show: the one-off events and the occurrences, never a series.
  CHECK(engine::sql("SELECT COUNT(*) FROM posts WHERE type = 'event' AND slug LIKE '%-" + d.prefix + "-%'") ==
        "1500");
  const std::vector<StoredSeries> all = series_of(d);
  REQUIRE(all.size() >= 8);
  const long long occurrences = std::stoll(engine::sql(
      "SELECT COUNT(*) FROM event_occurrences eo JOIN posts p ON p.id = eo.series_id WHERE p.slug LIKE '%-" +
      d.prefix + "-s%'"));
  CHECK(occurrences > 400);
  CHECK(occurrences <= 600);
  // The kinds the demo promises are all there.
  long long infinite = 0, exdates = 0, monthly = 0, all_day = 0;
  for (const StoredSeries& s : all) {
    infinite += s.infinite;
    exdates += s.lines.find("EXDATE") != std::string::npos;
    monthly += s.lines.find("FREQ=MONTHLY;COUNT=") != std::string::npos;
    all_day += s.all_day;
  }
  CHECK(infinite >= 1);
  CHECK(exdates >= 2);
  CHECK(monthly >= 2);
  CHECK(all_day >= 1);

  // Each series: its record has its rule; its occurrences are exactly dateutil's.
  const auto expected = oracle(all);
  long long exceptions = 0;
  for (const StoredSeries& s : all) {
    const HttpResponse r = get(path_of(s.id), {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    std::string lines;
    for (const std::string& line : strings_at(r.json(), {"recurrence"}))
      lines += (lines.empty() ? "" : "|") + line;
    CHECK(lines == s.lines);
    CHECK(flag_at(r.json(), {"is_recurring"}) == "true");
    const auto want = expected.find(s.id);
    REQUIRE(want != expected.end());
    CHECK_MESSAGE(listed_occurrences(s.id, exceptions) == want->second, "series ", s.id, " ", s.lines);
  }
  CHECK(exceptions >= 2);
  CHECK(engine::derived_data_mismatch() == "");

  // Lists by the category of most of the run's series, as a visitor and the administrator: totals
  // and the first page equal a brute-force query, and so with hide_subsequent_recurrences=1.
  const std::string category = engine::sql(
      "SELECT l.target_id FROM series_links l JOIN posts p ON p.id = l.series_id WHERE l.kind = 'term' AND "
      "p.slug LIKE '%-" +
      d.prefix + "-s%' GROUP BY l.target_id ORDER BY COUNT(*) DESC, l.target_id LIMIT 1");
  REQUIRE(!category.empty());
  const auto where = [&](const std::string& p, const std::string& dd, bool as_admin) {
    return "FROM posts " + p + " JOIN event_details " + dd + " ON " + dd + ".event_id = " + p + ".id WHERE " +
           p + ".type = 'event' AND " + dd + ".hide_from_listings = 0 AND " + dd +
           ".start_utc > UTC_DATE() - INTERVAL 400 DAY + INTERVAL 86399 SECOND AND EXISTS (SELECT 1 FROM "
           "term_relationships x WHERE x.event_id = " +
           p + ".id AND x.term_id = " + category + ") AND " +
           (as_admin ? p + ".status <> 'trash'"
                     : "IF(" + p + ".status = 'future' AND " + p +
                           ".date_utc <= UTC_TIMESTAMP(), 'publish', " + p + ".status) = 'publish'");
  };
  for (const bool as_admin : {false, true}) {
    const std::vector<std::string> headers =
        as_admin ? std::vector<std::string>{admin()} : std::vector<std::string>{};
    const std::string query = "starts_after=-400%20days&per_page=10&categories=" + category;
    CHECK_MESSAGE(std::to_string(list_total(query, headers)) ==
                      engine::sql("SELECT COUNT(*) " + where("p", "d", as_admin)),
                  query);
    CHECK(list_ids(query, headers) == [&] {
      std::vector<long long> ids;
      for (const std::string& id : split(engine::sql("SELECT p.id " + where("p", "d", as_admin) +
                                                     " ORDER BY d.start_utc, p.id LIMIT 10"),
                                         '\n'))
        ids.push_back(std::stoll(id));
      return ids;
    }());
    // First occurrences only: none of its series matches earlier.
    const std::string first_only =
        where("p", "d", as_admin) +
        " AND NOT EXISTS (SELECT 1 FROM event_occurrences eo JOIN event_occurrences eo2 ON eo2.series_id = "
        "eo.series_id JOIN posts p2 ON p2.id = eo2.event_id JOIN event_details d2 ON d2.event_id = p2.id "
        "WHERE "
        "eo.event_id = p.id AND (d2.start_utc, p2.id) < (d.start_utc, p.id) AND p2.id IN (SELECT p3.id " +
        where("p3", "d3", as_admin) + "))";
    const std::string hidden = query + "&hide_subsequent_recurrences=1";
    CHECK_MESSAGE(std::to_string(list_total(hidden, headers)) == engine::sql("SELECT COUNT(*) " + first_only),
                  hidden);
    CHECK(list_ids(hidden, headers) == [&] {
      std::vector<long long> ids;
      for (const std::string& id :
           split(engine::sql("SELECT p.id " + first_only + " ORDER BY d.start_utc, p.id LIMIT 10"), '\n'))
        ids.push_back(std::stoll(id));
      return ids;
    }());
    CHECK(list_total(hidden, headers) < list_total(query, headers));
  }
}

// What must be equal between two runs with the same N and seed: each series' fields, rule, links
// (venues and organizers relative to the run's first id), occurrences and those edited alone.
std::string series_fingerprint(const DemoRun& d) {
  const std::string base = std::to_string(d.base);
  return engine::sql(
      "SELECT p.title, p.status, p.author, s.timezone, s.start_local, s.end_local, s.all_day, "
      "REPLACE(s.recurrence, CHAR(10), '|'), (SELECT GROUP_CONCAT(CONCAT(l.kind, ':', IF(l.kind = 'term', "
      "l.target_id, l.target_id - " +
      base +
      ")) ORDER BY l.kind, l.target_id) FROM series_links l WHERE l.series_id = s.series_id), "
      "(SELECT COUNT(*) FROM event_occurrences eo WHERE eo.series_id = s.series_id), (SELECT "
      "GROUP_CONCAT(CONCAT(x.title, '@', d.start_local)) FROM event_occurrences eo JOIN posts x ON x.id = "
      "eo.event_id JOIN event_details d ON d.event_id = eo.event_id WHERE eo.series_id = s.series_id AND "
      "eo.is_exception = 1) FROM event_series s JOIN posts p ON p.id = s.series_id WHERE p.type = 'series' "
      "AND p.slug LIKE '%-" +
      d.prefix + "-s%' ORDER BY p.id");
}

TEST_CASE("calendarctl demo: a series derives the rows the same series written through POST /events does") {
  const DemoRun d = run_demo(800, 12, "--series-share 45");
  // The same seed draws the same series (another seed others).
  CHECK(series_fingerprint(d) == series_fingerprint(run_demo(800, 12, "--series-share 45")));
  CHECK(series_fingerprint(d) != series_fingerprint(run_demo(800, 13, "--series-share 45")));
  const std::vector<StoredSeries> all = series_of(d);
  // One with an occurrence edited alone and an EXDATE if any, one without an end.
  std::vector<long long> picked;
  for (const StoredSeries& s : all)
    if (picked.empty() && s.lines.find("EXDATE") != std::string::npos &&
        engine::sql("SELECT COUNT(*) FROM event_occurrences WHERE is_exception = 1 AND series_id = " +
                    std::to_string(s.id)) != "0")
      picked.push_back(s.id);
  for (const StoredSeries& s : all)
    if (s.infinite) {
      picked.push_back(s.id);
      break;
    }
  REQUIRE(picked.size() == 2);
  for (const long long id : picked) {
    const long long copy = written_again(id);
    const std::string demo_rows = derived_rows(id), api_rows = derived_rows(copy);
    if (id == picked.front()) CHECK(demo_rows.find("guest night") != std::string::npos);
    CHECK_MESSAGE(demo_rows == api_rows, "series ", id, " against ", copy);
  }
  CHECK(engine::derived_data_mismatch() == "");
}

}  // namespace caltest

namespace caltest {

TEST_CASE("calendarctl demo: a site's [recurrence] max_instances leaves the larger series out") {
  // The stack's config with a cap below most of the demo's series (weekly classes are 8-40 weeks).
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const std::string conf = std::string(dir) + "/calendar-capped.conf";
  std::filesystem::copy_file(std::string(dir) + "/calendar.conf", conf,
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(conf, std::ios::app) << "\n[recurrence]\nmax_instances = 12\n";
  std::string command = ctl();
  const auto at = command.find(" --config ");
  REQUIRE(at != std::string::npos);
  command = command.substr(0, at) + " --config '" + conf + "'";
  const Run r = run(command + " demo --events 400 --seed 3 --series-share 50 2>&1");
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  std::string prefix = r.out.substr(r.out.find("(slug prefix ") + 13);
  prefix = prefix.substr(0, prefix.find(')'));
  const std::string per_series = engine::sql(
      "SELECT COUNT(*), MAX(n) FROM (SELECT COUNT(*) AS n FROM event_occurrences eo JOIN posts p ON "
      "p.id = eo.series_id WHERE p.slug LIKE '%-" +
      prefix + "-s%' GROUP BY eo.series_id) x");
  const auto tab = per_series.find('\t');
  REQUIRE(tab != std::string::npos);
  CHECK(std::stoll(per_series.substr(0, tab)) >= 3);
  CHECK(std::stoll(per_series.substr(tab + 1)) <= 12);
  std::filesystem::remove(conf);
}

}  // namespace caltest
