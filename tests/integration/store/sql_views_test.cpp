// The SQL views of schema.sql (docs/mysql.md) show what the
// API shows. Records made through the API (with and without venue, organizers and terms,
// non-ASCII names, every status, a scheduled event whose date has passed) are read back from
// each view with the `mariadb` client and compared, column by column, with the same records read
// through the API as the administrator (context=edit). A view that no longer follows its tables
// (a column moved, a status rule changed, a list in another order) fails here.
#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace caltest {
namespace {

using events::admin;
using events::days_ahead;
using events::event_body;
using events::quoted;

const std::string kNs = "/cal/events/v1";

using Row = std::map<std::string, std::string>;  // column -> value as the client prints it ("NULL")

// The rows of one SELECT (or a write by hand, then none), with the column names of the client's header line
// in *columns.
std::vector<Row> query(const std::string& statement, std::vector<std::string>* columns = nullptr) {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "scripts/run-tests.sh sets CAL_TEST_DIR");
  const std::string file = std::string(dir) + "/sql_views_" + unique("q") + ".sql";
  std::ofstream(file) << statement;
  const Run r = run("mariadb --no-defaults --default-character-set=utf8mb4 --socket='" + std::string(dir) +
                    "/mysqld.sock' --user=root --batch --raw calendar < '" + file + "' 2>&1");
  std::remove(file.c_str());
  REQUIRE_MESSAGE(r.exit_code == 0, statement << "\n" << r.out);
  if (statement.rfind("SELECT ", 0) != 0) wait_out_lease();  // a write by hand: in the next answers
  std::vector<Row> rows;
  std::vector<std::string> names;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (!line.empty() && line.back() == '\t') cells.push_back("");
    if (names.empty()) {
      names = cells;
      continue;
    }
    REQUIRE_MESSAGE(cells.size() == names.size(), line);
    Row row;
    for (std::size_t i = 0; i < names.size(); ++i) row[names[i]] = cells[i];
    rows.push_back(row);
  }
  if (columns) *columns = names;
  return rows;
}

std::string text_of(const rapidjson::Value* v) {
  if (!v || v->IsNull()) return "NULL";
  if (v->IsString()) return v->GetString();
  if (v->IsBool()) return v->GetBool() ? "1" : "0";
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  if (v->IsDouble()) return std::to_string(v->GetDouble());
  return "(not a scalar)";
}

std::string field(const rapidjson::Value& d, std::string_view key) { return text_of(find(d, {key})); }

// The `key` member of each object in the array `list`, joined by ", " (NULL when none), as the
// views join names.
std::string names_of(const rapidjson::Value& d, std::string_view list, std::string_view key) {
  std::string out;
  const rapidjson::Value* a = find(d, {list});
  if (a && a->IsArray())
    for (const auto& x : a->GetArray()) out += (out.empty() ? "" : ", ") + field(x, key);
  return out.empty() ? "NULL" : out;
}

rapidjson::Document read(const std::string& path) {
  const HttpResponse r =
      get(kNs + path + (path.find('?') == std::string::npos ? "?" : "&") + "context=edit", {admin()});
  REQUIRE_MESSAGE(r.status == 200, path << ": " << describe(r));
  return r.json();
}

long long create(const std::string& collection, const std::string& body) {
  const HttpResponse r = post_json(kNs + "/" + collection, body, {admin()});
  REQUIRE_MESSAGE(r.status == 201, collection << " " << body << ": " << describe(r));
  return r.json()["id"].GetInt64();
}

// The columns calendar_events and calendar_series share, each with the record member it shows.
constexpr std::pair<const char*, const char*> kSharedColumns[] = {{"id", "id"},
                                                                  {"title", "title"},
                                                                  {"slug", "slug"},
                                                                  {"status", "status"},
                                                                  {"start_local", "start_date"},
                                                                  {"end_local", "end_date"},
                                                                  {"timezone", "timezone"},
                                                                  {"start_utc", "utc_start_date"},
                                                                  {"end_utc", "utc_end_date"},
                                                                  {"all_day", "all_day"},
                                                                  {"cost", "cost"},
                                                                  {"modified_utc", "modified_utc"}};

// What calendar_events must show for an event record of the API.
Row event_row(const rapidjson::Value& e) {
  Row row;
  for (const auto& [column, key] : kSharedColumns) row[column] = field(e, key);
  row["featured"] = field(e, "featured");
  row["series_id"] = field(e, "series_id");
  const rapidjson::Value* venue = find(e, {"venue"});
  const bool has_venue = venue && venue->IsObject();
  row["venue"] = has_venue ? field(*venue, "venue") : "NULL";
  row["city"] = has_venue ? field(*venue, "city") : "NULL";
  row["country"] = has_venue ? field(*venue, "country") : "NULL";
  row["organizers"] = names_of(e, "organizer", "organizer");
  row["categories"] = names_of(e, "categories", "name");
  row["tags"] = names_of(e, "tags", "name");
  return row;
}

// What differs between a view's row and the API's ("" when nothing).
std::string difference(const std::string& what, const Row& view, const Row& api) {
  std::string out;
  for (const auto& [column, want] : api) {
    const auto it = view.find(column);
    const std::string got = it == view.end() ? "(no such column)" : it->second;
    if (got != want) out += what + " " + column + ": view '" + got + "', API '" + want + "'\n";
  }
  return out;
}

std::string id_list(const std::vector<long long>& ids) {
  std::string out;
  for (long long id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

const std::vector<std::string> kEventColumns = {
    "id",         "title",   "slug",    "status",   "start_local",  "end_local", "timezone",
    "start_utc",  "end_utc", "all_day", "venue",    "city",         "country",   "organizers",
    "categories", "tags",    "cost",    "featured", "modified_utc", "series_id"};

TEST_CASE("sql views: every row shows what the API shows for the same records") {
  const std::string u = unique("sv");
  // Terms: a category tree with non-ASCII names, tags whose name order is not their id order.
  const long long music =
      create("categories", "{\"name\":" + quoted("Müsik " + u) + ",\"description\":\"Töne\"}");
  const long long jazz = create("categories", "{\"name\":" + quoted("Jazz & Blues " + u) +
                                                  ",\"parent\":" + std::to_string(music) + "}");
  const long long zebra = create("categories", "{\"name\":" + quoted("Zébra " + u) + "}");
  const long long unused = create("categories", "{\"name\":" + quoted("Leer " + u) + "}");
  const long long ete = create("tags", "{\"name\":" + quoted("été " + u) + "}");
  const long long apple = create("tags", "{\"name\":" + quoted("apple " + u) + "}");
  const std::vector<long long> terms = {music, jazz, zebra, unused, ete, apple};
  // Venues and organizers, one of each linked to nothing.
  const long long hall =
      create("venues", "{\"venue\":" + quoted("Salle — 東京 " + u) +
                           ",\"city\":\"Zürich\",\"country\":\"Schweiz\",\"address\":\"Gäßchen "
                           "1\",\"zip\":\"8001\",\"phone\":\"+41 44 000\"}");
  const long long bare = create("venues", "{\"venue\":" + quoted("Bare " + u) + ",\"status\":\"draft\"}");
  const long long lonely = create("venues", "{\"venue\":" + quoted("Nobody's " + u) + "}");
  const long long beta = create("organizers", "{\"organizer\":" + quoted("Ørganisation Bêta " + u) +
                                                  ",\"email\":\"beta@example.org\",\"phone\":\"+33 1\"}");
  const long long alpha = create("organizers", "{\"organizer\":" + quoted("Alpha " + u) + "}");
  const long long idle = create("organizers", "{\"organizer\":" + quoted("Idle " + u) + "}");
  const std::vector<long long> venues = {hall, bare, lonely}, organizers = {beta, alpha, idle};

  const std::string all = R"("categories":[)" + std::to_string(jazz) + "," + std::to_string(zebra) +
                          R"(],"tags":[)" + std::to_string(ete) + "," + std::to_string(apple) + "]";
  std::vector<long long> ids;
  // Everything linked; organizers in the order given (Bêta before Alpha).
  ids.push_back(
      create("events", event_body("Konzert " + u, days_ahead(5, "19:30:00"), days_ahead(5, "22:00:00"),
                                  R"("timezone":"Europe/Berlin","cost":"15 €","featured":true,"venue":)" +
                                      std::to_string(hall) + R"(,"organizer":[)" + std::to_string(beta) +
                                      "," + std::to_string(alpha) + "]," + all)));
  // Nothing linked, a non-ASCII title, ended.
  ids.push_back(
      create("events", event_body("Fête — 祭り " + u, "2020-06-21 18:00:00", "2020-06-21 23:00:00")));
  // A draft at the draft venue, one organizer, one tag.
  ids.push_back(create(
      "events", event_body("Draft " + u, days_ahead(9, "10:00:00"), days_ahead(9, "11:00:00"),
                           R"("status":"draft","venue":)" + std::to_string(bare) + R"(,"organizer":[)" +
                               std::to_string(alpha) + R"(],"tags":[)" + std::to_string(apple) + "]")));
  // Scheduled: its publication date is moved into the past below, so it reads as published.
  const long long due =
      create("events", event_body("Due " + u, days_ahead(3, "08:00:00"), days_ahead(3, "09:00:00"),
                                  R"("status":"future","date":"2099-01-01 00:00:00","categories":[)" +
                                      std::to_string(zebra) + "]"));
  ids.push_back(due);
  // Still scheduled.
  ids.push_back(create(
      "events",
      event_body("Later " + u, days_ahead(4, "08:00:00"), days_ahead(4, "09:00:00"),
                 R"("status":"future","date":"2099-01-01 00:00:00","venue":)" + std::to_string(hall))));
  // Trashed, with links.
  const long long trashed =
      create("events", event_body("Trash " + u, days_ahead(6, "08:00:00"), days_ahead(6, "09:00:00"),
                                  R"("venue":)" + std::to_string(hall) + "," + all));
  ids.push_back(trashed);
  REQUIRE(del(kNs + "/events/" + std::to_string(trashed), {admin()}).status == 200);
  // All day, hidden from listings, started yesterday and not ended yet (all day today, UTC).
  ids.push_back(
      create("events", event_body("Ongoing " + u, days_ahead(-1, "00:00:00"), days_ahead(30, "23:59:59"),
                                  R"("all_day":true,"hide_from_listings":true,"cost":"0","categories":[)" +
                                      std::to_string(jazz) + "]")));
  query("UPDATE posts SET date_utc = UTC_TIMESTAMP() - INTERVAL 1 HOUR, date_local = date_utc WHERE id = " +
        std::to_string(due));

  // The API's records.
  std::map<long long, rapidjson::Document> api;
  for (long long id : ids) api.emplace(id, read("/events/" + std::to_string(id)));
  REQUIRE(field(api.at(due), "status") == "publish");

  SUBCASE("calendar_events") {
    std::vector<std::string> columns;
    const auto rows =
        query("SELECT * FROM calendar_events WHERE id IN (" + id_list(ids) + ") ORDER BY id", &columns);
    CHECK(columns == kEventColumns);
    REQUIRE(rows.size() == ids.size());
    for (const Row& row : rows) {
      const long long id = std::stoll(row.at("id"));
      Row want = event_row(api.at(id));
      // The view has the cost as entered; the API shows "Free" for 0.
      if (want["title"] == "Ongoing " + u) {
        CHECK(want["cost"] == "Free");
        want["cost"] = "0";
      }
      const std::string diff = difference("event " + row.at("id"), row, want);
      CHECK_MESSAGE(diff.empty(), diff);
    }
    // Each case is there as meant (the comparison above compares something).
    const Row& first = rows.front();
    CHECK(first.at("organizers") == "Ørganisation Bêta " + u + ", Alpha " + u);
    CHECK(first.at("categories") == "Jazz & Blues " + u + ", Zébra " + u);
    CHECK(first.at("tags") == "apple " + u + ", été " + u);
    CHECK(first.at("city") == "Zürich");
    CHECK(rows[1].at("venue") == "NULL");
    CHECK(rows[1].at("categories") == "NULL");
    CHECK(rows[1].at("title") == "Fête — 祭り " + u);
  }

  SUBCASE("calendar_upcoming: the published events not ended, in start order") {
    std::vector<std::string> columns;
    const auto rows = query("SELECT * FROM calendar_upcoming WHERE id IN (" + id_list(ids) + ")", &columns);
    CHECK(columns == kEventColumns);
    std::vector<std::pair<std::string, long long>> want;  // (UTC start, id) of the API's
    const std::string now =
        query("SELECT DATE_FORMAT(UTC_TIMESTAMP(), '%Y-%m-%d %H:%i:%s') AS now")[0].at("now");
    for (const auto& [id, e] : api)
      if (field(e, "status") == "publish" && field(e, "utc_end_date") > now)
        want.emplace_back(field(e, "utc_start_date"), id);
    std::sort(want.begin(), want.end());
    REQUIRE(rows.size() == want.size());
    CHECK(want.size() == 3);  // the linked one, the due one and the ongoing hidden one
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CHECK(rows[i].at("id") == std::to_string(want[i].second));
      Row expected = event_row(api.at(want[i].second));
      if (expected["cost"] == "Free") expected["cost"] = "0";
      const std::string diff = difference("upcoming " + rows[i].at("id"), rows[i], expected);
      CHECK_MESSAGE(diff.empty(), diff);
    }
  }

  // Published events linking a record, counted from the API's events (only this test's events
  // link this test's venues and organizers).
  auto published_linking = [&](long long linked, const char* key) {
    long long n = 0;
    for (const auto& [id, e] : api) {
      if (field(e, "status") != "publish") continue;
      const rapidjson::Value* v = find(e, {key});
      if (v && v->IsObject() && field(*v, "id") == std::to_string(linked)) ++n;
      if (v && v->IsArray())
        for (const auto& o : v->GetArray())
          if (field(o, "id") == std::to_string(linked)) ++n;
    }
    return std::to_string(n);
  };

  SUBCASE("calendar_venues") {
    std::vector<std::string> columns;
    const auto rows =
        query("SELECT * FROM calendar_venues WHERE id IN (" + id_list(venues) + ") ORDER BY id", &columns);
    CHECK(columns == std::vector<std::string>{"id", "venue", "slug", "status", "address", "city", "country",
                                              "province", "state", "zip", "phone", "website", "geo_lat",
                                              "geo_lng", "events", "modified_utc"});
    REQUIRE(rows.size() == venues.size());
    for (const Row& row : rows) {
      const rapidjson::Document v = read("/venues/" + row.at("id"));
      Row want;
      for (const char* k : {"id", "venue", "slug", "status", "address", "city", "country", "province",
                            "state", "zip", "phone", "website", "modified_utc"})
        want[k] = field(v, k);
      // Coordinates appear in records only with the geolocation extension; none were given.
      want["geo_lat"] = want["geo_lng"] = "NULL";
      want["events"] = published_linking(std::stoll(row.at("id")), "venue");
      const std::string diff = difference("venue " + row.at("id"), row, want);
      CHECK_MESSAGE(diff.empty(), diff);
    }
    CHECK(rows[0].at("events") == "1");  // the hall: published; the scheduled and trashed ones do not count
    CHECK(rows[1].at("events") == "0");  // the draft event's venue
  }

  SUBCASE("calendar_organizers") {
    std::vector<std::string> columns;
    const auto rows = query(
        "SELECT * FROM calendar_organizers WHERE id IN (" + id_list(organizers) + ") ORDER BY id", &columns);
    CHECK(columns == std::vector<std::string>{"id", "organizer", "slug", "status", "phone", "website",
                                              "email", "events", "modified_utc"});
    REQUIRE(rows.size() == organizers.size());
    for (const Row& row : rows) {
      const rapidjson::Document o = read("/organizers/" + row.at("id"));
      Row want;
      for (const char* k : {"id", "organizer", "slug", "status", "phone", "website", "email", "modified_utc"})
        want[k] = field(o, k);
      want["events"] = published_linking(std::stoll(row.at("id")), "organizer");
      const std::string diff = difference("organizer " + row.at("id"), row, want);
      CHECK_MESSAGE(diff.empty(), diff);
    }
    CHECK(rows[0].at("events") == "1");  // Bêta: the published linked event only
    CHECK(rows[1].at("events") == "1");  // Alpha: the same; its draft does not count
    CHECK(rows[2].at("events") == "0");
  }

  SUBCASE("calendar_terms") {
    std::vector<std::string> columns;
    const auto rows =
        query("SELECT * FROM calendar_terms WHERE id IN (" + id_list(terms) + ") ORDER BY id", &columns);
    CHECK(columns ==
          std::vector<std::string>{"id", "taxonomy", "name", "slug", "parent", "description", "count"});
    REQUIRE(rows.size() == terms.size());
    std::map<std::string, std::string> names;  // id -> name, from the API
    std::vector<rapidjson::Document> records;
    for (const Row& row : rows) {
      const bool tag = row.at("taxonomy") == "post_tag";
      records.push_back(read(std::string(tag ? "/tags/" : "/categories/") + row.at("id")));
      names[row.at("id")] = field(records.back(), "name");
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const rapidjson::Value& t = records[i];
      Row want;
      for (const char* k : {"id", "taxonomy", "name", "slug", "description", "count"}) want[k] = field(t, k);
      const std::string parent = field(t, "parent");
      want["parent"] = parent == "0"         ? "NULL"
                       : names.count(parent) ? names[parent]
                                             : "(parent " + parent + ")";
      const std::string diff = difference("term " + rows[i].at("id"), rows[i], want);
      CHECK_MESSAGE(diff.empty(), diff);
    }
    // Jazz: the published linked event and the ongoing one; Zébra: the linked and the due one.
    CHECK(rows[1].at("count") == "2");
    CHECK(rows[1].at("parent") == "Müsik " + u);
    CHECK(rows[2].at("count") == "2");
    CHECK(rows[3].at("count") == "0");
  }

  SUBCASE("a change through the API shows at once") {
    REQUIRE(post_json(kNs + "/venues/" + std::to_string(hall), R"({"city":"Genève"})", {admin()}).status ==
            200);
    const auto rows = query("SELECT city FROM calendar_events WHERE id = " + std::to_string(ids[0]));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].at("city") == "Genève");
  }
}

TEST_CASE("sql views: calendar_occurrences and calendar_series show what the API shows of a series") {
  const std::string u = unique("svs");
  const long long hall = create("venues", "{\"venue\":" + quoted("Saal " + u) + ",\"city\":\"Köln\"}");
  const long long series = create(
      "events", event_body("Kurs " + u, "2043-03-17 19:00:00", "2043-03-17 20:30:00",
                           R"("timezone":"Europe/Berlin","cost":"5 €","venue":)" + std::to_string(hall) +
                               R"(,"recurrence":["RRULE:FREQ=WEEKLY;COUNT=4"])"));
  const rapidjson::Document listed = read("/events/" + std::to_string(series) + "/occurrences?per_page=10");
  std::vector<long long> ids;
  for (const auto& e : listed["events"].GetArray()) ids.push_back(e["id"].GetInt64());
  REQUIRE(ids.size() == 4);
  // One occurrence edited alone and moved by an hour, one cancelled.
  REQUIRE(post_json(kNs + "/events/" + std::to_string(ids[1]),
                    R"({"title":"Extra )" + u +
                        R"(","start_date":"2043-03-24 20:00:00","end_date":"2043-03-24 21:30:00"})",
                    {admin()})
              .status == 200);
  REQUIRE(del(kNs + "/events/" + std::to_string(ids[2]), {admin()}).status == 200);
  const std::vector<long long> left = {ids[0], ids[1], ids[3]};

  SUBCASE("calendar_occurrences") {
    std::vector<std::string> columns;
    const auto rows = query("SELECT * FROM calendar_occurrences WHERE series_id = " + std::to_string(series) +
                                " ORDER BY start_utc",
                            &columns);
    CHECK(columns == std::vector<std::string>{"series_id", "id", "title", "slug", "status",
                                              "original_start_local", "original_start_utc", "start_local",
                                              "end_local", "timezone", "start_utc", "end_utc", "all_day",
                                              "is_exception", "venue", "modified_utc"});
    REQUIRE(rows.size() == left.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const rapidjson::Document e = read("/events/" + std::to_string(left[i]));
      Row want;
      for (auto [column, key] : {std::pair{"series_id", "series_id"},
                                 {"id", "id"},
                                 {"title", "title"},
                                 {"slug", "slug"},
                                 {"status", "status"},
                                 {"original_start_local", "original_start_date"},
                                 {"original_start_utc", "original_start_date_utc"},
                                 {"start_local", "start_date"},
                                 {"end_local", "end_date"},
                                 {"timezone", "timezone"},
                                 {"start_utc", "utc_start_date"},
                                 {"end_utc", "utc_end_date"},
                                 {"all_day", "all_day"},
                                 {"is_exception", "is_exception"},
                                 {"modified_utc", "modified_utc"}})
        want[column] = field(e, key);
      want["venue"] = field(*find(e, {"venue"}), "venue");
      const std::string diff = difference("occurrence " + rows[i].at("id"), rows[i], want);
      CHECK_MESSAGE(diff.empty(), diff);
    }
    // The exception: its own title and time, its original start kept.
    CHECK(rows[1].at("is_exception") == "1");
    CHECK(rows[1].at("title") == "Extra " + u);
    CHECK(rows[1].at("start_local") == "2043-03-24 20:00:00");
    CHECK(rows[1].at("original_start_local") == "2043-03-24 19:00:00");
    CHECK(rows[0].at("is_exception") == "0");
    CHECK(rows[0].at("venue") == "Saal " + u);
  }

  SUBCASE("calendar_series") {
    // Its columns, then its row with the lines joined by '|' (the client prints a newline raw).
    const auto names = query(
        "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) AS names FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'calendar_series'");
    REQUIRE(names.size() == 1);
    std::vector<std::string> columns;
    std::istringstream list(names[0].at("names"));
    for (std::string name; std::getline(list, name, ',');) columns.push_back(name);
    std::string select;
    for (const std::string& c : columns)
      select += (select.empty() ? "" : ", ") +
                (c == "recurrence" ? "REPLACE(recurrence, '\\n', '|') AS recurrence" : c);
    const auto rows =
        query("SELECT " + select + " FROM calendar_series WHERE id = " + std::to_string(series));
    CHECK(columns == std::vector<std::string>{"id", "title", "slug", "status", "start_local", "end_local",
                                              "timezone", "start_utc", "end_utc", "all_day", "recurrence",
                                              "is_infinite", "horizon_utc", "occurrences", "exceptions",
                                              "venue", "cost", "modified_utc"});
    REQUIRE(rows.size() == 1);
    const rapidjson::Document e = read("/events/" + std::to_string(series));
    Row want;
    for (const auto& [column, key] : kSharedColumns) want[column] = field(e, key);
    want["venue"] = field(*find(e, {"venue"}), "venue");
    want["occurrences"] = "3";
    want["exceptions"] = "1";
    want["is_infinite"] = "0";
    const std::string diff = difference("series " + rows[0].at("id"), rows[0], want);
    CHECK_MESSAGE(diff.empty(), diff);
    // The lines as stored, one per line.
    std::string lines;
    const rapidjson::Value* recurrence = find(e, {"recurrence"});
    REQUIRE((recurrence && recurrence->IsArray()));
    for (const auto& l : recurrence->GetArray())
      lines += (lines.empty() ? "" : "|") + std::string(l.GetString());
    CHECK(lines.find("EXDATE") != std::string::npos);
    CHECK(rows[0].at("recurrence") == lines);
  }

  SUBCASE("calendar_events: occurrences with their series, never the series") {
    const auto rows = query("SELECT id, series_id FROM calendar_events WHERE id IN (" + id_list(left) + "," +
                            std::to_string(series) + ") ORDER BY id");
    REQUIRE(rows.size() == left.size());
    for (const Row& row : rows) CHECK(row.at("series_id") == std::to_string(series));
  }
}

// The client's message when MariaDB refuses `statement` ("" when it ran).
std::string refusal(const std::string& statement) {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const Run r =
      run("mariadb --no-defaults --default-character-set=utf8mb4 --socket='" + std::string(dir) +
          "/mysqld.sock' --user=root calendar -e \"START TRANSACTION; " + statement + "; ROLLBACK\" 2>&1");
  return r.exit_code == 0 ? "" : r.out;
}

TEST_CASE("sql views: no INSERT or DELETE through them, no UPDATE of what they compute") {
  for (const char* view :
       {"calendar_events", "calendar_upcoming", "calendar_venues", "calendar_organizers", "calendar_terms"}) {
    const std::string name = view;
    CAPTURE(name);
    CHECK(refusal(std::string("INSERT INTO ") + view + " (id) VALUES (NULL)").find("not insertable-into") !=
          std::string::npos);
    CHECK(refusal(std::string("DELETE FROM ") + view + " WHERE id = 1").find("not updatable") !=
          std::string::npos);
  }
  for (const char* update : {"calendar_events SET status = 'draft'", "calendar_events SET organizers = 'x'",
                             "calendar_events SET categories = 'x'", "calendar_events SET tags = 'x'",
                             "calendar_upcoming SET tags = 'x'", "calendar_venues SET events = 1",
                             "calendar_organizers SET events = 1", "calendar_terms SET count = 1"}) {
    const std::string statement = update;
    CAPTURE(statement);
    CHECK(refusal(std::string("UPDATE ") + update + " WHERE id = 1").find("is not updatable") !=
          std::string::npos);
  }
}

// One row per record in the whole database, whoever wrote it.
TEST_CASE("sql views: one row per event, venue, organizer and term") {
  const auto counts = query(
      "SELECT (SELECT COUNT(*) FROM calendar_events) = (SELECT COUNT(*) FROM posts WHERE type = 'event') AS "
      "events, "
      "(SELECT COUNT(*) FROM calendar_venues) = (SELECT COUNT(*) FROM posts WHERE type = 'venue') AS venues, "
      "(SELECT COUNT(*) FROM calendar_organizers) = (SELECT COUNT(*) FROM posts WHERE type = 'organizer') AS "
      "organizers, (SELECT COUNT(*) FROM calendar_terms) = (SELECT COUNT(*) FROM terms) AS terms, "
      "(SELECT COUNT(DISTINCT id) FROM calendar_events) = (SELECT COUNT(*) FROM calendar_events) AS "
      "distinct_events, (SELECT COUNT(*) FROM calendar_occurrences) = (SELECT COUNT(*) FROM "
      "event_occurrences) "
      "AS occurrences, (SELECT COUNT(*) FROM calendar_series) = (SELECT COUNT(*) FROM posts WHERE type = "
      "'series') AS series");
  REQUIRE(counts.size() == 1);
  for (const auto& [what, equal] : counts[0]) CHECK_MESSAGE(equal == "1", what);
}

}  // namespace
}  // namespace caltest
