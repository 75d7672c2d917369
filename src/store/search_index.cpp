// The search index's upkeep and the plan of a search (cal/store/search_index.h).
#include "cal/store/search_index.h"

#include "store/bulk_load.h"
#include "store/json_rows.h"
#include "store/piece_words.h"
#include "store/recent_marks.h"
#include "store/sql_where.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/search_words.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace cal {
namespace {

// Multi-row statements come in these sizes only, so each connection prepares a few shapes; an
// event's thirty-odd postings take four statements.
constexpr std::size_t kChunkSizes[] = {512, 64, 32, 16, 8, 4, 2, 1};
// An index word list longer than this narrows too little to be worth its IN list.
constexpr long long kMaxWordIds = 5000;
// Pieces of a search tried against the index, longest first, until one is in this few events.
constexpr std::size_t kMaxPiecesTried = 3;
constexpr long long kNarrowEnough = 1000;

// Calls run(first, count) over [0, n) in chunks of the sizes above.
template <typename Run>
void in_chunks(std::size_t n, Run run) {
  std::size_t at = 0;
  for (const std::size_t size : kChunkSizes)
    while (n - at >= size) {
      run(at, size);
      at += size;
    }
}

// Fills `values` up to a chunk size by repeating its last value, when that at most doubles it:
// for statements whose result a repeated value does not change (INSERT IGNORE, IN lists), one
// statement instead of one per chunk size.
template <typename T>
void pad_to_chunk(std::vector<T>& values) {
  if (std::find(std::begin(kChunkSizes), std::end(kChunkSizes), values.size()) != std::end(kChunkSizes))
    return;
  for (const std::size_t size : kChunkSizes)
    if (!values.empty() && values.size() < size && size <= values.size() * 2) {
      values.resize(size, values.back());
      return;
    }
}

std::string repeated(std::string_view item, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    out += item;
  }
  return out;
}

struct EventText {
  long long id = 0;
  std::vector<std::string> words;
  bool unindexable = false;
  std::vector<SqlValue> list_columns;  // the postings' copies: status, hidden, start, end
};

// The columns an event's postings copy, after its text: as the link tables' triggers copy them
// (an event without details yet: its post's status and the columns' defaults). Posts by primary
// key: on a small table the optimizer would rather scan it, and a locking read that scans waits
// for every post a transaction in flight has written.
constexpr const char* kTextAndListColumns =
    "SELECT p.id, p.title, p.content, p.excerpt, COALESCE(d.status, p.status), "
    "COALESCE(d.hide_from_listings, 0), "
    "COALESCE(d.start_utc, '1970-01-01 00:00:00'), COALESCE(d.end_utc, '1970-01-01 00:00:00') "
    "FROM posts p FORCE INDEX (PRIMARY) LEFT JOIN event_details d ON d.event_id = p.id";

// An event's distinct words with ASCII letters in lower case. The collation's LIKE does not tell
// ASCII cases apart, so `Jazz` and `jazz` match the same searches: as one index word, a search
// reads one posting an event instead of two and counts them without removing duplicates.
EventText words_of_event(long long id, const std::string& title, const std::string& content,
                         const std::string& excerpt) {
  EventText e;
  e.id = id;
  std::unordered_set<std::string> seen;
  for (const std::string* text : {&title, &content, &excerpt})
    for (const std::string& w : search_words_of(*text)) {
      if (utf8_length(w) > kMaxSearchWordChars) e.unindexable = true;
      std::string word = ascii::lower(w);
      if (seen.insert(word).second) e.words.push_back(std::move(word));
    }
  return e;
}

// Adds the words not in search_words yet. The postings and day counts written next find their
// ids by joining search_words on the word (a key lookup a row), so no statement reads them here.
void add_words(Db& db, std::vector<std::string> words) {
  pad_to_chunk(words);
  in_chunks(words.size(), [&](std::size_t at, std::size_t n) {
    std::vector<SqlValue> args(words.begin() + at, words.begin() + at + n);
    db.execute("INSERT IGNORE INTO search_words (word) VALUES " + repeated("(?)", n), args);
  });
}

// A JSON_TABLE column holding a word, compared with search_words.word as that column compares
// (byte for byte), and the join that turns it into the word's id.
constexpr const char* kWordColumn = "word VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PATH '$[0]'";
constexpr const char* kWordJoin = " JOIN search_words w ON w.word = j.word";

// Takes the postings of `events` out of the index by the key that starts with the event.
void delete_postings_rows(Db& db, const std::vector<long long>& events) {
  execute_json_rows(db,
                    "DELETE t FROM JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT UNSIGNED PATH '$[0]')) j "
                    "STRAIGHT_JOIN search_postings t ON t.event_id = j.id",
                    events, [](JsonRowWriter& json, long long id) { json.Int64(id); });
}

// Takes the pending marks of `events` away. A round of the server's indexer (up to 200 events)
// deletes each mark by its own key: any statement for many marks (an IN list, a join) can end up
// reading a mark it does not take, when they are most of a small search_pending, and wait there
// for the uncommitted mark of a write in flight, or of a write by hand left open, before the
// round can commit. Larger batches (calendarctl indexing a whole database, the demo's events) take
// IN lists of up to 512, a small part of the table read by key, instead of a statement an event.
constexpr std::size_t kMarksDeletedOneByOne = 200;

void delete_pending(Db& db, std::vector<long long> events) {
  if (events.size() <= kMarksDeletedOneByOne) {
    for (long long id : events) db.execute("DELETE FROM search_pending WHERE event_id = ?", {id});
    return;
  }
  pad_to_chunk(events);
  in_chunks(events.size(), [&](std::size_t at, std::size_t n) {
    std::vector<SqlValue> args(events.begin() + at, events.begin() + at + n);
    db.execute("DELETE FROM search_pending WHERE event_id IN (" + placeholders(n) + ")", args);
  });
}

// Takes the postings of `events` out of search_word_days, then out of the index. Under the bulk
// flag their delete trigger would count each row on its own: one grouped statement instead.
void delete_postings(Db& db, std::vector<long long> events) {
  pad_to_chunk(events);
  in_chunks(events.size(), [&](std::size_t at, std::size_t n) {
    std::vector<SqlValue> args(events.begin() + at, events.begin() + at + n);
    db.execute(
        "INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events) "
        "SELECT word_id, status, hide_from_listings, DATE(start_utc), CONNECTION_ID() % 8, -COUNT(*) "
        "FROM search_postings WHERE event_id IN (" +
            placeholders(n) +
            ") GROUP BY word_id, status, hide_from_listings, DATE(start_utc) "
            "ON DUPLICATE KEY UPDATE events = events + VALUES(events)",
        args);
  });
  delete_postings_rows(db, events);
}

// A posting to write: the word and its event, whose list columns it copies.
struct Posting {
  const std::string* word;
  const EventText* event;
};

// The postings in the index's key order (word, then event): a batch's postings of one word land
// next to each other in the primary key instead of all over it.
void insert_postings(Db& db, const std::vector<Posting>& postings) {
  execute_json_rows(
      db,
      std::string("INSERT INTO search_postings (word_id, event_id, status, hide_from_listings, start_utc, "
                  "end_utc) SELECT w.id, j.event_id, j.status, j.hidden, j.start_utc, j.end_utc FROM "
                  "JSON_TABLE(?, '$[*]' COLUMNS (") +
          kWordColumn +
          ", event_id BIGINT UNSIGNED PATH '$[1]', status VARCHAR(16) PATH '$[2]', hidden TINYINT PATH "
          "'$[3]', "
          "start_utc DATETIME PATH '$[4]', end_utc DATETIME PATH '$[5]')) j" +
          kWordJoin + " ORDER BY w.id, j.event_id",
      postings, [](auto& json, const Posting& p) {
        write_text(json, *p.word);
        json.Int64(p.event->id);
        write_text(json, p.event->list_columns[0]);
        json.Int64(std::get<long long>(p.event->list_columns[1]));
        write_text(json, p.event->list_columns[2]);
        write_text(json, p.event->list_columns[3]);
      });
}

// The postings counted per word, status, hidden flag and UTC start day, added to this
// connection's shard of search_word_days as the insert trigger would have, without reading them
// back.
void add_word_days(Db& db, const std::vector<Posting>& postings) {
  using Key = std::tuple<std::string_view, std::string, long long, std::string>;
  std::map<Key, long long> days;
  for (const Posting& p : postings) {
    const std::vector<SqlValue>& c = p.event->list_columns;
    ++days[{*p.word, std::get<std::string>(c[0]), std::get<long long>(c[1]),
            std::get<std::string>(c[2]).substr(0, 10)}];
  }
  const std::vector<std::pair<Key, long long>> rows(days.begin(), days.end());
  execute_json_rows(
      db,
      std::string("INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events) "
                  "SELECT w.id, j.status, j.hidden, j.day, CONNECTION_ID() % 8, j.events FROM JSON_TABLE(?, "
                  "'$[*]' COLUMNS (") +
          kWordColumn +
          ", status VARCHAR(16) PATH '$[1]', hidden TINYINT PATH '$[2]', day DATE PATH '$[3]', events BIGINT "
          "PATH '$[4]')) j" +
          kWordJoin + " ON DUPLICATE KEY UPDATE events = search_word_days.events + VALUES(events)",
      rows, [](auto& json, const std::pair<Key, long long>& row) {
        const auto& [word, status, hidden, day] = row.first;
        json.String(word.data(), static_cast<rapidjson::SizeType>(word.size()));
        json.String(status.data(), static_cast<rapidjson::SizeType>(status.size()));
        json.Int64(hidden);
        json.String(day.data(), static_cast<rapidjson::SizeType>(day.size()));
        json.Int64(row.second);
      });
}

// Replaces the postings of `events`; events with a word too long to store stay pending, marked.
// The postings' row triggers are off meanwhile (bulk_load.h): an event's thirty-odd postings
// would each update search_word_days on their own, one statement a posting.
// `fresh`: an event among `events` known to have no postings (0: none).
void write_postings(Db& db, const std::vector<EventText>& events, long long fresh = 0) {
  std::vector<std::string> all_words;
  std::unordered_set<std::string_view> seen;
  std::vector<long long> indexed, unindexable, with_old_postings;
  for (const EventText& e : events) {
    (e.unindexable ? unindexable : indexed).push_back(e.id);
    if (e.id != fresh) with_old_postings.push_back(e.id);
    if (e.unindexable) continue;
    for (const std::string& w : e.words)
      if (seen.insert(w).second) all_words.push_back(w);
  }
  add_words(db, all_words);
  std::vector<Posting> postings;
  for (const EventText& e : events)
    if (!e.unindexable)
      for (const std::string& w : e.words) postings.push_back({&w, &e});
  {
    BulkLoad bulk(db);
    if (!with_old_postings.empty()) delete_postings(db, with_old_postings);
    insert_postings(db, postings);
    bulk.end();
  }
  add_word_days(db, postings);
  delete_pending(db, indexed);
  in_chunks(unindexable.size(), [&](std::size_t at, std::size_t n) {
    std::vector<SqlValue> args(unindexable.begin() + at, unindexable.begin() + at + n);
    db.execute("INSERT INTO search_pending (event_id, unindexable) VALUES " + repeated("(?, 1)", n) +
                   " ON DUPLICATE KEY UPDATE unindexable = 1",
               args);
  });
}

std::vector<EventText> read_texts(Rows rows) {
  std::vector<EventText> events;
  while (rows.next()) {
    events.push_back(words_of_event(rows.integer(0), rows.text(1), rows.text(2), rows.text(3)));
    events.back().list_columns = {rows.text(4), rows.integer(5), rows.text(6), rows.text(7)};
  }
  return events;
}

struct PieceCandidates {
  std::vector<long long> word_ids;
  long long postings = 0;
  bool pending_events = true;  // whether any event is pending
};

// The index words' postings as the probe counted them, remembered for a minute. Counting up to
// the limit reads that many postings: at a million events 3.5 ms of every search of a common
// word, at 10,000 events 0.5 ms of a search of a word in 1,000 of them, for a count that only
// chooses the plan. The pending check, which decides answers, still runs every time.
RecentMarks& postings_counted() {
  static RecentMarks words(std::chrono::seconds(60), 4096);
  return words;
}

// Counts the postings of `c`'s words up to the probe limit.
void count_postings(Db& db, PieceCandidates& c) {
  std::vector<SqlValue> args(c.word_ids.begin(), c.word_ids.end());
  args.emplace_back(kSearchProbeLimit + 1);
  Rows count = db.query("SELECT COUNT(*) FROM (SELECT 1 FROM search_postings WHERE word_id IN (" +
                            placeholders(c.word_ids.size()) + ") LIMIT ?) probe",
                        args);
  if (count.next()) c.postings = count.integer(0);
  postings_counted().mark(c.word_ids, c.postings);
}

// The index words of the pieces searched lately (store/piece_words.h), each while it has few.
PieceWords& piece_words() {
  static PieceWords words(4096, 256);
  return words;
}

// More words added since a piece's were found than this: scan the vocabulary again.
constexpr long long kMaxWordsAdded = 256;

// The index words holding a piece, and whether any event is pending: every search needs both,
// and read in the one statement they cost one round trip and one plan.
struct WordsHolding {
  std::vector<long long> ids;
  bool pending_events = true;
};

// The pending check, a column of each look-up of a piece's words.
constexpr const char* kAnyPending = "EXISTS (SELECT 1 FROM search_pending)";

// The characters of a run of the vocabulary's trigram index (schema.sql, migration 22).
constexpr std::size_t kTrigramChars = 3;

// The key of the run of `text` (an expression under the search collation) starting at s.seq, as
// cal_trigram() computes it for the triggers, written out here: the service's account may call no
// routine (docs/mysql.md), and the two agree or searches miss words (the oracle tests).
std::string trigram_key(const std::string& text) {
  std::string key = "CRC32(CONCAT(";
  for (const char* at : {"s.seq", "s.seq + 1", "s.seq + 2"})
    key +=
        std::string(key.back() == '(' ? "" : ", ") + "WEIGHT_STRING(SUBSTRING(" + text + ", " + at + ", 1))";
  return key + "))";
}

// The words holding a piece of at least kTrigramChars characters (parameters: the piece, its
// LIKE pattern, the limit): the words of the key of the piece's runs held by the fewest words,
// each confirmed by the LIKE (cheaper than looking its other keys up). A key's words are counted
// only when it has at most 512 (whether it has a 513th reads that many index rows): a piece of
// common runs reads a bounded number of rows of each key before the words of the one it takes.
const std::string& words_with_trigrams() {
  static const std::string sql =
      "(SELECT v.id FROM (SELECT k.trigram FROM (SELECT DISTINCT " + trigram_key("p.piece") +
      " AS trigram FROM (SELECT CONVERT(? USING utf8mb4) COLLATE utf8mb4_unicode_ci AS piece) p "
      "JOIN seq_1_to_188 s ON s.seq <= CHAR_LENGTH(p.piece) - 2) k ORDER BY IF((SELECT u.word_id FROM "
      "search_word_trigrams u WHERE u.trigram = k.trigram ORDER BY u.word_id LIMIT 1 OFFSET 512) IS NULL, "
      "(SELECT COUNT(*) FROM search_word_trigrams t WHERE t.trigram = k.trigram), 513) LIMIT 1) r "
      "STRAIGHT_JOIN search_word_trigrams t ON t.trigram = r.trigram "
      "STRAIGHT_JOIN search_words v ON v.id = t.word_id "
      "WHERE v.word COLLATE utf8mb4_unicode_ci LIKE ? ESCAPE '!' LIMIT ?)";
  return sql;
}

// The index words holding `piece` (at most kMaxWordIds + 1 of them), ascending: those remembered
// and those added since, or all of them found anew: through the vocabulary's trigrams, or for a
// piece shorter than a run by a scan of the vocabulary. The write count, the words and the largest
// id are read in one statement, so they agree.
WordsHolding words_holding(Db& db, const std::string& piece) {
  const std::string pattern = like_contains(piece);
  WordsHolding out;
  if (const std::optional<PieceWords::Known> known = piece_words().find(piece)) {
    Rows rows = db.query(
        std::string("SELECT (SELECT COALESCE(SUM(writes), 0) FROM search_word_writes), ") + kAnyPending +
            ", w.id, w.word COLLATE utf8mb4_unicode_ci LIKE ? ESCAPE '!' FROM (SELECT 1) one LEFT JOIN "
            "(SELECT id, word FROM search_words WHERE id > ? ORDER BY id LIMIT ?) w ON TRUE ORDER BY w.id",
        {pattern, known->max_id, kMaxWordsAdded + 1});
    long long writes = 0;
    std::vector<PieceWords::Added> added;
    while (rows.next()) {
      writes = rows.integer(0);
      out.pending_events = rows.integer(1) != 0;
      if (!rows.is_null(2)) added.push_back({rows.integer(2), rows.integer(3) != 0});
    }
    if (static_cast<long long>(added.size()) <= kMaxWordsAdded)
      if (std::optional<PieceWords::Known> now = PieceWords::extended(*known, writes, added)) {
        out.ids = now->ids;
        piece_words().keep(piece, std::move(*now));
        return out;
      }
  }
  const std::string head = std::string(
                               "SELECT (SELECT COALESCE(SUM(writes), 0) FROM search_word_writes), "
                               "(SELECT COALESCE(MAX(id), 0) FROM search_words), ") +
                           kAnyPending + ", w.id FROM (SELECT 1) one LEFT JOIN ";
  const std::size_t length = utf8_length(piece);
  Rows rows = length >= kTrigramChars && length <= kMaxSearchWordChars
                  ? db.query(head + words_with_trigrams() + " w ON TRUE", {piece, pattern, kMaxWordIds + 1})
                  : db.query(head +
                                 "(SELECT id FROM search_words WHERE word COLLATE utf8mb4_unicode_ci LIKE ? "
                                 "ESCAPE '!' LIMIT ?) w ON TRUE",
                             {pattern, kMaxWordIds + 1});
  PieceWords::Known found;
  while (rows.next()) {
    found.writes = rows.integer(0);
    found.max_id = rows.integer(1);
    out.pending_events = rows.integer(2) != 0;
    if (!rows.is_null(3)) found.ids.push_back(rows.integer(3));
  }
  std::sort(found.ids.begin(), found.ids.end());
  out.ids = found.ids;
  if (static_cast<long long>(found.ids.size()) <= kMaxWordIds) piece_words().keep(piece, std::move(found));
  return out;
}

// The index words holding `piece` and their postings counted up to the probe limit; nullopt when
// so many words hold it that it cannot narrow.
std::optional<PieceCandidates> candidates_of(Db& db, const std::string& piece) {
  PieceCandidates c;
  WordsHolding words = words_holding(db, piece);
  c.word_ids = std::move(words.ids);
  c.pending_events = words.pending_events;
  if (static_cast<long long>(c.word_ids.size()) > kMaxWordIds) return std::nullopt;
  if (c.word_ids.empty()) return c;
  if (const std::optional<long long> counted = postings_counted().recalled(c.word_ids))
    c.postings = *counted;
  else
    count_postings(db, c);
  // Many words and many postings: reading every candidate first costs more than the scan.
  if (c.postings > kSearchProbeLimit && c.word_ids.size() > kMaxDrivingWords) return std::nullopt;
  return c;
}

}  // namespace

long long index_pending_events(Db& db, long long limit, long long written, WrittenEvent how) {
  std::vector<long long> ids;
  // The written event by its key, then others in key order: each statement reads and locks only
  // the rows it returns, however many events are pending.
  if (written > 0 && how == WrittenEvent::kCreated) {
    ids.push_back(written);
  } else if (written > 0) {
    Rows rows = db.query(
        "SELECT event_id FROM search_pending WHERE event_id = ? AND unindexable = 0 FOR UPDATE", {written});
    while (rows.next()) ids.push_back(rows.integer(0));
  }
  {
    Rows rows = db.query(
        "SELECT event_id FROM search_pending WHERE event_id <> ? AND unindexable = 0 ORDER BY event_id "
        "LIMIT ? FOR UPDATE SKIP LOCKED",
        {written, limit - static_cast<long long>(ids.size())});
    while (rows.next()) ids.push_back(rows.integer(0));
  }
  if (ids.empty()) return 0;
  // A locking read: the latest committed text, not this transaction's older snapshot.
  std::vector<SqlValue> args(ids.begin(), ids.end());
  std::vector<EventText> events =
      read_texts(db.query(std::string(kTextAndListColumns) + " WHERE p.id IN (" + placeholders(ids.size()) +
                              ") AND p.type = 'event' LOCK IN SHARE MODE",
                          args));
  write_postings(db, events, how == WrittenEvent::kCreated ? written : 0);
  // Pending rows of posts that are no longer events.
  std::vector<long long> gone;
  for (long long id : ids)
    if (std::none_of(events.begin(), events.end(), [&](const EventText& e) { return e.id == id; }))
      gone.push_back(id);
  delete_pending(db, gone);
  return static_cast<long long>(ids.size());
}

void index_event_range(Db& db, long long first, long long last) {
  write_postings(db, read_texts(db.query(std::string(kTextAndListColumns) +
                                             " WHERE p.id BETWEEN ? AND ? AND p.type = 'event'",
                                         {first, last})));
}

long long rebuild_search_index(Db& db, long long batch,
                               const std::function<void(long long, long long)>& progress) {
  {
    // The vocabulary's trigrams: a word's missing keys would hide it from searches of its pieces;
    // the keys of words gone only cost candidates, and go too.
    Transaction tx(db);
    db.execute("INSERT IGNORE INTO search_word_trigrams (trigram, word_id) SELECT " +
               trigram_key("w.word COLLATE utf8mb4_unicode_ci") +
               ", w.id FROM search_words w JOIN seq_1_to_188 s ON s.seq <= CHAR_LENGTH(w.word) - 2");
    db.execute(
        "DELETE t FROM search_word_trigrams t LEFT JOIN search_words w ON w.id = t.word_id "
        "WHERE w.id IS NULL");
    tx.commit();
  }
  {
    Transaction tx(db);
    db.execute(
        "INSERT INTO search_pending (event_id) SELECT id FROM posts WHERE type = 'event' "
        "ON DUPLICATE KEY UPDATE unindexable = 0");
    tx.commit();
  }
  long long total = 0;
  {
    Rows rows = db.query("SELECT COUNT(*) FROM search_pending");
    if (rows.next()) total = rows.integer(0);
  }
  long long done = 0;
  for (;;) {
    Transaction tx(db);
    const long long n = index_pending_events(db, batch, 0);
    tx.commit();
    if (n == 0) break;
    done += n;
    if (progress) progress(done, total);
  }
  return done;
}

EventSearchPlan plan_event_search(Db& db, const SearchWords& words) {
  EventSearchPlan plan;
  struct Piece {
    std::size_t word;
    std::string text;
    bool whole;
  };
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < words.required.size(); ++i) {
    std::vector<std::string> parts = search_pieces(words.required[i]);
    const bool whole = parts.size() == 1 && parts.front() == words.required[i];
    for (std::string& p : parts) pieces.push_back({i, std::move(p), whole});
  }
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece& a, const Piece& b) { return utf8_length(a.text) > utf8_length(b.text); });
  if (pieces.size() > kMaxPiecesTried) pieces.resize(kMaxPiecesTried);
  for (const Piece& piece : pieces) {
    std::optional<PieceCandidates> c = candidates_of(db, piece.text);
    if (!c) continue;
    if (piece.whole && !c->word_ids.empty() && c->word_ids.size() <= kMaxDrivingWords)
      plan.indexed.push_back({words.required[piece.word], c->word_ids});
    const auto narrower = [&] {
      const SearchNarrowing& n = *plan.narrowing;
      return c->postings != n.postings ? c->postings < n.postings : c->word_ids.size() < n.word_ids.size();
    };
    if (!plan.narrowing || narrower())
      plan.narrowing =
          SearchNarrowing{piece.word, piece.whole, std::move(c->word_ids), c->postings, c->pending_events};
    if (plan.narrowing->postings <= kNarrowEnough) break;
  }
  plan.expensive = !plan.narrowing || plan.narrowing->postings > kSearchProbeLimit;
  return plan;
}

std::vector<char32_t> server_search_separators(Db& db) {
  std::vector<char32_t> out;
  Rows rows = db.query(
      "SELECT seq FROM seq_0_to_1114111 WHERE (seq < 55296 OR seq > 57343) AND "
      "WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4) COLLATE utf8mb4_unicode_ci) IN ("
      "SELECT WEIGHT_STRING(CONVERT(CHAR(a.seq USING utf32) USING utf8mb4) COLLATE utf8mb4_unicode_ci) "
      "FROM seq_9_to_126 a WHERE a.seq <= 13 OR a.seq = 32 OR (a.seq BETWEEN 33 AND 47) OR "
      "(a.seq BETWEEN 58 AND 64) OR (a.seq BETWEEN 91 AND 96) OR a.seq >= 123) ORDER BY seq");
  while (rows.next()) out.push_back(static_cast<char32_t>(rows.integer(0)));
  return out;
}

}  // namespace cal
