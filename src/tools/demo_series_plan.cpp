// The demo's series drawn (see demo_series_plan.h). Choices are a 64-bit mix of (seed, series
// number, purpose); dates are offsets from the run's day, in the zone of the series' venue.
#include "demo_series_plan.h"

#include "cal/api/events/event_recurrence.h"
#include "cal/api/posts/site_time.h"
#include "cal/core/dates/recurrence.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace cal {
namespace {

namespace chr = std::chrono;

// A uniform 64-bit value of (seed, series number, purpose): splitmix64's finaliser.
std::uint64_t mix(long long seed, long long k, int purpose) {
  std::uint64_t z = static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL +
                    static_cast<std::uint64_t>(k) * 0xBF58476D1CE4E5B9ULL +
                    static_cast<std::uint64_t>(purpose);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

const char* const kWords[] = {"Jazz",   "Rock",   "Yoga",    "Chess",   "Poetry",   "Cinema",  "Garden",
                              "Market", "Dance",  "Science", "History", "Cooking",  "Theatre", "Football",
                              "Design", "Comedy", "Opera",   "Running", "Painting", "Coding"};
const char* const kDays[] = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};  // by chrono's c_encoding

// The kinds in the order series are drawn, 20 a cycle: classes most often, rules without an end
// seldom (materialised to the horizon, one of them is some 300 weekly occurrences).
enum class Kind { kWeekly, kMonthly, kDaily, kEndlessWeekly, kEndlessMonthly };
constexpr Kind W = Kind::kWeekly, M = Kind::kMonthly, D = Kind::kDaily;
const Kind kCycle[] = {W, M, W, D, W, M, W, W, Kind::kEndlessMonthly, W, W, M, W, D, W, Kind::kEndlessWeekly,
                       M, W, W, D};

LocalDateTime at(chr::sys_days day, int minutes) {
  const chr::year_month_day ymd(day);
  return {static_cast<int>(ymd.year()),
          static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day())),
          minutes / 60,
          minutes % 60,
          0};
}

chr::sys_days day_of(const LocalDateTime& t) { return chr::sys_days(chr::year{t.year} / t.month / t.day); }

// "20270302T190000": a floating DATE-TIME (the event's zone).
std::string compact(const LocalDateTime& t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02d%02dT%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute,
                t.second);
  return buf;
}

std::string compact_date(const LocalDateTime& t) { return compact(t).substr(0, 8); }

LocalDateTime plus_minutes(const LocalDateTime& t, long long minutes) {
  return to_utc_date_time(from_utc_date_time(t) + chr::minutes(minutes));
}

// The `ordinal`th `weekday` of the month `months` after today's.
chr::sys_days nth_weekday(chr::year_month_day today, int months, unsigned weekday, unsigned ordinal) {
  const chr::year_month ym = chr::year_month(today.year(), today.month()) + chr::months(months);
  return chr::sys_days(ym.year() / ym.month() / chr::weekday(weekday)[ordinal]);
}

}  // namespace

DemoSeriesPlan plan_demo_series(const DemoOptions& o, const DemoRun& run, long long k) {
  const auto h = [&](int purpose, std::uint64_t range) {
    return static_cast<int>(mix(o.seed, k, purpose) % range);
  };
  const auto today_time = parse_sql_date_time(o.today_utc + " 00:00:00");
  if (!today_time) throw std::runtime_error("malformed day '" + o.today_utc + "'");
  const chr::sys_days today = day_of(*today_time);
  const chr::year_month_day today_ymd(today);
  const Kind kind = kCycle[k % 20];
  const std::string word = kWords[h(1, 20)];
  DemoSeriesPlan p;
  if (h(2, 10) != 0 && !run.venues.empty()) {
    const DemoVenue& v = run.venues[static_cast<std::size_t>(h(3, run.venues.size()))];
    p.venue = v.id;
    p.zone = v.zone;
  } else {
    p.zone = o.site_timezone;
  }
  if (!run.organizers.empty())
    p.organizer = run.organizers[static_cast<std::size_t>(h(4, run.organizers.size()))];
  // Skewed towards the first categories, as the one-off events' are.
  if (!run.categories.empty()) {
    const double u = h(5, 1000) / 1000.0;
    p.category = run.categories[static_cast<std::size_t>(
        std::floor(u * u * static_cast<double>(run.categories.size())))];
  }
  if (!run.tags.empty()) p.tag = run.tags[static_cast<std::size_t>(h(6, run.tags.size()))];
  if (k % 20 == 13) p.status = "draft";
  p.exception = k % 3 == 1;
  std::string what, rule;
  std::vector<std::string> extra;
  switch (kind) {
    case Kind::kWeekly: {
      // 8-40 weeks at 17:00-19:30, 1-2 h; a third of them twice a week.
      const chr::sys_days day = today + chr::days(h(10, 1461) - 730);
      const int minutes = 17 * 60 + h(11, 6) * 30;
      p.start = at(day, minutes);
      p.end = plus_minutes(p.start, 60 + h(12, 3) * 30);
      const unsigned wd = chr::weekday(day).c_encoding();
      const int weeks = 8 + h(13, 33);
      const bool twice = h(14, 3) == 0;
      std::string byday = kDays[wd];
      if (twice) byday += std::string(",") + kDays[(wd + 2) % 7];
      rule = "RRULE:FREQ=WEEKLY;BYDAY=" + byday +
             (h(15, 2) ? ";COUNT=" + std::to_string(twice ? 2 * weeks : weeks)
                       : ";UNTIL=" + compact(at(day + chr::weeks(weeks - 1), minutes)));
      if (h(16, 5) < 3) extra.push_back("EXDATE:" + compact(at(day + chr::weeks(1), minutes)));
      what = "Class";
      p.description = "<p>Every week: " + std::string(word) + " for beginners and regulars alike.</p>";
      break;
    }
    case Kind::kMonthly: {
      // 6-24 months on the 1st-4th weekday of the month, 18:30 or 19:00, 2 h.
      const unsigned wd = static_cast<unsigned>(h(20, 7)), ordinal = 1 + static_cast<unsigned>(h(21, 4));
      const int month = h(22, 48) - 24, minutes = 18 * 60 + 30 + h(23, 2) * 30;
      p.start = at(nth_weekday(today_ymd, month, wd, ordinal), minutes);
      p.end = plus_minutes(p.start, 120);
      rule = "RRULE:FREQ=MONTHLY;BYDAY=" + std::to_string(ordinal) + kDays[wd] +
             ";COUNT=" + std::to_string(6 + h(24, 19));
      if (h(25, 4) == 0)
        extra.push_back("EXDATE:" + compact(at(nth_weekday(today_ymd, month + 2, wd, ordinal), minutes)));
      what = "Meetup";
      p.description = "<p>Once a month: " + std::string(word) + " people meet, talk and share.</p>";
      break;
    }
    case Kind::kDaily: {
      // 3-10 days in a row: half all-day, half 10:00-18:00.
      const chr::sys_days day = today + chr::days(h(30, 1461) - 730);
      p.all_day = h(31, 2) == 0;
      p.start = at(day, p.all_day ? 0 : 600);
      p.end = p.all_day ? LocalDateTime{p.start.year, p.start.month, p.start.day, 23, 59, 59} : at(day, 1080);
      rule = "RRULE:FREQ=DAILY;COUNT=" + std::to_string(3 + h(32, 8));
      if (h(33, 3) == 0)
        extra.push_back(p.all_day ? "EXDATE;VALUE=DATE:" + compact_date(at(day + chr::days(1), 0))
                                  : "EXDATE:" + compact(at(day + chr::days(1), 600)));
      what = "Festival";
      p.description = "<p>Days of " + std::string(word) + ": come for one, stay for all.</p>";
      break;
    }
    case Kind::kEndlessWeekly: {
      // Since up to two years ago, every week, 9:00 or 10:00 for 4 h: materialised to the horizon.
      const chr::sys_days day = today - chr::days(1 + h(40, 700));
      const int minutes = (9 + h(41, 2)) * 60;
      p.start = at(day, minutes);
      p.end = plus_minutes(p.start, 240);
      rule = std::string("RRULE:FREQ=WEEKLY;BYDAY=") + kDays[chr::weekday(day).c_encoding()];
      if (h(42, 2) == 0) extra.push_back("EXDATE:" + compact(at(day + chr::weeks(3), minutes)));
      what = "Weekly Club";
      p.description = "<p>Every week, no end in sight: " + std::string(word) + " with friends.</p>";
      break;
    }
    case Kind::kEndlessMonthly: {
      // Since up to 20 months ago, the first given weekday of every month at 15:00 for 3 h.
      const unsigned wd = static_cast<unsigned>(h(50, 7));
      const int month = -1 - h(51, 20);
      p.start = at(nth_weekday(today_ymd, month, wd, 1), 900);
      p.end = plus_minutes(p.start, 180);
      rule = std::string("RRULE:FREQ=MONTHLY;BYDAY=1") + kDays[wd];
      what = "Monthly Social";
      p.description = "<p>The first " + std::string(word) + " afternoon of every month.</p>";
      break;
    }
  }
  p.title = std::string(word) + " " + what;
  std::string slug_word = word, slug_what = what;
  std::transform(slug_word.begin(), slug_word.end(), slug_word.begin(), ::tolower);
  std::transform(slug_what.begin(), slug_what.end(), slug_what.begin(), ::tolower);
  std::replace(slug_what.begin(), slug_what.end(), ' ', '-');
  p.slug = slug_word + "-" + slug_what + "-" + run.summary.slug_prefix + "-s" + std::to_string(k + 1);
  p.lines.push_back(rule);
  p.lines.insert(p.lines.end(), extra.begin(), extra.end());
  return p;
}

std::size_t planned_occurrences(const Config& config, const DemoSeriesPlan& p) {
  const auto zone = TimeZone::find(p.zone);
  if (!zone) throw std::runtime_error("demo series: unknown zone " + p.zone);
  RecurrenceLimits limits;
  limits.max_instances = static_cast<std::size_t>(std::max(1, config.recurrence.max_instances));
  auto parsed = parse_recurrence(p.lines, FirstOccurrence{p.start, p.end, *zone, p.all_day}, limits);
  // Refused (a COUNT past a site's max_instances): the API would refuse the write too.
  if (std::holds_alternative<RecurrenceError>(parsed)) return limits.max_instances + 1;
  const RecurrenceSet& set = std::get<RecurrenceSet>(parsed);
  const Seconds horizon = set.is_infinite() ? months_after(now_seconds(), config.recurrence.horizon_months)
                                            : from_utc_date_time(LocalDateTime{9999, 12, 31, 0, 0, 0});
  auto expanded = expand_recurrence(set, from_utc_date_time(LocalDateTime{1000, 1, 1, 0, 0, 0}), horizon,
                                    limits.max_instances);
  if (std::holds_alternative<RecurrenceError>(expanded)) return limits.max_instances + 1;
  return std::get<std::vector<Occurrence>>(expanded).size();
}

}  // namespace cal
