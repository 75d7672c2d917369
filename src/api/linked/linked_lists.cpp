// The venue and organizer lists (SPEC §4, §4.2; see cal/api/linked_resource.h): one query
// builder for both, then a count, the page's ids in name order, and the records in a constant
// number of statements.
#include "cal/api/linked/linked_resource.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/listing.h"

#include <cctype>

namespace cal {
namespace {

// The words of a search (split on white space).
std::vector<std::string> search_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// "%word%" for LIKE ... ESCAPE '!', with the pattern characters of `word` escaped.
std::string contains_pattern(std::string_view word) {
  std::string out = "%";
  for (char c : word) {
    if (c == '!' || c == '%' || c == '_') out += '!';
    out += c;
  }
  return out + "%";
}

// The filtered set as SQL after "SELECT ... FROM posts p": joins, then the conditions.
struct ListQuery {
  std::string from;
  std::string where;
  std::vector<SqlValue> args;
};

ListQuery build_query(RequestContext& ctx, const LinkedType& type) {
  const std::string link(type.link_table);
  const std::string link_key(type.link_key);
  ListQuery q;
  q.where = " WHERE p.type = ?";
  q.args.emplace_back(std::string(post_type_name(type.kind.type)));
  append_visibility(ctx, q.where, q.args, "p");

  if (ctx.params.given("search")) {
    // Every word in the name, the description or one of the type's detail columns; the columns'
    // collation makes LIKE case-insensitive. The texts are joined by a character no word holds.
    const std::vector<std::string> words = search_words(ctx.params.text("search"));
    if (!words.empty()) {
      q.from = " LEFT JOIN " + std::string(type.details_table) + " d ON d." + std::string(type.details_key) + " = p.id";
      std::string haystack = "CONCAT_WS(CHAR(10), p.title, p.content";
      for (std::string_view column : type.search_columns) haystack += ", " + std::string(column);
      haystack += ")";
      for (const std::string& word : words) {
        q.where += " AND " + haystack + " LIKE ? ESCAPE '!'";
        q.args.emplace_back(contains_pattern(word));
      }
    }
  }
  if (ctx.params.given("event")) {
    const long long event = ctx.params.integer("event");  // an existing event: check_event_id
    q.where += " AND p.id IN (SELECT l." + link_key + " FROM " + link + " l WHERE l.event_id = ?)";
    q.args.emplace_back(event);
  }
  if (ctx.params.given("has_events")) {
    q.where += std::string(ctx.params.boolean("has_events") ? " AND" : " AND NOT") + " EXISTS (SELECT 1 FROM " + link +
               " l JOIN posts e ON e.id = l.event_id WHERE l." + link_key +
               " = p.id AND e.status NOT IN ('draft', 'pending', 'trash'))";
  }
  if (ctx.params.boolean("only_with_upcoming")) {
    q.where += " AND EXISTS (SELECT 1 FROM " + link + " l JOIN posts e ON e.id = l.event_id JOIN event_details ed ON ed.event_id = e.id WHERE l." +
               link_key + " = p.id AND ed.end_utc > UTC_TIMESTAMP()";
    append_readable(ctx, q.where, q.args, "e");
    q.where += ")";
  }
  return q;
}

}  // namespace

Response list_linked(RequestContext& ctx, const LinkedType& type) {
  const Paging paging = read_paging(ctx);
  const ListQuery q = build_query(ctx, type);
  long long total = 0;
  {
    Rows rows = ctx.db.query("SELECT COUNT(*) FROM posts p" + q.from + q.where, q.args);
    if (rows.next()) total = rows.integer(0);
  }
  check_page_exists(paging, total, type.kind.kind, ctx.locale);
  std::vector<long long> ids;
  if (paging.offset() < total) {
    std::vector<SqlValue> args = q.args;
    args.emplace_back(paging.per_page);
    args.emplace_back(paging.offset());
    Rows rows = ctx.db.query("SELECT p.id FROM posts p" + q.from + q.where + " ORDER BY p.title_lower, p.id LIMIT ? OFFSET ?", args);
    while (rows.next()) ids.push_back(rows.integer(0));
  }
  ListEnvelope envelope{type.kind.collection, ctx.ns_url() + "/" + std::string(type.kind.collection),
                        effective_query(ctx, paging), paging, total};
  return list_response(envelope, [&](JsonWriter& w) { type.write_records(w, ctx, ids, false); });
}

}  // namespace cal
