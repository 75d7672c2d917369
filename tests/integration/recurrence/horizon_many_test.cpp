// Integration tests of many infinite series extended by one query (docs/recurring-events.md,
// "Horizon"): their new occurrences are written together, a statement for up to 1,000 series (on
// two connections from eight series on), and
// each series must end up as a series write of its own would have left it: its occurrences,
// their slugs, link copies, rollups, term counts, search postings, change-log notes, and cached
// answers that follow.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

std::string day(int days) { return date_text(utc_today() + std::chrono::days{days}); }

// Weekly starts from `first_day` days ahead through the end of `last_day` days ahead.
long long weekly_through(int first_day, int last_day) { return (last_day - first_day) / 7 + 1; }

std::string header_of(const std::string& path, const char* name) {
  const HttpResponse r = get(path);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.header(name);
}

std::string in_list(const std::vector<long long>& ids) {
  std::string out;
  for (long long id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

// The change log's entries of kind `kind` per record of `ids`.
std::map<long long, long long> noted(const char* kind, const std::vector<long long>& ids) {
  std::map<long long, long long> out;
  for (long long id : ids) out[id] = 0;
  const std::string rows =
      engine::sql(std::string("SELECT record_id, COUNT(*) FROM data_changes WHERE kind = '") + kind +
                  "' AND record_id IN (" + in_list(ids) + ") GROUP BY record_id");
  for (std::size_t at = 0; at < rows.size();) {
    const std::size_t end = std::min(rows.find('\n', at), rows.size());
    const std::string line = rows.substr(at, end - at);
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) out[std::stoll(line.substr(0, tab))] = std::stoll(line.substr(tab + 1));
    at = end + 1;
  }
  return out;
}

// InnoDB's account of its latest deadlock, if any.
std::string latest_deadlock() {
  const std::string status = engine::sql("SHOW ENGINE INNODB STATUS");
  const std::size_t from = status.find("LATEST DETECTED DEADLOCK");
  if (from == std::string::npos) return "no deadlock since the server started";
  return status.substr(from, status.find("\\nTRANSACTIONS", from) - from);
}

TEST_CASE("recurrence: one window extends many infinite series together, each as its own write would") {
  constexpr int kSeries = 12;  // a statement's chunk of ten, then two alone
  const long long category = made("/cal/events/v1/categories", "{\"name\":" + quoted(unique("Many")) + "}");
  const long long tag = made("/cal/events/v1/tags", "{\"name\":" + quoted(unique("Manytag")) + "}");
  const long long venue = made("/cal/events/v1/venues", "{\"venue\":" + quoted(unique("Many hall")) + "}");
  const long long organizer =
      made("/cal/events/v1/organizers", "{\"organizer\":" + quoted(unique("Many host")) + "}");
  const long long unlogged = std::stoll(
      engine::sql("SELECT (SELECT SUM(version) FROM data_version) - (SELECT COUNT(*) FROM data_changes)"));

  // Series i starts i + 1 days ahead, weekly without end, every other one in Berlin, each with
  // a word of its own; the odd ones have the tag too, the first three a venue and an organizer.
  std::vector<long long> series;
  std::vector<std::string> words, slugs;
  for (int i = 0; i < kSeries; ++i) {
    std::string word = unique("manyword");
    std::erase(word, '_');
    std::string links = "\"status\":\"publish\",\"timezone\":\"" +
                        std::string(i % 2 ? "Europe/Berlin" : "UTC") + "\",\"categories\":[" +
                        std::to_string(category) + "]";
    if (i % 2) links += ",\"tags\":[" + std::to_string(tag) + "]";
    if (i < 3)
      links += ",\"venue\":" + std::to_string(venue) + ",\"organizer\":[" + std::to_string(organizer) + "]";
    const rapidjson::Document created =
        create(event_body("Extended " + word, day(i + 1) + " 12:00", day(i + 1) + " 13:30",
                          links + ",\"recurrence\":[\"RRULE:FREQ=WEEKLY\"]"));
    series.push_back(id_of(created));
    words.push_back(word);
    slugs.push_back(string_at(created, {"slug"}));
  }
  // The first occurrence of the first series edited alone: its own title, not the series' word.
  const std::vector<long long> first_ids =
      list_ids("per_page=1&start_date=" + day(0) + "&end_date=" + day(1) + "&search=" + words[0]);
  REQUIRE(first_ids.size() == 1);
  REQUIRE(
      patch_json(path_of(first_ids[0]), "{\"title\":" + quoted(unique("Alone")) + "}", {admin()}).status ==
      200);
  // An event holding the slug the second series' occurrence 300 weeks on would take.
  const int taken_day = 2 + 7 * 300;
  const long long squatter =
      made(kEvents, event_body(unique("Squatter"), day(taken_day) + " 08:00", day(taken_day) + " 09:00",
                               "\"slug\":" + quoted(slugs[1] + "-" + day(taken_day))));

  // A yearly series whose every occurrence is edited alone: no occurrence to copy the search
  // postings of, so it is extended by a series write of its own.
  std::string yearly_word = unique("yearlyword");
  std::erase(yearly_word, '_');
  const long long yearly = id_of(create(
      event_body("Yearly " + yearly_word, day(1) + " 12:00", day(1) + " 13:00",
                 "\"status\":\"publish\",\"timezone\":\"UTC\",\"recurrence\":[\"RRULE:FREQ=YEARLY\"]")));
  const HttpResponse yearly_list = get(path_of(yearly) + "/occurrences?per_page=20");
  REQUIRE_MESSAGE(yearly_list.status == 200, describe(yearly_list));
  const std::vector<long long> yearly_ids = ids_in(yearly_list.json());
  REQUIRE(yearly_ids.size() >= 4);
  for (long long id : yearly_ids)
    REQUIRE(patch_json(path_of(id), "{\"title\":" + quoted(unique("Alone yearly")) + "}", {admin()}).status ==
            200);

  // Cached now: each series' occurrences, all of them.
  std::vector<long long> before;
  for (long long s : series)
    before.push_back(std::stoll(header_of(path_of(s) + "/occurrences?per_page=1", "X-WP-Total")));
  const std::map<long long, long long> series_notes = noted("series", series);

  // Seven years ahead: past every series' 60 months, one list extends them all, half of them on
  // a connection of its own beside the request's (MariaDB counts connections made, this test's
  // client that reads the count too).
  const int seven_years = 7 * 365 + 2;
  const auto connections = [] {
    const std::string row = engine::sql("SHOW GLOBAL STATUS LIKE 'Connections'");
    return std::stoll(row.substr(row.find('\t') + 1));
  };
  const long long connections_before = connections();
  const std::string deadlock_before = latest_deadlock();
  const HttpResponse listed =
      get(std::string(kEvents) + "?per_page=1&categories=" + std::to_string(category) +
          "&start_date=" + day(0) + "&end_date=" + day(seven_years));
  REQUIRE_MESSAGE(listed.status == 200, describe(listed));
  CHECK(connections() - connections_before >= 2);
  long long expected_total = 0;
  for (int i = 0; i < kSeries; ++i) expected_total += weekly_through(i + 1, seven_years);
  CHECK(listed.header("X-WP-Total") == std::to_string(expected_total));
  // Together: a series write each would take over 60 statements a series here (720), with the
  // occurrences' rows 1,000 a statement. Should the two connections have deadlocked (InnoDB rolls
  // one back: the request runs again, or takes the other's series), the count holds that work
  // twice: what InnoDB says of it is printed, and the count may be up to twice as high.
  const std::string deadlock = latest_deadlock();
  const long long statements = std::stoll(listed.header("X-Cal-Statements"));
  if (deadlock != deadlock_before) {
    MESSAGE("the list met a deadlock (" << statements << " statements): " << deadlock);
    CHECK(statements < 800);
  } else {
    CHECK_MESSAGE(statements < 400, "no deadlock: " << deadlock);
  }

  CHECK(engine::derived_data_mismatch() == "");
  const std::map<long long, long long> series_notes_after = noted("series", series);
  long long all_occurrences = 0;
  for (int i = 0; i < kSeries; ++i) {
    CAPTURE(i);
    const std::string id = std::to_string(series[i]);
    CHECK(engine::sql("SELECT DATE(horizon_utc) > '" + day(seven_years) +
                      "' FROM event_series WHERE series_id = " + id) == "1");
    const std::string window = "&start_date=" + day(0) + "&end_date=" + day(seven_years);
    CHECK(header_of(path_of(series[i]) + "/occurrences?per_page=1" + window, "X-WP-Total") ==
          std::to_string(weekly_through(i + 1, seven_years)));
    // Searched through the copies of the series' postings (the first series' exception aside).
    CHECK(header_of(std::string(kEvents) + "?per_page=1&search=" + words[i] + window, "X-WP-Total") ==
          std::to_string(weekly_through(i + 1, seven_years) - (i == 0 ? 1 : 0)));
    const long long all = std::stoll(header_of(path_of(series[i]) + "/occurrences?per_page=1", "X-WP-Total"));
    CHECK(all > before[i]);
    all_occurrences += all;
    CHECK(engine::sql(
              "SELECT COUNT(*) - COUNT(DISTINCT original_utc) FROM event_occurrences WHERE series_id = " +
              id) == "0");
    // Every occurrence noted in the change log, and the series (its next occurrences may change).
    CHECK(
        engine::sql("SELECT COUNT(*) FROM event_occurrences eo WHERE eo.series_id = " + id +
                    " AND NOT EXISTS (SELECT 1 FROM data_changes c WHERE c.kind = 'event' AND c.record_id = "
                    "eo.event_id)") == "0");
    CHECK(series_notes_after.at(series[i]) > series_notes.at(series[i]));
    // The links of the series on every occurrence, none on the series.
    CHECK(
        engine::sql("SELECT COUNT(*) FROM event_occurrences eo WHERE eo.series_id = " + id +
                    " AND NOT EXISTS (SELECT 1 FROM term_relationships r WHERE r.event_id = eo.event_id AND "
                    "r.term_id = " +
                    std::to_string(category) + ")") == "0");
    CHECK(engine::sql("SELECT COUNT(*) FROM event_occurrences eo JOIN term_relationships r ON r.event_id = "
                      "eo.event_id AND r.term_id = " +
                      std::to_string(tag) + " WHERE eo.series_id = " + id) ==
          (i % 2 ? std::to_string(all) : "0"));
    CHECK(engine::sql(
              "SELECT COUNT(*) FROM event_occurrences eo JOIN event_venues v ON v.event_id = eo.event_id "
              "JOIN event_organizers o ON o.event_id = eo.event_id WHERE eo.series_id = " +
              id) == (i < 3 ? std::to_string(all) : "0"));
    CHECK(engine::sql("SELECT COUNT(*) FROM event_details WHERE event_id = " + id) == "0");
  }
  CHECK(int_at(get("/cal/events/v1/categories/" + std::to_string(category)).json(), {"count"}) ==
        all_occurrences);
  CHECK(std::stoll(engine::sql(
            "SELECT (SELECT SUM(version) FROM data_version) - (SELECT COUNT(*) FROM data_changes)")) ==
        unlogged);
  // The yearly series, extended alone: every year through the window (a February 29th only in
  // leap years).
  const std::chrono::year_month_day first_year{utc_today() + std::chrono::days{1}};
  long long yearly_expected = 0;
  for (int k = 0; k < 10; ++k) {
    const std::chrono::year_month_day at = first_year + std::chrono::years{k};
    if (at.ok() && std::chrono::sys_days{at} <= utc_today() + std::chrono::days{seven_years})
      ++yearly_expected;
  }
  CHECK(header_of(path_of(yearly) + "/occurrences?per_page=1&start_date=" + day(0) +
                      "&end_date=" + day(seven_years),
                  "X-WP-Total") == std::to_string(yearly_expected));
  CHECK(engine::sql("SELECT DATE(horizon_utc) > '" + day(seven_years) +
                    "' FROM event_series WHERE series_id = " + std::to_string(yearly)) == "1");
  // Its new occurrences hold the series' words; those edited alone do not.
  CHECK(header_of(std::string(kEvents) + "?per_page=1&search=" + yearly_word + "&start_date=" + day(0) +
                      "&end_date=" + day(seven_years),
                  "X-WP-Total") ==
        std::to_string(yearly_expected - static_cast<long long>(yearly_ids.size())));

  // The occurrence whose slug was taken takes the next one.
  const std::vector<long long> at_taken = list_ids("per_page=5&start_date=" + day(taken_day) +
                                                   "&end_date=" + day(taken_day) + "&search=" + words[1]);
  REQUIRE(at_taken.size() == 1);
  CHECK(string_at(get(path_of(at_taken[0])).json(), {"slug"}) == slugs[1] + "-" + day(taken_day) + "-2");

  // Gone again: no other test's far window meets an infinite series.
  for (long long s : series) REQUIRE(del(path_of(s) + "?force=true", {admin()}).status == 200);
  REQUIRE(del(path_of(squatter) + "?force=true", {admin()}).status == 200);
  REQUIRE(del(path_of(yearly) + "?force=true", {admin()}).status == 200);
}

}  // namespace
}  // namespace caltest
