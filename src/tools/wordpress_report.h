// The report of `calendarctl import-wordpress` (docs/importing-wordpress.md): counts per kind of
// record, what was skipped and why, and every record changed on the way with the reason; as
// text for the terminal and as JSON for --report FILE.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace cal {

struct ImportCounts {
  long long imported = 0;   // new here
  long long updated = 0;    // imported before, changed in WordPress since
  long long unchanged = 0;  // imported before, the same in WordPress
  long long skipped = 0;    // not imported (see the change list for why)
};

// One record that did not arrive exactly as WordPress had it.
struct ImportChange {
  std::string kind;         // "event", "venue", "organizer", "image", "category", "tag", "user", "site"
  long long source_id = 0;  // the WordPress id (0 for the site)
  long long target_id = 0;  // the id here (0 when skipped)
  std::string field;        // what changed: "id", "slug", "timezone", ... or "" for the whole record
  std::string reason;
};

struct ImportReport {
  std::string source;  // the site (siteurl, else database/prefix)
  std::string prefix;
  long long site = 1;
  bool dry_run = false;
  std::string site_name, site_timezone;        // as WordPress had them, in our zone form
  std::map<std::string, ImportCounts> counts;  // by kind, in the order of kKinds
  std::map<std::string, long long> not_ours;   // WordPress posts left out, by reason
  std::vector<ImportChange> changes;
  std::vector<std::pair<std::string, std::string>> new_passwords;  // (login, application password)
  double seconds = 0;

  void change(const std::string& kind, long long source_id, long long target_id, const std::string& field,
              const std::string& reason) {
    changes.push_back(ImportChange{kind, source_id, target_id, field, reason});
  }
};

// The kinds in report order.
extern const char* const kImportKinds[8];

// The text report (standard output). New application passwords are printed here only, once.
void write_text_report(std::ostream& out, const ImportReport& report);
// The JSON report (--report FILE): everything but the passwords.
std::string json_report(const ImportReport& report);

}  // namespace cal
