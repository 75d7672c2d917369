// parse_recurrence (cal/core/dates/recurrence.h): an event's recurrence lines split into property,
// parameters and values; the RRULE handed to parse_rule, RDATE and EXDATE values resolved in the
// event's zone; then the checks that need the whole set (DTSTART produced, UNTIL after it, limits).
#include "cal/core/dates/recurrence.h"

#include "core/dates/civil_time.h"
#include "core/dates/recurrence_rule.h"
#include "core/dates/recurrence_text.h"
#include "cal/core/text/ascii.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace cal {
namespace {

using detail::invalid_value;
using detail::not_supported;
using detail::repeated;
using detail::shown_name;
using detail::wrong_value_type;

// One line taken apart: "NAME;P1=V1;P2="V,2":VALUE".
struct ContentLine {
  std::string_view name;
  std::vector<std::pair<std::string_view, std::string_view>> params;  // values unquoted
  std::string_view value;
};

// Splits at the first ':' outside double quotes; nullopt for unbalanced quotes, a missing ':' or
// a parameter without '='.
std::optional<ContentLine> split_line(std::string_view text) {
  ContentLine line;
  std::vector<std::string_view> head;
  std::size_t from = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (quoted || (text[i] != ';' && text[i] != ':')) continue;
    head.push_back(text.substr(from, i - from));
    from = i + 1;
    if (text[i] == ':') {
      line.value = text.substr(from);
      break;
    }
  }
  if (quoted || head.empty() || from == 0 || text[from - 1] != ':') return std::nullopt;
  line.name = head.front();
  for (std::size_t i = 1; i < head.size(); ++i) {
    const std::size_t equals = head[i].find('=');
    if (equals == std::string_view::npos || equals == 0) return std::nullopt;
    std::string_view value = head[i].substr(equals + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    if (value.find('"') != std::string_view::npos) return std::nullopt;
    line.params.emplace_back(head[i].substr(0, equals), value);
  }
  return line;
}

enum class ValueType { kDateTime, kDate, kPeriod };

// Reads RDATE and EXDATE lines into dates resolved in the event's zone.
class DateReader {
 public:
  explicit DateReader(const FirstOccurrence& first) : first_(first) {}

  // Appends the line's values to `out`, which may hold at most `limit` values.
  std::optional<RecurrenceError> read(const ContentLine& line, bool is_rdate, std::size_t limit,
                                      std::vector<RecurrenceDate>& out) {
    const std::string part = is_rdate ? "RDATE" : "EXDATE";
    ValueType type = ValueType::kDateTime;
    std::optional<TimeZone> zone;
    bool seen_value = false;
    for (const auto& [name, value] : line.params) {
      if (ascii::iequals(name, "value")) {
        if (seen_value) return repeated(part + ";VALUE");
        seen_value = true;
        if (ascii::iequals(value, "date-time")) {
          type = ValueType::kDateTime;
        } else if (ascii::iequals(value, "date")) {
          type = ValueType::kDate;
        } else if (is_rdate && ascii::iequals(value, "period")) {
          type = ValueType::kPeriod;
        } else {
          return invalid_value(part + ";VALUE");
        }
      } else if (ascii::iequals(name, "tzid")) {
        if (zone) return repeated(part + ";TZID");
        zone = TimeZone::find(value);
        if (!zone) return invalid_value(part + ";TZID");
      } else {
        return not_supported(part + ";" + shown_name(name));
      }
    }
    if (first_.all_day && type != ValueType::kDate) return wrong_value_type(part, "DATE");
    if (zone && type == ValueType::kDate) return invalid_value(part + ";TZID");
    for (std::size_t from = 0; from <= line.value.size();) {
      std::size_t comma = line.value.find(',', from);
      if (comma == std::string_view::npos) comma = line.value.size();
      auto date = read_value(line.value.substr(from, comma - from), type, zone);
      if (!date) return invalid_value(part);
      if (out.size() == limit) return detail::too_many_values(part, limit);
      out.push_back(*date);
      from = comma + 1;
    }
    return std::nullopt;
  }

 private:
  // A DATE-TIME: UTC, in `zone` (TZID) or floating (the event's zone). `local` is the event
  // zone's wall clock: as written for the event's own zone (even in a DST gap), else the one
  // that shows at the instant.
  std::optional<RecurrenceDate> date_time(std::string_view text, const std::optional<TimeZone>& zone) const {
    const auto value = detail::parse_ical_date_time(text);
    if (!value || (value->utc && zone)) return std::nullopt;
    RecurrenceDate date;
    if (!value->utc && (!zone || *zone == first_.zone)) {
      date.local = value->local;
      date.instant = first_.zone.to_instant(value->local);
    } else {
      date.instant = value->utc ? from_utc_date_time(value->local) : zone->to_instant(value->local);
      date.local = first_.zone.to_local(date.instant);
    }
    return date;
  }

  std::optional<RecurrenceDate> read_value(std::string_view text, ValueType type,
                                           const std::optional<TimeZone>& zone) const {
    std::optional<RecurrenceDate> date;
    if (type == ValueType::kDate) {
      const auto day = detail::parse_ical_date(text);
      if (!day) return std::nullopt;
      date.emplace();
      date->local = LocalDateTime{day->year,         day->month,          day->day,
                                  first_.start.hour, first_.start.minute, first_.start.second};
      date->instant = first_.zone.to_instant(date->local);
      date->is_date = true;
    } else if (type == ValueType::kDateTime) {
      date = date_time(text, zone);
    } else {
      date = period(text, zone);
    }
    if (date && !in_range(date->instant)) return std::nullopt;
    return date;
  }

  // "start/end" (both DATE-TIMEs of one kind) or "start/duration"; the end not before the start.
  std::optional<RecurrenceDate> period(std::string_view text, const std::optional<TimeZone>& zone) const {
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    auto date = date_time(text.substr(0, slash), zone);
    if (!date) return std::nullopt;
    const std::string_view rest = text.substr(slash + 1);
    if (const auto duration = detail::parse_ical_duration(rest)) {
      // Nominal days move the wall clock of the start's own zone (UTC for a UTC start).
      const bool utc = detail::parse_ical_date_time(text.substr(0, slash))->utc;
      const TimeZone days_zone = utc ? TimeZone::utc() : zone.value_or(first_.zone);
      const LocalDateTime wall = days_zone.to_local(date->instant);
      const Seconds moved = days_zone.to_instant(detail::date_time_from_epoch_seconds(
          detail::epoch_seconds(wall) + duration->days * detail::kSecondsPerDay));
      date->period_end =
          (duration->days == 0 ? date->instant : moved) + std::chrono::seconds{duration->seconds};
    } else {
      const auto end = date_time(rest, zone);
      const auto start_value = detail::parse_ical_date_time(text.substr(0, slash));
      const auto end_value = detail::parse_ical_date_time(rest);
      if (!end || start_value->utc != end_value->utc) return std::nullopt;
      date->period_end = end->instant;
    }
    if (*date->period_end < date->instant || !in_range(*date->period_end)) return std::nullopt;
    return date;
  }

  static bool in_range(Seconds instant) {
    return detail::in_supported_range(instant.time_since_epoch().count());
  }

  const FirstOccurrence& first_;
};

// Sorts by instant and keeps one value per instant (a wall clock before UTC, DATE and PERIOD
// values; the earlier wall clock of two), so the result does not depend on the input's order.
void sort_unique(std::vector<RecurrenceDate>& dates) {
  const auto key = [](const RecurrenceDate& d) {
    const int kind = d.period_end ? 2 : d.is_date ? 1 : 0;
    return std::tuple(d.instant, kind, detail::epoch_seconds(d.local));
  };
  std::sort(dates.begin(), dates.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  dates.erase(std::unique(dates.begin(), dates.end(),
                          [](const auto& a, const auto& b) { return a.instant == b.instant; }),
              dates.end());
}

// The checks of a rule against the first occurrence: UNTIL not before it, DTSTART among the dates
// of the rule's first period.
std::optional<RecurrenceError> check_rule_start(const RecurrenceRule& rule, const FirstOccurrence& first) {
  const std::int64_t start_day =
      detail::days_from_civil(first.start.year, first.start.month, first.start.day);
  if (rule.until && *rule.until < first.zone.to_instant(first.start))
    return detail::ends_before_start("UNTIL");
  if (rule.until_date && detail::days_from_civil(rule.until_date->year, rule.until_date->month,
                                                 rule.until_date->day) < start_day)
    return detail::ends_before_start("UNTIL");
  const std::vector<std::int64_t> days = detail::first_period_dates(rule, start_day);
  if (!std::binary_search(days.begin(), days.end(), start_day)) return detail::does_not_produce_start();
  return std::nullopt;
}

}  // namespace

bool RecurrenceSet::is_infinite() const { return rule && !rule->count && !rule->until && !rule->until_date; }

std::variant<RecurrenceSet, RecurrenceError> parse_recurrence(const std::vector<std::string>& lines,
                                                              const FirstOccurrence& first,
                                                              const RecurrenceLimits& limits) {
  RecurrenceSet set;
  set.first = first;
  DateReader dates(first);
  for (const std::string& text : lines) {
    const std::string_view trimmed = ascii::trim(text);
    const auto line = split_line(trimmed);
    if (!line || line->name.empty()) {
      const std::string_view name = trimmed.substr(0, trimmed.find_first_of(";:"));
      return invalid_value(name.empty() ? "RECURRENCE" : shown_name(name));
    }
    if (ascii::iequals(line->name, "rrule")) {
      if (set.rule) return repeated("RRULE");
      if (trimmed.size() > limits.max_rule_length) return detail::too_long("RRULE", limits.max_rule_length);
      if (!line->params.empty()) return not_supported("RRULE;" + shown_name(line->params.front().first));
      auto rule = detail::parse_rule(line->value, first, limits);
      if (auto* error = std::get_if<RecurrenceError>(&rule)) return std::move(*error);
      set.rule = std::move(std::get<RecurrenceRule>(rule));
    } else if (ascii::iequals(line->name, "rdate") || ascii::iequals(line->name, "exdate")) {
      const bool is_rdate = ascii::iequals(line->name, "rdate");
      const std::size_t limit = is_rdate ? limits.max_rdates : limits.max_exdates;
      if (auto error = dates.read(*line, is_rdate, limit, is_rdate ? set.rdates : set.exdates))
        return std::move(*error);
    } else {
      // DTSTART (the event's start is DTSTART), EXRULE (deprecated by RFC 5545), anything else.
      return not_supported(shown_name(line->name));
    }
  }
  if (set.rule) {
    if (auto error = check_rule_start(*set.rule, first)) return std::move(*error);
  }
  sort_unique(set.rdates);
  sort_unique(set.exdates);
  return set;
}

}  // namespace cal
