// Demo data (`calendarctl demo`, docs/calendarctl.md): a realistic, deterministic dataset added to an
// existing database by a few dozen bulk INSERT ... SELECT statements over MariaDB's sequence engine. Every
// value is a function of (seed, row number) through CRC32, except that dates are offsets from the
// current UTC day (so the default list window always sees the same share) and ids / slugs are
// placed after what the database already holds. The SQL text is constant: N, the seed, the base
// ids and the day are bound values.
#pragma once

#include "cal/store/db.h"

#include <string>
#include <vector>

namespace cal {

struct DemoOptions {
  long long events = 0;  // 1 .. kDemoMaxEvents
  long long seed = 1;
  std::string site_timezone;  // [site] timezone: the zone of publication dates (posts.date_local)
  std::string today_utc;      // "YYYY-MM-DD": day 0 of every date offset
};

// What one run added.
struct DemoSummary {
  long long events = 0, venues = 0, organizers = 0, images = 0;
  long long categories = 0, tags = 0;  // terms created (names already present are reused)
  std::string slug_prefix;             // in every slug of this run, e.g. "d7-1042"
};

constexpr long long kDemoMaxEvents = 10'000'000;

// How many linked records a run of `events` events creates.
struct DemoScale {
  long long venues, organizers, images;
};

// Adds the dataset. Throws std::runtime_error when the database has no user to be the author,
// cal::DuplicateKey if a concurrent writer took an id in the range chosen.
DemoSummary add_demo_data(Db& db, const DemoOptions& options);

// A run in two steps, for a caller that writes records of its own between them (the recurring
// series calendarctl writes through the API, src/tools/demo_series.cpp): start_demo_data adds the
// terms, venues, organizers and images; add_demo_events then adds one-off events after every
// post present. The session's work tables live until the connection closes.
struct DemoVenue {
  long long id = 0;
  std::string zone;  // IANA zone of its city
};
struct DemoRun {
  DemoSummary summary;                // `events` counts what add_demo_events added
  std::vector<DemoVenue> venues;      // in creation order
  std::vector<long long> organizers;  // post ids, in creation order
  std::vector<long long> categories;  // term ids in demo_term_names() order (parents first)
  std::vector<long long> tags;        // term ids in demo_term_names() order
  std::vector<long long> authors;     // user ids of the users who may publish, by id
  long long image0 = 0;               // the first image's post id
  DemoScale scale{};
};
DemoRun start_demo_data(Db& db, const DemoOptions& options);
// Adds `count` one-off events (0: none) spread over the run's four years, ids after every post
// present; adds them to run.summary.events.
void add_demo_events(Db& db, const DemoOptions& options, DemoRun& run, long long count);

// --- pure pieces, exposed for unit tests -----------------------------------------------------

DemoScale demo_scale(long long events);

// A zone's UTC offsets on one local day, for converting wall clocks to UTC in SQL: a local time
// of day (seconds) before `switch_second` has offset `early`, from it on `late` (equal on days
// without a transition).
struct DemoZoneDay {
  int day;            // days after DemoOptions::today_utc (negative: before)
  int early, late;    // seconds east of UTC
  int switch_second;  // 86400 when no transition
};
// The days first_day..last_day of the zone named (IANA or UTC±H); throws std::runtime_error
// for an unknown zone or a malformed today ("YYYY-MM-DD").
std::vector<DemoZoneDay> demo_zone_days(const std::string& zone, const std::string& today_utc, int first_day,
                                        int last_day);

// The category tree and tags: names in creation order (12 top-level categories, then 4 children
// of each, then 300 tags).
struct DemoTermName {
  std::string name, slug;
  int parent = -1;  // index of the parent category in the same list; -1 = top level
  bool tag = false;
};
const std::vector<DemoTermName>& demo_term_names();

// The cities venues are placed in.
struct DemoCity {
  const char* name;
  const char* country;
  const char* code;    // ISO 3166 alpha-2, decides address, zip and phone formats
  const char* region;  // state (US) or province
  const char* zone;    // IANA time zone
  double lat, lng;
  const char* zip;      // zip base: digits (numeric formats) or the outward code
  const char* phone;    // country and area code
  const char* streets;  // three street names separated by '|'
};
const std::vector<DemoCity>& demo_cities();

}  // namespace cal
