// A search's plan counts its word's postings up to a limit (src/store/search_index.cpp): a word
// over it is remembered, and the next search of it plans without reading that many postings
// again, read from MariaDB's general query log. Still every search asks whether any event is
// pending, which decides its answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/general_log.h"

namespace caltest {
namespace {

using namespace events;

// Of the probe statement: the postings counted up to the limit, with the pending check.
constexpr const char* kProbe = "SELECT COUNT(*), EXISTS (SELECT 1 FROM search_pending) FROM";
constexpr const char* kPendingCheck = "SELECT EXISTS (SELECT 1 FROM search_pending)";

TEST_CASE("search: a word over the probe's limit is not counted again by the next search") {
  std::string word = unique("commonword");
  std::replace(word.begin(), word.end(), '_', 'x');  // one word: '_' would cut it
  // 5,001 events holding it, by hand (each left pending by its trigger), far from other tests'.
  engine::sql(
      "INSERT INTO posts (type, status, title, content, excerpt, slug, date_local, date_utc, modified_local, "
      "modified_utc) SELECT 'event', 'publish', '" +
      word + "', '', '', CONCAT('" + word +
      "-', seq), UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM seq_1_to_5001");
  engine::sql(
      "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone) SELECT id, "
      "'2049-03-03 10:00:00', '2049-03-03 11:00:00', '2049-03-03 10:00:00', '2049-03-03 11:00:00', 'UTC' "
      "FROM posts WHERE type = 'event' AND title = '" +
      word + "'");
  // A write through the server wakes its indexer, which takes every pending event in.
  const long long waker = create_id(word + " waker", "2049-03-04 10:00:00", "2049-03-04 11:00:00");
  const std::string pending_sql =
      "SELECT COUNT(*) FROM search_pending sp JOIN posts p ON p.id = sp.event_id WHERE p.title LIKE '" +
      word + "%'";
  for (int i = 0; i < 600 && engine::sql(pending_sql) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(engine::sql(pending_sql) == "0");

  const std::string search =
      std::string(kEvents) + "?search=" + word + "&start_date=2049-03-01&end_date=2049-03-31";
  general_log::on();
  const HttpResponse first = get(search + "&per_page=3");
  const HttpResponse second = get(search + "&per_page=4");  // another query: not the cached answer
  const auto logged = general_log::off();
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  REQUIRE_MESSAGE(second.status == 200, describe(second));
  CHECK(first.header("X-WP-Total") == "5002");
  CHECK(second.header("X-WP-Total") == "5002");
  // The two searches' snapshots, in order, each planned by a look-up of the word.
  const auto searches = general_log::with(logged, "SELECT id FROM search_words");
  REQUIRE(searches.size() == 2);
  const std::vector<std::string>& counted = searches[0];
  const std::vector<std::string>& remembered = searches[1];
  CHECK(general_log::count_containing(counted, kProbe) == 1);
  CHECK(general_log::count_containing(remembered, kProbe) == 0);
  CHECK(general_log::count_containing(remembered, kPendingCheck) == 1);

  engine::sql("DELETE FROM posts WHERE type = 'event' AND title LIKE '" + word + "%'");
  CHECK(engine::sql("SELECT COUNT(*) FROM posts WHERE id = " + std::to_string(waker)) == "0");
  CHECK(engine::derived_data_mismatch() == "");
}

}  // namespace
}  // namespace caltest
