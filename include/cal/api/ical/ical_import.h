// Importing an iCalendar (RFC 5545) body as events (docs/feeds.md): POST /events with
// Content-Type text/calendar. parse_ical_import() is the pure part (no database): it checks the
// calendar line by line, reads it with libical and maps every VEVENT to the JSON body that
// POST /events takes, so the import goes through the same validation and writes as JSON
// (src/api/ical/ical_import_lines.cpp, ical_import_map.cpp). The handler that writes them in one
// transaction is import_events_ical() in cal/api/pipeline/handlers.h (src/api/ical/ical_import.cpp).
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

struct IcalImportOptions {
  std::string site_zone;  // the zone of floating times, UTC times and all-day events
  std::string site_host;  // "example.org[:port]": a UID "<id>@<host>" names that existing event
  std::size_t max_events = 500;
};

// A problem as an English message (a msgid with %s) and its arguments, translated by the caller.
struct IcalProblem {
  std::string msgid;
  std::vector<std::string> args;
  int line = 0;       // 1-based line of the body (calendar problems), else 0
  std::string field;  // VEVENT problems: the iCalendar property that cannot be imported
};

// The original start a RECURRENCE-ID names: which occurrence of its series an override replaces.
struct IcalOriginalStart {
  std::string wall;      // "YYYY-MM-DD HH:MM:SS" as written (in UTC when `is_utc`)
  std::string zone;      // the IANA zone of a TZID; "" for a floating time (the series' zone), UTC or a date
  bool is_utc = false;   // a UTC time, or a TZID only a VTIMEZONE defines (resolved to UTC)
  bool is_date = false;  // VALUE=DATE: the occurrence on that date
  std::string exdate;    // the EXDATE line that cancels it ("EXDATE;TZID=Europe/Berlin:20270309T190000")
};

// One VEVENT as the JSON body of POST /events (or of an update: only what the VEVENT has).
struct IcalEventInput {
  int index = 0;                    // 1-based among the calendar's VEVENTs
  int line = 0;                     // the line of its BEGIN:VEVENT
  std::string uid;                  // "" when the VEVENT has none
  std::optional<long long> own_id;  // the UID is "<id>@<site host>" (what this site's feed emits)
  rapidjson::Document body;
  std::optional<IcalProblem> problem;  // the VEVENT cannot be mapped (no DTSTART, an unknown TZID, ...)
  // Its RRULE and EXRULE lines as written, RDATE and EXDATE lines one value each (zones resolved as
  // for DTSTART): the event's `recurrence`, empty for a one-off event. Checked by the writes.
  std::vector<std::string> recurrence;
  std::optional<IcalOriginalStart> recurrence_id;  // an override of one occurrence of the UID's series
  bool cancelled = false;                          // STATUS:CANCELLED
};

enum class IcalFailure { kNone, kMalformed, kNoEvents, kTooManyEvents };

struct IcalImport {
  IcalFailure failure = IcalFailure::kNone;
  IcalProblem problem;  // when failure != kNone
  std::vector<IcalEventInput> events;
};

// Reads `body` (UTF-8, CRLF or LF line ends, folded lines). Never throws for any input.
IcalImport parse_ical_import(std::string_view body, const IcalImportOptions& options);

}  // namespace cal
