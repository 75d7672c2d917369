// Integration test of database death (docs/reliability.md), on a stack of its own (scripts/stack.sh in
// $CAL_TEST_DIR/dbdeath on a free port, so the shared stack never loses its database): four
// writers (200 creates each, with venue, organizers, categories and tags) and two readers run
// while MariaDB is killed with SIGKILL and started again the way stack.sh starts it. While it is
// down every answer is 503 rest_db_unavailable with Retry-After, quickly; afterwards the same
// calendar-fcgi process recovers; every create answered 201 is present and complete, and nothing
// half-written exists. The InnoDB settings that make "acknowledged" mean "durable" are checked.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using namespace std::chrono_literals;
using events::quoted;
using Clock = std::chrono::steady_clock;

constexpr int kWriters = 4;
constexpr int kCreatesPerWriter = 200;
constexpr int kReaders = 2;
// No answer may take longer than this, down or up (a hang is a failure, not a slow pass).
constexpr auto kMaxAnswer = 5s;

// The private stack: started in the constructor, stopped in the destructor whatever happens.
class DeathStack {
 public:
  DeathStack() {
    const std::string ctl = std::getenv("CAL_TEST_CTL") ? std::getenv("CAL_TEST_CTL") : "";
    build_ = ctl.substr(0, ctl.find(' '));
    build_ = build_.substr(0, build_.rfind('/'));
    repo_ = build_ + "/..";
    dir_ = test_stack_dir() + "/dbdeath";
    const Run port = run(repo_ + "/scripts/stack.sh free-port");
    REQUIRE(port.exit_code == 0);
    port_ = port.out.substr(0, port.out.find('\n'));
    up();
    token_ = read_text_file(dir_ + "/admin.token");
    token_ = token_.substr(0, token_.find('\n'));
    REQUIRE(!token_.empty());
  }
  ~DeathStack() { run(repo_ + "/scripts/stack.sh down " + dir_ + " >/dev/null 2>&1"); }
  DeathStack(const DeathStack&) = delete;
  DeathStack& operator=(const DeathStack&) = delete;

  // Starts whatever is not running (after a kill: MariaDB only), as scripts/stack.sh does.
  void up() const {
    const Run r = run(repo_ + "/scripts/stack.sh up " + dir_ + " " + port_ + " " + build_ + " 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  }
  void down() const { run(repo_ + "/scripts/stack.sh down " + dir_ + " >/dev/null 2>&1"); }

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + port_ + "/api" + std::string(path);
  }
  std::string admin() const { return bearer(token_); }
  const std::string& dir() const { return dir_; }

  long long pid_of(const std::string& file) const {
    const std::string text = read_text_file(dir_ + "/" + file);
    return text.empty() ? 0 : std::atoll(text.c_str());
  }
  // Runs SQL in the stack's MariaDB; returns its tab-separated output.
  std::string sql(const std::string& statement) const {
    const Run r = run("mariadb --no-defaults --socket=" + dir_ + "/mysqld.sock -uroot -N -B calendar -e \"" +
                      statement + "\" 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
    return r.out;
  }

 private:
  std::string build_, repo_, dir_, port_, token_;
};

TimedResponse send(const DeathStack& s, const std::string& method, const std::string& path,
                   const std::string& body, std::vector<std::string> headers) {
  return raw_request({.url = s.url(path),
                      .method = method,
                      .body = body,
                      .headers = std::move(headers),
                      .timeout_ms = 20000});
}

// What one request got.
struct Outcome {
  long status = 0;
  std::string code;  // error code, if any
  bool retry_after = false;
  std::chrono::milliseconds elapsed{0};
  std::string title;    // creates: the title sent
  std::string new_tag;  // creates: the tag name sent (created by the create)
  long long id = 0;     // creates answered 201
  std::string error;    // no HTTP answer at all
};

Outcome outcome_of(const TimedResponse& t) {
  Outcome o;
  o.status = t.response.status;
  o.elapsed = t.elapsed;
  o.retry_after = !t.response.header("retry-after").empty();
  if (o.status >= 400) {
    try {
      o.code = string_at(t.response.json(), {"code"});
    } catch (const std::exception&) {
      o.code = "(not JSON)";
    }
  }
  return o;
}

// "" when a record holds everything its create sent.
std::string incomplete(const rapidjson::Value& e, const std::string& title, long long venue,
                       const std::vector<long long>& organizers, long long category, long long tag,
                       const std::string& new_tag) {
  std::string out;
  if (string_at(e, {"title"}) != title) out += "title ";
  if (string_at(e, {"description"}) != "Described " + title) out += "description ";
  if (string_at(e, {"cost"}) != "$12") out += "cost ";
  if (string_at(e, {"start_date"}) != "2032-02-02 10:00:00") out += "start_date ";
  const rapidjson::Value* v = find(e, {"venue", "id"});
  if (!v || !v->IsInt64() || v->GetInt64() != venue) out += "venue ";
  const rapidjson::Value* orgs = find(e, {"organizer"});
  std::vector<long long> got;
  if (orgs && orgs->IsArray())
    for (const auto& o : orgs->GetArray()) got.push_back(find(o, {"id"}) ? find(o, {"id"})->GetInt64() : 0);
  if (got != organizers) out += "organizers ";
  const rapidjson::Value* cats = find(e, {"categories"});
  const rapidjson::Value* cat = cats ? find(*cats, {"0", "id"}) : nullptr;
  if (!cats || !cats->IsArray() || cats->Size() != 1 || !cat || !cat->IsInt64() ||
      cat->GetInt64() != category)
    out += "categories ";
  std::set<std::string> tags;
  if (const rapidjson::Value* t = find(e, {"tags"}); t && t->IsArray())
    for (const auto& x : t->GetArray()) {
      const rapidjson::Value* id = find(x, {"id"});
      tags.insert(string_at(x, {"name"}) + "#" +
                  (id && id->IsInt64() ? std::to_string(id->GetInt64()) : "?"));
    }
  bool has_fixed = false, has_new = false;
  for (const std::string& t : tags) {
    has_fixed = has_fixed || t.substr(t.find('#') + 1) == std::to_string(tag);
    has_new = has_new || t.substr(0, t.find('#')) == new_tag;
  }
  if (tags.size() != 2 || !has_fixed || !has_new) out += "tags ";
  return out;
}

}  // namespace

TEST_CASE("MariaDB killed mid-run: 503 while down, recovery without a restart, every 201 complete") {
  REQUIRE_MESSAGE((!test_stack_dir().empty() && std::getenv("CAL_TEST_CTL") != nullptr),
                  "needs CAL_TEST_DIR and CAL_TEST_CTL (scripts/run-tests.sh sets them)");
  DeathStack stack;
  const std::string admin = stack.admin();
  const std::string run = unique("death");

  // "Acknowledged means durable": every commit is flushed to the redo log before the answer
  // (innodb_flush_log_at_trx_commit=1), pages are written through the doublewrite buffer, and
  // there is no binary log whose lag could matter (else it must be synced on every commit).
  {
    const std::string settings =
        stack.sql("SELECT @@innodb_flush_log_at_trx_commit, @@innodb_doublewrite, @@log_bin, @@sync_binlog");
    CAPTURE(settings);
    std::istringstream in(settings);
    int flush = -1, doublewrite = -1, log_bin = -1, sync_binlog = -1;
    in >> flush >> doublewrite >> log_bin >> sync_binlog;
    CHECK(flush == 1);
    CHECK(doublewrite == 1);
    CHECK((log_bin == 0 || sync_binlog == 1));
  }

  // Fixtures linked from every create.
  auto create = [&](const char* path, const std::string& body) {
    const TimedResponse t = send(stack, "POST", path, body, {admin, "Content-Type: application/json"});
    REQUIRE_MESSAGE((t.response.status == 201), describe(t.response));
    return events::id_of(t.response.json());
  };
  const long long venue = create("/cal/events/v1/venues", "{\"venue\":" + quoted("Death hall " + run) + "}");
  const std::vector<long long> organizers = {
      create("/cal/events/v1/organizers", "{\"organizer\":" + quoted("Death org A " + run) + "}"),
      create("/cal/events/v1/organizers", "{\"organizer\":" + quoted("Death org B " + run) + "}")};
  const long long category =
      create("/cal/events/v1/categories", "{\"name\":" + quoted("deathcat " + run) + "}");
  const long long tag = create("/cal/events/v1/tags", "{\"name\":" + quoted("deathtag " + run) + "}");
  const long long fcgi_pid = stack.pid_of("calendar-fcgi.pid");
  REQUIRE(fcgi_pid > 0);

  std::mutex mutex;
  std::vector<Outcome> writes, reads;
  std::atomic<int> acknowledged{0};
  std::atomic<bool> writers_done{false};

  auto writer = [&](int w) {
    for (int i = 0; i < kCreatesPerWriter; ++i) {
      Outcome o;
      o.title = "Death " + run + " w" + std::to_string(w) + " n" + std::to_string(i);
      o.new_tag = "dtag " + run + " " + std::to_string(w) + " " + std::to_string(i);
      const std::string new_tag = o.new_tag;
      const std::string body = events::event_body(
          o.title, "2032-02-02 10:00", "2032-02-02 12:00",
          "\"description\":" + quoted("Described " + o.title) +
              ",\"cost\":\"$12\",\"venue\":" + std::to_string(venue) + ",\"organizer\":[" +
              std::to_string(organizers[0]) + "," + std::to_string(organizers[1]) + "],\"categories\":[" +
              std::to_string(category) + "],\"tags\":[" + std::to_string(tag) + "," + quoted(new_tag) + "]");
      try {
        const TimedResponse t =
            send(stack, "POST", "/cal/events/v1/events", body, {admin, "Content-Type: application/json"});
        const std::string title = o.title;
        o = outcome_of(t);
        o.title = title;
        o.new_tag = new_tag;
        if (o.status == 201) {
          const rapidjson::Document doc = t.response.json();
          o.id = events::id_of(doc);
          if (const std::string missing = incomplete(doc, title, venue, organizers, category, tag, new_tag);
              !missing.empty())
            o.error = "201 body lacks " + missing;
          ++acknowledged;
        }
      } catch (const std::exception& e) {
        o.error = e.what();
      }
      const bool unavailable = o.status == 503;
      {
        std::lock_guard<std::mutex> lock(mutex);
        writes.push_back(o);
      }
      if (unavailable) std::this_thread::sleep_for(100ms);  // as Retry-After asks, roughly
    }
  };
  auto reader = [&](int r) {
    while (!writers_done.load()) {
      Outcome o;
      try {
        o = outcome_of(
            r == 0 ? send(stack, "GET", "/cal/events/v1/events?per_page=5&search=" + run, "", {})
                   : send(stack, "GET", "/cal/events/v1/venues/" + std::to_string(venue), "", {admin}));
      } catch (const std::exception& e) {
        o.error = e.what();
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        reads.push_back(o);
      }
      std::this_thread::sleep_for(20ms);
    }
  };

  // Joins every thread on the way out, also when a REQUIRE below ends the test early.
  struct Joiner {
    std::vector<std::thread>& threads;
    std::atomic<bool>& done;
    ~Joiner() {
      done = true;
      for (auto& t : threads)
        if (t.joinable()) t.join();
    }
  };
  std::vector<std::thread> threads;
  Joiner joiner{threads, writers_done};
  for (int w = 0; w < kWriters; ++w) threads.emplace_back(writer, w);
  for (int r = 0; r < kReaders; ++r) threads.emplace_back(reader, r);

  // Kill MariaDB once a fair share of the creates is acknowledged.
  const auto started = Clock::now();
  while (acknowledged.load() < kWriters * kCreatesPerWriter / 5 && Clock::now() - started < 120s)
    std::this_thread::sleep_for(10ms);
  const long long mysqld = stack.pid_of("mysqld.pid");
  REQUIRE(mysqld > 0);
  REQUIRE(read_text_file("/proc/" + std::to_string(mysqld) + "/cmdline").find(stack.dir()) !=
          std::string::npos);
  const int acknowledged_before_kill = acknowledged.load();
  const auto killed = Clock::now();
  REQUIRE(::kill(static_cast<pid_t>(mysqld), SIGKILL) == 0);
  for (int i = 0; i < 100 && ::kill(static_cast<pid_t>(mysqld), 0) == 0; ++i)
    std::this_thread::sleep_for(50ms);

  // While it is down: 503 rest_db_unavailable with Retry-After, quickly, for visitors and users.
  std::vector<Outcome> probes;
  for (int i = 0; i < 10; ++i) {
    probes.push_back(outcome_of(send(stack, "GET", "/cal/events/v1/events", "", {})));
    probes.push_back(
        outcome_of(send(stack, "GET", "/cal/events/v1/events/" + std::to_string(venue), "", {admin})));
    probes.push_back(outcome_of(send(stack, "POST", "/cal/events/v1/tags", "{\"name\":\"x\"}",
                                     {admin, "Content-Type: application/json"})));
    std::this_thread::sleep_for(150ms);
  }

  // Start it again as scripts/stack.sh does; the service is left alone.
  const auto restart = Clock::now();
  stack.up();
  CHECK(stack.pid_of("calendar-fcgi.pid") == fcgi_pid);
  CHECK(::kill(static_cast<pid_t>(fcgi_pid), 0) == 0);
  // It recovers by itself: the next requests succeed.
  long recovered_status = 0;
  while (Clock::now() - restart < 60s) {
    recovered_status = send(stack, "GET", "/cal/events/v1/events", "", {admin}).response.status;
    if (recovered_status == 200) break;
    std::this_thread::sleep_for(100ms);
  }
  CHECK(recovered_status == 200);
  const auto recovered = Clock::now();
  const int acknowledged_at_restart = acknowledged.load();

  for (int w = 0; w < kWriters; ++w) threads[static_cast<size_t>(w)].join();
  writers_done = true;
  for (size_t t = kWriters; t < threads.size(); ++t) threads[t].join();
  std::chrono::milliseconds slowest{0};
  int unavailable_answers = 0;
  for (const auto* list : {&writes, &reads, &probes}) {
    for (const Outcome& o : *list) {
      slowest = std::max(slowest, o.elapsed);
      unavailable_answers += o.status == 503;
    }
  }
  MESSAGE("db death: " << writes.size() << " creates, " << acknowledged.load() << " acknowledged ("
                       << acknowledged_before_kill << " before the kill, " << acknowledged_at_restart
                       << " by the recovery), " << reads.size() + probes.size() << " reads, "
                       << unavailable_answers << " answers 503; down to recovered "
                       << std::chrono::duration_cast<std::chrono::milliseconds>(recovered - killed).count()
                       << " ms; slowest answer " << slowest.count() << " ms");

  // Every answer: 201/200, or 503 rest_db_unavailable with Retry-After; none slow, none lost.
  auto check_outcome = [&](const Outcome& o, long ok) {
    CAPTURE(o.title);
    CAPTURE(o.error);
    CHECK(o.error.empty());
    CHECK(o.elapsed < kMaxAnswer);
    if (o.status == ok) return;
    CHECK(o.status == 503);
    CHECK(o.code == "rest_db_unavailable");
    CHECK(o.retry_after);
  };
  int unavailable = 0;
  for (const Outcome& o : writes) {
    check_outcome(o, 201);
    unavailable += o.status == 503;
  }
  for (const Outcome& o : reads) check_outcome(o, 200);
  for (const Outcome& o : probes) {
    CHECK(o.status == 503);
    check_outcome(o, 503);
  }
  CHECK(unavailable > 0);
  CHECK(acknowledged.load() > acknowledged_at_restart);  // creates succeeded after the recovery

  // Every acknowledged create is present and complete.
  for (const Outcome& o : writes) {
    if (o.status != 201) continue;
    CAPTURE(o.title);
    const TimedResponse t = send(stack, "GET", "/cal/events/v1/events/" + std::to_string(o.id), "", {admin});
    REQUIRE_MESSAGE(t.response.status == 200, describe(t.response));
    CHECK(incomplete(t.response.json(), o.title, venue, organizers, category, tag, o.new_tag) == "");
  }
  // Nothing half-written: every event row of this run has its details, venue, both organizers
  // and its three terms; every tag created by a create is on an event.
  const std::string like = "'Death " + run + " %'";
  const std::string partial = stack.sql(
      "SELECT p.id FROM posts p LEFT JOIN event_details d ON d.event_id = p.id WHERE p.type = 'event' AND "
      "p.title LIKE " +
      like +
      " AND (d.event_id IS NULL OR (SELECT COUNT(*) FROM event_venues v WHERE v.event_id = p.id) <> 1"
      " OR (SELECT COUNT(*) FROM event_organizers o WHERE o.event_id = p.id) <> 2"
      " OR (SELECT COUNT(*) FROM term_relationships r WHERE r.event_id = p.id) <> 3)");
  CHECK_MESSAGE(partial.empty(), "half-written events: " << partial);
  const std::string orphans = stack.sql("SELECT t.id FROM terms t WHERE t.name LIKE 'dtag " + run +
                                        " %' AND NOT EXISTS "
                                        "(SELECT 1 FROM term_relationships r WHERE r.term_id = t.id)");
  CHECK_MESSAGE(orphans.empty(), "tags left by failed creates: " << orphans);
  const std::string stored =
      stack.sql("SELECT COUNT(*) FROM posts WHERE type = 'event' AND title LIKE " + like);
  CHECK(std::atoi(stored.c_str()) >= acknowledged.load());

  // A sanitizer build reports leaks and errors when the service exits: stop it and look.
  stack.down();
  const std::string log = read_text_file(stack.dir() + "/calendar-fcgi.log");
  CHECK_MESSAGE(log.find("Sanitizer") == std::string::npos,
                "sanitizer report in " << stack.dir() << "/calendar-fcgi.log");
  CHECK(log.find("runtime error:") == std::string::npos);
}

}  // namespace caltest
