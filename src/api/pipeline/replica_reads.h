// Reads spread over the read replicas (docs/scaling-out.md): a GET or HEAD goes to a healthy
// replica once it has applied the write the caller last made (its GTID, presented in X-Cal-GTID or
// the cal_gtid cookie), and a write answers with that position so the caller's next reads see it.
#pragma once

#include "cal/api/pipeline/router.h"

#include <functional>
#include <optional>
#include <string>

namespace cal {

// Answers a request on one database with its response cache; sets *lost when the answer is a 503
// for a lost connection.
using AnswerOn = std::function<Response(Db& db, ResponseCache* cache, bool* lost)>;

// The GTID of the caller's last write: the X-Cal-GTID header, else the cal_gtid cookie; "" when
// neither presents a well-formed position.
std::string presented_gtid(const Request& request);

// The answer of a GET/HEAD from a replica, or nullopt when none is healthy or caught up with the
// caller's write: the primary answers then. A replica lost mid-request is reported to
// backends.set and the read runs again on at most one other.
std::optional<Response> answer_from_replica(const Request& request, Backends& backends, const Config& config,
                                            const AnswerOn& answer_on);

// After a write on `primary`: its position as X-Cal-GTID and the cal_gtid cookie (browsers send it
// back with their next reads; a minute is far longer than any replica may lag).
void add_write_position(Db& primary, Response& response);

}  // namespace cal
