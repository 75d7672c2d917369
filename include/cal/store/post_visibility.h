// Which posts a caller may see in lists (docs/api.md §4.1), as data: the API layer decides it from the
// caller's role and the `status` filter; the store turns it into SQL. A scheduled (`future`) post
// whose publication date has passed reads as `publish` everywhere.
#pragma once

#include <string>
#include <vector>

namespace cal {

enum class ReadScope {
  kPublished,        // visitors, subscribers: published posts only
  kPublishedAndOwn,  // authors, contributors: published posts and their own of any status
  kAll,              // editors, administrators: every status
};

struct PostVisibility {
  ReadScope scope = ReadScope::kPublished;
  long long user_id = 0;  // the caller, for kPublishedAndOwn
  // Statuses asked for (as read: a due `future` post is `publish`); empty: every status but trash.
  std::vector<std::string> statuses;
  // No scheduled post reads as published, nor will before the request ends (known from the data
  // version it read): a list need not look for due ones, a statement part planned at every
  // execution for rows that are not there.
  bool none_due = false;
};

}  // namespace cal
