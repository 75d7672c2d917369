// Authors, categories and tags of a WordPress import (see wordpress_importer.h): users with their
// role on the site, the category tree parents first, the tags events use; each kept under its
// WordPress id where free, or merged with the one of the same login or name here.
#include "wordpress_importer.h"

#include "cal/core/passwords.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/slug.h"
#include "cal/core/wordpress/php_serialized.h"
#include "cal/store/users.h"

#include <unordered_map>
#include <unordered_set>

namespace cal {

void WordPressImporter::import_users() {
  const auto ids = source_.authors({"tribe_events", "tribe_venue", "tribe_organizer"});
  for (const WpUser& u : source_.users(ids)) {
    ImportCounts& counts = report_.counts["user"];
    Role role = Role::kSubscriber;
    std::string why;
    const auto caps = parse_php_serialized(u.capabilities);
    bool found = false;
    if (caps && caps->kind == PhpValue::Kind::kArray) {
      for (const auto& [name, granted] : caps->items) {
        if (!granted.truthy()) continue;
        if (const auto r = role_from_name(name.as_text())) {
          role = *r;
          found = true;
          break;
        }
        if (why.empty()) why = "role " + name.as_text() + " is not one of ours: subscriber";
      }
    }
    if (!found && why.empty()) why = "no role on this site: subscriber";
    const std::string display = u.display_name.empty() ? u.login : u.display_name;
    const std::string fingerprint = (Fingerprint() << u.login << display << role_name(role)).digest();
    const auto key = std::make_pair(WpIdSpace::kUser, u.id);
    if (const auto it = imports_.find(key);
        it != imports_.end() && user_id_taken(db_, it->second.target_id)) {
      users_[u.id] = it->second.target_id;
      if (it->second.target_id != u.id)
        report_.change("user", u.id, it->second.target_id, "id", "imported under this id before");
      if (it->second.fingerprint == fingerprint) {
        ++counts.unchanged;
        continue;
      }
      write_user(db_, it->second.target_id, display, role);
      save_wordpress_import(db_, key_, WpIdSpace::kUser, u.id, {it->second.target_id, fingerprint});
      ++counts.updated;
      continue;
    }
    if (!found) report_.change("user", u.id, 0, "role", why);
    if (const auto same = find_user_by_login(db_, u.login)) {
      users_[u.id] = same->id;
      report_.change("user", u.id, same->id, "login",
                     "login " + u.login + " exists here: its records go to that user, whose role stays");
      if (same->id != u.id) report_.change("user", u.id, same->id, "id", "the user with that login here");
      save_wordpress_import(db_, key_, WpIdSpace::kUser, u.id, {same->id, fingerprint});
      ++counts.unchanged;
      continue;
    }
    const bool id_free = !user_id_taken(db_, u.id);
    const std::string created = parse_sql_date_time(u.registered) ? u.registered : "1970-01-01 00:00:00";
    const long long id = insert_user_with_id(db_, id_free ? u.id : 0, u.login, display, role, created);
    if (!id_free) report_.change("user", u.id, id, "id", "id taken here by another user");
    // WordPress's password hashes cannot be carried over: a new application password, once.
    const std::string password = generate_app_password();
    add_password(db_, id, hash_app_password(password));
    if (!settings_.dry_run) report_.new_passwords.emplace_back(u.login, password);
    users_[u.id] = id;
    save_wordpress_import(db_, key_, WpIdSpace::kUser, u.id, {id, fingerprint});
    ++counts.imported;
  }
}

long long WordPressImporter::author(long long wp_id, const char* kind, long long post_id) {
  if (wp_id == 0) return 0;
  if (const auto it = users_.find(wp_id); it != users_.end()) return it->second;
  report_.change(kind, post_id, 0, "author",
                 "author " + std::to_string(wp_id) + " is no user in WordPress: none");
  return 0;
}

void WordPressImporter::import_terms() {
  for (const auto& [object, tt] : source_.relationships("tribe_events", {"tribe_events_cat", "post_tag"}))
    event_terms_[object].push_back(tt);
  std::unordered_set<long long> used;
  for (const auto& [object, list] : event_terms_) used.insert(list.begin(), list.end());
  std::vector<WpTerm> pending;
  for (auto& t : source_.terms({"tribe_events_cat", "post_tag"}))
    if (t.taxonomy == "tribe_events_cat" || used.count(t.term_taxonomy_id)) pending.push_back(std::move(t));
  taken_term_ids_ = taken_term_ids(db_);
  for (Taxonomy tax : {Taxonomy::kCategory, Taxonomy::kTag})
    for (const auto& s : taken_term_slugs(db_, tax))
      taken_term_slugs_[static_cast<int>(tax)].insert(ascii::lower(s));
  for (long long id : taken_term_ids_) next_term_id_ = std::max(next_term_id_, id + 1);
  for (const auto& t : pending) next_term_id_ = std::max(next_term_id_, t.term_id + 1);
  // Parents first: a category is written once its parent has its id here.
  std::unordered_map<long long, long long> category_ids;  // WordPress term_id → ours
  while (!pending.empty()) {
    std::vector<WpTerm> later;
    for (auto& t : pending) {
      const bool category = t.taxonomy == "tribe_events_cat";
      if (category && t.parent != 0 && !category_ids.count(t.parent)) {
        later.push_back(std::move(t));
        continue;
      }
      const long long id = import_term(t, category ? category_ids[t.parent] : 0);
      if (category) category_ids[t.term_id] = id;
    }
    if (later.size() == pending.size()) {
      // Parents that are missing or form a loop: these become top-level categories.
      for (auto& t : later) {
        report_.change("category", t.term_id, 0, "parent",
                       "parent " + std::to_string(t.parent) + " is no category in WordPress: top level");
        t.parent = 0;
      }
    }
    pending = std::move(later);
  }
}

long long WordPressImporter::import_term(const WpTerm& t, long long parent) {
  const bool category = t.taxonomy == "tribe_events_cat";
  const char* kind = category ? "category" : "tag";
  const Taxonomy tax = category ? Taxonomy::kCategory : Taxonomy::kTag;
  ImportCounts& counts = report_.counts[kind];
  Term term;
  term.taxonomy = tax;
  term.name = t.name;
  term.description = t.description;
  term.parent = parent;
  term.slug = t.slug.empty() ? slugify(t.name) : t.slug;
  if (term.slug.empty()) term.slug = std::string(kind) + "-" + std::to_string(t.term_id);
  const std::string fingerprint =
      (Fingerprint() << term.name << term.slug << term.description << parent).digest();
  const auto key = std::make_pair(WpIdSpace::kTerm, t.term_taxonomy_id);
  long long id = 0;
  if (const auto it = imports_.find(key);
      it != imports_.end() && term_exists(db_, tax, it->second.target_id)) {
    id = it->second.target_id;
    if (id != t.term_id) report_.change(kind, t.term_id, id, "id", "imported under this id before");
    if (it->second.fingerprint == fingerprint) {
      ++counts.unchanged;
    } else {
      const auto current = find_term(db_, tax, id);
      if (current && ascii::lower(current->slug) != ascii::lower(term.slug))
        term.slug = free_term_slug(tax, term.slug, t.term_id, kind);
      // Our names are unique per level (as a write through the API would find them).
      if (const auto same = find_term_at_level(db_, tax, parent, term.name); same && *same != id && current) {
        report_.change(
            kind, t.term_id, id, "name",
            "another " + std::string(kind) + " here is named " + term.name + ": kept " + current->name);
        term.name = current->name;
      }
      term.id = id;
      write_term(db_, term);
      ++counts.updated;
    }
  } else if (const auto same = find_term_at_level(db_, tax, parent, term.name)) {
    id = *same;
    report_.change(kind, t.term_id, id, "name",
                   "a " + std::string(kind) + " named " + t.name +
                       " exists here at the same level: events get that one");
    if (id != t.term_id)
      report_.change(kind, t.term_id, id, "id", "the " + std::string(kind) + " of that name here");
    ++counts.unchanged;
  } else {
    id = t.term_id;
    if (taken_term_ids_.count(id)) {
      id = next_term_id_++;
      report_.change(kind, t.term_id, id, "id",
                     "id taken here (or by the other taxonomy of a term WordPress shared before 4.2)");
    }
    term.id = id;
    term.slug = free_term_slug(tax, term.slug, t.term_id, kind);
    insert_term_with_id(db_, term);
    taken_term_ids_.insert(id);
    ++counts.imported;
  }
  save_wordpress_import(db_, key_, WpIdSpace::kTerm, t.term_taxonomy_id, {id, fingerprint});
  terms_[t.term_taxonomy_id] = {tax, id};
  return id;
}

std::string WordPressImporter::free_term_slug(Taxonomy tax, const std::string& wanted, long long wp_id,
                                              const char* kind) {
  auto& taken = taken_term_slugs_[static_cast<int>(tax)];
  std::string slug = wanted;
  for (int n = 2; taken.count(ascii::lower(slug)); ++n) slug = slug_with_suffix(wanted, n);
  if (slug != wanted) report_.change(kind, wp_id, 0, "slug", wanted + " taken here: " + slug);
  taken.insert(ascii::lower(slug));
  return slug;
}

}  // namespace cal
