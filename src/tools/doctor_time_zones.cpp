// The doctor's "database time zones" check (see doctor_checks.h).
#include "doctor_checks.h"

#include "cal/core/dates/dates.h"
#include "cal/store/server_time_zones.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace cal {
namespace {

constexpr const char* kLoadFix =
    "load MariaDB's zone tables from this host's tzdata: mariadb-tzinfo-to-sql /usr/share/zoneinfo | "
    "mariadb -u root mysql";

// Now, and mid-winter and mid-summer of this year and the next two: the daylight saving rules
// of the events people are entering today.
std::vector<Seconds> sample_instants() {
  const Seconds now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  std::vector<Seconds> out = {now};
  const int year = to_utc_date_time(now).year;
  for (int y = year; y < year + 3; ++y)
    for (int month : {1, 7}) out.push_back(from_utc_date_time(LocalDateTime{y, month, 15, 12, 0, 0}));
  return out;
}

}  // namespace

void check_database_time_zones(DoctorReport& report, Db& db, const Config& config) {
  const std::string& name = config.site.timezone;
  const std::optional<TimeZone> zone = TimeZone::find(name);
  if (!zone) {
    report.line(Verdict::kFailure, "database time zones", "not checked: the site's zone is unknown",
                "fix [site] timezone first");
    return;
  }
  if (zone->is_fixed_offset()) {
    report.line(Verdict::kOk, "database time zones", name + " is a fixed offset: no zone data needed");
    return;
  }
  for (const Seconds instant : sample_instants()) {
    const std::string utc = format_date_time(to_utc_date_time(instant));
    const std::string ours = format_date_time(zone->to_local(instant));
    const std::optional<std::string> theirs = database_local_time(db, name, utc);
    if (!theirs) {
      // Every loaded set of tables has UTC: without it they are empty.
      const bool empty = !database_local_time(db, "UTC", utc);
      report.line(Verdict::kWarning, "database time zones",
                  empty ? "MariaDB's time zone tables are empty: CONVERT_TZ in SQL knows no zone"
                        : "MariaDB's time zone tables have no " + name,
                  kLoadFix);
      return;
    }
    if (*theirs != ours) {
      report.line(Verdict::kFailure, "database time zones",
                  "MariaDB puts " + utc + " UTC at " + *theirs + " in " + name + ", the service at " + ours,
                  "update the tzdata package on both hosts, restart calendar-fcgi, then " +
                      std::string(kLoadFix) + " and restart MariaDB");
      return;
    }
  }
  report.line(Verdict::kOk, "database time zones", "MariaDB's " + name + " agrees with the service's");
}

}  // namespace cal
