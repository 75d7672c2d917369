// Shared list paging and envelope (see cal/api/pipeline/listing.h).
#include "cal/api/pipeline/listing.h"

#include "cal/api/pipeline/error.h"
#include "cal/core/text/url.h"

#include <algorithm>

namespace cal {
namespace {

// The longest Link header a list answer sends. Every header of an answer must fit the
// smallest FastCGI header buffer of the servers in front (nginx's fastcgi_buffer_size, 4 KB
// by default; Apache's mod_proxy_fcgi and mod_fcgid read headers into 8 KB): a rel whose URL
// would pass this bound is left out of Link and stays only in the body (next_rest_url,
// previous_rest_url), which no buffer limits.
constexpr std::size_t kMaxLinkHeader = 2048;

long long total_pages(long long total, long long per_page) {
  return total == 0 ? 0 : (total + per_page - 1) / per_page;
}

QueryPairs with_page(QueryPairs query, long long page) {
  for (auto& [name, value] : query)
    if (name == "page") value = std::to_string(page);
  return query;
}

}  // namespace

Paging read_paging(const RequestContext& ctx) {
  Paging p;
  p.page = ctx.params.integer(param::kPage, 1);
  p.per_page =
      ctx.params.given(param::kPerPage) ? ctx.params.integer(param::kPerPage) : ctx.config.site.per_page;
  p.per_page = std::min<long long>(p.per_page, ctx.config.site.per_page_max);
  return p;
}

void check_page_exists(const Paging& paging, long long total, std::string_view kind, const Locale& locale) {
  if (paging.page > 1 && paging.page > total_pages(total, paging.per_page))
    throw ApiError{404, std::string(kind) + "-archive-page-not-found",
                   translate(locale, "The requested page was not found.")};
}

QueryPairs effective_query(const RequestContext& ctx, const Paging& paging) {
  QueryPairs query;
  for (const auto& [name, value] : ctx.params.all()) {
    if (name == "page")
      query.emplace_back(name, std::to_string(paging.page));
    else if (name == "per_page")
      query.emplace_back(name, std::to_string(paging.per_page));
    else if (value.given)
      query.emplace_back(name, value.text);
  }
  return query;
}

std::string url_with_query(const std::string& url, const QueryPairs& query) {
  std::string out = url;
  char sep = '?';
  for (const auto& [name, value] : query) {
    out += sep;
    out += url_encode(name) + "=" + query_value_encode(value);
    sep = '&';
  }
  return out;
}

Response list_response(const ListEnvelope& envelope, const std::function<void(JsonWriter&)>& write_items) {
  const long long pages = total_pages(envelope.total, envelope.paging.per_page);
  const long long page = envelope.paging.page;
  const bool has_next = page < pages;
  const bool has_prev = page > 1;
  const std::string next_url =
      has_next ? url_with_query(envelope.collection_url, with_page(envelope.query, page + 1)) : "";
  const std::string prev_url =
      has_prev ? url_with_query(envelope.collection_url, with_page(envelope.query, page - 1)) : "";

  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_key(w, envelope.key);
  w.StartArray();
  write_items(w);
  w.EndArray();
  write_member(w, "rest_url", url_with_query(envelope.collection_url, envelope.query));
  if (has_next) write_member(w, "next_rest_url", next_url);
  if (has_prev) write_member(w, "previous_rest_url", prev_url);
  write_key(w, "total");
  w.Int64(envelope.total);
  write_key(w, "total_pages");
  w.Int64(pages);
  w.EndObject();

  Response r = json_response(200, buffer);
  r.set_header("X-WP-Total", std::to_string(envelope.total));
  r.set_header("X-WP-TotalPages", std::to_string(pages));
  r.set_header("X-TEC-Total", std::to_string(envelope.total));
  r.set_header("X-TEC-TotalPages", std::to_string(pages));
  std::string link;
  auto add_link = [&link](const std::string& url, std::string_view rel) {
    std::string item = "<" + url + ">; rel=\"" + std::string(rel) + "\"";
    if (link.size() + item.size() + 2 > kMaxLinkHeader) return;  // the body's URL stays
    link += (link.empty() ? "" : ", ") + item;
  };
  if (has_prev) add_link(prev_url, "prev");
  if (has_next) add_link(next_url, "next");
  if (!link.empty()) r.set_header("Link", link);
  return r;
}

}  // namespace cal
