// The search index answers exactly what the LIKE query answers (docs/search.md): for a hostile
// corpus (accents, case, ß/æ/ligatures, combining marks, soft hyphens and zero-width spaces,
// emoji, full-width characters, markup and entities, %, _, \, quotes, short queries, words
// across separators) the ids, order and total of every search equal those of the LIKE query,
// kept here as the oracle; also after updates, a rolled-back transaction, writes by hand in SQL
// (pending events) and a rebuild.
#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

using namespace caltest;

namespace {

constexpr const char* kEventsPath = "/cal/events/v1/events";

struct Text {
  std::string title, description, excerpt;
};

const std::vector<Text> kCorpus = {
    {"Jazz Night", "<p>Smooth jazz &amp; blues</p>", "All about jazz."},
    {"Café Müller", "Kaffee & Kuchen at the café", ""},
    {"Straße Fest", "strasse party", ""},
    {"ﬁesta latina", "fiesta time", ""},
    {"Æsop readings", "aesop", ""},
    {"100% off sale", "50_off coupons", ""},
    {"Back\\slash", "path C:\\temp", ""},
    {"Rock'n'roll", "rock 'n' roll at 10:00", ""},
    {"Zero\u200Bwidth", "soft\u00ADhyphen", ""},
    {"\U0001F3B7 sax night", "emoji \U0001F389 party", ""},
    {"ＣＡＦＥ fullwidth", "ｊａｚｚ", ""},
    {"e\u0301te combining", "été précomposé", ""},
    {"Quotes \"double\" and 'single'", "it's", ""},
    {"p>j arrow", "x<y", ""},
    {"Tags <b>bold</b>", "<em>emphasis</em> &lt;tag&gt;", ""},
    {"ab", "a", "b"},
    {"JAZZ FESTIVAL", "Jazzy", ""},
    {"Ørsted", "Kraków", "Zürich"},
    {"dash-separated-words", "under_score_words", ""},
    {"ſ long s", "ß", "ss"},
    {"x\u00A0nbsp\u3000ideo", "a\uFF0Cb", "1\u22602"},
    {"eq a=b", "lt c<d", ""},
};

const std::vector<std::string> kQueries = {
    "jazz",
    "JAZZ",
    "azz",
    "Jazz",
    "café",
    "cafe",
    "CAFÉ",
    "strasse",
    "straße",
    "ß",
    "ss",
    "ae",
    "æ",
    "Æsop",
    "fiesta",
    "ﬁ",
    "fi",
    "e",
    "é",
    "ab",
    "a",
    "100%",
    "%",
    "_",
    "50_off",
    "\\",
    "back\\slash",
    "'",
    "\"double\"",
    "p>j",
    "<p>",
    "amp",
    "&amp;",
    "10:00",
    "rock'n'roll",
    "n'r",
    "zero",
    "width",
    "zerowidth",
    "zero\u200Bwidth",
    "soft",
    "softhyphen",
    "\U0001F3B7",
    "sax",
    "ＣＡＦＥ",
    "ｊａｚｚ",
    "ete",
    "e\u0301te",
    "été",
    "<b>bold</b>",
    "&lt;tag&gt;",
    "lt",
    "x<y",
    "dash-separated",
    "score_w",
    "ørsted",
    "orsted",
    "krakow",
    "zurich",
    "ſ",
    "nbsp",
    "a,b",
    "a\uFF0Cb",
    "1=2",
    "1\u22602",
    "≠",
    "a\u2260b",
    "c\uFF1Cd",
    "cafe -jazz",
    "jazz -night",
    "-café",
    "jazz fest",
    "no-such-word",
    "zz",
    "j",
    "<",
    "-",
};

std::string hex(std::string_view s) {
  std::string out = "0x";
  char buf[3];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof buf, "%02X", c);
    out += buf;
  }
  return s.empty() ? "''" : out;
}

std::string text_sql(std::string_view s) {
  return "CONVERT(" + hex(s) + " USING utf8mb4) COLLATE utf8mb4_unicode_ci";
}

std::string percent_encoded(std::string_view s) {
  std::string out;
  char buf[4];
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string like_pattern(std::string_view word) {
  std::string out = "%";
  for (char c : word) {
    if (c == '!' || c == '%' || c == '_') out += '!';
    out += c;
  }
  return out + "%";
}

std::string id_list(const std::vector<long long>& ids) {
  std::string out;
  for (long long id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

// The oracle: today's LIKE query over the corpus, in list order, as "id,id,…".
std::string like_answer(const std::vector<long long>& ids, const std::string& search) {
  std::string where;
  std::string word;
  const auto add = [&](const std::string& w) {
    if (w.empty()) return;
    const bool exclude = w[0] == '-';
    if (exclude && w.size() == 1) return;
    const std::string p = text_sql(like_pattern(exclude ? w.substr(1) : w));
    where += std::string(" AND ") + (exclude ? "NOT " : "") + "(p.title LIKE " + p +
             " ESCAPE '!' OR p.content LIKE " + p + " ESCAPE '!' OR p.excerpt LIKE " + p + " ESCAPE '!')";
  };
  for (char c : search) {
    if (c == ' ') {
      add(word);
      word.clear();
    } else {
      word += c;
    }
  }
  add(word);
  const std::string out = engine::sql(
      "SELECT GROUP_CONCAT(p.id ORDER BY d.start_utc, p.id) FROM posts p JOIN event_details d ON d.event_id "
      "= "
      "p.id WHERE p.id IN (" +
      id_list(ids) + ")" + where);
  return out == "NULL" ? "" : out;
}

// The corpus's category: the second form of each search reaches the corpus through it (the postings
// then drive the list; with `include` the candidates are read first).
long long corpus_category = 0;

// How a search reaches the corpus: by `include`, by its category, or by a window that holds the
// corpus and nothing else (no other test writes events in 2047). The window's ends fall inside
// days, so that a one-word search counts whole days from search_word_days and scans the ends.
enum class Scope { kInclude, kCategory, kWindow };
constexpr Scope kScopes[] = {Scope::kInclude, Scope::kCategory, Scope::kWindow};
constexpr const char* kCorpusWindow = "&start_date=2047-02-27%2013:00:00&end_date=2047-03-29%2009:00:00";

const char* scope_name(Scope s) {
  return s == Scope::kInclude ? " (by include)" : s == Scope::kCategory ? " (by category)" : " (by window)";
}

// The service's answer within `scope` (query parameters): the ids of the events found, in order,
// and X-WP-Total.
std::pair<std::string, std::string> answer_within(const std::string& scope, const std::string& search) {
  const HttpResponse r =
      get(std::string(kEventsPath) + "?per_page=50" + scope + "&search=" + percent_encoded(search));
  REQUIRE_MESSAGE(r.status == 200, search, ": ", describe(r));
  const rapidjson::Document doc = r.json();
  std::string found;
  if (const rapidjson::Value* events = find(doc, {"events"}); events && events->IsArray())
    for (const rapidjson::Value& e : events->GetArray())
      found += (found.empty() ? "" : ",") + std::to_string(e["id"].GetInt64());
  return {found, r.header("X-WP-Total")};
}

std::pair<std::string, std::string> api_answer(const std::vector<long long>& ids, const std::string& search,
                                               Scope by) {
  return answer_within(by == Scope::kInclude  ? "&include=" + id_list(ids)
                       : by == Scope::kWindow ? std::string(kCorpusWindow)
                                              : "&categories=" + std::to_string(corpus_category) +
                                                    "&start_date=2047-01-01&end_date=2047-12-31",
                       search);
}

void check_every_query(const std::vector<long long>& ids, const char* stage) {
  for (const std::string& q : kQueries) {
    const std::string expected = like_answer(ids, q);
    const long long expected_total =
        expected.empty() ? 0 : static_cast<long long>(std::count(expected.begin(), expected.end(), ',') + 1);
    for (const Scope by : kScopes) {
      const auto [found, total] = api_answer(ids, q, by);
      INFO(stage, ": search=", q, scope_name(by));
      CHECK(found == expected);
      CHECK(total == std::to_string(expected_total));
    }
  }
}

// The event of `t` on day 1 + n % 28 of `month` (YYYY-MM).
std::string event_json(const Text& t, int n, const char* month = "2047-03") {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key("title");
  w.String(t.title.c_str());
  w.Key("description");
  w.String(t.description.c_str());
  w.Key("excerpt");
  w.String(t.excerpt.c_str());
  w.Key("status");
  w.String("publish");
  if (corpus_category) {
    w.Key("categories");
    w.StartArray();
    w.Int64(corpus_category);
    w.EndArray();
  }
  char start[32];
  std::snprintf(start, sizeof start, "%s-%02d 10:00:00", month, 1 + n % 28);
  w.Key("start_date");
  w.String(start);
  std::snprintf(start, sizeof start, "%s-%02d 11:00:00", month, 1 + n % 28);
  w.Key("end_date");
  w.String(start);
  w.EndObject();
  return b.GetString();
}

long long pending_among(const std::vector<long long>& ids) {
  return std::stoll(
      engine::sql("SELECT COUNT(*) FROM search_pending WHERE event_id IN (" + id_list(ids) + ")"));
}

// Whether none of `ids` is pending within ten seconds: a write through the service leaves its
// event to the service's indexer, which indexes it once the write has committed.
bool indexed_soon(const std::vector<long long>& ids) {
  for (int i = 0; i < 200; ++i) {
    if (pending_among(ids) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Creates the corpus's category and events through the API; returns their ids.
std::vector<long long> create_corpus(const std::vector<std::string>& admin) {
  const HttpResponse category =
      post_json("/cal/events/v1/categories", R"({"name":")" + unique("search corpus") + R"("})", admin);
  REQUIRE_MESSAGE(category.status == 201, describe(category));
  corpus_category = category.json()["id"].GetInt64();
  std::vector<long long> ids;
  for (std::size_t i = 0; i < kCorpus.size(); ++i) {
    const HttpResponse r = post_json(kEventsPath, event_json(kCorpus[i], static_cast<int>(i)), admin);
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids.push_back(r.json()["id"].GetInt64());
  }
  return ids;
}

bool replicas_on() {
  const char* v = std::getenv("CAL_TEST_REPLICAS");
  return v != nullptr && std::atoi(v) > 0;
}

}  // namespace

TEST_CASE("search: the index answers exactly what LIKE answers, through writes of every kind") {
  const std::vector<std::string> admin = {bearer(admin_token())};
  const std::vector<long long> ids = create_corpus(admin);
  // Written through the service: found at once (pending events by LIKE), indexed moments later.
  check_every_query(ids, "just created");
  CHECK(indexed_soon(ids));
  check_every_query(ids, "created");
  CHECK(engine::derived_data_mismatch() == "");

  // Updates through the service replace the event's words.
  const HttpResponse u =
      patch_json(std::string(kEventsPath) + "/" + std::to_string(ids[0]),
                 R"({"title":"Blues Morning","description":"<p>no swing here</p>"})", admin);
  REQUIRE_MESSAGE(u.status == 200, describe(u));
  check_every_query(ids, "just updated");
  CHECK(indexed_soon(ids));
  check_every_query(ids, "updated");
  CHECK(engine::derived_data_mismatch() == "");

  // A rolled-back transaction changes neither the text nor the index.
  engine::sql("START TRANSACTION; UPDATE posts SET title = " + text_sql("rolled back jazz") +
              " WHERE id = " + std::to_string(ids[1]) + "; ROLLBACK");
  CHECK(pending_among(ids) == 0);

  // Writes by hand: pending until the service writes again, found by LIKE meanwhile.
  engine::sql("UPDATE posts SET title = " + text_sql("Hand written Jazz café") +
              ", content = " + text_sql("straße ﬁ") + " WHERE id = " + std::to_string(ids[2]));
  engine::sql("UPDATE posts SET excerpt = " + text_sql("") + " WHERE id = " + std::to_string(ids[0]));
  CHECK(pending_among(ids) == 2);
  check_every_query(ids, "written by hand");

  const HttpResponse v = patch_json(std::string(kEventsPath) + "/" + std::to_string(ids[3]),
                                    R"({"excerpt":"indexed with the pending ones"})", admin);
  REQUIRE_MESSAGE(v.status == 200, describe(v));
  CHECK(indexed_soon(ids));
  check_every_query(ids, "pending indexed after a write");
  CHECK(engine::derived_data_mismatch() == "");

  // A rebuild from scratch gives the same words, and the vocabulary's trigrams lost (by hand)
  // back.
  engine::sql(
      "DELETE t FROM search_word_trigrams t JOIN search_words w ON w.id = t.word_id WHERE w.word = 'jazz'");
  CHECK(engine::derived_data_mismatch() != "");
  const Run rebuild = run(ctl() + " search-index rebuild");
  CHECK(rebuild.exit_code == 0);
  CHECK(pending_among(ids) == 0);
  check_every_query(ids, "rebuilt");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("search: calendarctl search-index check finds the server's separators equal to the service's") {
  const Run check = run(ctl() + " search-index check");
  INFO(check.out);
  CHECK(check.exit_code == 0);
}

TEST_CASE("search: a word the index narrows is answered from its postings") {
  const std::vector<std::string> admin = {bearer(admin_token())};
  std::string word = unique("rareword");
  std::replace(word.begin(), word.end(), '_', 'x');  // one word: '_' would cut it
  const HttpResponse r = post_json(kEventsPath, event_json({"Only " + word + " here", "", ""}, 3), admin);
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  REQUIRE(indexed_soon({r.json()["id"].GetInt64()}));
  const std::string postings = engine::sql(
      "SELECT COUNT(*) FROM search_postings sp JOIN search_words sw ON sw.id = sp.word_id WHERE sw.word = '" +
      word + "'");
  CHECK(postings == "1");
  const HttpResponse found =
      get(std::string(kEventsPath) + "?search=" + word + "&start_date=2047-01-01&end_date=2047-12-31");
  REQUIRE(found.status == 200);
  CHECK(found.header("X-WP-Total") == "1");
  CHECK(engine::derived_data_mismatch() == "");
  const std::string event = std::string(kEventsPath) + "/" + std::to_string(r.json()["id"].GetInt64());
  const std::string search = std::string(kEventsPath) + "?search=" + word;
  // Moved to another day, hidden, shown, trashed and restored: the day counts follow the
  // postings' copies, and a one-word search counts from them.
  const HttpResponse moved =
      patch_json(event, R"({"start_date":"2047-05-02 23:30:00","end_date":"2047-05-03 01:00:00"})", admin);
  REQUIRE_MESSAGE(moved.status == 200, describe(moved));
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(get(search + "&start_date=2047-01-01&end_date=2047-04-30").header("X-WP-Total") == "0");
  CHECK(get(search + "&start_date=2047-05-01&end_date=2047-05-31").header("X-WP-Total") == "1");
  CHECK(
      get(search + "&start_date=2047-05-02%2023:00:00&end_date=2047-05-03%2002:00:00").header("X-WP-Total") ==
      "1");
  CHECK(patch_json(event, R"({"hide_from_listings":true})", admin).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(get(search + "&start_date=2047-05-01&end_date=2047-05-31").header("X-WP-Total") == "0");
  CHECK(patch_json(event, R"({"hide_from_listings":false})", admin).status == 200);
  CHECK(del(event, admin).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(get(search + "&start_date=2047-05-01&end_date=2047-05-31").header("X-WP-Total") == "0");
  CHECK(patch_json(event, R"({"status":"publish"})", admin).status == 200);
  CHECK(get(search + "&start_date=2047-05-01&end_date=2047-05-31").header("X-WP-Total") == "1");
  // By hand in SQL, in a transaction rolled back and in one committed.
  engine::sql(
      "START TRANSACTION; UPDATE event_details SET start_utc = '2047-06-01 10:00:00', end_utc = "
      "'2047-06-01 11:00:00' WHERE event_id = " +
      std::to_string(r.json()["id"].GetInt64()) + "; ROLLBACK");
  CHECK(engine::derived_data_mismatch() == "");
  engine::sql(
      "UPDATE event_details SET start_utc = '2047-06-01 10:00:00', end_utc = '2047-06-01 11:00:00' "
      "WHERE event_id = " +
      std::to_string(r.json()["id"].GetInt64()));
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(get(search + "&start_date=2047-06-01&end_date=2047-06-30").header("X-WP-Total") == "1");
  // Deleting the event removes its postings.
  const HttpResponse gone =
      del(std::string(kEventsPath) + "/" + std::to_string(r.json()["id"].GetInt64()) + "?force=true", admin);
  REQUIRE_MESSAGE(gone.status == 200, describe(gone));
  CHECK(
      engine::sql("SELECT COUNT(*) FROM search_postings sp JOIN search_words sw ON sw.id = sp.word_id WHERE "
                  "sw.word = '" +
                  word + "'") == "0");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("search: pending events leave the postings driving the list, and are found by LIKE") {
  // A pending event's postings may be stale: it is found apart, by LIKE, while the postings still
  // drive the list and count its other events (a word in 10% of a million events would otherwise
  // be read posting by posting whenever one event anywhere waits for the indexer).
  const std::vector<std::string> admin = {bearer(admin_token())};
  std::string word = unique("pendword");
  std::replace(word.begin(), word.end(), '_', 'x');
  std::vector<long long> ids;
  for (int i = 0; i < 4; ++i) {
    const std::string title = i < 3 ? "Pending " + word + " " + std::to_string(i) : "Pending other";
    const HttpResponse r = post_json(kEventsPath, event_json({title, "", ""}, 5 + i), admin);
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids.push_back(r.json()["id"].GetInt64());
  }
  REQUIRE(indexed_soon(ids));
  // By hand: the word out of one event (its postings now stale), into another (no postings yet).
  engine::sql("UPDATE posts SET title = 'Pending without it' WHERE id = " + std::to_string(ids[1]));
  engine::sql("UPDATE posts SET title = " + text_sql("Pending " + word + " by hand") +
              " WHERE id = " + std::to_string(ids[3]));
  REQUIRE(pending_among(ids) == 2);
  engine::sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1");
  for (const char* window : {"&start_date=2047-01-01&end_date=2047-12-31", kCorpusWindow}) {
    for (const std::string& q : {word, word + " -zzzzq", "pending " + word}) {
      const HttpResponse r =
          get(std::string(kEventsPath) + "?per_page=2" + window + "&search=" + percent_encoded(q));
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      const std::string expected = like_answer(ids, q);
      INFO("search=", q, window);
      CHECK(r.header("X-WP-Total") == std::to_string(std::count(expected.begin(), expected.end(), ',') + 1));
      std::string found;
      const rapidjson::Document doc = r.json();
      for (const rapidjson::Value& e : doc["events"].GetArray())
        found += (found.empty() ? "" : ",") + std::to_string(e["id"].GetInt64());
      CHECK(expected.rfind(found, 0) == 0);
      CHECK(found.size() < expected.size());  // two of three on the first page
    }
  }
  engine::sql("SET GLOBAL general_log = 0");
  const std::string driven = engine::sql(
      "SELECT COUNT(*) FROM mysql.general_log WHERE argument LIKE '%FORCE INDEX (search_postings_list)%' AND "
      "argument LIKE '%NOT EXISTS (SELECT 1 FROM search_pending pd%'");
  engine::sql("SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");
  CHECK(driven != "0");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("search: a replica answers what LIKE answers on the primary, also for events written by hand" *
          doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const std::vector<std::string> admin = {bearer(admin_token())};
  const std::vector<long long> ids = create_corpus(admin);
  // Written by hand on the primary: pending there and, replicated, on the replicas.
  engine::sql("UPDATE posts SET title = " + text_sql("replicated by hand Jazz") +
              " WHERE id = " + std::to_string(ids[4]));
  const std::string probe = "?per_page=50&include=" + id_list(ids) + "&search=replicated";
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  HttpResponse r;
  do {
    r = get(std::string(kEventsPath) + probe);
  } while (!(r.status == 200 && r.header("X-WP-Total") == "1" && !r.header("x-cal-replica").empty()) &&
           std::chrono::steady_clock::now() < until);
  REQUIRE_MESSAGE(r.header("X-WP-Total") == "1", describe(r));
  CHECK(!r.header("x-cal-replica").empty());
  check_every_query(ids, "on a replica");
}

TEST_CASE("search: an event the indexer is taking in is found by every search meanwhile") {
  // A search reads the index's words, then the events holding them or still pending. Were those
  // separate snapshots, the indexer committing in between would move a new event from pending
  // into a word the search had not read, and the search would miss it. The indexer is slowed by
  // a backlog of marks set by hand (each of its rounds takes the written event, then up to 200
  // others), so that searches sent right after the write run while it works and as it commits.
  const std::vector<std::string> admin = {bearer(admin_token())};
  constexpr int kRounds = 25;
  constexpr int kSearchesPerRound = 40;
  int missed = 0;
  std::vector<long long> ids;
  for (int round = 0; round < kRounds; ++round) {
    engine::sql(
        "INSERT IGNORE INTO search_pending (event_id) SELECT id FROM posts WHERE type = 'event' ORDER BY id "
        "DESC LIMIT 200");
    std::string word = unique("takenin");
    std::replace(word.begin(), word.end(), '_', 'x');
    const HttpResponse r = post_json(
        kEventsPath,
        R"({"title":"Taken )" + word + R"(","start_date":"+30 days 10:00","end_date":"+30 days 11:00"})",
        admin);
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids.push_back(r.json()["id"].GetInt64());
    for (int i = 0; i < kSearchesPerRound; ++i) {
      const HttpResponse s =
          get(std::string(kEventsPath) + "?search=" + word + "&round=" + std::to_string(i));
      REQUIRE_MESSAGE(s.status == 200, describe(s));
      if (s.header("X-WP-Total") != "1") {
        ++missed;
        const std::string note =
            describe(s) + " statements " + s.header("X-Cal-Statements") + " round " + std::to_string(i);
        MESSAGE(note);
      }
    }
  }
  CHECK(missed == 0);
  CHECK(indexed_soon(ids));
  // The backlog too, before other tests count on a quiet indexer.
  bool drained = false;
  for (int i = 0; i < 200 && !drained; ++i) {
    drained = engine::sql("SELECT COUNT(*) FROM search_pending WHERE unindexable = 0") == "0";
    if (!drained) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(drained);
}

TEST_CASE("search: an answer read in its snapshot is kept and served as any read's") {
  // The snapshot's statements write nothing: taken for writes, they would make every search wait
  // out the cache lease (10 ms by default) before it answers.
  const std::vector<std::string> admin = {bearer(admin_token())};
  std::string word = unique("keptsearch");
  std::replace(word.begin(), word.end(), '_', 'x');
  const HttpResponse made = post_json(kEventsPath, event_json({"Kept " + word, "", ""}, 3), admin);
  REQUIRE_MESSAGE(made.status == 201, describe(made));
  REQUIRE(indexed_soon({made.json()["id"].GetInt64()}));
  const std::string path =
      std::string(kEventsPath) + "?start_date=2047-01-01&end_date=2047-12-31&search=" + word;
  const HttpResponse first = get(path);
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  CHECK(first.header("X-WP-Total") == "1");
  CHECK(first.header("X-Cal-Statements") != "0");
  CHECK(first.header("X-Cal-Wrote") == "");  // no wait for the cache lease
  const HttpResponse again = get(path);
  CHECK(again.header("X-Cal-Statements") == "0");  // from the response cache
  CHECK(again.body == first.body);
}

// Code points [from, from + n) of UTF-8 `s`.
std::string code_points(const std::string& s, std::size_t from, std::size_t n) {
  std::size_t at = 0, point = 0, begin = s.size();
  for (; at < s.size(); ++at) {
    if ((static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) continue;
    if (point == from) begin = at;
    if (point == from + n) break;
    ++point;
  }
  return begin < at ? s.substr(begin, at - begin) : "";
}

TEST_CASE("search: a piece's index words found through the vocabulary's trigrams are the words LIKE finds") {
  // Every word below starts with a prefix no search has used, so each search of it is the first
  // of its pieces in the server: its index words are found through the vocabulary's trigrams
  // (docs/search.md), not remembered. The words weigh their characters in every way the collation
  // knows: expansions (ß, æ, ligatures), ignorable and combining marks, full-width and
  // compatibility forms, other scripts, case pairs that differ in length.
  const std::vector<std::string> admin = {bearer(admin_token())};
  std::string prefix = unique("tg");
  std::replace(prefix.begin(), prefix.end(), '_', 'q');
  const std::vector<std::string> suffixes = {"straße",
                                             "ﬁesta",
                                             "Æsop",
                                             "e\u0301te",
                                             "été",
                                             "ｊａｚｚ",
                                             "ＣＡＦＥ",
                                             "café",
                                             "soft\u00ADhyphen",
                                             "\U0001F3B7sax",
                                             "ørsted",
                                             "kraków",
                                             "ſtar",
                                             "ΣΊΣΥΦΟΣ",
                                             "ﬀﬁﬂ",
                                             "ǅemal",
                                             "ⅫⅠ",
                                             "①②③",
                                             "ไทย",
                                             "한국어",
                                             "日本語",
                                             "İstanbul",
                                             "ıstanbul",
                                             "aaaa",
                                             "AbAbAb",
                                             "x\u0301y\u0302z"};
  std::vector<long long> ids;
  for (std::size_t i = 0; i < suffixes.size(); ++i) {
    const HttpResponse r = post_json(
        kEventsPath, event_json({prefix + suffixes[i], "", ""}, static_cast<int>(i), "2051-06"), admin);
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids.push_back(r.json()["id"].GetInt64());
  }
  REQUIRE(indexed_soon(ids));
  std::vector<std::string> queries = {
      "strasse",    "STRASSE", "fiesta",   "aesop",  "AESOP",  "ete",    "jazz",    "cafe",   "CAFE",
      "softhyphen", "soft",    "sax",      "orsted", "krakow", "star",   "σίσυφος", "ffifl",  "dzemal",
      "xii",        "123",     "istanbul", "aaa",    "abab",   "ababab", "xyz",     "ｊａｚ", "ΣΊΣ"};
  for (std::string& q : queries) q = prefix + q;
  for (const std::string& s : suffixes) {
    queries.push_back(prefix + s);
    // Runs across the prefix's end, and the suffix's own runs of three and four characters.
    queries.push_back(code_points(prefix + s, prefix.size() - 2, 3));
    for (std::size_t from = 0; from + 3 <= 6; ++from) {
      queries.push_back(code_points(s, from, 3));
      queries.push_back(code_points(s, from, 4));
    }
  }
  const std::string window = "&start_date=2051-06-01&end_date=2051-06-30";
  int searched = 0;
  for (const std::string& q : queries) {
    if (q.empty()) continue;  // a suffix shorter than the run
    const std::string expected = like_answer(ids, q);
    const auto [found, total] = answer_within(window, q);
    INFO("search=", q);
    CHECK(found == expected);
    CHECK(total ==
          std::to_string(expected.empty() ? 0 : std::count(expected.begin(), expected.end(), ',') + 1));
    ++searched;
  }
  CHECK(searched > 100);
  CHECK(engine::sql("SELECT COUNT(*) FROM search_pending WHERE event_id IN (" + id_list(ids) + ")") == "0");
  engine::sql("DELETE FROM posts WHERE id IN (" + id_list(ids) + ")");  // the window empty for a rerun
  CHECK(engine::derived_data_mismatch() == "");
}
