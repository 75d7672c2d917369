// SQL of users and application passwords (see cal/store/users.h).
#include "cal/store/users.h"

#include <array>

namespace cal {
namespace {

constexpr std::array<std::pair<std::string_view, Role>, 5> kRoles = {{
    {"administrator", Role::kAdministrator},
    {"editor", Role::kEditor},
    {"author", Role::kAuthor},
    {"contributor", Role::kContributor},
    {"subscriber", Role::kSubscriber},
}};

std::string hash_bytes(const PasswordHash& hash) {
  return std::string(reinterpret_cast<const char*>(hash.data()), hash.size());
}

User user_from_row(const Rows& rows) {
  User u;
  u.id = rows.integer(0);
  u.login = rows.text(1);
  u.role = role_from_name(rows.text(2)).value_or(Role::kSubscriber);
  return u;
}

}  // namespace

std::optional<Role> role_from_name(std::string_view name) {
  for (const auto& [n, r] : kRoles)
    if (n == name) return r;
  return std::nullopt;
}

const char* role_name(Role role) {
  for (const auto& [n, r] : kRoles)
    if (r == role) return n.data();
  return "subscriber";
}

std::optional<User> find_user_by_password_hash(Db& db, const PasswordHash& hash) {
  Rows rows = db.query(
      "SELECT u.id, u.login, u.role, p.password_hash FROM app_passwords p "
      "JOIN users u ON u.id = p.user_id WHERE p.password_hash = ?",
      {hash_bytes(hash)});
  if (!rows.next()) return std::nullopt;
  User u = user_from_row(rows);
  const std::string stored = rows.text(3);
  if (stored.size() != u.matched_hash.size()) return std::nullopt;
  std::copy(stored.begin(), stored.end(), u.matched_hash.begin());
  return u;
}

std::optional<User> find_user_by_login(Db& db, std::string_view login) {
  Rows rows = db.query("SELECT id, login, role FROM users WHERE login = ?", {std::string(login)});
  if (!rows.next()) return std::nullopt;
  return user_from_row(rows);
}

bool user_exists(Db& db, long long id) {
  Rows rows = db.query("SELECT 1 FROM users WHERE id = ?", {id});
  return rows.next();
}

long long add_user(Db& db, std::string_view login, Role role) {
  db.execute("INSERT INTO users (login, display_name, role) VALUES (?, ?, ?)",
             {std::string(login), std::string(login), std::string(role_name(role))});
  return db.last_insert_id();
}

std::vector<User> list_users(Db& db) {
  std::vector<User> users;
  Rows rows = db.query("SELECT id, login, role FROM users ORDER BY id");
  while (rows.next()) users.push_back(user_from_row(rows));
  return users;
}

void add_password(Db& db, long long user_id, const PasswordHash& hash) {
  db.execute("INSERT INTO app_passwords (user_id, password_hash) VALUES (?, ?)", {user_id, hash_bytes(hash)});
}

long long revoke_passwords(Db& db, long long user_id) {
  return db.execute("DELETE FROM app_passwords WHERE user_id = ?", {user_id});
}

}  // namespace cal
