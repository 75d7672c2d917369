// The demo's recurring series written (see demo_series.h): each goes through the JSON route's
// validation and the event writes, as ical_import.cpp does for a VEVENT.
#include "demo_series.h"
#include "demo_series_plan.h"

#include "cal/api/access/permissions.h"
#include "cal/api/events/event_recurrence.h"
#include "cal/api/events/event_writes.h"
#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/params.h"
#include "cal/api/pipeline/routes.h"
#include "cal/store/event_series.h"
#include "cal/store/users.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

namespace cal {
namespace {

// `t` plus `minutes`, as a wall clock.
LocalDateTime plus_minutes(const LocalDateTime& t, long long minutes) {
  return to_utc_date_time(from_utc_date_time(t) + std::chrono::minutes(minutes));
}

std::string minutes_text(const LocalDateTime& t) { return format_date_time(t).substr(0, 16); }

// The writer of the series: a request context around parameters checked as the route checks them.
class SeriesWriter {
 public:
  SeriesWriter(Db& db, const Config& config) : db_(db), config_(config) {
    request_.method = "POST";
    for (const User& u : list_users(db)) users_.push_back(u);
  }

  // Writes `p` as author `author` in one transaction; returns its occurrences.
  long long write(const DemoSeriesPlan& p, long long author) {
    const auto user =
        std::find_if(users_.begin(), users_.end(), [&](const User& u) { return u.id == author; });
    if (user == users_.end()) throw std::runtime_error("demo series: no user " + std::to_string(author));
    Caller caller;
    caller.user = *user;
    rapidjson::Document body(rapidjson::kObjectType);
    auto& a = body.GetAllocator();
    const auto text = [&](const char* name, const std::string& value) {
      body.AddMember(rapidjson::StringRef(name), rapidjson::Value(value.c_str(), a), a);
    };
    const auto ids = [&](const char* name, long long id) {
      if (!id) return;
      rapidjson::Value list(rapidjson::kArrayType);
      list.PushBack(rapidjson::Value(static_cast<int64_t>(id)), a);
      body.AddMember(rapidjson::StringRef(name), list, a);
    };
    text("title", p.title);
    text("slug", p.slug);
    text("description", p.description);
    text("status", p.status);
    text("timezone", p.zone);
    text("start_date", minutes_text(p.start));
    text("end_date", minutes_text(p.end));
    if (p.all_day) body.AddMember("all_day", true, a);
    text("cost", p.all_day ? "Free" : "10");
    if (p.venue) body.AddMember("venue", rapidjson::Value(static_cast<int64_t>(p.venue)), a);
    ids("organizer", p.organizer);
    ids("categories", p.category);
    ids("tags", p.tag);
    rapidjson::Value lines(rapidjson::kArrayType);
    for (const std::string& line : p.lines) lines.PushBack(rapidjson::Value(line.c_str(), a), a);
    body.AddMember("recurrence", lines, a);

    Transaction tx(db_);
    ParamSources sources;
    sources.body = &body;
    const Params params =
        validate_params(post_params("/events"), sources, locale_, CheckContext{&db_, &caller});
    RequestContext ctx = context(params, caller);
    const long long id = write_new_event(ctx);
    save_series(ctx, id, recurrence_input(ctx).value_or(std::vector<std::string>{}));
    const std::vector<StoredOccurrence> occurrences = find_series_occurrences(db_, id);
    if (p.exception && occurrences.size() >= 3) edit_alone(p, occurrences[1], caller);
    tx.commit();
    return static_cast<long long>(occurrences.size());
  }

 private:
  RequestContext context(const Params& params, const Caller& caller) {
    return RequestContext{request_, params,           caller,           db_, config_,
                          locale_,  config_.site.url, config_.site.url, {}};
  }

  // The occurrence, renamed and (timed) an hour later, as a scope=this update writes it.
  void edit_alone(const DemoSeriesPlan& p, const StoredOccurrence& o, const Caller& caller) {
    rapidjson::Document body(rapidjson::kObjectType);
    auto& a = body.GetAllocator();
    const std::string title = p.title + ": guest night";
    body.AddMember("title", rapidjson::Value(title.c_str(), a), a);
    if (!p.all_day) {
      const LocalDateTime original = parse_sql_date_time(o.original_local).value_or(LocalDateTime{});
      const long long length = (from_utc_date_time(p.end) - from_utc_date_time(p.start)).count() / 60;
      const std::string start = minutes_text(plus_minutes(original, 60));
      const std::string end = minutes_text(plus_minutes(original, 60 + length));
      body.AddMember("start_date", rapidjson::Value(start.c_str(), a), a);
      body.AddMember("end_date", rapidjson::Value(end.c_str(), a), a);
    }
    ParamSources sources;
    sources.body = &body;
    sources.path = {{"id", std::to_string(o.event_id)}};
    const Params params =
        validate_params(post_params("/events/{id}"), sources, locale_, CheckContext{&db_, &caller});
    RequestContext ctx = context(params, caller);
    write_occurrence_update(ctx, o);
  }

  Db& db_;
  const Config& config_;
  Request request_;
  Locale locale_;
  std::vector<User> users_;
};

}  // namespace

DemoSeriesCount add_demo_series(Db& db, const Config& config, const DemoOptions& options, const DemoRun& run,
                                long long rows) {
  DemoSeriesCount count;
  if (rows <= 0 || run.authors.empty()) return count;
  SeriesWriter writer(db, config);
  // Series are drawn in order; one that does not fit in the rows left is skipped, and the run
  // ends after 30 such in a row (the small ones come up every few draws).
  for (long long k = 0, misses = 0; misses < 30; ++k) {
    const DemoSeriesPlan p = plan_demo_series(options, run, k);
    const auto wanted = static_cast<long long>(planned_occurrences(config, p));
    // Past [recurrence] max_instances the API would refuse it (a site configured below the default).
    if (wanted > config.recurrence.max_instances || count.occurrences + wanted > rows) {
      ++misses;
      continue;
    }
    misses = 0;
    const long long author = run.authors[static_cast<std::size_t>(k) % run.authors.size()];
    count.occurrences += writer.write(p, author);
    ++count.series;
  }
  return count;
}

}  // namespace cal
