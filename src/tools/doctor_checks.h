// The checks of `calendarctl doctor` that have a file of their own (doctor_command.cpp runs
// them in order); each prints its lines into the report.
#pragma once

#include "doctor_report.h"

#include "cal/core/config.h"
#include "cal/store/db.h"

#include <string>

namespace cal {

// "privileges": the connected account holds what the service needs on every table of schema.sql
// (a failure naming the GRANT otherwise), and what `calendarctl migrate` needs (a warning: sites
// often migrate as another account).
void check_privileges(DoctorReport& report, Db& db);

// "database time zones": MariaDB's CONVERT_TZ gives the service's own wall clock in the site's
// zone at a few instants (a failure when it does not; a warning when MariaDB has no data).
void check_database_time_zones(DoctorReport& report, Db& db, const Config& config);

// "web server front page", "web server /api/", "web server Authorization": the site at `site_url`
// (its root, e.g. http://example.org/) serves the discovery Link, routes the REST root to this
// service, and passes the Authorization header on.
void check_web_server(DoctorReport& report, const std::string& site_url);

}  // namespace cal
