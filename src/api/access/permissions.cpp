// docs/api.md §7 role matrix (see cal/api/access/permissions.h).
#include "cal/api/access/permissions.h"

namespace cal {
namespace {

bool at_least(const Caller& caller, Role role) {
  // Roles are declared from most to least powerful.
  return caller.user && static_cast<int>(caller.user->role) <= static_cast<int>(role);
}

bool owns(const Caller& caller, long long owner) { return caller.user && caller.user->id == owner; }

}  // namespace

bool has_capability(const Caller& caller, Capability capability) {
  switch (capability) {
    case Capability::kNone:
      return true;
    case Capability::kEditPosts:
      return at_least(caller, Role::kContributor);
    case Capability::kManageCategories:
      return at_least(caller, Role::kAuthor);
    case Capability::kManageTags:
      return at_least(caller, Role::kEditor);
  }
  return false;
}

bool is_published_status(std::string_view status) { return status == "publish"; }

bool can_read_others_unpublished(const Caller& caller) { return at_least(caller, Role::kEditor); }

bool can_read_post(const Caller& caller, long long owner, std::string_view status) {
  if (is_published_status(status)) return true;
  if (can_read_others_unpublished(caller)) return true;
  return at_least(caller, Role::kContributor) && owns(caller, owner);
}

bool can_edit_post(const Caller& caller, long long owner, std::string_view status) {
  if (at_least(caller, Role::kEditor)) return true;
  if (!owns(caller, owner)) return false;
  if (at_least(caller, Role::kAuthor)) return true;
  if (at_least(caller, Role::kContributor)) return status != "publish" && status != "future";
  return false;
}

bool can_publish_post(const Caller& caller, long long owner) {
  if (at_least(caller, Role::kEditor)) return true;
  return at_least(caller, Role::kAuthor) && owns(caller, owner);
}

bool can_force_delete(const Caller& caller) { return at_least(caller, Role::kEditor); }
bool can_edit_others(const Caller& caller) { return at_least(caller, Role::kEditor); }
bool can_post_unfiltered_html(const Caller& caller) { return at_least(caller, Role::kEditor); }

}  // namespace cal
