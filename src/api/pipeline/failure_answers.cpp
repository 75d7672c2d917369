// Failures as answers, with the retries (see failure_answers.h).
#include "api/pipeline/failure_answers.h"

#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/json.h"
#include "cal/core/ops/metrics.h"

#include <chrono>
#include <iostream>
#include <thread>

namespace cal {
namespace {

// How often a request that hit a deadlock or lock wait timeout is run again before 503.
constexpr int kConflictRetries = 4;

// After DatabaseUnavailable on attempt `attempt` (0 first): whether to run the request again.
// Only the first attempt is retried, and only when nothing may have been written since
// db.mark(); the connection is then reset so the retry opens a fresh one.
bool retry_lost_connection(Db& db, int attempt) {
  if (attempt != 0 || db.wrote_since_mark()) return false;
  db.reset();
  return true;
}

// After DatabaseConflict (the work already rolled back) on attempt `attempt`: whether to run the
// request again, after waiting 10, 20, 40, 80 ms; false once those retries are used up. Every
// write is one transaction, so nothing of the failed try remains.
bool retry_conflict(int attempt) {
  if (attempt >= kConflictRetries) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(10 << attempt));  // 10, 20, 40, 80 ms
  return true;
}

}  // namespace

Response answer_or_failure(Db& db, const Config& config, const Locale& locale, const std::string& request_id,
                           bool* lost, const std::function<Response()>& attempt_once) {
  Response response;
  for (int attempt = 0;; ++attempt) {
    db.mark();
    try {
      response = attempt_once();
    } catch (const ApiError& e) {
      if (db.in_transaction()) db.rollback();
      response = error_response(e);
    } catch (const DatabaseUnavailable& e) {
      if (retry_lost_connection(db, attempt)) {
        metrics::add(metrics::Counter::kDbRetries);
        continue;
      }
      metrics::add(metrics::Counter::kDbErrors);
      std::cerr << "request " << request_id << ": database unavailable: " << e.detail << "\n";
      db.reset();
      if (lost) *lost = true;
      ApiError err{503, "rest_db_unavailable",
                   translate(locale, "The database is unavailable; try again shortly.")};
      err.retry_after = 5;
      response = error_response(err);
    } catch (const DatabaseConflict& e) {
      // A deadlock or lock wait timeout rolled the work back.
      if (db.in_transaction()) db.rollback();
      if (retry_conflict(attempt)) {
        metrics::add(metrics::Counter::kDbRetries);
        continue;
      }
      metrics::add(metrics::Counter::kDbErrors);
      std::cerr << "request " << request_id << ": database conflict: " << e.detail << "\n";
      ApiError err{503, "rest_db_unavailable",
                   translate(locale, "The database is unavailable; try again shortly.")};
      err.retry_after = 1;
      response = error_response(err);
    } catch (const StatementTimeout& e) {
      // An expensive request's statement ran out of its budget (cal/api/pipeline/bulkhead.h):
      // never retried, the same work would run out again.
      if (db.in_transaction()) db.rollback();
      std::cerr << "request " << request_id << ": statement budget exceeded: " << e.detail << "\n";
      metrics::add(metrics::Counter::kBulkheadRefusals);
      response = error_response(busy_error(locale, config));
    } catch (const std::exception& e) {
      std::cerr << "request " << request_id << ": internal error: " << e.what() << "\n";
      if (db.in_transaction()) db.rollback();
      response =
          error_response({500, "rest_internal_error", translate(locale, "An internal error occurred.")});
    } catch (const DuplicateKey& e) {
      std::cerr << "request " << request_id << ": unhandled duplicate key: " << e.detail << "\n";
      if (db.in_transaction()) db.rollback();
      response =
          error_response({500, "rest_internal_error", translate(locale, "An internal error occurred.")});
    }
    break;
  }
  return response;
}

}  // namespace cal
