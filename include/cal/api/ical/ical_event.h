// One event as an iCalendar VEVENT (docs/feeds.md), built with libical: the record's fields as
// RFC 5545 properties (libical escapes, folds and ends lines). What the JSON record masks for a
// password-protected event (docs/api.md §3.5) the VEVENT leaves out.
#pragma once

#include "cal/api/events/event_record.h"
#include "cal/core/dates/dates.h"

#include <libical/ical.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// How the event's times are written.
enum class IcalTimes {
  kZoned,   // DTSTART;TZID=<zone>: an IANA zone, whose VTIMEZONE the calendar carries
  kUtc,     // UTC times ("...Z"): UTC and UTC± zones, which have no IANA id for a TZID
  kAllDay,  // VALUE=DATE, DTEND the day after the last day
};

// Which of the three forms `event` gets (`masked`: its all_day flag is hidden, so its times are
// written as times).
IcalTimes ical_times_of(const Event& event, bool masked);

// SEQUENCE: the seconds from 2000-01-01T00:00:00Z to the event's last modification (its
// modified_utc), so every saved change raises it; 0 before 2000 or for a missing date, at most
// INT32_MAX (reached in 2068).
int ical_sequence(std::string_view modified_utc);

// The UTC instant of a stored "YYYY-MM-DD HH:MM:SS" UTC text, or nullopt for "0000-00-00 ..."
// and other non-dates.
std::optional<Seconds> stored_utc_instant(std::string_view text);

// LOCATION of a venue: "Name, address, city, region, zip, country" (the parts it has).
std::string venue_location(const Venue& venue);

// What makes a VEVENT part of a recurring series (cal/api/ical/ical_series.h).
struct VeventSeries {
  long long uid_id = 0;                                  // the series' id, the UID of all its VEVENTs
  const std::vector<std::string>* recurrence = nullptr;  // the series itself: its rule's lines
  const EventOccurrence* overrides = nullptr;            // an occurrence edited alone: RECURRENCE-ID
  IcalTimes series_times = IcalTimes::kZoned;            // the form of the series' DTSTART
  std::string series_zone;                               // and its zone
};

// A new VEVENT (the caller owns it). `uid_host`: the host part of the UIDs ("<id>@<uid_host>").
// `masked`: a password-protected event shown without its password: no DESCRIPTION,
// X-ALT-DESC, LOCATION, GEO, ORGANIZER, CONTACT, CATEGORIES, and times as times.
icalcomponent* event_vevent(const RequestContext& ctx, const Event& event, const EventRelations& relations,
                            bool masked, std::string_view uid_host, const VeventSeries* series = nullptr);

}  // namespace cal
