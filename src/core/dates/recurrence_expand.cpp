// expand_recurrence (cal/core/dates/recurrence.h): the rule's dates (recurrence_rule.h) at the first
// occurrence's time of day, resolved in the event's zone and cut by COUNT and UNTIL, merged with the
// RDATEs by instant, less the EXDATEs. Both streams ascend by instant (the rule's wall clocks are
// at least a day apart, more than any offset change), so the merge stops at the window's end.
#include "cal/core/dates/recurrence.h"

#include "core/dates/civil_time.h"
#include "core/dates/recurrence_rule.h"
#include "core/dates/recurrence_text.h"

#include <algorithm>

namespace cal {
namespace {

using detail::days_from_civil;

std::int64_t day_of(const LocalDateTime& t) { return days_from_civil(t.year, t.month, t.day); }

LocalDateTime at_day(std::int64_t day, const LocalDateTime& clock) {
  const detail::CivilDate date = detail::civil_from_days(day);
  return detail::make_date_time(date, detail::Clock{clock.hour, clock.minute, clock.second});
}

// A start before its end is applied: the wall clock named, its instant, an RDATE's period end.
struct Candidate {
  LocalDateTime local;
  Seconds instant;
  std::optional<Seconds> period_end;
  bool is_rdate = false;
};

// The starts of DTSTART and the rule, ascending: COUNT and UNTIL applied, nothing past `last_day`.
class RuleStarts {
 public:
  RuleStarts(const RecurrenceSet& set, std::int64_t last_day)
      : set_(set), last_day_(last_day), first_day_(day_of(set.first.start)) {
    if (set.rule) dates_.emplace(*set.rule, first_day_);
  }

  std::optional<Candidate> next() {
    if (done_) return std::nullopt;
    if (!dates_) {  // a set without a rule: DTSTART alone
      done_ = true;
      return candidate(first_day_);
    }
    const RecurrenceRule& rule = *set_.rule;
    const auto day = dates_->next(last_day_);
    if (!day || (rule.count && produced_ == *rule.count) ||
        (rule.until_date && *day > day_of(*rule.until_date))) {
      done_ = true;
      return std::nullopt;
    }
    Candidate next = candidate(*day);
    if (rule.until && next.instant > *rule.until) {
      done_ = true;
      return std::nullopt;
    }
    ++produced_;
    return next;
  }

 private:
  Candidate candidate(std::int64_t day) const {
    const LocalDateTime local = at_day(day, set_.first.start);
    return Candidate{local, set_.first.zone.to_instant(local), std::nullopt, false};
  }

  const RecurrenceSet& set_;
  std::int64_t last_day_, first_day_;
  std::optional<detail::RuleDates> dates_;
  int produced_ = 0;
  bool done_ = false;
};

// Ends and wall clocks: a timed occurrence lasts the first one's exact duration (or its PERIOD's),
// an all-day one spans the first one's number of days, ending at its time of day.
class OccurrenceShape {
 public:
  explicit OccurrenceShape(const FirstOccurrence& first)
      : first_(first),
        duration_(std::max(Seconds::duration{0},
                           first.zone.to_instant(first.end) - first.zone.to_instant(first.start))),
        span_days_(day_of(first.end) - day_of(first.start)) {}

  Occurrence make(const Candidate& c) const {
    Occurrence o;
    o.original_local = c.local;
    o.start = c.instant;
    o.is_rdate = c.is_rdate;
    if (c.period_end)
      o.end = *c.period_end;
    else if (first_.all_day)
      o.end = std::max(c.instant, first_.zone.to_instant(at_day(day_of(c.local) + span_days_, first_.end)));
    else
      o.end = c.instant + duration_;
    o.start_local = first_.zone.to_local(o.start);
    o.end_local = first_.zone.to_local(o.end);
    return o;
  }

 private:
  const FirstOccurrence& first_;
  Seconds::duration duration_;
  std::int64_t span_days_;
};

}  // namespace

std::variant<std::vector<Occurrence>, RecurrenceError> expand_recurrence(const RecurrenceSet& set,
                                                                         Seconds from, Seconds to,
                                                                         std::size_t max_instances) {
  // A wall-clock day ends at most 14 hours after the same UTC day (zone offsets are below a day).
  const std::int64_t last_day = detail::floor_div(to.time_since_epoch().count(), detail::kSecondsPerDay) + 1;
  RuleStarts rule(set, last_day);
  const OccurrenceShape shape(set.first);
  std::vector<Occurrence> occurrences;
  std::size_t count = 0;
  std::optional<Candidate> from_rule = rule.next();
  auto rdate = set.rdates.begin();
  auto exdate = set.exdates.begin();
  for (;;) {
    const bool take_rdate = rdate != set.rdates.end() && (!from_rule || rdate->instant < from_rule->instant);
    if (!take_rdate && !from_rule) break;
    Candidate next =
        take_rdate ? Candidate{rdate->local, rdate->instant, rdate->period_end, true} : *from_rule;
    if (next.instant >= to) break;
    if (take_rdate) {
      ++rdate;
    } else {
      // An RDATE at an instant the rule has adds nothing.
      if (rdate != set.rdates.end() && rdate->instant == next.instant) ++rdate;
      from_rule = rule.next();
    }
    while (exdate != set.exdates.end() && exdate->instant < next.instant) ++exdate;
    if (exdate != set.exdates.end() && exdate->instant == next.instant) continue;
    if (++count > max_instances) return detail::too_many_occurrences(max_instances);
    if (next.instant >= from) occurrences.push_back(shape.make(next));
  }
  return occurrences;
}

}  // namespace cal
