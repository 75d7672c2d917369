// The state of one run of `calendarctl import-wordpress` (wordpress_import.h) and its steps:
// what was imported before, the ids and slugs taken here, and where each WordPress record went.
// Its definitions: the site, the posts and the run in wordpress_import.cpp; authors, categories
// and tags in wordpress_import_people.cpp.
#pragma once

#include "wordpress_import.h"
#include "wordpress_records.h"

#include "cal/core/text/digest.h"
#include "cal/store/terms.h"
#include "cal/store/wordpress_target.h"

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cal {

// The SHA-256 of a record's fields, to tell a changed record from an unchanged one.
class Fingerprint {
 public:
  Fingerprint& operator<<(const std::string& field) {
    text_ += field;
    text_ += '\x1f';
    return *this;
  }
  Fingerprint& operator<<(long long n) { return *this << std::to_string(n); }
  Fingerprint& operator<<(const PostRow& r) {
    return *this << r.status << r.status_before_trash << r.author << r.title << r.content << r.excerpt
                 << r.slug << r.password << r.parent << r.image_id << r.date_local << r.date_utc
                 << r.modified_local << r.modified_utc;
  }
  std::string digest() const { return sha256_bytes(text_); }

 private:
  std::string text_;
};

// One run: reads `source` (inside its snapshot) and writes `db` (inside the caller's transaction).
class WordPressImporter {
 public:
  WordPressImporter(WordPressSource& source, Db& db, const WordPressImportSettings& settings,
                    ImportReport& report)
      : source_(source), db_(db), settings_(settings), report_(report) {}

  // The whole copy, in order: site, authors, categories and tags, venues, organizers, events.
  void run();

 private:
  // The site's options: its name here (key_), zone and currency rules, the uploads URL.
  void read_site();
  // Counts the WordPress posts that are not ours, by reason.
  void count_not_ours();
  // The authors of the posts to import, as users here (wordpress_import_people.cpp).
  void import_users();
  // Our user of a WordPress author; 0, reported, when WordPress has no such user.
  long long author(long long wp_id, const char* kind, long long post_id);
  // Every category, parents first, and the tags events use (wordpress_import_people.cpp).
  void import_terms();
  // One term, under `parent` (our id); returns our id.
  long long import_term(const WpTerm& t, long long parent);
  // `wanted` or, when taken here, the first free suffixed slug (reported); then taken.
  std::string free_term_slug(Taxonomy tax, const std::string& wanted, long long wp_id, const char* kind);
  std::string free_post_slug(PostType type, const std::string& wanted, long long wp_id, const char* kind);
  // Writes `row` (the WordPress post `wp_id`) as a new or an updated record, then its details
  // through `details(id, fresh)`. Returns our id.
  long long upsert(long long wp_id, PostRow row, const std::string& fingerprint, const char* kind,
                   const std::function<void(long long, bool)>& details);
  // Our id and slug for a new record: WordPress's where free here, else the next free id and
  // the slug with a suffix, reported. Sets row.id and row.slug and takes both.
  long long place_new(PostRow& row, long long wp_id, const char* kind);
  // Whether the WordPress post was imported before and its record is still here.
  bool imported_before(long long wp_id) const;
  // The new events queued in this round, written together.
  void flush_new_events();
  // The images (attachments) of `wp_ids` not imported yet in this run.
  void import_images(const std::vector<long long>& wp_ids);
  // Every post of `wp_type` (venues, organizers or events), in batches.
  void import_posts(const std::string& wp_type, PostType type, const char* kind);
  // Our venue or organizer of an id an event links to; 0, reported, when it is none.
  long long linked(long long wp_id, const char* what, long long event_id);
  // One event: a new one queued for the bulk insert, one imported before updated if it changed.
  void import_event(const WpPost& post, const WpMeta& m, PostRow& row, bool recurring_ct1);

  WordPressSource& source_;
  Db& db_;
  const WordPressImportSettings& settings_;
  ImportReport& report_;
  WpSiteRules rules_;
  std::string uploads_;
  std::string key_;  // the site in wordpress_imports
  std::map<std::pair<WpIdSpace, long long>, ImportedRecord> imports_;
  std::unordered_set<long long> taken_ids_;
  std::unordered_set<std::string> taken_slugs_[4];
  std::unordered_set<long long> taken_term_ids_;
  std::unordered_set<std::string> taken_term_slugs_[2];
  long long next_post_id_ = 1, next_term_id_ = 1;
  std::unordered_map<long long, long long> users_, images_, linked_;
  std::unordered_map<long long, std::pair<Taxonomy, long long>> terms_;  // term_taxonomy_id → ours
  std::unordered_map<long long, std::vector<long long>> event_terms_;    // event → term_taxonomy_ids
  std::vector<ImportedEvent> new_events_;
};

}  // namespace cal
