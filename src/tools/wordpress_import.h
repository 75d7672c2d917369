// The copy itself of `calendarctl import-wordpress` (docs/importing-wordpress.md): from an open
// WordPress source to our database in one transaction, committed unless it is a dry run.
#pragma once

#include "wordpress_report.h"

#include "cal/store/db.h"
#include "cal/store/wordpress_source.h"

#include <functional>
#include <string>

namespace cal {

struct WordPressImportSettings {
  std::string fallback_source;  // database/prefix, for a site without siteurl
  std::string site_prefix;      // the site's tables' prefix ("wp_", "wp_2_")
  long long site = 1;
  bool dry_run = false;
  // Called after each round of events with (events done, share of the source's events read,
  // 0..1), for the progress line.
  std::function<void(long long, double)> progress;
};

// Reads `source` inside its snapshot (the caller opened it) and writes `target` in one transaction.
// Fills `report`. Throws on any failure, leaving `target` as it was.
void import_wordpress(WordPressSource& source, Db& target, const WordPressImportSettings& settings,
                      ImportReport& report);

}  // namespace cal
