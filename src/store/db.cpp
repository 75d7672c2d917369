// Connector/C++ behind cal::Db: connection set-up, the prepared-statement cache, error mapping
// (connection loss → DatabaseUnavailable, duplicate key → DuplicateKey).
#include "cal/store/db.h"
#include "cal/core/ops/metrics.h"

#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_connection.h>
#include <mysql_driver.h>
// After mysql_connection.h: it uses sql::Connection without declaring it.
#include <cppconn/metadata.h>
#include <nss.h>
#include <openssl/crypto.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace cal {
namespace {

// Client error codes that mean the connection is gone or was never made.
bool is_connection_error(int code) {
  return code == 2002 || code == 2003 || code == 2005 || code == 2006 || code == 2013 || code == 2055 ||
         code == 1927 /* ER_CONNECTION_KILLED */ || code == 1053 /* shutdown */;
}

constexpr int kDuplicateEntry = 1062;

// A statement stopped by its time budget: MariaDB's ER_STATEMENT_TIMEOUT, MySQL's ER_QUERY_TIMEOUT.
bool is_statement_timeout(int code) { return code == 1969 || code == 3024; }

// A deadlock (InnoDB's, or a metadata-lock one with DDL such as `calendarctl migrate`) or a lock
// wait timeout: the work was rolled back and may simply be run again.
bool is_conflict(int code) {
  return code == 1213 /* ER_LOCK_DEADLOCK */ || code == 1205 /* ER_LOCK_WAIT_TIMEOUT */;
}

sql::mysql::MySQL_Driver* driver() {
  // The driver singleton must be created once, before threads use it.
  static std::once_flag once;
  static sql::mysql::MySQL_Driver* instance = nullptr;
  std::call_once(once, [] {
    // The client library starts OpenSSL for TLS, which the service never asks for (it has no
    // TLS options): registering every cipher and digest by name and reading openssl.cnf cost a
    // CGI process, which starts it on every request, about 0.7 ms of CPU. Started here first
    // without them, OpenSSL skips both when the library starts it. Drop this before adding TLS.
    OPENSSL_init_crypto(
        OPENSSL_INIT_NO_ADD_ALL_CIPHERS | OPENSSL_INIT_NO_ADD_ALL_DIGESTS | OPENSSL_INIT_NO_LOAD_CONFIG,
        nullptr);
    // The client library's start looks up the "mysql" service for its default TCP port, which
    // the service never uses (the config always names a port or a socket). Debian's
    // nsswitch.conf asks libnss_db first, searched for in every library directory: about 150
    // failed system calls and 0.3 ms of CPU per CGI request. /etc/services alone answers it.
    __nss_configure_lookup("services", "files");
    instance = sql::mysql::get_mysql_driver_instance();
  });
  return instance;
}

// Registers the calling thread with the client library once, and unregisters it at exit.
struct ThreadRegistration {
  ThreadRegistration() { driver()->threadInit(); }
  ~ThreadRegistration() { driver()->threadEnd(); }
};

}  // namespace

struct Rows::Impl {
  std::unique_ptr<sql::ResultSet> result;
};

Rows::Rows(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Rows::Rows(Rows&&) noexcept = default;
Rows::~Rows() = default;
bool Rows::next() { return impl_->result->next(); }
long long Rows::integer(int column) const { return impl_->result->getInt64(column + 1); }
double Rows::number(int column) const { return static_cast<double>(impl_->result->getDouble(column + 1)); }
std::string Rows::text(int column) const { return impl_->result->getString(column + 1); }
bool Rows::is_null(int column) const { return impl_->result->isNull(column + 1); }

namespace {

// std::string keys looked up by string_view, without building a std::string per query.
struct SqlHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct Prepared {
  std::unique_ptr<sql::PreparedStatement> statement;
};

}  // namespace

struct Db::Impl {
  DatabaseConfig config;
  std::unique_ptr<sql::Connection> connection;
  std::unordered_map<std::string, Prepared, SqlHash, std::equal_to<>> statements;
  // Whether the server is MariaDB rather than MySQL (variable names, SET STATEMENT or an
  // optimizer hint): read from the handshake's version string on connecting.
  bool mariadb = false;
  bool connected_before = false;  // a later connect() is a reconnect (the metrics count them)
  // The open transaction is a read snapshot (begin_snapshot): its start and end write nothing.
  bool in_snapshot = false;

  sql::PreparedStatement& prepare(std::string_view sql) {
    auto it = statements.find(sql);
    if (it == statements.end()) {
      Prepared p{std::unique_ptr<sql::PreparedStatement>(connection->prepareStatement(std::string(sql)))};
      it = statements.emplace(std::string(sql), std::move(p)).first;
    }
    return *it->second.statement;
  }
};

Db::Db(DatabaseConfig config) : impl_(std::make_unique<Impl>()) { impl_->config = std::move(config); }

Db::~Db() = default;

bool Db::connected() const { return impl_->connection != nullptr; }

bool Db::read_only() const { return impl_->config.read_only_session; }

long long Db::connection_id() {
  Rows rows = query("SELECT CONNECTION_ID()");
  return rows.next() ? rows.integer(0) : 0;
}

void Db::reset() {
  impl_->statements.clear();
  impl_->mariadb = false;
  impl_->connection.reset();
  impl_->in_snapshot = false;
  depth_ = 0;
  after_commit_.clear();
}

void Db::connect() {
  if (impl_->connection) return;
  thread_local ThreadRegistration registration;
  const DatabaseConfig& c = impl_->config;
  sql::ConnectOptionsMap options;
  options["hostName"] = c.socket.empty() ? sql::SQLString("tcp://" + c.host + ":" + std::to_string(c.port))
                                         : sql::SQLString("unix://" + c.socket);
  options["userName"] = sql::SQLString(c.user);
  options["password"] = sql::SQLString(c.password);
  options["OPT_CONNECT_TIMEOUT"] = 3;
  if (c.read_timeout > 0) {
    options["OPT_READ_TIMEOUT"] = c.read_timeout;
    options["OPT_WRITE_TIMEOUT"] = c.read_timeout;
  }
  options["OPT_RECONNECT"] = false;
  options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
  // The database is chosen in the handshake and the session set up in one statement: every
  // round trip counts in CGI mode, where each request connects anew.
  if (!c.name.empty()) options["schema"] = sql::SQLString(c.name);
  try {
    impl_->connection.reset(driver()->connect(options));
    // MariaDB names the transaction variables tx_* (transaction_* only from 11.1), MySQL 8
    // transaction_* only. The handshake's version string tells them apart.
    const std::string version = impl_->connection->getMetaData()->getDatabaseProductVersion();
    impl_->mariadb = version.find("MariaDB") != std::string::npos;
    const std::string transaction = impl_->mariadb ? "tx_" : "transaction_";
    // READ COMMITTED: no gap locks, so concurrent creates do not deadlock on the gap past the
    // last row of a link table (DELETE-then-INSERT of a new event's terms did under REPEATABLE
    // READ; make bench case 5). Unique keys still decide every race; reads outside transactions
    // see the latest commit either way.
    std::string setup =
        "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci, time_zone = '+00:00', "
        "SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION', SESSION " +
        transaction + "isolation = 'READ-COMMITTED'";
    // A replica's connection can never write (a user with READ_ONLY ADMIN could, and one row
    // written on a replica breaks its replication).
    if (c.read_only_session) setup += ", SESSION " + transaction + "read_only = 1";
    std::unique_ptr<sql::Statement> stmt(impl_->connection->createStatement());
    stmt->execute(setup);
  } catch (const sql::SQLException& e) {
    impl_->connection.reset();
    throw DatabaseUnavailable{std::string("connect: ") + e.what()};
  }
  if (impl_->connected_before) metrics::add(metrics::Counter::kDbReconnects);
  impl_->connected_before = true;
}

namespace {

void bind(sql::PreparedStatement& stmt, const std::vector<SqlValue>& args) {
  unsigned index = 1;
  for (const SqlValue& v : args) {
    if (std::holds_alternative<std::nullptr_t>(v))
      stmt.setNull(index, 0);
    else if (const auto* i = std::get_if<long long>(&v))
      stmt.setInt64(index, *i);
    else if (const auto* d = std::get_if<double>(&v))
      stmt.setDouble(index, *d);
    else if (const auto* s = std::get_if<std::string>(&v))
      stmt.setString(index, *s);
    else
      stmt.setBoolean(index, std::get<bool>(v));
    ++index;
  }
}

// Called inside a catch of `e`: throws the service's kind of that error (a lost connection also
// drops the connection, so the next use reconnects), or `e` itself when it is none of them.
[[noreturn]] void rethrow_mapped(Db& db, const sql::SQLException& e) {
  if (is_connection_error(e.getErrorCode())) {
    db.reset();
    throw DatabaseUnavailable{e.what()};
  }
  if (e.getErrorCode() == kDuplicateEntry) throw DuplicateKey{e.what()};
  if (is_statement_timeout(e.getErrorCode())) throw StatementTimeout{e.what()};
  if (is_conflict(e.getErrorCode())) throw DatabaseConflict{e.what()};
  throw;
}

}  // namespace

void Db::set_statement_budget(double seconds) { budget_seconds_ = seconds > 0 ? seconds : 0; }

constexpr std::string_view kSetStatement = "SET STATEMENT ";

std::string Db::with_optimizer_switch(std::string_view sql, std::string_view switches) const {
  if (!impl_->mariadb) return std::string(sql);
  return std::string(kSetStatement) + "optimizer_switch='" + std::string(switches) + "' FOR " +
         std::string(sql);
}

std::string Db::budgeted(std::string_view sql) {
  // The budget is the service's own setting, a number written here: no client value reaches
  // the SQL text.
  char number[32];
  if (impl_->mariadb) {
    std::snprintf(number, sizeof number, "%.3f", budget_seconds_);
    const std::string budget = "max_statement_time=" + std::string(number);
    // A statement already setting variables for itself takes the budget into the same clause.
    if (sql.substr(0, kSetStatement.size()) == kSetStatement)
      return std::string(kSetStatement) + budget + ", " + std::string(sql.substr(kSetStatement.size()));
    return std::string(kSetStatement) + budget + " FOR " + std::string(sql);
  }
  // MySQL bounds only a top-level SELECT, with a hint right after its keyword.
  if (sql.substr(0, 7) != "SELECT ") return std::string(sql);
  std::snprintf(number, sizeof number, "%lld", static_cast<long long>(budget_seconds_ * 1000 + 0.5));
  return "SELECT /*+ MAX_EXECUTION_TIME(" + std::string(number) + ") */ " + std::string(sql.substr(7));
}

void Db::note_time(std::string_view sql, double seconds) {
  if (!timing_ || timings_.size() >= kTimedStatements) return;
  // The statement's first words say which it is; its values are never in the text.
  timings_.push_back(StatementTime{std::string(sql.substr(0, 120)), seconds});
}

Rows Db::query(std::string_view sql, const std::vector<SqlValue>& args) {
  connect();
  ++statements_;
  try {
    const std::string with_budget = budget_seconds_ > 0 ? budgeted(sql) : std::string();
    sql::PreparedStatement& stmt = impl_->prepare(with_budget.empty() ? sql : with_budget);
    bind(stmt, args);
    auto impl = std::make_unique<Rows::Impl>();
    const auto start = std::chrono::steady_clock::now();
    impl->result.reset(stmt.executeQuery());
    note_time(sql, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return Rows(std::move(impl));
  } catch (const sql::SQLException& e) {
    after_failed_statement(e.getErrorCode());
    rethrow_mapped(*this, e);
  }
}

long long Db::execute(std::string_view sql, const std::vector<SqlValue>& args) {
  connect();
  ++statements_;
  wrote_ = true;
  try {
    sql::PreparedStatement& stmt = impl_->prepare(sql);
    bind(stmt, args);
    const auto start = std::chrono::steady_clock::now();
    const long long affected = stmt.executeUpdate();
    last_write_end_ = std::chrono::steady_clock::now();
    note_time(sql, std::chrono::duration<double>(last_write_end_ - start).count());
    return affected;
  } catch (const sql::SQLException& e) {
    last_write_end_ = std::chrono::steady_clock::now();
    after_failed_statement(e.getErrorCode());
    rethrow_mapped(*this, e);
  }
}

long long Db::last_insert_id() {
  Rows rows = query("SELECT LAST_INSERT_ID()");
  return rows.next() ? rows.integer(0) : 0;
}

// @cal_noted (schema.sql, cal_note_change): the records the change log has from the current
// transaction, each then noted once. Begun empty (",") before START TRANSACTION, and again after
// a failed statement inside one. Never cleared: cal_note_change honours it only inside an
// explicit transaction (@@in_transaction), and every transaction of a Db begins here, so the set
// of an ended transaction (committed, rolled back, or lost with an exception) is never consulted
// by a later one, nor by a write outside any. A replica's session never writes. Run directly,
// not through execute(), whose failure path comes back here.
void Db::begin_noted() {
  if (read_only()) return;
  connect();
  ++statements_;
  try {
    impl_->prepare("SET @cal_noted = _binary','").executeUpdate();
  } catch (const sql::SQLException& e) {
    rethrow_mapped(*this, e);
  }
}

// A failed statement was rolled back with the notes its triggers made, which @cal_noted still
// lists: the rest of the transaction begins a new set (a record written again is noted again).
// Nothing to do outside a transaction or without the connection (the variable went with it).
// Should that fail, the connection is dropped (the server rolls the transaction back) rather
// than let the transaction go on with a set that could hide a note.
void Db::after_failed_statement(int error_code) {
  if (depth_ == 0 || is_connection_error(error_code) || !impl_->connection) return;
  try {
    begin_noted();
  } catch (...) {
    reset();
    throw DatabaseUnavailable{"could not begin a new @cal_noted after a failed statement"};
  }
}

void Db::begin() {
  if (depth_ == 0) {
    // The set first: should START TRANSACTION fail, no transaction has a stale one.
    begin_noted();
    execute("START TRANSACTION");
  }
  ++depth_;
}

namespace {

// Runs `statements`, and when they write nothing (a read snapshot's isolation, start and end) puts
// the write marks back as they were: a request that wrote waits out the cache lease before it
// answers, and is not run again after a lost connection.
template <typename Run>
void run_keeping_marks(bool writes_nothing, bool& wrote, std::chrono::steady_clock::time_point& write_end,
                       Run statements) {
  const bool wrote_before = wrote;
  const auto write_end_before = write_end;
  statements();
  if (writes_nothing) {
    wrote = wrote_before;
    write_end = write_end_before;
  }
}

}  // namespace

void Db::begin_snapshot() {
  if (depth_ == 0) {
    // The session reads committed (connect()), where every statement reads the latest commit: a
    // snapshot needs repeatable read, set for this one transaction.
    run_keeping_marks(true, wrote_, last_write_end_, [this] {
      execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
    });
    impl_->in_snapshot = true;
  }
  ++depth_;
}

void Db::commit() {
  if (depth_ > 1) {
    --depth_;
    return;
  }
  run_keeping_marks(std::exchange(impl_->in_snapshot, false), wrote_, last_write_end_,
                    [this] { execute("COMMIT"); });
  depth_ = 0;
  for (const std::function<void()>& then : std::exchange(after_commit_, {})) then();
}

void Db::after_commit(std::function<void()> then) {
  if (depth_ == 0)
    then();
  else
    after_commit_.push_back(std::move(then));
}

void Db::rollback() {
  depth_ = 0;
  after_commit_.clear();
  if (!impl_->connection) return;
  try {
    run_keeping_marks(std::exchange(impl_->in_snapshot, false), wrote_, last_write_end_,
                      [this] { execute("ROLLBACK"); });
  } catch (const DatabaseUnavailable&) {
    // The server rolls back a transaction whose connection is gone.
  }
}

void Db::execute_unprepared(std::string_view sql) {
  connect();
  ++statements_;
  wrote_ = true;
  try {
    std::unique_ptr<sql::Statement> stmt(impl_->connection->createStatement());
    stmt->execute(std::string(sql));
    last_write_end_ = std::chrono::steady_clock::now();
  } catch (const sql::SQLException& e) {
    last_write_end_ = std::chrono::steady_clock::now();
    rethrow_mapped(*this, e);
  }
}

Transaction::~Transaction() {
  if (!done_) db_.rollback();
}

void Transaction::commit() {
  db_.commit();
  done_ = true;
}

std::string placeholders(std::size_t n) {
  std::string out;
  out.reserve(n * 3);
  for (std::size_t i = 0; i < n; ++i) out += i ? ", ?" : "?";
  return out;
}

}  // namespace cal
