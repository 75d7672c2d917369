// expand_recurrence against an independent implementation: several hundred generated recurrence
// sets, each in five zones (DST gaps and repeats of one hour and of 30 minutes, a half-hour offset
// without DST, UTC), expanded here and by python-dateutil through tests/unit/recurrence_oracle.py
// (which documents how it bridges dateutil's semantics to RFC 5545's). Both must agree on whether
// the rule produces the event's start, on the first start it produces, and on every occurrence's
// identity (wall clock named, instant) and end. Needs /usr/bin/python3 with python3-dateutil
// (scripts/install-deps.sh installs it).
#include "cal/core/dates/recurrence.h"

#include "recurrence_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using caltest_recurrence::error_text;
using caltest_recurrence::far_past;
using caltest_recurrence::utc_text;
using caltest_recurrence::wall;
using caltest_recurrence::wall_text;

namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 5> kZones = {"America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
                                               "Asia/Kolkata", "UTC"};
constexpr int kRules = 300;
constexpr std::size_t kMaxInstances = 3650;

// Wall-clock arithmetic without a zone (as UTC).
cal::LocalDateTime plus(const cal::LocalDateTime& t, std::chrono::seconds by) {
  return cal::to_utc_date_time(cal::from_utc_date_time(t) + by);
}

struct OracleCase {
  std::string id;
  const char* zone = "UTC";
  cal::LocalDateTime anchor;
  int length = 60;  // minutes of wall clock, or days when all-day
  bool all_day = false;
  cal::Seconds to;
  std::vector<std::string> lines;

  // The event's first occurrence when it starts at `start`: DTEND is the wall clock `length`
  // minutes later, or the last day's 23:59:59.
  cal::FirstOccurrence first(const cal::LocalDateTime& start) const {
    cal::FirstOccurrence f;
    f.zone = *cal::TimeZone::find(zone);
    f.all_day = all_day;
    f.start = start;
    if (all_day) {
      f.end = plus(start, std::chrono::hours{24 * (length - 1)});
      f.end.hour = 23, f.end.minute = 59, f.end.second = 59;
    } else {
      f.end = plus(start, std::chrono::minutes{length});
    }
    return f;
  }

  std::string input_line() const {
    std::string joined;
    for (const std::string& line : lines) joined += (joined.empty() ? "" : "|") + line;
    return id + "\t" + zone + "\t" + wall_text(anchor) + "\t" + std::to_string(length) + "\t" +
           (all_day ? "1" : "0") + "\t" + utc_text(to) + "\t" + joined;
  }
};

// Random recurrence sets within the supported subset, leaning on what breaks expanders: times in
// DST gaps and repeats, month ends, ordinals, BYSETPOS, UNTIL near a start.
class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  // One set (without its zone).
  OracleCase next(int index) {
    OracleCase c;
    c.id = std::to_string(index);
    c.all_day = chance(20);
    c.anchor = date(1996, 2040);
    if (!c.all_day) {
      static const std::array<std::array<int, 2>, 10> kTimes = {
          {{0, 0}, {1, 30}, {2, 0}, {2, 15}, {2, 30}, {2, 45}, {3, 0}, {9, 0}, {12, 0}, {23, 30}}};
      const auto& time = kTimes[pick(kTimes.size())];
      c.anchor.hour = time[0], c.anchor.minute = time[1];
    }
    static const std::array<int, 7> kMinutes = {0, 30, 45, 60, 90, 150, 1440};
    c.length = c.all_day ? uniform(1, 3) : kMinutes[pick(kMinutes.size())];
    c.to = cal::from_utc_date_time(plus(c.anchor, std::chrono::hours{24 * 730}));
    if (chance(85)) c.lines.push_back("RRULE:" + rule(c));
    const int rdates = chance(30) ? uniform(1, 3) : 0;
    for (int i = 0; i < rdates; ++i) c.lines.push_back(rdate(c));
    const int exdates = chance(40) ? uniform(1, 3) : 0;
    for (int i = 0; i < exdates; ++i) c.lines.push_back(exdate(c));
    return c;
  }

 private:
  int uniform(int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng_); }
  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(uniform(0, static_cast<int>(n) - 1)); }
  bool chance(int percent) { return uniform(1, 100) <= percent; }

  // A date; a day past the month's end becomes its last day, so month ends come up often.
  cal::LocalDateTime date(int first_year, int last_year) {
    cal::LocalDateTime t{uniform(first_year, last_year), uniform(1, 12), uniform(1, 31), 0, 0, 0};
    while (!cal::is_valid_date_time(t)) --t.day;
    return t;
  }

  std::string numbers(std::vector<int> values) {
    std::string text;
    for (int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
    return text;
  }

  // `count` distinct values from `pool`.
  std::vector<int> some(std::vector<int> pool, int count) {
    std::shuffle(pool.begin(), pool.end(), rng_);
    pool.resize(static_cast<std::size_t>(std::min<int>(count, static_cast<int>(pool.size()))));
    return pool;
  }

  std::string rule(const OracleCase& c) {
    static const std::array<const char*, 4> kFreq = {"DAILY", "WEEKLY", "MONTHLY", "YEARLY"};
    static const std::array<const char*, 7> kDays = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};
    const int freq = uniform(0, 3);
    std::string text = std::string("FREQ=") + kFreq[static_cast<std::size_t>(freq)];
    if (chance(35)) text += ";INTERVAL=" + std::to_string(uniform(2, 4));
    const bool by_month = chance(freq == 3 ? 60 : 20);
    if (by_month) text += ";BYMONTH=" + numbers(some({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uniform(1, 3)));
    // python-dateutil looks for a rule's next date period by period until year 9999, so every
    // rule here produces dates again and again: BYSETPOS within the smallest set a period can
    // have, BYMONTHDAY only with days every BYMONTH month has and never with ordinal weekdays.
    bool any_by = by_month;
    bool ordinals = false;
    std::set<std::string> weekdays;
    if (chance(45)) {
      // Ordinals for all entries or for none: python-dateutil intersects the two kinds (see the
      // oracle's notes).
      ordinals = freq >= 2 && chance(60);
      std::string list;
      for (int i = uniform(1, 3); i > 0; --i) {
        std::string entry = kDays[pick(kDays.size())];
        weekdays.insert(entry);
        if (ordinals && (freq == 2 || by_month)) {
          entry = std::to_string(chance(30) ? -uniform(1, 5) : uniform(1, 5)) + entry;
        } else if (ordinals) {
          static const std::array<int, 12> kYearOrdinals = {1, 2, 3, 10, 20, 26, 52, 53, -1, -2, -10, -53};
          entry = std::to_string(kYearOrdinals[pick(kYearOrdinals.size())]) + entry;
        }
        list += (list.empty() ? "" : ",") + entry;
      }
      text += ";BYDAY=" + list;
      any_by = true;
    }
    bool by_month_day = false;
    if (freq != 1 && (freq != 3 || by_month) && !ordinals && chance(35)) {
      std::vector<int> pool = {1, 2, 5, 10, 13, 15, 28};
      if (!by_month) pool.insert(pool.end(), {29, 30, 31});
      std::vector<int> days;
      for (int v : some(pool, uniform(1, 3))) days.push_back(chance(25) ? -v : v);
      text += ";BYMONTHDAY=" + numbers(days);
      any_by = by_month_day = true;
    }
    int max_position = 1;
    if (freq == 1) max_position = std::max<int>(1, static_cast<int>(weekdays.size()));
    if (freq >= 2 && !weekdays.empty() && !ordinals && !by_month_day) max_position = 3;
    if (any_by && chance(20)) {
      std::vector<int> pool;
      for (int p = 1; p <= max_position; ++p) pool.insert(pool.end(), {p, -p});
      text += ";BYSETPOS=" + numbers(some(pool, uniform(1, 2)));
    }
    if (chance(20)) text += std::string(";WKST=") + kDays[pick(kDays.size())];
    const int end = uniform(1, 100);
    if (end <= 40) {
      text += ";COUNT=" + std::to_string(uniform(1, 30));
    } else if (end <= 70) {
      const cal::LocalDateTime until =
          plus(c.anchor, std::chrono::hours{24 * uniform(-3, 900) + uniform(0, 23)});
      if (c.all_day)
        text += ";UNTIL=" + wall_text(until).substr(0, 8);
      else
        text += ";UNTIL=" + wall_text(until) + (chance(50) ? "Z" : "");
    }
    return text;
  }

  // A wall clock within about a year after the anchor, often at the anchor's time of day.
  cal::LocalDateTime near(const OracleCase& c, int max_days) {
    cal::LocalDateTime t = plus(c.anchor, std::chrono::hours{24 * uniform(0, max_days)});
    if (chance(40)) t.hour = uniform(0, 23), t.minute = chance(50) ? 30 : 0;
    return t;
  }

  std::string rdate(const OracleCase& c) {
    const cal::LocalDateTime t = near(c, 400);
    if (c.all_day) return "RDATE;VALUE=DATE:" + wall_text(t).substr(0, 8);
    switch (uniform(0, 6)) {
      case 0:
        return std::string("RDATE;TZID=") + c.zone + ":" + wall_text(t);
      case 1:
        return "RDATE:" + wall_text(t);
      case 2:
        return "RDATE:" + wall_text(t) + "Z";
      case 3:
        return "RDATE;TZID=Asia/Tokyo:" + wall_text(t);
      case 4:
        return "RDATE;VALUE=DATE:" + wall_text(t).substr(0, 8);
      case 5:
        return "RDATE;VALUE=PERIOD:" + wall_text(t) + "Z/" + (chance(50) ? "PT2H30M" : "P1DT1H");
      default:
        return std::string("RDATE;TZID=") + c.zone + ";VALUE=PERIOD:" + wall_text(t) + "/" +
               (chance(50) ? wall_text(plus(t, std::chrono::minutes{uniform(120, 600)})) : "P2D");
    }
  }

  // Mostly the anchor's time of day a few days or weeks on, so that many remove an occurrence.
  std::string exdate(const OracleCase& c) {
    const int days = chance(50) ? uniform(0, 60) : 7 * uniform(0, 30);
    const cal::LocalDateTime t = plus(c.anchor, std::chrono::hours{24 * days});
    if (c.all_day) return "EXDATE;VALUE=DATE:" + wall_text(t).substr(0, 8);
    switch (uniform(0, 3)) {
      case 0:
        return std::string("EXDATE;TZID=") + c.zone + ":" + wall_text(t);
      case 1:
        return "EXDATE:" + wall_text(t);
      case 2:
        return "EXDATE;VALUE=DATE:" + wall_text(t).substr(0, 8);
      default:
        return "EXDATE:" + utc_text(cal::TimeZone::find(c.zone)->to_instant(t));
    }
  }

  std::mt19937 rng_;
};

// The repository (the parent of the build directory holding this binary, else the working
// directory, which scripts/run-tests.sh sets to it).
fs::path repo_root() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(exe.parent_path().parent_path() / "tests" / "unit" / "recurrence_oracle.py"))
    return exe.parent_path().parent_path();
  return fs::current_path();
}

// The oracle's answer lines, by case id.
std::map<std::string, std::vector<std::string>> run_oracle(const std::vector<OracleCase>& cases) {
  const fs::path input =
      fs::temp_directory_path() / ("calendar-rrule-" + std::to_string(::getpid()) + ".tsv");
  {
    std::ofstream out(input);
    for (const OracleCase& c : cases) out << c.input_line() << "\n";
  }
  const std::string command = "/usr/bin/python3 '" +
                              (repo_root() / "tests/unit/recurrence_oracle.py").string() + "' < '" +
                              input.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = ::pclose(pipe);
  fs::remove(input);
  REQUIRE_MESSAGE(status == 0,
                  command << " failed (is python3-dateutil installed?): " << output.substr(0, 2000));
  std::map<std::string, std::vector<std::string>> answers;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    if (line.back() == '\t') fields.emplace_back();
    REQUIRE_MESSAGE(fields.size() == 6, "unexpected oracle line: " << line);
    answers[fields[0]] = fields;
  }
  return answers;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// What the oracle's anchor status means for parse_recurrence with the anchor as DTSTART.
void check_anchor(const OracleCase& c, const std::string& status) {
  const auto parsed = cal::parse_recurrence(c.lines, c.first(c.anchor));
  const auto* error = std::get_if<cal::RecurrenceError>(&parsed);
  if (status == "ok") {
    CHECK_MESSAGE(error == nullptr, "refused: " << (error ? error_text(*error) : ""));
  } else if (error == nullptr) {
    FAIL_CHECK("accepted a start the oracle says is " << status);
  } else {
    if (status == "until")
      CHECK(error->part == "UNTIL");
    else
      CHECK(error->message == "The recurrence rule does not produce the event's start.");
  }
}

}  // namespace

TEST_CASE("expand_recurrence agrees with python-dateutil on generated sets in five zones") {
  Generator generator(20261126);
  std::vector<OracleCase> cases;
  for (int rule = 0; rule < kRules; ++rule) {
    const OracleCase base = generator.next(rule);
    for (const char* zone : kZones) {
      OracleCase c = base;
      c.zone = zone;
      c.id = std::to_string(cases.size());
      cases.push_back(c);
    }
  }
  const auto answers = run_oracle(cases);
  REQUIRE(answers.size() == cases.size());

  int compared = 0, occurrences_compared = 0, moved_by_dst = 0, refused_starts = 0;
  for (const OracleCase& c : cases) {
    const std::vector<std::string>& answer = answers.at(c.id);
    CAPTURE(c.input_line());
    check_anchor(c, answer[1]);
    refused_starts += answer[1] != "ok";
    if (answer[2] == "-") continue;
    const cal::FirstOccurrence first = c.first(wall(answer[2]));
    const auto parsed = cal::parse_recurrence(c.lines, first);
    if (answer[3] == "until") {
      const auto* error = std::get_if<cal::RecurrenceError>(&parsed);
      CHECK((error != nullptr && error->part == "UNTIL"));
      continue;
    }
    const auto* set = std::get_if<cal::RecurrenceSet>(&parsed);
    if (set == nullptr) {
      FAIL_CHECK("refused from the oracle's start " << answer[2] << ": "
                                                    << error_text(std::get<cal::RecurrenceError>(parsed)));
      continue;
    }
    const auto expanded = cal::expand_recurrence(*set, far_past(), c.to, kMaxInstances);
    if (std::stoul(answer[4]) > kMaxInstances) {
      CHECK(std::holds_alternative<cal::RecurrenceError>(expanded));
      continue;
    }
    REQUIRE(std::holds_alternative<std::vector<cal::Occurrence>>(expanded));
    std::vector<std::string> ours;
    for (const cal::Occurrence& o : std::get<std::vector<cal::Occurrence>>(expanded)) {
      ours.push_back(wall_text(o.original_local) + "/" + utc_text(o.start) + "/" + utc_text(o.end));
      moved_by_dst += !(o.start_local == o.original_local);
    }
    const std::vector<std::string> theirs = words(answer[5]);
    CAPTURE(answer[2]);
    CHECK(ours == theirs);
    ++compared;
    occurrences_compared += static_cast<int>(ours.size());
  }
  // The generated sets must exercise what they are for.
  MESSAGE(compared << " sets and " << occurrences_compared << " occurrences compared, " << moved_by_dst
                   << " moved by a DST gap, " << refused_starts << " starts refused");
  CHECK(compared >= 1000);
  CHECK(occurrences_compared >= 20000);
  CHECK(moved_by_dst >= 20);
  CHECK(refused_starts >= 100);
}
