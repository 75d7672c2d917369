// Users, their roles and application passwords (tables users, app_passwords).
#pragma once

#include "cal/core/passwords.h"
#include "cal/store/db.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

enum class Role { kAdministrator, kEditor, kAuthor, kContributor, kSubscriber };

// "administrator" → kAdministrator ...; nullopt for unknown names.
std::optional<Role> role_from_name(std::string_view name);
const char* role_name(Role role);

struct User {
  long long id = 0;
  std::string login;
  Role role = Role::kSubscriber;
  PasswordHash matched_hash{};  // the hash of the password this user authenticated with
};

// The user owning an application password with this hash, or nullopt.
std::optional<User> find_user_by_password_hash(Db& db, const PasswordHash& hash);
std::optional<User> find_user_by_login(Db& db, std::string_view login);
// Whether a user with this id exists (authors named in writes).
bool user_exists(Db& db, long long id);
// Creates a user; throws DuplicateKey when the login is taken. Returns the new id.
long long add_user(Db& db, std::string_view login, Role role);
std::vector<User> list_users(Db& db);
// Stores a password hash for the user.
void add_password(Db& db, long long user_id, const PasswordHash& hash);
// Deletes every application password of the user; returns how many.
long long revoke_passwords(Db& db, long long user_id);

}  // namespace cal
