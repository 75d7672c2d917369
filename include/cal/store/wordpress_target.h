// The writes of `calendarctl import-wordpress` beyond the service's own (docs/importing-wordpress.md):
// the table of what was imported from where (wordpress_imports), inserts that keep a WordPress id,
// and the ids and slugs already taken here, read once so the importer can keep ids where they are
// free. Call the writers inside the importer's one transaction.
#pragma once

#include "cal/store/events.h"
#include "cal/store/posts.h"
#include "cal/store/terms.h"
#include "cal/store/users.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

namespace cal {

// The WordPress id spaces: wp_posts.ID, wp_term_taxonomy.term_taxonomy_id, wp_users.ID.
enum class WpIdSpace { kPost, kTerm, kUser };

struct ImportedRecord {
  long long target_id = 0;
  std::string fingerprint;  // 32 bytes
};

// What earlier imports of `source` wrote: (space, WordPress id) → where it went.
std::map<std::pair<WpIdSpace, long long>, ImportedRecord> load_wordpress_imports(Db& db,
                                                                                 const std::string& source);
// Records (or updates) where a WordPress record went.
void save_wordpress_import(Db& db, const std::string& source, WpIdSpace space, long long source_id,
                           const ImportedRecord& record);

// Ids of every post here (any type), and the slugs of one type.
std::unordered_set<long long> taken_post_ids(Db& db);
std::unordered_set<std::string> taken_post_slugs(Db& db, PostType type);
// Ids of every term, and the slugs of one taxonomy.
std::unordered_set<long long> taken_term_ids(Db& db);
std::unordered_set<std::string> taken_term_slugs(Db& db, Taxonomy taxonomy);
// Whether the post / term / user with this id exists here (a mapped target may have been deleted).
bool post_exists(Db& db, PostType type, long long id);
bool term_exists(Db& db, Taxonomy taxonomy, long long id);

// Inserts the row under row.id with row.slug as it is (the caller made both free). Throws
// DuplicateKey when either is taken after all.
void insert_post_with_id(Db& db, const PostRow& row);

// The attachment holding this URL, if any.
std::optional<long long> find_image_by_url(Db& db, const std::string& url);
// The details row of an image attachment whose post row exists (insert or replace).
void save_image_url(Db& db, long long attachment_id, const std::string& url);

// The term of this taxonomy and parent with this name (the service's collation, case-insensitive).
std::optional<long long> find_term_at_level(Db& db, Taxonomy taxonomy, long long parent,
                                            const std::string& name);
// Inserts the term under term.id with term.slug as it is.
void insert_term_with_id(Db& db, const Term& term);
// Writes name, slug, description and parent of the term by id, as they are.
void write_term(Db& db, const Term& term);

// Inserts a user under `id` (0: the next free id); returns the id.
long long insert_user_with_id(Db& db, long long id, const std::string& login, const std::string& display_name,
                              Role role, const std::string& created_utc);
// Writes the display name and role of the user.
void write_user(Db& db, long long id, const std::string& display_name, Role role);
bool user_id_taken(Db& db, long long id);

// A new event of an import, with its links, all ids ours.
struct ImportedEvent {
  PostRow post;  // id and slug already free
  EventDetails details;
  long long venue_id = 0;
  std::vector<long long> organizers, categories, tags;
  long long source_id = 0;
  std::string fingerprint;
};

// Inserts new events in bulk, as `calendarctl demo` does: multi-row statements with the AFTER
// INSERT triggers off (@cal_bulk_load), the copies they keep written directly, and their counts
// (term_counts, event_day_counts, event_duration_hours), the search queue and one data version
// bump done once for all; then records each in wordpress_imports under `source`. The AFTER
// INSERT triggers cost more per row than the inserts themselves. Call inside a transaction.
void insert_imported_events(Db& db, const std::string& source, const std::vector<ImportedEvent>& events);

// Sets the option (table options).
void set_option(Db& db, const std::string& name, const std::string& value);

}  // namespace cal
