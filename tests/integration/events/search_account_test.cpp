// Searches on the account docs/mysql.md asks for the service (SELECT, INSERT, UPDATE, DELETE and
// nothing else): the look-up of a piece's index words through the vocabulary's trigrams calls no
// routine, and the triggers that keep the trigrams run as their definer, the account that ran
// migrate.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "ops/ops_stack.h"
#include "support/events.h"

namespace caltest {

TEST_CASE("search: the service on an account without EXECUTE indexes words and finds their pieces") {
  OpsStack stack("searchaccount", "");
  std::string account = unique("dml");
  std::replace(account.begin(), account.end(), '_', 'x');
  const std::string password = "pw" + account;
  stack.sql("CREATE USER '" + account + "'@'localhost' IDENTIFIED BY '" + password + "'");
  stack.sql("GRANT SELECT, INSERT, UPDATE, DELETE ON calendar.* TO '" + account + "'@'localhost'");
  stack.serve_as(account, password);

  std::string word = unique("acctword");
  std::replace(word.begin(), word.end(), '_', 'x');  // one word: '_' would cut it
  const HttpResponse made = send(
      {.url = stack.url("/cal/events/v1/events"),
       .method = "POST",
       .body =
           "{\"title\":\"Only " + word +
           "\",\"status\":\"publish\",\"start_date\":\"2052-04-04 10:00\",\"end_date\":\"2052-04-04 11:00\"}",
       .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(made.status == 201, describe(made));
  const std::string id = std::to_string(made.json()["id"].GetInt64());
  // The server's indexer writes the word, and the trigger its trigrams.
  const std::string pending = "SELECT COUNT(*) FROM search_pending WHERE event_id = " + id;
  for (int i = 0; i < 300 && stack.sql(pending) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(stack.sql(pending) == "0");
  const std::string of_word =
      " FROM search_words w JOIN seq_1_to_188 s ON s.seq <= CHAR_LENGTH(w.word) - 2 WHERE w.word = '" + word +
      "'";
  CHECK(stack.sql("SELECT COUNT(*) FROM search_word_trigrams t JOIN search_words w ON w.id = t.word_id WHERE "
                  "w.word = '" +
                  word + "'") == stack.sql("SELECT COUNT(DISTINCT cal_trigram(w.word, s.seq))" + of_word));
  // The word and a piece of it, each the first search of its piece in the server.
  for (const std::string& q : {word, word.substr(2, 7)}) {
    const HttpResponse found = send({.url = stack.url("/cal/events/v1/events?search=" + q +
                                                      "&start_date=2052-04-01&end_date=2052-04-30")});
    INFO("search=", q);
    REQUIRE_MESSAGE(found.status == 200, describe(found));
    CHECK(found.header("X-WP-Total") == "1");
  }
}

}  // namespace caltest
