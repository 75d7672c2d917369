// Recurring events in the API (see cal/api/events/event_recurrence.h).
#include "cal/api/events/event_recurrence.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/posts/site_time.h"
#include "cal/core/dates/recurrence.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace cal {
namespace {

// Finite sets are expanded to the end of the time the service stores (year 9999).
const Seconds kFarFuture = from_utc_date_time(LocalDateTime{9999, 12, 31, 0, 0, 0});
const Seconds kFarPast = from_utc_date_time(LocalDateTime{1000, 1, 1, 0, 0, 0});

LocalDateTime sql_time(const std::string& text) {
  return parse_sql_date_time(text).value_or(LocalDateTime{});
}

ApiError refused(const RequestContext& ctx, const RecurrenceError& error) {
  return invalid_param(ctx, "recurrence", format_message(ctx.locale, error.message, error.args));
}

std::string compact_utc(Seconds instant) {
  const LocalDateTime t = to_utc_date_time(instant);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02d%02dT%02d%02d%02dZ", t.year, t.month, t.day, t.hour, t.minute,
                t.second);
  return buf;
}

// The series' first occurrence as the expander takes it.
FirstOccurrence first_occurrence(const Event& event) {
  const EventDetails& d = event.details;
  const auto zone = TimeZone::find(d.timezone);
  if (!zone) throw std::runtime_error("event " + std::to_string(event.post.id) + " has an unknown zone");
  return FirstOccurrence{sql_time(d.start_local), sql_time(d.end_local), *zone, d.all_day};
}

}  // namespace

std::optional<std::vector<std::string>> recurrence_input(const RequestContext& ctx) {
  if (!ctx.params.given(param::kRecurrence)) return std::nullopt;
  // Shape checked by check_recurrence: null, a text of lines, or an array of texts.
  const rapidjson::Value& raw = *ctx.params.find(param::kRecurrence)->raw;
  std::vector<std::string> lines;
  auto add = [&](std::string_view text) {
    for (std::size_t at = 0; at <= text.size();) {
      std::size_t end = std::min(text.find('\n', at), text.size());
      std::string line(text.substr(at, end - at));
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (!line.empty()) lines.push_back(std::move(line));
      at = end + 1;
    }
  };
  if (raw.IsString()) add({raw.GetString(), raw.GetStringLength()});
  if (raw.IsArray())
    for (const auto& v : raw.GetArray())
      if (v.IsString()) add({v.GetString(), v.GetStringLength()});
  return lines;
}

namespace {

// The checked set of `lines` with `event` as its first occurrence; 400 naming `recurrence` when refused.
RecurrenceSet checked_set(RequestContext& ctx, const Event& event, const std::vector<std::string>& lines,
                          const RecurrenceLimits& limits) {
  auto parsed = parse_recurrence(lines, first_occurrence(event), limits);
  if (const auto* error = std::get_if<RecurrenceError>(&parsed)) throw refused(ctx, *error);
  return std::get<RecurrenceSet>(std::move(parsed));
}

RecurrenceLimits configured_limits(const RequestContext& ctx) {
  RecurrenceLimits limits;
  limits.max_instances = static_cast<std::size_t>(std::max(1, ctx.config.recurrence.max_instances));
  return limits;
}

// The occurrences of `set` starting in [from, to), as the store takes them; 400 naming `param`
// past [recurrence] max_instances.
std::vector<WantedOccurrence> wanted_occurrences(RequestContext& ctx, const RecurrenceSet& set, Seconds from,
                                                 Seconds to, const RecurrenceLimits& limits,
                                                 const std::string& param) {
  auto expanded = expand_recurrence(set, from, to, limits.max_instances);
  if (const auto* error = std::get_if<RecurrenceError>(&expanded))
    throw invalid_param(ctx, param, format_message(ctx.locale, error->message, error->args));
  std::vector<WantedOccurrence> wanted;
  for (const Occurrence& o : std::get<std::vector<Occurrence>>(expanded)) {
    wanted.push_back({format_date_time(o.original_local), format_date_time(to_utc_date_time(o.start)),
                      format_date_time(o.start_local), format_date_time(o.end_local),
                      format_date_time(to_utc_date_time(o.start)),
                      format_date_time(to_utc_date_time(o.end))});
  }
  return wanted;
}

}  // namespace

SeriesWrite materialise_series(RequestContext& ctx, const Event& event,
                               const std::vector<std::string>& lines) {
  const RecurrenceLimits limits = configured_limits(ctx);
  const RecurrenceSet set = checked_set(ctx, event, lines, limits);
  SeriesWrite out;
  out.rule.recurrence = format_recurrence(set);
  out.rule.is_infinite = set.is_infinite();
  const Seconds horizon =
      out.rule.is_infinite ? months_after(now_seconds(), ctx.config.recurrence.horizon_months) : kFarFuture;
  out.rule.horizon_utc = format_date_time(to_utc_date_time(horizon));
  out.counts = materialise_occurrences(ctx.db, event.post.id,
                                       wanted_occurrences(ctx, set, kFarPast, horizon, limits, "recurrence"));
  return out;
}

std::vector<StoredOccurrence> cancellable_occurrences(RequestContext& ctx, const Event& event,
                                                      const std::vector<std::string>& lines) {
  auto parsed = parse_recurrence(lines, first_occurrence(event));
  if (const auto* error = std::get_if<RecurrenceError>(&parsed)) throw refused(ctx, *error);
  RecurrenceSet set = std::get<RecurrenceSet>(std::move(parsed));
  // Without its EXDATEs the set may pass the cap by as many occurrences as it had EXDATEs.
  const std::size_t cap =
      static_cast<std::size_t>(std::max(1, ctx.config.recurrence.max_instances)) + set.exdates.size();
  set.exdates.clear();
  const Seconds horizon =
      set.is_infinite() ? months_after(now_seconds(), ctx.config.recurrence.horizon_months) : kFarFuture;
  auto expanded = expand_recurrence(set, kFarPast, horizon, cap);
  if (const auto* error = std::get_if<RecurrenceError>(&expanded)) throw refused(ctx, *error);
  std::vector<StoredOccurrence> out;
  for (const Occurrence& o : std::get<std::vector<Occurrence>>(expanded))
    out.push_back({0, event.post.id, format_date_time(o.original_local),
                   format_date_time(to_utc_date_time(o.start)), false});
  return out;
}

std::vector<WantedOccurrence> occurrences_to_horizon(RequestContext& ctx, const Event& event,
                                                     const SeriesRule& rule, Seconds horizon) {
  const RecurrenceLimits limits = configured_limits(ctx);
  const RecurrenceSet set = checked_set(ctx, event, rule.recurrence, limits);
  const Seconds from = from_utc_date_time(sql_time(rule.horizon_utc));
  return wanted_occurrences(ctx, set, from, horizon, limits, "end_date");
}

SeriesWrite extend_series(RequestContext& ctx, const Event& event, const SeriesRule& rule, Seconds horizon) {
  SeriesWrite out;
  out.rule = rule;
  out.rule.horizon_utc = format_date_time(to_utc_date_time(horizon));
  out.counts =
      materialise_occurrences(ctx.db, event.post.id, occurrences_to_horizon(ctx, event, rule, horizon), true);
  return out;
}

Seconds months_after(Seconds instant, int months) {
  LocalDateTime t = to_utc_date_time(instant);
  const int total = t.month - 1 + std::max(months, 0);
  t.year += total / 12;
  t.month = total % 12 + 1;
  t.day = std::min(t.day, 28);
  return from_utc_date_time(t);
}

std::vector<std::string> with_exdate(std::vector<std::string> lines, const Event& event,
                                     const StoredOccurrence& occurrence) {
  const LocalDateTime original = sql_time(occurrence.original_local);
  if (event.details.all_day) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "EXDATE;VALUE=DATE:%04d%02d%02d", original.year, original.month,
                  original.day);
    lines.emplace_back(buf);
  } else {
    // By instant: a wall clock in a DST gap or repeat could name another one.
    lines.push_back("EXDATE:" + compact_utc(from_utc_date_time(sql_time(occurrence.original_utc))));
  }
  return lines;
}

std::optional<std::vector<std::string>> lines_ending_before(RequestContext& ctx, const Event& event,
                                                            const std::vector<std::string>& lines,
                                                            const StoredOccurrence& occurrence) {
  const EventDetails& d = event.details;
  const FirstOccurrence first = first_occurrence(event);
  auto parsed = parse_recurrence(lines, first);
  if (const auto* error = std::get_if<RecurrenceError>(&parsed)) throw refused(ctx, *error);
  RecurrenceSet set = std::get<RecurrenceSet>(std::move(parsed));
  const Seconds cut = from_utc_date_time(sql_time(occurrence.original_utc));
  if (cut <= first.zone.to_instant(first.start)) return std::nullopt;
  if (set.rule) {
    set.rule->count.reset();
    if (d.all_day) {
      // The day before the occurrence's, as a DATE.
      LocalDateTime day =
          to_utc_date_time(from_utc_date_time(sql_time(occurrence.original_local)) - std::chrono::hours(24));
      day.hour = day.minute = day.second = 0;
      if (!set.rule->until_date || from_utc_date_time(day) < from_utc_date_time(*set.rule->until_date))
        set.rule->until_date = day;
      set.rule->until.reset();
    } else if (!set.rule->until || cut - std::chrono::seconds(1) < *set.rule->until) {
      set.rule->until = cut - std::chrono::seconds(1);
    }
  }
  auto before = [&](std::vector<RecurrenceDate>& dates) {
    std::erase_if(dates, [&](const RecurrenceDate& date) { return date.instant >= cut; });
  };
  before(set.rdates);
  before(set.exdates);
  return format_recurrence(set);
}

std::vector<std::string> lines_from(RequestContext& ctx, const Event& event,
                                    const std::vector<std::string>& lines, const StoredOccurrence& occurrence,
                                    const Event& first) {
  auto parsed = parse_recurrence(lines, first_occurrence(event));
  if (const auto* error = std::get_if<RecurrenceError>(&parsed)) throw refused(ctx, *error);
  RecurrenceSet set = std::get<RecurrenceSet>(std::move(parsed));
  const Seconds cut = from_utc_date_time(sql_time(occurrence.original_utc));
  if (set.rule && set.rule->count) {
    // COUNT counts the rule's own occurrences: those before the split stay with the old series.
    RecurrenceSet rule_only = set;
    rule_only.rdates.clear();
    rule_only.exdates.clear();
    const std::size_t cap = static_cast<std::size_t>(*set.rule->count) + 1;
    auto before = expand_recurrence(rule_only, kFarPast, cut, cap);
    const long long earlier = std::holds_alternative<std::vector<Occurrence>>(before)
                                  ? static_cast<long long>(std::get<std::vector<Occurrence>>(before).size())
                                  : 0;
    const long long left = *set.rule->count - earlier;
    if (left > 0)
      set.rule->count = static_cast<int>(left);
    else
      set.rule.reset();
  }
  std::erase_if(set.rdates, [&](const RecurrenceDate& date) { return date.instant < cut; });
  std::erase_if(set.exdates, [&](const RecurrenceDate& date) { return date.instant < cut; });
  set.first = first_occurrence(first);
  return format_recurrence(set);
}

void write_occurrence_members(JsonWriter& w, const EventOccurrence* occurrence, bool is_series) {
  write_key(w, "series_id");
  if (occurrence)
    w.Int64(occurrence->series_id);
  else
    w.Null();
  write_key(w, "is_recurring");
  w.Bool(occurrence != nullptr || is_series);
  write_key(w, "is_exception");
  w.Bool(occurrence && occurrence->is_exception);
  write_key(w, "original_start_date");
  if (occurrence) {
    // The wall clock the rule named may lie in a DST gap: shown as named, in the series zone.
    write_string(w, occurrence->original_local);
  } else {
    w.Null();
  }
  write_key(w, "original_start_date_utc");
  if (occurrence)
    write_string(w, occurrence->original_utc);
  else
    w.Null();
}

}  // namespace cal
