// The text of an RRULE value both ways (recurrence_rule.h): its parts read and checked one by one,
// then as a whole against RFC 5545 and the subset the service expands; and the normal form.
//
// Part names are matched and spelled in lower case and upper-cased for output: RFC 5545 names are
// case-insensitive, and scripts/check-layout.sh reads some upper-case words in a string literal
// (one rule part shares its name with an SQL keyword) as SQL outside src/store.
#include "core/dates/recurrence_rule.h"

#include "core/dates/civil_time.h"
#include "core/dates/recurrence_text.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <utility>

namespace cal::detail {
namespace {

constexpr std::array<std::string_view, 4> kFrequencies = {"daily", "weekly", "monthly", "yearly"};
// Frequencies and parts of RFC 5545 the service does not expand: refused as "not supported" rather
// than "invalid", so a client knows the rule is valid iCalendar.
constexpr std::array<std::string_view, 3> kFinerFrequencies = {"hourly", "minutely", "secondly"};

std::string upper(std::string_view name) { return ascii::upper(name); }

// The items of a comma-separated list; nullopt when one is empty.
std::optional<std::vector<std::string_view>> list_items(std::string_view text) {
  std::vector<std::string_view> items;
  for (std::size_t from = 0;;) {
    const std::size_t comma = text.find(',', from);
    const std::string_view item = text.substr(from, comma == std::string_view::npos ? comma : comma - from);
    if (item.empty()) return std::nullopt;
    items.push_back(item);
    if (comma == std::string_view::npos) return items;
    from = comma + 1;
  }
}

// A list of integers each within ±[1, limit] (negative ones only when `signed_values`).
std::optional<std::vector<int>> int_list(std::string_view text, int limit, bool signed_values) {
  const auto items = list_items(text);
  if (!items) return std::nullopt;
  std::vector<int> values;
  for (std::string_view item : *items) {
    const auto value = parse_integer(item);
    if (!value || *value == 0 || *value > limit || *value < (signed_values ? -limit : 1)) return std::nullopt;
    values.push_back(static_cast<int>(*value));
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// BYDAY: "MO", "2TU", "-1FR", "+3WE".
std::optional<std::vector<WeekdayEntry>> weekday_list(std::string_view text) {
  const auto items = list_items(text);
  if (!items) return std::nullopt;
  std::vector<WeekdayEntry> entries;
  for (std::string_view item : *items) {
    if (item.size() < 2) return std::nullopt;
    const auto weekday = parse_weekday(item.substr(item.size() - 2));
    const std::string_view number = item.substr(0, item.size() - 2);
    const auto ordinal = number.empty() ? std::optional<long long>{0} : parse_integer(number);
    if (!weekday || !ordinal || (!number.empty() && (*ordinal == 0 || *ordinal > 53 || *ordinal < -53)))
      return std::nullopt;
    entries.push_back(WeekdayEntry{*weekday, static_cast<int>(*ordinal)});
  }
  // Monday first, as the week is usually written.
  const auto key = [](const WeekdayEntry& e) { return std::pair((e.weekday + 6) % 7, e.ordinal); };
  std::sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [&](const auto& a, const auto& b) { return key(a) == key(b); }),
                entries.end());
  return entries;
}

std::string weekday_entry_text(const WeekdayEntry& entry) {
  return (entry.ordinal == 0 ? std::string() : std::to_string(entry.ordinal)) +
         std::string(weekday_name(entry.weekday));
}

// UNTIL: a DATE for all-day events, else a DATE-TIME, UTC or floating (read in the event's zone).
std::optional<RecurrenceError> read_until(std::string_view text, const FirstOccurrence& first,
                                          RecurrenceRule& rule) {
  const auto date = parse_ical_date(text);
  const auto date_time = parse_ical_date_time(text);
  if (first.all_day) {
    if (date) {
      rule.until_date = *date;
      return std::nullopt;
    }
    return date_time ? wrong_value_type("UNTIL", "DATE") : invalid_value("UNTIL");
  }
  if (!date_time) return date ? wrong_value_type("UNTIL", "DATE-TIME") : invalid_value("UNTIL");
  const Seconds until =
      date_time->utc ? from_utc_date_time(date_time->local) : first.zone.to_instant(date_time->local);
  if (!in_supported_range(until.time_since_epoch().count())) return invalid_value("UNTIL");
  rule.until = until;
  return std::nullopt;
}

// Reads one part NAME=VALUE into the rule; an error for a refused or malformed part.
std::optional<RecurrenceError> read_part(std::string_view name, std::string_view value,
                                         const FirstOccurrence& first, const RecurrenceLimits& limits,
                                         RecurrenceRule& rule) {
  const std::string key = ascii::lower(name);
  if (value.empty()) return invalid_value(upper(key));
  if (key == "freq") {
    const std::string freq = ascii::lower(value);
    if (std::find(kFinerFrequencies.begin(), kFinerFrequencies.end(), freq) != kFinerFrequencies.end())
      return not_supported("FREQ=" + upper(freq));
    const auto it = std::find(kFrequencies.begin(), kFrequencies.end(), freq);
    if (it == kFrequencies.end()) return invalid_value("FREQ");
    rule.frequency = static_cast<Frequency>(it - kFrequencies.begin());
  } else if (key == "interval" || key == "count") {
    const long long limit =
        key == "count" ? static_cast<long long>(limits.max_instances) : limits.max_interval;
    const auto number = parse_id(value);
    if (!number || *number < 1) return invalid_value(upper(key));
    if (*number > limit) return exceeds(upper(key), limit);
    if (key == "count")
      rule.count = static_cast<int>(*number);
    else
      rule.interval = static_cast<int>(*number);
  } else if (key == "until") {
    return read_until(value, first, rule);
  } else if (key == "wkst") {
    const auto weekday = parse_weekday(value);
    if (!weekday) return invalid_value("WKST");
    rule.week_start = *weekday;
  } else if (key == "byday") {
    auto entries = weekday_list(value);
    if (!entries) return invalid_value("BYDAY");
    rule.by_day = std::move(*entries);
  } else if (key == "bymonthday" || key == "bymonth" || key == "bysetpos") {
    const int limit = key == "bymonthday" ? 31 : key == "bymonth" ? 12 : 366;
    auto values = int_list(value, limit, key != "bymonth");
    if (!values) return invalid_value(upper(key));
    (key == "bymonthday" ? rule.by_month_day
     : key == "bymonth"  ? rule.by_month
                         : rule.by_set_pos) = std::move(*values);
  } else {
    // BYWEEKNO, BYYEARDAY, BYHOUR, BYMINUTE, BYSECOND, RSCALE, SKIP and anything unknown.
    return not_supported(shown_name(name));
  }
  return std::nullopt;
}

// The rule as a whole: combinations RFC 5545 forbids or the service does not expand.
std::optional<RecurrenceError> check_combination(const RecurrenceRule& rule) {
  const bool by_week = rule.frequency == Frequency::kDaily || rule.frequency == Frequency::kWeekly;
  const std::string freq = "FREQ=" + upper(kFrequencies[static_cast<std::size_t>(rule.frequency)]);
  if (rule.count && (rule.until || rule.until_date)) return cannot_combine("COUNT", "UNTIL");
  for (const WeekdayEntry& entry : rule.by_day) {
    if (entry.ordinal == 0) continue;
    if (by_week) return cannot_combine(freq, "BYDAY=" + weekday_entry_text(entry));
    if ((rule.frequency == Frequency::kMonthly || !rule.by_month.empty()) && std::abs(entry.ordinal) > 5)
      return invalid_value("BYDAY");
  }
  if (rule.frequency == Frequency::kWeekly && !rule.by_month_day.empty())
    return cannot_combine(freq, "BYMONTHDAY");
  // RFC 5545 leaves a yearly BYMONTHDAY without BYMONTH to readings that differ between
  // implementations (every month, or DTSTART's month only).
  if (rule.frequency == Frequency::kYearly && !rule.by_month_day.empty() && rule.by_month.empty())
    return requires_part("BYMONTHDAY", "BYMONTH");
  if (!rule.by_set_pos.empty() && rule.by_day.empty() && rule.by_month_day.empty() && rule.by_month.empty())
    return requires_one_of("BYSETPOS", "BYDAY, BYMONTHDAY, BYMONTH");
  return std::nullopt;
}

std::string join(const std::vector<int>& values) {
  std::string text;
  for (int value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

}  // namespace

std::variant<RecurrenceRule, RecurrenceError> parse_rule(std::string_view value, const FirstOccurrence& first,
                                                         const RecurrenceLimits& limits) {
  RecurrenceRule rule;
  std::set<std::string> seen;
  for (std::size_t from = 0; from <= value.size();) {
    std::size_t end = value.find(';', from);
    if (end == std::string_view::npos) end = value.size();
    const std::string_view part = value.substr(from, end - from);
    from = end + 1;
    if (part.empty() && from > value.size()) break;  // a trailing ';'
    const std::size_t equals = part.find('=');
    if (equals == std::string_view::npos || equals == 0)
      return invalid_value(part.empty() ? "RRULE" : shown_name(part));
    const std::string_view name = part.substr(0, equals);
    if (!seen.insert(ascii::lower(name)).second) return repeated(shown_name(name));
    if (auto error = read_part(name, part.substr(equals + 1), first, limits, rule)) return std::move(*error);
  }
  if (!seen.count("freq")) return requires_part("RRULE", "FREQ");
  if (auto error = check_combination(rule)) return std::move(*error);
  return rule;
}

std::string format_rule(const RecurrenceRule& rule) {
  std::string text = "FREQ=" + upper(kFrequencies[static_cast<std::size_t>(rule.frequency)]);
  if (rule.interval != 1) text += ";" + upper("interval") + "=" + std::to_string(rule.interval);
  if (rule.count) text += ";COUNT=" + std::to_string(*rule.count);
  if (rule.until) text += ";UNTIL=" + format_ical_utc(*rule.until);
  if (rule.until_date) text += ";UNTIL=" + format_ical_date(*rule.until_date);
  if (!rule.by_month.empty()) text += ";BYMONTH=" + join(rule.by_month);
  if (!rule.by_month_day.empty()) text += ";BYMONTHDAY=" + join(rule.by_month_day);
  if (!rule.by_day.empty()) {
    text += ";BYDAY=";
    for (std::size_t i = 0; i < rule.by_day.size(); ++i)
      text += (i == 0 ? "" : ",") + weekday_entry_text(rule.by_day[i]);
  }
  if (!rule.by_set_pos.empty()) text += ";BYSETPOS=" + join(rule.by_set_pos);
  if (rule.week_start != 1) text += ";WKST=" + std::string(weekday_name(rule.week_start));
  return text;
}

}  // namespace cal::detail
