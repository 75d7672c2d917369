// What a request that fails answers: an ApiError its JSON error; a lost database connection a
// retry on a fresh connection, then 503 with Retry-After; a deadlock or lock wait timeout a few
// retries with a growing pause, then 503; anything unexpected 500, logged with the request id. An
// open transaction is rolled back first, so a failed request leaves nothing behind.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/core/i18n/i18n.h"
#include "cal/store/db.h"

#include <functional>
#include <string>

namespace cal {

// Runs `attempt` (again, when a retry is due) and returns its response or the failure's. Sets
// *lost (when given) when the answer is a 503 for a lost connection.
Response answer_or_failure(Db& db, const Config& config, const Locale& locale, const std::string& request_id,
                           bool* lost, const std::function<Response()>& attempt);

}  // namespace cal
