// The server's search indexer (docs/search.md) beside a transaction holding an uncommitted
// pending mark in search_pending, as every write in flight does (here a mark by hand, kept for 8
// seconds). The indexer's round skips the locked mark and takes the marks it indexed away by
// key; a statement that scanned search_pending would wait for the open transaction, and every
// event written meanwhile would stay pending (searched with LIKE) until it committed.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"
#include "support/events.h"

namespace caltest {
namespace {

bool pending(long long id) {
  return engine::sql("SELECT COUNT(*) FROM search_pending WHERE event_id = " + std::to_string(id)) != "0";
}

}  // namespace

TEST_CASE(
    "the indexer indexes the server's writes while another transaction holds an uncommitted pending mark") {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const std::string w = unique("zqheld");
  const std::string client =
      "mariadb --no-defaults --socket='" + std::string(dir) + "/mysqld.sock' --user=root -N -B calendar";
  // An event indexed, whose mark connection A then writes again by hand and keeps uncommitted;
  // the user lock tells the test when that is.
  const long long marked =
      events::create_id("Held " + w, events::days_ahead(9, "10:00"), events::days_ahead(9, "11:00"));
  for (int i = 0; i < 100 && pending(marked); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE_FALSE(pending(marked));
  const std::string a_script = "BEGIN; INSERT INTO search_pending (event_id) VALUES (" +
                               std::to_string(marked) + "); SELECT GET_LOCK('" + w +
                               "', 10); DO SLEEP(8); COMMIT; DO RELEASE_LOCK('" + w + "');";
  Run a;
  std::jthread a_session([&] { a = run(client + " -e \"" + a_script + "\" 2>&1"); });
  bool a_written = false;
  for (int i = 0; i < 50 && !a_written; ++i) {
    a_written = engine::sql("SELECT IS_USED_LOCK('" + w + "') IS NOT NULL") == "1";
    if (!a_written) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(a_written);

  // Through the server meanwhile: events whose marks the indexer takes in rounds with A's in the
  // table. Each must leave search_pending within 4 seconds, well before A commits.
  const auto began = std::chrono::steady_clock::now();
  std::vector<long long> ids;
  for (int i = 0; i < 6; ++i)
    ids.push_back(events::create_id("Held " + w + " " + std::to_string(i), events::days_ahead(9, "10:00"),
                                    events::days_ahead(9, "11:00")));
  bool all_indexed = false;
  while (!all_indexed && std::chrono::steady_clock::now() - began < std::chrono::seconds(4)) {
    all_indexed = true;
    for (long long id : ids) all_indexed = all_indexed && !pending(id);
    if (!all_indexed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const bool a_still_open = engine::sql("SELECT IS_USED_LOCK('" + w + "') IS NOT NULL") == "1";
  a_session.join();
  CHECK(a_still_open);
  CHECK(all_indexed);
  CHECK_MESSAGE(a.out == "1\n", a.out);
  // A's mark, committed, is indexed in the round of the server's next write.
  events::create_id("Held " + w + " after", events::days_ahead(9, "10:00"), events::days_ahead(9, "11:00"));
  bool a_indexed = false;
  for (int i = 0; i < 100 && !a_indexed; ++i) {
    a_indexed = !pending(marked);
    if (!a_indexed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(a_indexed);
}

}  // namespace caltest
