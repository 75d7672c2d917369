// The WordPress copy (see wordpress_import.h, wordpress_importer.h): the site, the run, and the
// posts: venues, organizers, then events in batches with the images they show; every record
// through the wordpress_imports map, so a second run updates.
#include "wordpress_import.h"

#include "wordpress_importer.h"
#include "wordpress_records.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/digest.h"
#include "cal/core/text/slug.h"
#include "cal/core/wordpress/php_serialized.h"
#include "cal/core/wordpress/tec_fields.h"
#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/terms.h"
#include "cal/store/venues.h"
#include "cal/store/wordpress_target.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace cal {
namespace {

constexpr long long kBatch = 2000;  // WordPress posts read (and new events written) per round

const std::vector<std::string> kImportedStatuses = {"publish", "future",  "draft",
                                                    "pending", "private", "trash"};

bool importable(const std::string& status) {
  return std::find(kImportedStatuses.begin(), kImportedStatuses.end(), status) != kImportedStatuses.end();
}

// Why a WordPress post that is not an event, venue or organizer is left out.
std::string not_ours_reason(const std::string& type) {
  if (type == "revision") return "revisions";
  if (type == "tribe-ea-record") return "Event Aggregator records";
  if (type == "tribe_event_series") return "event series (Pro)";
  if (type.find("ticket") != std::string::npos || type.find("attendee") != std::string::npos ||
      type.rfind("tribe_tpp", 0) == 0 || type.rfind("tec_tickets", 0) == 0)
    return "tickets and attendees";
  return "posts of type " + type;
}

}  // namespace

void WordPressImporter::run() {
  read_site();
  count_not_ours();
  imports_ = load_wordpress_imports(db_, key_);
  taken_ids_ = taken_post_ids(db_);
  for (PostType t : {PostType::kEvent, PostType::kVenue, PostType::kOrganizer, PostType::kAttachment})
    for (const auto& s : taken_post_slugs(db_, t)) taken_slugs_[static_cast<int>(t)].insert(ascii::lower(s));
  const auto range = source_.post_id_range({"tribe_events", "tribe_venue", "tribe_organizer", "attachment"});
  next_post_id_ = range.second + 1;
  for (long long id : taken_ids_) next_post_id_ = std::max(next_post_id_, id + 1);
  import_users();
  import_terms();
  import_posts("tribe_venue", PostType::kVenue, "venue");
  import_posts("tribe_organizer", PostType::kOrganizer, "organizer");
  import_posts("tribe_events", PostType::kEvent, "event");
}

void WordPressImporter::read_site() {
  const auto options = source_.options({"timezone_string", "gmt_offset", "siteurl", "home", "blogname",
                                        "upload_url_path", "tribe_events_calendar_options"});
  const auto option = [&](const char* name) {
    const auto it = options.find(name);
    return it == options.end() ? std::string() : it->second;
  };
  std::string siteurl = option("siteurl");
  while (!siteurl.empty() && siteurl.back() == '/') siteurl.pop_back();
  report_.source = siteurl.empty() ? settings_.fallback_source : siteurl;
  // The site's name in wordpress_imports: its URL and its tables' prefix. A copy of the site in
  // another database (a dump loaded elsewhere) is the same site; TEC's own test dumps show
  // that two different installs may share a URL, but then not their prefix.
  key_ = report_.source + " " + settings_.site_prefix;
  if (key_.size() > 191) key_ = key_.substr(0, 191);
  report_.site_name = option("blogname");
  const std::string tec_zone = tec_site_timezone(option("timezone_string"), option("gmt_offset"));
  if (const auto ours = our_timezone(tec_zone)) {
    rules_.zone = *TimeZone::find(*ours);
  } else {
    report_.change("site", 0, 0, "timezone", "unknown site zone " + tec_zone + ": UTC");
  }
  rules_.zone_name = rules_.zone.name();
  report_.site_timezone = rules_.zone_name;
  if (const auto tec = parse_php_serialized(option("tribe_events_calendar_options"))) {
    if (const PhpValue* symbol = tec->find("defaultCurrencySymbol"); symbol && !symbol->as_text().empty())
      rules_.currency_symbol = symbol->as_text();
    if (const PhpValue* reverse = tec->find("reverseCurrencyPosition"))
      rules_.currency_after = reverse->truthy();
  }
  uploads_ = option("upload_url_path");
  if (uploads_.empty()) {
    uploads_ = siteurl + "/wp-content/uploads";
    if (settings_.site > 1) uploads_ += "/sites/" + std::to_string(settings_.site);
  }
  set_option(db_, "wordpress_site_name", report_.site_name);
  set_option(db_, "wordpress_site_timezone", report_.site_timezone);
}

void WordPressImporter::count_not_ours() {
  for (const auto& [type, status, n] : source_.post_counts()) {
    const char* kind = type == "tribe_events"      ? "event"
                       : type == "tribe_venue"     ? "venue"
                       : type == "tribe_organizer" ? "organizer"
                                                   : nullptr;
    if (kind) {
      if (importable(status)) continue;
      report_.counts[kind].skipped += n;
      report_.not_ours[status == "auto-draft"      ? std::string("auto-drafts")
                       : status == "tribe-ignored" ? std::string("ignored events (tribe-ignored)")
                                                   : std::string(kind) + "s with status " + status] += n;
    } else if (type != "attachment") {
      report_.not_ours[not_ours_reason(type)] += n;
    }
  }
}

std::string WordPressImporter::free_post_slug(PostType type, const std::string& wanted, long long wp_id,
                                              const char* kind) {
  auto& taken = taken_slugs_[static_cast<int>(type)];
  std::string slug = wanted;
  for (int n = 2; taken.count(ascii::lower(slug)); ++n) slug = slug_with_suffix(wanted, n);
  if (slug != wanted) report_.change(kind, wp_id, 0, "slug", wanted + " taken here: " + slug);
  taken.insert(ascii::lower(slug));
  return slug;
}

// Writes `row` (the WordPress post `wp_id`) as a new or an updated record, then its details
// through `details(id, fresh)`. Returns our id.
long long WordPressImporter::upsert(long long wp_id, PostRow row, const std::string& fingerprint,
                                    const char* kind, const std::function<void(long long, bool)>& details) {
  ImportCounts& counts = report_.counts[kind];
  const auto key = std::make_pair(WpIdSpace::kPost, wp_id);
  if (const auto it = imports_.find(key); it != imports_.end() && taken_ids_.count(it->second.target_id)) {
    const long long id = it->second.target_id;
    if (id != wp_id) report_.change(kind, wp_id, id, "id", "imported under this id before");
    if (it->second.fingerprint == fingerprint) {
      ++counts.unchanged;
      return id;
    }
    const auto current = find_post(db_, row.type, id);
    if (!current)
      throw std::runtime_error(std::string(kind) + " " + std::to_string(id) + " changed type here");
    row.id = id;
    if (ascii::lower(current->slug) != ascii::lower(row.slug)) {
      taken_slugs_[static_cast<int>(row.type)].erase(ascii::lower(current->slug));
      row.slug = free_post_slug(row.type, row.slug, wp_id, kind);
    } else {
      row.slug = current->slug;
    }
    update_post(db_, row, false);
    details(id, false);
    save_wordpress_import(db_, key_, WpIdSpace::kPost, wp_id, {id, fingerprint});
    ++counts.updated;
    return id;
  }
  const long long id = place_new(row, wp_id, kind);
  insert_post_with_id(db_, row);
  details(id, true);
  save_wordpress_import(db_, key_, WpIdSpace::kPost, wp_id, {id, fingerprint});
  ++counts.imported;
  return id;
}

// Our id and slug for a new record: WordPress's where free here, else the next free id and
// the slug with a suffix, reported. Sets row.id and row.slug and takes both.
long long WordPressImporter::place_new(PostRow& row, long long wp_id, const char* kind) {
  long long id = wp_id;
  if (taken_ids_.count(id)) {
    id = next_post_id_++;
    report_.change(kind, wp_id, id, "id", "id taken here by another record");
  }
  row.id = id;
  row.slug = free_post_slug(row.type, row.slug, wp_id, kind);
  taken_ids_.insert(id);
  return id;
}

// Whether the WordPress post was imported before and its record is still here.
bool WordPressImporter::imported_before(long long wp_id) const {
  const auto it = imports_.find({WpIdSpace::kPost, wp_id});
  return it != imports_.end() && taken_ids_.count(it->second.target_id);
}

// The new events queued in this round, written together.
void WordPressImporter::flush_new_events() {
  insert_imported_events(db_, key_, new_events_);
  report_.counts["event"].imported += static_cast<long long>(new_events_.size());
  new_events_.clear();
}

// The images (attachments) of `wp_ids` not imported yet in this run.
void WordPressImporter::import_images(const std::vector<long long>& wp_ids) {
  std::vector<long long> wanted;
  for (long long id : wp_ids)
    if (id && !images_.count(id)) wanted.push_back(id);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  if (wanted.empty()) return;
  for (long long id : wanted) images_[id] = 0;
  auto files = source_.meta_of({"_wp_attached_file"}, wanted);
  for (const WpPost& post : source_.posts_by_id(wanted)) {
    const std::string file = first_meta(files[post.id], "_wp_attached_file").value_or("");
    if (post.type != "attachment" || file.empty()) continue;
    const std::string url = wp_attachment_url(uploads_, file);
    PostRow row = wp_post_row(post, {}, PostType::kAttachment, rules_, "image", report_);
    row.status = "publish";  // WordPress's `inherit`: shown wherever it is used
    row.status_before_trash.clear();
    row.title = url;
    row.content.clear();
    row.excerpt.clear();
    row.password.clear();
    row.parent = 0;
    row.author = author(post.author, "image", post.id);
    const std::string fingerprint = (Fingerprint() << row << url).digest();
    const auto key = std::make_pair(WpIdSpace::kPost, post.id);
    if (imports_.find(key) == imports_.end()) {
      if (const auto same = find_image_by_url(db_, url)) {
        images_[post.id] = *same;
        report_.change("image", post.id, *same, "url",
                       "the same URL is image " + std::to_string(*same) + " here");
        if (*same != post.id) report_.change("image", post.id, *same, "id", "the image with that URL here");
        save_wordpress_import(db_, key_, WpIdSpace::kPost, post.id, {*same, fingerprint});
        ++report_.counts["image"].unchanged;
        continue;
      }
    }
    images_[post.id] =
        upsert(post.id, row, fingerprint, "image", [&](long long id, bool) { save_image_url(db_, id, url); });
  }
}

void WordPressImporter::import_posts(const std::string& wp_type, PostType type, const char* kind) {
  const bool events = type == PostType::kEvent;
  long long total = 0;  // for the progress line
  for (const auto& [t, status, n] : source_.post_counts())
    if (t == wp_type) total += n;
  const std::set<long long> recurring = [&] {
    std::set<long long> out;
    if (events)
      for (long long id : source_.recurring_ct1_posts()) out.insert(id);
    return out;
  }();
  long long done = 0, read = 0;
  for (long long after = 0;;) {
    auto posts = source_.posts_after({wp_type}, after, kBatch);
    if (posts.empty()) break;
    after = posts.back().id;
    read += static_cast<long long>(posts.size());
    auto meta = source_.meta(kWpMetaKeys, posts.front().id, posts.back().id);
    std::vector<long long> thumbnails;
    for (const auto& p : posts) thumbnails.push_back(wp_thumbnail(meta[p.id]));
    import_images(thumbnails);
    for (const WpPost& post : posts) {
      if (!importable(post.status)) continue;
      const WpMeta& m = meta[post.id];
      if (events && post.parent != 0) {
        // Before TEC 6.0, Pro kept each occurrence of a series as a child post of the first.
        ++report_.counts[kind].skipped;
        ++report_.not_ours["occurrences of recurring events (child posts)"];
        continue;
      }
      PostRow row = wp_post_row(post, m, type, rules_, kind, report_);
      row.author = author(post.author, kind, post.id);
      row.parent = 0;
      const long long thumbnail = wp_thumbnail(m);
      row.image_id = thumbnail ? images_[thumbnail] : 0;
      if (thumbnail && !row.image_id)
        report_.change(kind, post.id, 0, "image",
                       "featured image " + std::to_string(thumbnail) + " is no image in WordPress");
      if (type == PostType::kVenue) {
        const VenueDetails d = wp_venue_details(m);
        Fingerprint f;
        f << row << d.address << d.city << d.country << d.province << d.state << d.zip << d.phone << d.website
          << d.stateprovince << d.show_map << d.show_map_link
          << (d.geo_lat ? std::to_string(*d.geo_lat) + "," + std::to_string(*d.geo_lng) : "");
        linked_[post.id] = upsert(post.id, row, f.digest(), kind,
                                  [&](long long id, bool) { save_venue_details(db_, id, d); });
      } else if (type == PostType::kOrganizer) {
        const OrganizerDetails d = wp_organizer_details(m);
        const std::string fp = (Fingerprint() << row << d.phone << d.website << d.email).digest();
        linked_[post.id] =
            upsert(post.id, row, fp, kind, [&](long long id, bool) { save_organizer_details(db_, id, d); });
      } else {
        import_event(post, m, row, recurring.count(post.id) > 0);
      }
      ++done;
    }
    if (events) flush_new_events();
    if (settings_.progress && events)
      settings_.progress(
          done, total > 0 ? std::min(1.0, static_cast<double>(read) / static_cast<double>(total)) : 1.0);
  }
}

long long WordPressImporter::linked(long long wp_id, const char* what, long long event_id) {
  if (wp_id == 0) return 0;
  if (const auto it = linked_.find(wp_id); it != linked_.end()) return it->second;
  report_.change("event", event_id, 0, what,
                 std::string(what) + " " + std::to_string(wp_id) +
                     " is not a venue or organizer in WordPress: link dropped");
  return 0;
}

void WordPressImporter::import_event(const WpPost& post, const WpMeta& m, PostRow& row, bool recurring_ct1) {
  const auto details = wp_event_details(post, m, rules_, report_);
  if (!details) {
    ++report_.counts["event"].skipped;
    return;
  }
  if (recurring_ct1 || wp_has_recurrence_rules(m))
    report_.change("event", post.id, 0, "", "recurring series: only its first occurrence is imported");
  const long long venue = linked(wp_event_venue(m), "venue", post.id);
  std::vector<long long> organizers;
  for (long long o : wp_event_organizers(m))
    if (const long long id = linked(o, "organizer", post.id)) organizers.push_back(id);
  std::vector<long long> categories, tags;
  for (long long tt : event_terms_[post.id]) {
    const auto it = terms_.find(tt);
    if (it == terms_.end()) continue;
    (it->second.first == Taxonomy::kCategory ? categories : tags).push_back(it->second.second);
  }
  const EventDetails& d = *details;
  Fingerprint f;
  f << row << d.start_local << d.end_local << d.start_utc << d.end_utc << d.timezone << d.all_day << d.cost
    << d.website << d.show_map << d.show_map_link << d.hide_from_listings << d.sticky << d.featured << venue;
  for (long long o : organizers) f << o;
  f << "c";
  for (long long c : categories) f << c;
  f << "t";
  for (long long t : tags) f << t;
  if (!imported_before(post.id)) {
    place_new(row, post.id, "event");
    new_events_.push_back(ImportedEvent{row, d, venue, organizers, categories, tags, post.id, f.digest()});
    return;
  }
  upsert(post.id, row, f.digest(), "event", [&](long long id, bool fresh) {
    save_event_details(db_, id, d);
    if (venue || !fresh) set_event_venue(db_, id, venue);
    if (!organizers.empty() || !fresh) set_event_organizers(db_, id, organizers, fresh);
    if (!categories.empty() || !fresh) set_event_terms(db_, id, Taxonomy::kCategory, categories, fresh);
    if (!tags.empty() || !fresh) set_event_terms(db_, id, Taxonomy::kTag, tags, fresh);
  });
}

void import_wordpress(WordPressSource& source, Db& target, const WordPressImportSettings& settings,
                      ImportReport& report) {
  report.dry_run = settings.dry_run;
  report.site = settings.site;
  for (const char* kind : kImportKinds)
    if (std::string(kind) != "site") report.counts[kind];
  Transaction tx(target);
  WordPressImporter(source, target, settings, report).run();
  if (!settings.dry_run) tx.commit();  // a dry run's writes roll back with `tx`
}

}  // namespace cal
