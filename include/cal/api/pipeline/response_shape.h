// WordPress's global response parameters: `_fields` keeps only the named fields of a
// record, or of every record of a list (dotted paths reach into nested objects), and `_envelope`
// answers 200 with `{body, status, headers}` for clients that cannot read the status or headers.
// They reshape a body already written, and only when asked, so they parse it back into a DOM.
#pragma once

#include "cal/http/request.h"

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// The fields a `_fields` value names: a comma list ("id, venue.city") or an array of such
// strings; blanks dropped. Empty when the value is of another kind.
std::vector<std::string> field_list(const rapidjson::Value& value);

// Rewrites the JSON `body` keeping only `fields` (WordPress's rest_filter_response_fields: a
// field keeps its whole value, "a.b" keeps b inside object a; members keep their order). Arrays
// met on the way are filtered element by element, so "organizer.id" keeps each organizer's id.
// When the body is an object whose member `list_key` is an array (a list route's records), each
// record is filtered and the other members (totals, URLs) stay. A body that is not JSON stays.
void filter_fields(std::string& body, const std::vector<std::string>& fields, std::string_view list_key);

// The `_envelope` answer: status 200, body {"body": the JSON body (null when empty), "status":
// the status, "headers": {name: value} of `response`'s headers but Content-Type}. An iCalendar
// feed (Content-Type text/calendar) is the "body" as a JSON string.
void envelope(Response& response);

}  // namespace cal
