// One database connection (MySQL Connector/C++, hidden here) with a per-connection cache of
// prepared statements. Every SQL statement of the service goes through query()/execute() with
// `?` placeholders: no value is ever spliced into SQL text. One Db per worker thread.
#pragma once

#include "cal/core/config.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cal {

// A value bound to a `?` placeholder.
using SqlValue = std::variant<std::nullptr_t, long long, double, std::string, bool>;

// Thrown when the database cannot be reached or the connection was lost (rendered as 503).
struct DatabaseUnavailable {
  std::string detail;  // for the log only
};

// Thrown when the server gave up a statement for a deadlock or a lock wait timeout (MySQL errors
// 1213, 1205; also metadata-lock deadlocks with concurrent DDL). The caller rolls back; the whole
// request may then be run again (the router does, a few times, before answering 503).
struct DatabaseConflict {
  std::string detail;  // for the log only
};

// Thrown when a statement ran out of the budget Db::set_statement_budget() gave it (MariaDB error
// 1969 ER_STATEMENT_TIMEOUT, MySQL 3024): the statement was stopped and had no effect. Never
// retried: the same work would run out again (rendered as 503 rest_busy).
struct StatementTimeout {
  std::string detail;  // for the log only
};

// Thrown when a unique key rejects an insert or update (MySQL error 1062).
struct DuplicateKey {
  std::string detail;
};

// Rows of one result, read forward. Columns are numbered from 0.
class Rows {
 public:
  struct Impl;
  explicit Rows(std::unique_ptr<Impl> impl);
  Rows(Rows&&) noexcept;
  ~Rows();
  bool next();
  long long integer(int column) const;  // 0 for NULL
  double number(int column) const;      // 0 for NULL
  std::string text(int column) const;   // "" for NULL
  bool is_null(int column) const;

 private:
  std::unique_ptr<Impl> impl_;
};

class Db {
 public:
  explicit Db(DatabaseConfig config);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Connects if not connected. Throws DatabaseUnavailable when the server cannot be reached.
  void connect();
  // Drops the connection (and its statements) so the next use reconnects.
  void reset();
  bool connected() const;
  // A replica's connection (DatabaseConfig::read_only_session): it never writes.
  bool read_only() const;
  // The server's id of this connection (CONNECTION_ID()), which picks the shard of the rollups
  // and counters it writes (schema.sql); connects first if need be.
  long long connection_id();

  // Runs a SELECT. Throws DatabaseUnavailable on connection loss (and resets the connection).
  Rows query(std::string_view sql, const std::vector<SqlValue>& args = {});
  // Runs INSERT/UPDATE/DELETE; returns the affected row count. Throws DuplicateKey on 1062.
  long long execute(std::string_view sql, const std::vector<SqlValue>& args = {});
  long long last_insert_id();

  // Transactions nest flatly: a begin() inside one only counts, its commit() only uncounts, and
  // the outermost commit() commits. rollback() rolls everything back, whatever the depth. So a
  // step that must share the write's transaction (the If-Match check) can wrap a handler that
  // opens its own. Inside one, the change log notes each written record once (@cal_noted).
  void begin();
  // A transaction that only reads, its snapshot taken at once, so that every statement until the
  // commit sees one state of the database (a search's words and the events holding them). No
  // change-log set: nothing may be written in it. Nests as begin() does.
  void begin_snapshot();
  void commit();
  void rollback();
  bool in_transaction() const { return depth_ > 0; }
  // Runs `then` once the outermost transaction has committed (at once outside any); a rollback
  // or a lost connection drops it. For work that must see the write committed, e.g. waking the
  // search indexer (cal/api/events/search_indexer.h).
  void after_commit(std::function<void()> then);

  // Instrumentation: statements run since construction (tests assert constant query counts),
  // and whether anything was written since the last mark (the router retries only pure reads).
  std::size_t statement_count() const { return statements_; }

  // With timing on (the slow-request log, docs/operations.md), each statement's first words and
  // seconds, oldest first, at most kTimedStatements of them; take_timings() hands them over and
  // starts anew.
  struct StatementTime {
    std::string sql;
    double seconds = 0;
  };
  static constexpr std::size_t kTimedStatements = 64;
  void set_timing(bool on) { timing_ = on; }
  std::vector<StatementTime> take_timings() { return std::exchange(timings_, {}); }
  bool wrote_since_mark() const { return wrote_; }
  void mark() { wrote_ = false; }
  // When the last statement that may have written (a COMMIT, or a write outside a transaction)
  // came back, failed or not: what it wrote was committed by then, if at all.
  std::chrono::steady_clock::time_point last_write_end() const { return last_write_end_; }

  // A time budget in seconds for each SELECT run through query() from now on (0: none, the
  // default): the server stops a statement that takes longer and query() throws
  // StatementTimeout. The statement carries the budget itself (MariaDB's SET STATEMENT
  // max_statement_time=S FOR …, MySQL's MAX_EXECUTION_TIME hint), so setting it costs no round
  // trip; each budgeted text is prepared once per connection beside the plain one.
  void set_statement_budget(double seconds);
  double statement_budget() const { return budget_seconds_; }

  // `sql` with MariaDB's optimizer_switch set for that statement alone (SET STATEMENT
  // optimizer_switch='SWITCHES' FOR …; the budget above joins the same clause); `sql` as it is
  // on MySQL, which has no such statement. `switches` is the store's own text, never a client's.
  std::string with_optimizer_switch(std::string_view sql, std::string_view switches) const;

  // Runs one statement that cannot be prepared (DDL of the schema scripts, cal/store/schema.h);
  // no parameters, nothing returned.
  void execute_unprepared(std::string_view sql);

 private:
  // The change log's set of records noted in the current transaction (schema.sql,
  // cal_note_change): begun empty before START TRANSACTION, and anew after a failed statement
  // inside a transaction.
  void begin_noted();
  void after_failed_statement(int error_code);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  // The SQL text query() runs for `sql` under the current budget.
  std::string budgeted(std::string_view sql);

  int depth_ = 0;  // open begin()s
  std::vector<std::function<void()>> after_commit_;
  double budget_seconds_ = 0;
  bool wrote_ = false;
  std::chrono::steady_clock::time_point last_write_end_{};
  std::size_t statements_ = 0;
  bool timing_ = false;
  std::vector<StatementTime> timings_;
  // Notes a statement's time when timing is on.
  void note_time(std::string_view sql, double seconds);
};

// Commits on commit(), rolls back when destroyed without it (an exception on the way).
class Transaction {
 public:
  struct ReadSnapshot {};
  explicit Transaction(Db& db) : db_(db) { db_.begin(); }
  // A read-only transaction (Db::begin_snapshot).
  Transaction(Db& db, ReadSnapshot) : db_(db) { db_.begin_snapshot(); }
  ~Transaction();
  void commit();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

 private:
  Db& db_;
  bool done_ = false;
};

// "?, ?, ?" with n placeholders, for IN lists (the SQL shape varies only with the count).
std::string placeholders(std::size_t n);

}  // namespace cal
