// The search index's upkeep of a write (src/store/search_index.cpp, docs/search.md), read from
// MariaDB's general query log. Through the FastCGI server a write of a one-off event carries no
// statement of the index: its event is left pending for the server's indexer, whose own
// transaction indexes it once the write has committed. A CGI process indexes inline: its created
// event is known to be pending and to have no postings, so its write neither reads its pending
// row nor takes old postings out; an update does both. The indexer's rounds start at least a tenth
// of a second apart, so a stream of writes shares them. The log shows a statement prepared before
// it was turned on with its placeholders, not its values: transactions are told apart by order.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/general_log.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using namespace events;
using general_log::count_containing;
using general_log::has;

// The statement that takes an event's old postings out (src/store/search_index.cpp), by its join.
constexpr const char* kPostingsOut = "STRAIGHT_JOIN search_postings t ON";
using general_log::with;

bool pending(long long id) {
  return engine::sql("SELECT COUNT(*) FROM search_pending WHERE event_id = " + std::to_string(id)) != "0";
}

// Event `id` out of search_pending within ten seconds.
bool indexed_soon(long long id) {
  for (int i = 0; i < 200 && pending(id); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return !pending(id);
}

void log_on() { general_log::on(); }
std::vector<std::vector<std::string>> log_off() { return general_log::off(); }

// `text` as one word of the shell.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// calendar-fcgi run as a CGI program for one request by the administrator; its output.
std::string cgi(const std::string& method, const std::string& path, const std::string& body) {
  return run("printf '%s' " + shell_quoted(body) + " | env -i REQUEST_METHOD=" + method +
             " SCRIPT_NAME=/api PATH_INFO=" + path + " HTTP_HOST=example.org CONTENT_TYPE=application/json" +
             " CONTENT_LENGTH=" + std::to_string(body.size()) + " HTTP_AUTHORIZATION='Bearer " +
             admin_token() + "' " + service_command() + " 2>/dev/null")
      .out;
}

}  // namespace

TEST_CASE("through the server, an event's write leaves its words to the indexer's own transaction") {
  log_on();
  const long long id =
      create_id("Upkeep " + unique("zqserved"), days_ahead(9, "10:00"), days_ahead(9, "11:00"));
  const bool created_indexed = indexed_soon(id);
  const HttpResponse updated =
      post_json(std::string(kEvents) + "/" + std::to_string(id),
                "{\"title\":" + quoted("Upkeep " + unique("zqserved")) + "}", {admin()});
  const bool updated_indexed = indexed_soon(id);
  const std::vector<std::vector<std::string>> transactions = log_off();
  REQUIRE_MESSAGE(updated.status == 200, describe(updated));
  CHECK(created_indexed);
  CHECK(updated_indexed);
  const auto writes = with(transactions, "INSERT INTO posts");
  const auto updates = with(transactions, "UPDATE posts");
  REQUIRE(writes.size() == 1);
  REQUIRE(updates.size() == 1);
  // (The general log shows the triggers' statements too: the postings' copies of the details.)
  for (const auto& transaction : {writes[0], updates[0]}) {
    for (const char* index_statement :
         {"SELECT event_id FROM search_pending", "INSERT INTO search_words", "INSERT INTO search_postings"})
      CHECK_FALSE(has(transaction, index_statement));
    CHECK(count_containing(transaction, kPostingsOut) == 0);
  }
  // The indexer's rounds, in the order they committed: the created event's between the two writes
  // (the update waited for it), the updated one's after, taking its old postings out. Other rounds
  // index what an earlier test wrote a moment before the log was turned on.
  std::vector<std::vector<std::string>> after_create, after_update;
  bool created = false, updated_seen = false;
  for (const auto& transaction : transactions) {
    if (transaction == writes[0]) created = true;
    if (transaction == updates[0]) updated_seen = true;
    if (!has(transaction, "INSERT INTO search_postings")) continue;
    if (updated_seen)
      after_update.push_back(transaction);
    else if (created)
      after_create.push_back(transaction);
  }
  CHECK_FALSE(after_create.empty());
  REQUIRE_FALSE(after_update.empty());
  CHECK(count_containing(after_update.back(), kPostingsOut) > 0);
}

TEST_CASE("the indexer gathers a stream of writes into rounds a tenth of a second apart") {
  // A round costs its statements and commit however few events it takes: one per write would
  // double the statements of a steady trickle of writes.
  log_on();
  const auto began = std::chrono::steady_clock::now();
  std::vector<long long> ids;
  for (int i = 0; i < 12; ++i) {
    ids.push_back(create_id("Upkeep " + unique("zqstream"), days_ahead(9, "10:00"), days_ahead(9, "11:00")));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  bool all_indexed = true;
  for (long long id : ids) all_indexed = indexed_soon(id) && all_indexed;
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count();
  const std::vector<std::vector<std::string>> rounds = with(log_off(), "INSERT INTO search_postings");
  CHECK(all_indexed);
  CAPTURE(elapsed);
  CHECK(rounds.size() < ids.size());
  CHECK(static_cast<long long>(rounds.size()) <= elapsed / 100 + 1);
}

TEST_CASE(
    "in CGI mode a created event's index upkeep reads no pending row of its own and takes no postings out") {
  const std::string title = "Upkeep " + unique("zqfresh");
  log_on();
  const std::string created =
      cgi("POST", "/cal/events/v1/events",
          "{\"title\":" + quoted(title) + ",\"start_date\":\"" + days_ahead(9, "10:00") +
              "\",\"end_date\":\"" + days_ahead(9, "11:00") + "\"}");
  const std::size_t at = created.find("\"id\":");
  REQUIRE_MESSAGE(at != std::string::npos, created.substr(0, 300));
  const long long id = std::stoll(created.substr(at + 5));
  const std::string updated = cgi("POST", "/cal/events/v1/events/" + std::to_string(id),
                                  "{\"title\":" + quoted(title + " again") + "}");
  const std::vector<std::vector<std::string>> written = with(log_off(), "INSERT INTO search_postings");
  CHECK(created.rfind("Status: 201", 0) == 0);
  CHECK_MESSAGE(updated.rfind("Status: 200", 0) == 0, updated.substr(0, 300));
  CHECK_FALSE(pending(id));
  REQUIRE(written.size() == 2);
  const std::vector<std::string>& create = written[0];
  const std::vector<std::string>& update = written[1];
  CAPTURE(create.size());
  CAPTURE(update.size());

  // Its own pending row by its key ("event_id = ?", or the value), not the others' ("<> ?").
  const std::string own_pending = "SELECT event_id FROM search_pending WHERE event_id = ";
  CHECK(has(create, "INSERT INTO posts"));
  CHECK_FALSE(has(create, own_pending));
  CHECK(count_containing(create, kPostingsOut) == 0);
  // The update, whose event has postings, still takes them out: the log shows both kinds.
  CHECK(has(update, "UPDATE posts"));
  CHECK(has(update, own_pending));
  CHECK(count_containing(update, kPostingsOut) > 0);
}

}  // namespace caltest
