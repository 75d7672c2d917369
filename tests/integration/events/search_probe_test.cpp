// What a search's plan remembers (src/store/search_index.cpp), read from MariaDB's general query
// log. It counts its word's postings up to a limit: a word over it is remembered, and the next
// search of it plans without reading that many postings again; still every search asks whether
// any event is pending, which decides its answer (in the statement that looks its words up). It finds the
// index words holding a piece through the vocabulary's trigrams, without reading every word: the next
// search of the piece looks only at the words added since, unless a word was written below them.
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

// Of the probe statement: the postings counted up to the limit.
constexpr const char* kProbe = "SELECT COUNT(*) FROM (SELECT 1 FROM search_postings";
// Of the look-up of a piece's index words: the vocabulary's write count first, whether any event
// is pending, then its words, by a scan of every word or among the words added since the piece's
// were found.
constexpr const char* kWordLookup = "SELECT (SELECT COALESCE(SUM(writes), 0) FROM search_word_writes)";
constexpr const char* kPendingCheck = "EXISTS (SELECT 1 FROM search_pending)";
constexpr const char* kPendingAlone = "SELECT EXISTS (SELECT 1 FROM search_pending)";

// Whether the search's statements ask whether any event is pending once, in the look-up of the
// word, and in no statement of its own.
bool pending_checked_with_lookup(const std::vector<std::string>& statements) {
  return general_log::count_containing(statements, kPendingCheck) == 1 &&
         general_log::count_containing(statements, kPendingAlone) == 0 &&
         std::any_of(statements.begin(), statements.end(), [](const std::string& s) {
           return s.find(kWordLookup) != std::string::npos && s.find(kPendingCheck) != std::string::npos;
         });
}
constexpr const char* kWordsFound = "STRAIGHT_JOIN search_word_trigrams";
constexpr const char* kWordsAdded = "FROM search_words WHERE id > ";

// Waits until the server's indexer has taken event `id` in.
void wait_indexed(long long id) {
  const std::string pending = "SELECT COUNT(*) FROM search_pending WHERE event_id = " + std::to_string(id);
  for (int i = 0; i < 300 && engine::sql(pending) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(engine::sql(pending) == "0");
}

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
  const auto searches = general_log::with(logged, kWordLookup);
  REQUIRE(searches.size() == 2);
  const std::vector<std::string>& counted = searches[0];
  const std::vector<std::string>& remembered = searches[1];
  CHECK(general_log::count_containing(counted, kProbe) == 1);
  CHECK(general_log::count_containing(remembered, kProbe) == 0);
  CHECK(pending_checked_with_lookup(counted));
  CHECK(pending_checked_with_lookup(remembered));

  // Within a category of a third of them (linked by hand), the category drives: its count reads
  // the word's postings in the window once (a derived table), its page looks up its rows' events.
  const HttpResponse made =
      post_json("/cal/events/v1/categories", "{\"name\":\"" + word + " cat\"}", {admin()});
  REQUIRE_MESSAGE(made.status == 201, describe(made));
  const std::string category = std::to_string(id_of(made.json()));
  engine::sql("INSERT INTO term_relationships (event_id, term_id) SELECT id, " + category +
              " FROM posts WHERE type = 'event' AND title = '" + word + "' AND id % 3 = 0");
  const std::string in_category =
      engine::sql("SELECT COUNT(*) FROM term_relationships WHERE term_id = " + category);
  const general_log::LoggedGet within =
      general_log::logged_get(search + "&categories=" + category + "&per_page=5");
  REQUIRE_MESSAGE(within.response.status == 200, describe(within.response));
  CHECK(within.response.header("X-WP-Total") == in_category);
  // Each statement logged when prepared and when run: the count hashes, the page looks up.
  const std::string hashed = "JOIN (SELECT DISTINCT s.event_id FROM search_postings s";
  const std::string looked_up = "EXISTS (SELECT 1 FROM search_postings sx";
  CHECK(general_log::count_containing(within.statements, hashed) >= 1);
  CHECK(general_log::count_containing(within.statements, looked_up) >= 1);
  for (const std::string& statement : within.statements)
    CHECK_FALSE(
        (statement.find(hashed) != std::string::npos && statement.find(looked_up) != std::string::npos));
  // All start at the same time: the page is the first five by id.
  std::string shown;
  for (const long long id : ids_in(within.response.json()))
    shown += (shown.empty() ? "" : "\n") + std::to_string(id);
  CHECK(shown == engine::sql("SELECT event_id FROM term_relationships WHERE term_id = " + category +
                             " ORDER BY event_id LIMIT 5"));

  // A second word in the same 5,001 events (written by hand, indexed by the server's indexer once
  // a write wakes it): one word's postings drive, the other's are hashed for the count.
  const std::string other = word + "y";
  engine::sql("UPDATE posts SET content = '" + other + "' WHERE type = 'event' AND title = '" + word + "'");
  create_id(word + " second waker", "2049-03-05 10:00:00", "2049-03-05 11:00:00");
  for (int i = 0; i < 600 && engine::sql(pending_sql) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(engine::sql(pending_sql) == "0");
  const general_log::LoggedGet both =
      general_log::logged_get(std::string(kEvents) + "?search=" + word + "%20" + other +
                              "&start_date=2049-03-01&end_date=2049-03-31&per_page=2");
  REQUIRE_MESSAGE(both.response.status == 200, describe(both.response));
  CHECK(both.response.header("X-WP-Total") == "5001");
  CHECK(general_log::count_containing(both.statements, hashed) >= 1);

  engine::sql("DELETE FROM posts WHERE type = 'event' AND title LIKE '" + word + "%'");
  CHECK(engine::sql("SELECT COUNT(*) FROM posts WHERE id = " + std::to_string(waker)) == "0");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("search: a rare word's postings are counted once a minute, and totals stay exact meanwhile") {
  std::string word = unique("rareword");
  std::replace(word.begin(), word.end(), '_', 'x');  // one word: '_' would cut it
  const auto event = [&](const char* day) {
    const long long id = create_id(word + " " + day, std::string("2049-04-") + day + " 10:00:00",
                                   std::string("2049-04-") + day + " 11:00:00");
    wait_indexed(id);
  };
  event("01");
  event("02");
  const std::string search =
      std::string(kEvents) + "?search=" + word + "&start_date=2049-04-01&end_date=2049-04-30";
  general_log::on();
  const HttpResponse first = get(search + "&per_page=3");
  const auto first_logged = general_log::off();
  // One more event since the count: the plan may rest on the old count, the answer may not.
  event("03");
  general_log::on();
  const HttpResponse second = get(search + "&per_page=4");
  const auto second_logged = general_log::off();
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  REQUIRE_MESSAGE(second.status == 200, describe(second));
  CHECK(first.header("X-WP-Total") == "2");
  CHECK(second.header("X-WP-Total") == "3");
  const auto counted = general_log::with(first_logged, kWordLookup);
  const auto remembered = general_log::with(second_logged, kWordLookup);
  REQUIRE(counted.size() == 1);
  REQUIRE(remembered.size() == 1);
  CHECK(general_log::count_containing(counted[0], kProbe) == 1);
  CHECK(general_log::count_containing(remembered[0], kProbe) == 0);
  CHECK(pending_checked_with_lookup(counted[0]));
  CHECK(pending_checked_with_lookup(remembered[0]));
}

TEST_CASE(
    "search: a piece's index words are remembered, and looked for again when a word is written below them") {
  std::string word = unique("vocabword");
  std::replace(word.begin(), word.end(), '_', 'x');  // one word: '_' would cut it
  const long long first = create_id(word, "2049-05-05 10:00:00", "2049-05-05 11:00:00");
  wait_indexed(first);
  const std::string search =
      std::string(kEvents) + "?search=" + word + "&start_date=2049-05-01&end_date=2049-05-31";
  const auto lookups = [&](int per_page, const std::string& total) {
    general_log::on();
    const HttpResponse r = get(search + "&per_page=" + std::to_string(per_page));
    const auto logged = general_log::off();
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(r.header("X-WP-Total") == total);
    const auto searches = general_log::with(logged, kWordLookup);
    REQUIRE(searches.size() == 1);
    return searches.front();
  };
  // The first search of the word finds its words; the next looks only at words added since.
  const auto found = lookups(3, "1");
  CHECK(general_log::count_containing(found, kWordsFound) == 1);
  CHECK(general_log::count_containing(found, kWordsAdded) == 0);
  const auto remembered = lookups(4, "1");
  CHECK(general_log::count_containing(remembered, kWordsFound) == 0);
  CHECK(general_log::count_containing(remembered, kWordsAdded) == 1);

  // A word holding it written by hand with an id below the largest (as a transaction that took
  // its id before others and committed after them leaves it), then an event holding that word.
  const std::string gap = engine::sql(
      "SELECT MIN(a.id) + 1 FROM search_words a LEFT JOIN search_words b ON b.id = a.id + 1 "
      "WHERE b.id IS NULL AND a.id + 1 < (SELECT MAX(id) FROM search_words)");
  REQUIRE(gap != "NULL");
  engine::sql("INSERT INTO search_words (id, word) VALUES (" + gap + ", '" + word + "z')");
  const long long second = create_id(word + "z", "2049-05-06 10:00:00", "2049-05-06 11:00:00");
  wait_indexed(second);
  REQUIRE(engine::sql("SELECT word_id FROM search_postings WHERE event_id = " + std::to_string(second)) ==
          gap);
  // Not among the words added after the remembered ones: the write count sends it to be found anew.
  const auto found_again = lookups(5, "2");
  CHECK(general_log::count_containing(found_again, kWordsFound) == 1);
  CHECK(events::ids_in(get(search + "&per_page=6").json()) == std::vector<long long>{first, second});

  engine::sql("DELETE FROM posts WHERE id IN (" + std::to_string(first) + ", " + std::to_string(second) +
              ")");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("search: a piece's index words are found without reading every word of the vocabulary") {
  // 60,000 words written by hand, none holding the piece but sharing some of its runs ("word",
  // digits): a LIKE over every word reads them all, and so would a look-up of every run's words.
  std::string filler = unique("fillerword");
  std::replace(filler.begin(), filler.end(), '_', 'x');
  engine::sql("INSERT INTO search_words (word) SELECT CONCAT('" + filler + "', seq) FROM seq_1_to_60000");
  std::string word = unique("trigramword");
  std::replace(word.begin(), word.end(), '_', 'x');
  const long long id = create_id(word, "2049-06-05 10:00:00", "2049-06-05 11:00:00");
  wait_indexed(id);
  // The indexer idle (earlier tests leave it backlogs): then the search is all that runs.
  const std::string backlog = "SELECT COUNT(*) FROM search_pending WHERE unindexable = 0";
  for (int i = 0; i < 600 && engine::sql(backlog) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(engine::sql(backlog) == "0");
  // Rows read by every statement of the server, from its status counters.
  const auto rows_read = [] {
    return std::stoll(
        engine::sql("SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN "
                    "('HANDLER_READ_FIRST', 'HANDLER_READ_KEY', 'HANDLER_READ_NEXT', 'HANDLER_READ_PREV', "
                    "'HANDLER_READ_RND', 'HANDLER_READ_RND_NEXT')"));
  };
  const long long before = rows_read();
  const HttpResponse r =
      get(std::string(kEvents) + "?search=" + word + "&start_date=2049-06-01&end_date=2049-06-30");
  const long long read = rows_read() - before;
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.header("X-WP-Total") == "1");
  INFO("rows read: ", read);
  CHECK(read < 30000);  // the scan alone reads over 60,000

  engine::sql("DELETE FROM search_words WHERE word LIKE '" + filler + "%'");
  engine::sql("DELETE FROM posts WHERE id = " + std::to_string(id));
  CHECK(engine::derived_data_mismatch() == "");
}

}  // namespace
}  // namespace caltest
