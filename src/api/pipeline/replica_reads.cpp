// Read routing to the replicas and read-your-writes (see replica_reads.h).
#include "api/pipeline/replica_reads.h"

#include "cal/api/pipeline/error.h"
#include "cal/store/replicas.h"

#include <string>

namespace cal {
namespace {

// How long a read waits for a replica to apply the caller's write before asking the primary.
constexpr double kGtidWaitSeconds = 0.5;

}  // namespace

std::string presented_gtid(const Request& request) {
  std::string gtid = request.header("x-cal-gtid");
  if (gtid.empty()) {
    const std::string cookies = request.header("cookie");
    const std::string name = "cal_gtid=";
    for (std::size_t at = cookies.find(name); at != std::string::npos; at = cookies.find(name, at + 1))
      if (at == 0 || cookies[at - 1] == ' ' || cookies[at - 1] == ';') {
        const std::size_t start = at + name.size();
        gtid = cookies.substr(start, cookies.find(';', start) - start);
        break;
      }
  }
  // Digits, '-' and ',' only (a position like "0-1-42,1-2-7"): anything else presents nothing.
  if (gtid.size() > 200 || gtid.find_first_not_of("0123456789-,") != std::string::npos) return {};
  return gtid;
}

std::optional<Response> answer_from_replica(const Request& request, Backends& backends, const Config& config,
                                            const AnswerOn& answer_on) {
  const std::string gtid = presented_gtid(request);
  // A replica that fails mid-request is reported and the read runs again elsewhere: at most
  // one more replica, then the primary.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::optional<std::size_t> k = backends.set.pick();
    if (!k) break;
    Db& replica = *backends.replicas[*k];
    try {
      // Read-your-writes: the replica must have applied the caller's last write.
      if (!gtid.empty() && !wait_for_gtid(replica, gtid, kGtidWaitSeconds)) break;
    } catch (const DatabaseUnavailable&) {
      replica.reset();
      backends.set.report_failure(*k);
      continue;
    } catch (const std::exception&) {
      break;  // a position the server cannot read: the primary has everything
    }
    bool lost = false;
    Response response;
    try {
      response = answer_on(replica, backends.replica_caches[*k], &lost);
    } catch (const PrimaryNeeded&) {
      break;
    }
    if (lost) {
      backends.set.report_failure(*k);
      continue;
    }
    if (config.server.statement_count_header) response.set_header("X-Cal-Replica", std::to_string(*k + 1));
    return response;
  }
  return std::nullopt;
}

void add_write_position(Db& primary, Response& response) {
  std::string gtid;
  try {
    gtid = last_gtid(primary);
  } catch (const DatabaseUnavailable&) {
    return;
  } catch (const std::exception&) {
    return;
  }
  if (gtid.empty()) return;
  response.set_header("X-Cal-GTID", gtid);
  response.headers.emplace_back("Set-Cookie", "cal_gtid=" + gtid + "; Path=/; Max-Age=60; SameSite=Lax");
}

}  // namespace cal
