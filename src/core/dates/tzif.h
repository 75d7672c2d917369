// Internal to the dates module (used by src/core/dates/time_zone.cpp); other code uses
// cal/core/dates/dates.h. Compiled IANA zones as the system stores them (TZif files, RFC 8536,
// under /usr/share/zoneinfo), read one zone at a time: the service never lists the database,
// which a CGI process would pay for on every request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal::detail {

// One local time type of a zone: its offset, whether it is DST, its abbreviation.
struct TzifType {
  int offset = 0;  // seconds east of UTC
  bool dst = false;
  std::string abbrev;
};

// A zone's tabulated history: from transitions[i] on (seconds since the epoch, ascending), the
// time type types[type_after[i]] applies; before the first, types[initial_type].
struct Tzif {
  std::vector<std::int64_t> transitions;
  std::vector<std::uint8_t> type_after;
  std::vector<TzifType> types;
  std::uint8_t initial_type = 0;
  std::string footer;  // the POSIX TZ rule for instants after the last transition; may be empty
};

// Parses the bytes of a TZif file (version 1, or the 64-bit block of version 2 and later);
// nullopt for anything malformed. Pure, so the fuzzer and the unit tests call it directly.
std::optional<Tzif> parse_tzif(std::string_view bytes);

// Reads the zone `name` ("Europe/Berlin") from the system's zoneinfo directory; nullopt when the
// name is not a zone id (empty, absolute, with "." or ".." parts, characters outside IANA ids,
// the "posix/" and "right/" variants, "posixrules", "localtime", "Factory") or its file is missing or not
// TZif.
std::optional<Tzif> load_tzif(std::string_view name);

}  // namespace cal::detail
