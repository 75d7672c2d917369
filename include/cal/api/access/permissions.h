// The role matrix of docs/api.md §7 as pure functions: handlers ask these, never compare roles
// themselves, so the matrix lives in one place (and is unit-tested whole).
#pragma once

#include "cal/store/users.h"

#include <optional>
#include <string_view>

namespace cal {

// Who is asking: a visitor (no user) or an authenticated user.
struct Caller {
  std::optional<User> user;
  bool is_visitor() const { return !user.has_value(); }
  long long id() const { return user ? user->id : 0; }
};

// What a write route needs before anything else is looked at (the route table's column).
enum class Capability {
  kNone,              // read routes: anyone
  kEditPosts,         // events, venues, organizers: contributors and above
  kManageCategories,  // authors and above
  kManageTags,        // editors and above
};

bool has_capability(const Caller& caller, Capability capability);

// Post statuses that count as "published" for the matrix (visible to everyone).
bool is_published_status(std::string_view status);

// May the caller read a record of this owner and status? (trash is handled by the handlers)
bool can_read_post(const Caller& caller, long long owner, std::string_view status);
// May the caller see other users' unpublished records in lists?
bool can_read_others_unpublished(const Caller& caller);
// May the caller edit or delete (trash) this record?
bool can_edit_post(const Caller& caller, long long owner, std::string_view status);
// May the caller give a record of this owner the status publish/future?
bool can_publish_post(const Caller& caller, long long owner);
// Force delete, setting another author.
bool can_force_delete(const Caller& caller);
bool can_edit_others(const Caller& caller);
// May the caller store arbitrary HTML (else it is sanitized)?
bool can_post_unfiltered_html(const Caller& caller);

}  // namespace cal
