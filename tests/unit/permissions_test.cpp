// The whole role matrix of docs/api.md §7, one row per (role, action, ownership, status).
#include "cal/api/access/permissions.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using cal::Caller;
using cal::Role;

Caller as(Role role, long long id = 7) { return Caller{cal::User{id, "u", role, {}}}; }
const Caller kVisitor{};

constexpr long long kSelf = 7;
constexpr long long kOther = 8;

struct CapabilityCase {
  const char* who;
  std::optional<Role> role;
  bool edit_posts, manage_categories, manage_tags, force_delete, edit_others, unfiltered_html,
      others_unpublished;
};

const CapabilityCase kCapabilityCases[] = {
    {"administrator", Role::kAdministrator, true, true, true, true, true, true, true},
    {"editor", Role::kEditor, true, true, true, true, true, true, true},
    {"author", Role::kAuthor, true, true, false, false, false, false, false},
    {"contributor", Role::kContributor, true, false, false, false, false, false, false},
    {"subscriber", Role::kSubscriber, false, false, false, false, false, false, false},
    {"visitor", std::nullopt, false, false, false, false, false, false, false},
};

struct RecordCase {
  const char* who;
  std::optional<Role> role;
  long long owner;
  const char* status;
  bool read, edit, publish;
};

const RecordCase kRecordCases[] = {
    {"admin others draft", Role::kAdministrator, kOther, "draft", true, true, true},
    {"admin others publish", Role::kAdministrator, kOther, "publish", true, true, true},
    {"editor others pending", Role::kEditor, kOther, "pending", true, true, true},
    {"editor others private", Role::kEditor, kOther, "private", true, true, true},
    {"author own draft", Role::kAuthor, kSelf, "draft", true, true, true},
    {"author own publish", Role::kAuthor, kSelf, "publish", true, true, true},
    {"author others draft", Role::kAuthor, kOther, "draft", false, false, false},
    {"author others publish", Role::kAuthor, kOther, "publish", true, false, false},
    {"contributor own draft", Role::kContributor, kSelf, "draft", true, true, false},
    {"contributor own pending", Role::kContributor, kSelf, "pending", true, true, false},
    {"contributor own publish", Role::kContributor, kSelf, "publish", true, false, false},
    {"contributor own future", Role::kContributor, kSelf, "future", true, false, false},
    {"contributor others draft", Role::kContributor, kOther, "draft", false, false, false},
    {"contributor others publish", Role::kContributor, kOther, "publish", true, false, false},
    {"subscriber own draft", Role::kSubscriber, kSelf, "draft", false, false, false},
    {"subscriber publish", Role::kSubscriber, kOther, "publish", true, false, false},
    {"visitor publish", std::nullopt, kOther, "publish", true, false, false},
    {"visitor draft", std::nullopt, kOther, "draft", false, false, false},
    {"visitor private", std::nullopt, kOther, "private", false, false, false},
};

Caller caller_of(const std::optional<Role>& role) { return role ? as(*role) : kVisitor; }

}  // namespace

TEST_CASE("capabilities per role follow docs/api.md §7") {
  for (const auto& c : kCapabilityCases) {
    CAPTURE(std::string(c.who));
    const Caller caller = caller_of(c.role);
    CHECK(cal::has_capability(caller, cal::Capability::kNone));
    CHECK(cal::has_capability(caller, cal::Capability::kEditPosts) == c.edit_posts);
    CHECK(cal::has_capability(caller, cal::Capability::kManageCategories) == c.manage_categories);
    CHECK(cal::has_capability(caller, cal::Capability::kManageTags) == c.manage_tags);
    CHECK(cal::can_force_delete(caller) == c.force_delete);
    CHECK(cal::can_edit_others(caller) == c.edit_others);
    CHECK(cal::can_post_unfiltered_html(caller) == c.unfiltered_html);
    CHECK(cal::can_read_others_unpublished(caller) == c.others_unpublished);
  }
}

TEST_CASE("per-record read, edit and publish rights follow docs/api.md §7") {
  for (const auto& c : kRecordCases) {
    CAPTURE(std::string(c.who));
    const Caller caller = caller_of(c.role);
    CHECK(cal::can_read_post(caller, c.owner, c.status) == c.read);
    CHECK(cal::can_edit_post(caller, c.owner, c.status) == c.edit);
    CHECK(cal::can_publish_post(caller, c.owner) == c.publish);
  }
}
