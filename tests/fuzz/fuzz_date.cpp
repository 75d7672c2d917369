// libFuzzer target: parse_date() (docs/api.md §6) in several zones and at several "now"s, plus
// TimeZone::find() on the same text. The first input byte picks the zone and the clock; the
// rest is the date text. A parsed date must be a valid wall clock that its zone maps back to the
// same instant's local time, format round-trips, and ISO 8601 output must work.
#include "fuzz_support.h"
#include "cal/core/dates/dates.h"

#include <array>
#include <cstddef>
#include <cstdint>

using caltest_fuzz::require;

namespace {

constexpr std::array<const char*, 8> kZones = {
    "UTC",      "America/New_York", "Europe/Berlin",     "Australia/Lord_Howe",
    "UTC+5:30", "Pacific/Chatham",  "America/Sao_Paulo", "UTC-12"};
// 2023-11-14 22:13:20 UTC, a leap day, a DST change in Berlin, 9999-12-30 00:00:00 UTC (every
// zone's wall clock is still in year 9999 then, so only offsets can leave the range).
constexpr std::array<long long, 4> kNows = {1700000000LL, 1709164800LL, 1711846800LL, 253402128000LL};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto zone = cal::TimeZone::find(kZones[selector % kZones.size()]);
  require(zone.has_value(), "a known zone was not found");
  const cal::Seconds now{std::chrono::seconds{kNows[(selector / kZones.size()) % kNows.size()]}};

  if (const auto parsed = cal::parse_date(text, *zone, now)) {
    require(cal::is_valid_date_time(parsed->local), "parsed local time is not a valid date-time");
    require(parsed->local == zone->to_local(parsed->instant),
            "local time differs from the instant's wall clock");
    const std::string sql = cal::format_date_time(parsed->local);
    const auto back = cal::parse_sql_date_time(sql);
    require(back && *back == parsed->local, "format_date_time does not round-trip");
    require(!cal::format_iso8601(parsed->instant, *zone).empty(), "empty ISO 8601 text");
    require(!zone->abbreviation(parsed->instant).empty(), "empty zone abbreviation");
  }
  // The same text as a zone name (the event `timezone` field).
  if (const auto named = cal::TimeZone::find(text)) {
    require(!named->name().empty(), "a found zone has no name");
    const cal::LocalDateTime local = named->to_local(now);
    require(cal::is_valid_date_time(local), "a zone's wall clock is not valid");
    named->abbreviation(now);
  }
  return 0;
}
