// libFuzzer target: parse_recurrence, format_recurrence and expand_recurrence
// (cal/core/dates/recurrence.h). The first input byte picks the zone, the event's start and
// whether it is all-day; the rest, split at line feeds, is the recurrence lines. A refusal must
// name a part and a message; an accepted set's normal form must parse back to the same normal
// form and the same occurrences (identity and end), which must ascend within the window, end no
// earlier than they start and show the zone's wall clocks.
#include "fuzz_support.h"
#include "cal/core/dates/recurrence.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

using caltest_fuzz::require;

namespace {

constexpr std::array<const char*, 6> kZones = {"America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
                                               "Asia/Kolkata",     "UTC",           "UTC+5:30"};
// Starts next to what breaks expanders: a month's end, a leap day, DST gaps and repeats.
constexpr std::array<cal::LocalDateTime, 6> kStarts = {{{1997, 9, 2, 9, 0, 0},
                                                        {2024, 2, 29, 12, 0, 0},
                                                        {2025, 1, 31, 23, 30, 0},
                                                        {2025, 3, 30, 2, 30, 0},
                                                        {2025, 11, 2, 1, 30, 0},
                                                        {2025, 10, 5, 2, 15, 0}}};

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The occurrences from a month before the set's start to three years after it, or the cap's error.
std::variant<std::vector<cal::Occurrence>, cal::RecurrenceError> expand(const cal::RecurrenceSet& set) {
  const cal::Seconds start = set.first.zone.to_instant(set.first.start);
  return cal::expand_recurrence(set, start - std::chrono::hours{24 * 30},
                                start + std::chrono::hours{24 * 1096}, 3650);
}

bool same(const cal::Occurrence& a, const cal::Occurrence& b) {
  return a.original_local == b.original_local && a.start == b.start && a.end == b.end &&
         a.is_rdate == b.is_rdate;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned selector = data[0];
  cal::FirstOccurrence first;
  const auto zone = cal::TimeZone::find(kZones[selector % kZones.size()]);
  require(zone.has_value(), "a known zone was not found");
  first.zone = *zone;
  first.all_day = (selector / kZones.size()) % 5 == 0;
  first.start = kStarts[(selector / kZones.size() / 5) % kStarts.size()];
  first.end = first.start;
  if (first.all_day) {
    first.start.hour = first.start.minute = 0;
    first.end.hour = 23, first.end.minute = 59, first.end.second = 59;
  } else {
    first.end.hour = (first.end.hour + 2) % 24;
    if (first.end.hour < first.start.hour) first.end = first.start;
  }
  const std::vector<std::string> lines =
      split_lines(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));

  const auto parsed = cal::parse_recurrence(lines, first);
  if (const auto* error = std::get_if<cal::RecurrenceError>(&parsed)) {
    require(!error->part.empty() && !error->message.empty(), "a refusal without part or message");
    require(error->args.size() <= 2, "a refusal with more arguments than any message has");
    return 0;
  }
  const cal::RecurrenceSet& set = std::get<cal::RecurrenceSet>(parsed);
  const std::vector<std::string> normal = cal::format_recurrence(set);
  const auto again = cal::parse_recurrence(normal, first);
  require(std::holds_alternative<cal::RecurrenceSet>(again), "the normal form was refused");
  const cal::RecurrenceSet& reparsed = std::get<cal::RecurrenceSet>(again);
  require(cal::format_recurrence(reparsed) == normal, "the normal form is not stable");
  require(set.is_infinite() == reparsed.is_infinite(), "the normal form changed whether the set ends");

  const auto expanded = expand(set);
  const auto expanded_again = expand(reparsed);
  require(expanded.index() == expanded_again.index(), "the normal form changed whether the set expands");
  if (std::holds_alternative<cal::RecurrenceError>(expanded)) return 0;
  const auto& occurrences = std::get<std::vector<cal::Occurrence>>(expanded);
  const auto& occurrences_again = std::get<std::vector<cal::Occurrence>>(expanded_again);
  require(occurrences.size() == occurrences_again.size(), "the normal form changed the occurrences");
  for (std::size_t i = 0; i < occurrences.size(); ++i) {
    const cal::Occurrence& o = occurrences[i];
    require(same(o, occurrences_again[i]), "the normal form changed an occurrence");
    require(i == 0 || occurrences[i - 1].start < o.start, "occurrences do not ascend");
    require(o.end >= o.start, "an occurrence ends before it starts");
    require(o.start_local == first.zone.to_local(o.start) && o.end_local == first.zone.to_local(o.end),
            "an occurrence's wall clocks are not the zone's");
    require(cal::is_valid_date_time(o.original_local), "an occurrence names an invalid wall clock");
    require(first.zone.to_instant(o.original_local) == o.start || o.is_rdate,
            "a rule occurrence's wall clock does not resolve to its instant");
  }
  return 0;
}
