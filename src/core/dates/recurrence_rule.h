// Internal to the recurrence module (src/core/dates/recurrence_*.cpp); other code uses
// cal/core/dates/recurrence.h. The RRULE: its value text both ways (recurrence_rule_text.cpp), and
// its dates in civil time, period by period (a day, a week from WKST, a month, a year, every
// INTERVAL-th), before any time zone is applied: the rule's BYxxx parts select each period's
// dates, BYSETPOS picks among them (recurrence_rule.cpp).
#pragma once

#include "cal/core/dates/recurrence.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cal::detail {

// The value of an RRULE line ("FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20250630T170000Z") checked on its
// own and against the kind of event (UNTIL's value type, read in the event's zone when floating);
// whether it produces DTSTART is the caller's check. Errors as parse_recurrence documents them.
std::variant<RecurrenceRule, RecurrenceError> parse_rule(std::string_view value, const FirstOccurrence& first,
                                                         const RecurrenceLimits& limits);

// The rule's value in normal form (see format_recurrence), without "RRULE:".
std::string format_rule(const RecurrenceRule& rule);

// The dates (days since 1970-01-01) of `rule` anchored at the date `start` (DTSTART), ascending,
// from `start` on. Invalid dates never occur (they are no day of any period); COUNT and UNTIL are
// the caller's, who sees each date's instant.
class RuleDates {
 public:
  RuleDates(const RecurrenceRule& rule, std::int64_t start);

  // The next date, or nullopt once the next period starts after `last_day` or after year 9999.
  std::optional<std::int64_t> next(std::int64_t last_day);

 private:
  const RecurrenceRule& rule_;
  std::int64_t start_;
  std::int64_t period_ = 0;  // index of the next period to fill
  std::vector<std::int64_t> dates_;
  std::size_t at_ = 0;
};

// The dates of `rule`'s first period (the one holding `start`), with those before `start`: the
// rule produces its DTSTART exactly when `start` is among them.
std::vector<std::int64_t> first_period_dates(const RecurrenceRule& rule, std::int64_t start);

}  // namespace cal::detail
