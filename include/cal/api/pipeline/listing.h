// What every list route shares (docs/api.md §4): paging with clamping, the 404 past the last page, the
// envelope with rest_url/next/previous/total/total_pages, and the total headers and Link.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cal {

struct Paging {
  long long page = 1;
  long long per_page = 10;
  long long offset() const { return (page - 1) * per_page; }
};

// `page` and `per_page` of the request; per_page defaults to site.per_page and is silently
// clamped to site.per_page_max.
Paging read_paging(const RequestContext& ctx);

// Throws 404 `<kind>-archive-page-not-found` when page > 1 lies beyond the last page.
void check_page_exists(const Paging& paging, long long total, std::string_view kind, const Locale& locale);

using QueryPairs = std::vector<std::pair<std::string, std::string>>;

// Every parameter the client sent, in declaration order, as name=text pairs, with the effective
// page and per_page always included (docs/api.md §4: rest_url keeps every effective parameter).
QueryPairs effective_query(const RequestContext& ctx, const Paging& paging);

// "url?a=1&b=x%20y" with every name and value percent-encoded.
std::string url_with_query(const std::string& url, const QueryPairs& query);

struct ListEnvelope {
  std::string_view key;        // "events", "venues", ...
  std::string collection_url;  // "{ns}/events"
  QueryPairs query;            // effective parameters, page included
  Paging paging;
  long long total = 0;
};

// The list response: body envelope around the items `write_items` writes into the open array,
// plus X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages and Link headers.
Response list_response(const ListEnvelope& envelope, const std::function<void(JsonWriter&)>& write_items);

}  // namespace cal
