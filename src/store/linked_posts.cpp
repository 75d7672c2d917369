// SQL of venues and organizers (see cal/store/linked_posts.h): the lookup by name that creating
// one dedupes with, and the list query, a LinkedFilter as SQL, then the count and the page's ids
// in name order.
#include "cal/store/linked_posts.h"

#include "store/sql_where.h"
#include "cal/store/read_set.h"

namespace cal {
namespace {

// Where each kind lives: its detail table, the link table events use, and the detail columns
// `search` looks in besides the name and the description.
struct LinkedTables {
  const char* type;          // posts.type
  const char* details_join;  // joins the details as alias d
  const char* link_table;
  const char* link_key;
  const char* searched;  // ", d.col, d.col": the extra searched columns
};

const LinkedTables& tables(PostType kind) {
  static const LinkedTables kVenue{
      "venue", " LEFT JOIN venue_details d ON d.venue_id = p.id", "event_venues", "venue_id",
      ", d.address, d.city, d.province, d.state, d.stateprovince, d.zip, d.phone"};
  static const LinkedTables kOrganizer{"organizer", " LEFT JOIN organizer_details d ON d.organizer_id = p.id",
                                       "event_organizers", "organizer_id", ", d.phone, d.email, d.website"};
  return kind == PostType::kVenue ? kVenue : kOrganizer;
}

struct LinkedSql {
  std::string from;  // after "FROM posts p"
  SqlWhere where;    // after "WHERE p.type = ?"
};

LinkedSql linked_sql(PostType kind, const LinkedFilter& f) {
  const LinkedTables& t = tables(kind);
  const std::string link(t.link_table);
  const std::string key(t.link_key);
  LinkedSql q;
  SqlWhere& w = q.where;
  w.args.emplace_back(std::string(t.type));
  add_visibility(w, "p", f.visibility);
  if (!f.search_words.empty()) {
    // The columns' collation makes LIKE case-insensitive; the texts are joined by a character
    // no word holds.
    q.from = t.details_join;
    const std::string haystack = std::string("CONCAT_WS(CHAR(10), p.title, p.content") + t.searched + ")";
    for (const std::string& word : f.search_words)
      w.add(haystack + " LIKE ? ESCAPE '!'").bind(like_contains(word));
  }
  if (f.modified.after)
    w.add("p.modified_utc > ?").bind(format_date_time(to_utc_date_time(*f.modified.after)));
  if (f.modified.before)
    w.add("p.modified_utc < ?").bind(format_date_time(to_utc_date_time(*f.modified.before)));
  if (f.event)
    w.add("p.id IN (SELECT l." + key + " FROM " + link + " l WHERE l.event_id = ?)").bind(*f.event);
  if (f.has_events) {
    w.add(std::string(*f.has_events ? "" : "NOT ") + "EXISTS (SELECT 1 FROM " + link +
          " l JOIN posts e ON e.id = l.event_id WHERE l." + key +
          " = p.id AND e.status NOT IN ('draft', 'pending', 'trash'))");
  }
  if (f.upcoming_after) {
    SqlWhere readable;
    add_visibility(readable, "e", f.upcoming_readers, false);
    w.add("EXISTS (SELECT 1 FROM " + link +
          " l JOIN posts e ON e.id = l.event_id JOIN event_details ed ON ed.event_id = e.id WHERE l." + key +
          " = p.id AND ed.end_utc > ?" + readable.sql + ")");
    w.bind(format_date_time(to_utc_date_time(*f.upcoming_after)));
    w.args.insert(w.args.end(), readable.args.begin(), readable.args.end());
  }
  return q;
}

}  // namespace

std::vector<PostRow> find_live_posts_named(Db& db, PostType type, std::string_view name) {
  // title_lower (indexed) narrows by the first 191 characters; the binary comparison of the
  // lower-cased titles then decides, so "Café" and "Cafe" stay different records.
  Rows rows =
      db.query(std::string("SELECT ") + kPostColumns +
                   " FROM posts p WHERE p.type = ? AND p.title_lower = LOWER(LEFT(?, 191)) "
                   "AND CAST(LOWER(p.title) AS BINARY) = CAST(LOWER(?) AS BINARY) AND p.status <> 'trash' "
                   "ORDER BY p.id",
               {std::string(post_type_name(type)), std::string(name), std::string(name)});
  std::vector<PostRow> out;
  while (rows.next()) out.push_back(read_post_row(rows));
  return out;
}

LinkedPage find_linked_page(Db& db, PostType kind, const LinkedFilter& filter, long long limit,
                            long long offset) {
  note_list_read(kind == PostType::kVenue ? ListFamily::kVenues : ListFamily::kOrganizers);
  const LinkedSql q = linked_sql(kind, filter);
  const std::string from_where = " FROM posts p" + q.from + " WHERE p.type = ?" + q.where.sql;
  LinkedPage page;
  {
    Rows rows = db.query("SELECT COUNT(*)" + from_where, q.where.args);
    page.total = rows.next() ? rows.integer(0) : 0;
  }
  if (page.total <= offset) return page;
  std::vector<SqlValue> args = q.where.args;
  args.emplace_back(limit);
  args.emplace_back(offset);
  Rows rows = db.query("SELECT p.id" + from_where + " ORDER BY p.title_lower, p.id LIMIT ? OFFSET ?", args);
  while (rows.next()) page.ids.push_back(rows.integer(0));
  return page;
}

}  // namespace cal
