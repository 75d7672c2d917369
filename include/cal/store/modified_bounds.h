// The `modified_after` / `modified_before` filters of every list route (WordPress
// core's names; docs/sync.md): exclusive UTC bounds on a record's modified_utc (terms: the last change of
// their name, slug, description or parent, schema.sql terms_modified_bu).
#pragma once

#include "cal/core/dates/dates.h"

#include <optional>

namespace cal {

struct ModifiedBounds {
  std::optional<Seconds> after;   // modified_utc > after
  std::optional<Seconds> before;  // modified_utc < before
  bool empty() const { return !after && !before; }
};

}  // namespace cal
