// Integration tests of hostile input (docs/reliability.md): a table of malformed, oversized and malicious
// requests (deep JSON nesting, huge headers, numbers beyond 64 bits, zero and negative ids, 10 KB
// slugs, NUL bytes, invalid UTF-8, path traversal, duplicate parameters, wrong content types,
// bodies on GET, odd methods), plus SQL injection strings in every parameter of every route taken
// from the namespace index. Each must get a 4xx docs/api.md §2 error (or the correct answer where the
// input is legal), never a 5xx, always with nosniff; afterwards the service still answers.
// Requests come from their own loopback address so their few auth failures throttle nobody else.
#include <doctest/doctest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using events::quoted;

constexpr const char* kSource = "127.0.0.201";
constexpr const char* kJson = "Content-Type: application/json";
constexpr const char* kForm = "Content-Type: application/x-www-form-urlencoded";

struct Case {
  std::string name;
  std::string method;
  std::string path;  // below the REST root
  std::string body;
  std::vector<std::string> headers;  // the admin's Authorization is added when `admin`
  bool admin = false;
  std::set<long> ok = {};  // statuses that are right; empty: any 4xx
  std::string code = {};   // the error code a 4xx must carry; "" = any
};

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string event_json(std::string_view extra_member) {
  return R"({"title":"Hostile event","start_date":"2030-01-01 10:00","end_date":"2030-01-01 12:00",)" +
         std::string(extra_member) + "}";
}

std::string deep_array(size_t depth) { return repeat("[", depth) + repeat("]", depth); }
std::string deep_object(size_t depth) { return repeat(R"({"a":)", depth) + "1" + repeat("}", depth); }

const std::string kValidDates = "start_date=2030-01-01&end_date=2030-01-02";

std::vector<Case> hostile_cases() {
  const std::string ev = "/cal/events/v1/events";
  const std::string big(65536, 'a');
  const std::string slug10k(10240, 's');
  return {
      // --- deep JSON nesting ---
      {"10,000-level array as a field",
       "POST",
       ev,
       event_json(R"("tags":)" + deep_array(10000)),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"10,000-level array at the top",
       "POST",
       ev,
       deep_array(10000),
       {kJson},
       true,
       {},
       "rest_invalid_json"},
      {"10,000-level object as the venue",
       "POST",
       ev,
       event_json(R"("venue":)" + deep_object(10000)),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"10,000-level array as organizers",
       "POST",
       ev,
       event_json(R"("organizer":)" + deep_array(10000)),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"10,000-level array as categories",
       "POST",
       ev,
       event_json(R"("categories":)" + deep_array(10000)),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"10,000-level array as the title",
       "POST",
       ev,
       R"({"title":)" + deep_array(10000) + R"(,"start_date":"2030-01-01","end_date":"2030-01-02"})",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"100,000-level object, ignored member",
       "POST",
       ev,
       R"({"x":)" + deep_object(100000) + "}",
       {kJson},
       true,
       {},
       "rest_missing_callback_param"},
      {"50,000 unclosed arrays", "POST", ev, repeat("[", 50000), {kJson}, true, {}, "rest_invalid_json"},
      {"deep nesting in an update",
       "PUT",
       ev + "/999999999",
       R"({"cost":)" + deep_array(10000) + "}",
       {kJson},
       true,
       {},
       ""},
      {"deep nesting from a visitor is refused before parsing",
       "POST",
       ev,
       deep_array(10000),
       {kJson},
       false,
       {},
       "rest_forbidden"},
      {"deep nesting in a venue create",
       "POST",
       "/cal/events/v1/venues",
       R"({"venue":)" + deep_array(10000) + "}",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"deep nesting in a tag create",
       "POST",
       "/cal/events/v1/tags",
       R"({"name":)" + deep_object(10000) + "}",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      // --- numbers beyond 64 bits ---
      {"page beyond 64 bits",
       "GET",
       ev + "?page=99999999999999999999",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"per_page of 2^64",
       "GET",
       ev + "?per_page=18446744073709551616",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"page of -2^63", "GET", ev + "?page=-9223372036854775808", "", {}, false, {}, "rest_invalid_param"},
      {"include beyond 64 bits",
       "GET",
       ev + "?include=1,99999999999999999999",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"id beyond 64 bits", "GET", ev + "/99999999999999999999", "", {}, false, {}, "rest_invalid_param"},
      {"id of 2^64-1", "GET", ev + "/18446744073709551615", "", {}, false, {}, "rest_invalid_param"},
      {"id of 2^63 in an update",
       "PUT",
       ev + "/9223372036854775808",
       R"({"title":"x"})",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"author 1e400 in JSON",
       "POST",
       ev,
       event_json(R"("author":1e400)"),
       {kJson},
       true,
       {},
       "rest_invalid_json"},
      {"author beyond 64 bits in JSON",
       "POST",
       ev,
       event_json(R"("author":99999999999999999999)"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"venue id 1e300 in JSON",
       "POST",
       ev,
       event_json(R"("venue":1e300)"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"organizer ids beyond 64 bits",
       "POST",
       ev,
       event_json(R"("organizer":[18446744073709551616])"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"geoloc_lat 1e999",
       "GET",
       ev + "?geoloc_lat=1e999&geoloc_lng=1",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"category parent beyond 64 bits",
       "POST",
       "/cal/events/v1/categories",
       R"({"name":"x","parent":99999999999999999999})",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"image id beyond 64 bits",
       "POST",
       ev,
       event_json(R"("image":"99999999999999999999999")"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      // --- zero and negative ids ---
      {"event id 0", "GET", ev + "/0", "", {}, false, {}, "rest-event-not-found"},
      {"event id -1 is no route", "GET", ev + "/-1", "", {}, false, {}, "rest_no_route"},
      {"update of event 0", "PUT", ev + "/0", R"({"title":"x"})", {kJson}, true, {}, "rest-event-not-found"},
      {"delete of venue 0", "DELETE", "/cal/events/v1/venues/0", "", {}, true, {}, "rest-venue-not-found"},
      {"category id 0", "GET", "/cal/events/v1/categories/0", "", {}, false, {}, "rest_term_invalid"},
      {"tag id -5 is no route", "GET", "/cal/events/v1/tags/-5", "", {}, false, {}, "rest_no_route"},
      {"post_parent 0", "GET", ev + "?post_parent=0", "", {}, false, {}, "rest_invalid_param"},
      {"venue filter -1", "GET", ev + "?venue=-1", "", {}, false, {}, "rest_invalid_param"},
      {"category parent -1",
       "GET",
       "/cal/events/v1/categories?parent=-1",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"author 0 in a create",
       "POST",
       ev,
       event_json(R"("author":0)"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"organizer id -3",
       "POST",
       ev,
       event_json(R"("organizer":[-3])"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"event id 1.5 is no route", "GET", ev + "/1.5", "", {}, false, {}, "rest_no_route"},
      // --- 10 KB slugs and path traversal ---
      {"10 KB slug read: over nginx's 8 KB line limit",
       "GET",
       ev + "/by-slug/" + slug10k,
       "",
       {},
       false,
       {},
       "rest_uri_too_long"},
      {"7 KB slug read",
       "GET",
       ev + "/by-slug/" + std::string(7000, 's'),
       "",
       {},
       false,
       {},
       "rest-event-not-found"},
      {"7 KB slug update",
       "PATCH",
       ev + "/by-slug/" + std::string(7000, 's'),
       R"({"title":"x"})",
       {kJson},
       true,
       {},
       "rest-event-not-found"},
      {"10 KB slug update",
       "PUT",
       ev + "/by-slug/" + slug10k,
       R"({"title":"x"})",
       {kJson},
       true,
       {},
       "rest_uri_too_long"},
      {"10 KB slug delete",
       "DELETE",
       "/cal/events/v1/venues/by-slug/" + slug10k,
       "",
       {},
       true,
       {},
       "rest_uri_too_long"},
      {"10 KB slug in a create is shortened",
       "POST",
       ev,
       event_json(R"("slug":")" + slug10k + "\""),
       {kJson},
       true,
       {201},
       ""},
      {"10 KB tag slug is shortened",
       "POST",
       "/cal/events/v1/tags",
       R"({"name":"x)" + std::string(5, 'y') + R"(","slug":")" + slug10k + "\"}",
       {kJson},
       true,
       {201},
       ""},
      {"encoded traversal in a slug",
       "GET",
       "/cal/events/v1/venues/by-slug/..%2F..%2F..%2Fetc%2Fpasswd",
       "",
       {},
       false,
       {},
       ""},
      {"encoded dot-dot slug", "GET", ev + "/by-slug/%2e%2e", "", {}, false, {200, 404}, ""},
      {"traversal in a slug delete", "DELETE", ev + "/by-slug/..%2f..%2fx", "", {}, true, {}, ""},
      {"backslash traversal",
       "GET",
       ev + "/by-slug/..%5C..%5Cwindows",
       "",
       {},
       false,
       {},
       "rest-event-not-found"},
      {"NUL in a slug", "GET", "/cal/events/v1/organizers/by-slug/a%00b", "", {}, false, {}, ""},
      {"invalid UTF-8 slug", "GET", ev + "/by-slug/%ff%fe", "", {}, false, {}, ""},
      {"SQL in a slug", "GET", ev + "/by-slug/x'%20OR%20'1'='1", "", {}, false, {}, "rest-event-not-found"},
      {"traversal slug in a rename",
       "POST",
       ev + "/999999999",
       R"({"slug":"../../etc/passwd"})",
       {kJson},
       true,
       {},
       "rest-event-not-found"},
      // --- NUL bytes ---
      {"NUL in a search", "GET", ev + "?search=a%00b", "", {}, false, {200}, ""},
      {"NUL in a JSON title",
       "POST",
       ev,
       R"({"title":"a\u0000b","start_date":"2030-01-01","end_date":"2030-01-02"})",
       {kJson},
       true,
       {201, 400},
       ""},
      {"raw NUL in a JSON string",
       "POST",
       ev,
       std::string("{\"title\":\"a\0b\"}", 15),
       {kJson},
       true,
       {},
       "rest_invalid_json"},
      {"NUL in a form title", "POST", ev, "title=a%00b&" + kValidDates, {kForm}, true, {201, 400}, ""},
      {"NUL as a parameter name", "GET", ev + "?%00=1", "", {}, false, {200}, ""},
      {"NUL in a date", "GET", ev + "?start_date=2025-01-01%00", "", {}, false, {}, "rest_invalid_param"},
      // --- invalid UTF-8 ---
      {"0xff in a query value", "GET", ev + "?search=%ff", "", {}, false, {}, "rest_invalid_param"},
      {"truncated sequence in a query",
       "GET",
       ev + "?search=%c3%28",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"encoded surrogate in a query",
       "GET",
       ev + "?search=%ed%a0%80",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"overlong slash in a query", "GET", ev + "?search=%c0%af", "", {}, false, {}, "rest_invalid_param"},
      {"0xff in a JSON body", "POST", ev, "{\"title\":\"\xff\"}", {kJson}, true, {}, "rest_invalid_json"},
      {"lone surrogate escape in JSON",
       "POST",
       ev,
       R"({"title":"\ud800"})",
       {kJson},
       true,
       {},
       "rest_invalid_json"},
      {"0xff in a form value",
       "POST",
       ev,
       "title=%ff&" + kValidDates,
       {kForm},
       true,
       {},
       "rest_invalid_param"},
      {"broken escape in a query", "GET", ev + "?search=%zz", "", {}, false, {}, "rest_invalid_param"},
      {"dangling percent signs", "GET", ev + "?search=%%%", "", {}, false, {}, "rest_invalid_param"},
      // --- SQL injection, a sample (every parameter: next test case) ---
      {"SQL in a search", "GET", ev + "?search=%27%20OR%20%271%27%3D%271", "", {}, false, {200}, ""},
      {"SQL in a category filter",
       "GET",
       ev + "?categories=1%27%20OR%20%271%27%3D%271",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"SQL in orderby",
       "GET",
       "/cal/events/v1/categories?orderby=id;DROP%20TABLE%20terms",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"SQL in a term slug filter",
       "GET",
       "/cal/events/v1/tags?slug=x%27%20OR%201%3D1%20--",
       "",
       {},
       false,
       {200},
       ""},
      {"SQL in status", "GET", ev + "?status=publish%27--", "", {}, false, {}, "rest_invalid_param"},
      // --- duplicate parameters ---
      {"per_page twice: the last wins", "GET", ev + "?per_page=5&per_page=3", "", {}, false, {200}, ""},
      {"page then page[]", "GET", ev + "?page=1&page[]=2", "", {}, false, {}, "rest_invalid_param"},
      {"page as an object", "GET", ev + "?page[a]=1", "", {}, false, {}, "rest_invalid_param"},
      {"status twice, the last not for visitors",
       "GET",
       ev + "?status=publish&status=draft",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"duplicate JSON keys",
       "POST",
       ev,
       R"({"title":"First","title":[1],"start_date":"2030-01-01","end_date":"2030-01-02"})",
       {kJson},
       true,
       {201, 400},
       ""},
      {"duplicate form fields", "POST", ev, "title=a&title=Second&" + kValidDates, {kForm}, true, {201}, ""},
      {"path id and body id",
       "PUT",
       ev + "/999999999",
       R"({"id":1,"title":"x"})",
       {kJson},
       true,
       {},
       "rest-event-not-found"},
      // --- wrong content types ---
      {"text/plain body",
       "POST",
       ev,
       "title=x",
       {"Content-Type: text/plain"},
       true,
       {},
       "rest_unsupported_media_type"},
      {"XML body",
       "POST",
       ev,
       "<event/>",
       {"Content-Type: application/xml"},
       true,
       {},
       "rest_unsupported_media_type"},
      {"malformed multipart body",
       "POST",
       ev,
       "--x\r\n\r\n--x--",
       {"Content-Type: multipart/form-data; boundary=x"},
       true,
       {},
       "rest_invalid_multipart"},
      {"multipart body without a boundary",
       "POST",
       ev,
       "--x\r\n\r\n--x--",
       {"Content-Type: multipart/form-data"},
       true,
       {},
       "rest_invalid_multipart"},
      {"multipart file part",
       "POST",
       ev,
       "--x\r\nContent-Disposition: form-data; name=\"f\"; filename=\"" + big + "\"\r\n\r\n" + big +
           "\r\n--x--",
       {"Content-Type: multipart/form-data; boundary=x"},
       true,
       {},
       "rest_invalid_param"},
      {"no content type", "POST", ev, "{}", {}, true, {}, "rest_unsupported_media_type"},
      {"a form body declared JSON",
       "POST",
       ev,
       "title=x&" + kValidDates,
       {kJson},
       true,
       {},
       "rest_invalid_json"},
      {"a JSON body declared a form",
       "POST",
       ev,
       R"({"title":"x"})",
       {kForm},
       true,
       {},
       "rest_missing_callback_param"},
      {"JSON with a UTF-16 charset",
       "POST",
       ev,
       "{}",
       {"Content-Type: application/json; charset=utf-16"},
       true,
       {},
       "rest_missing_callback_param"},
      {"upper-case JSON type",
       "POST",
       ev,
       "{}",
       {"Content-Type: APPLICATION/JSON"},
       true,
       {},
       "rest_missing_callback_param"},
      {"application/jsonp",
       "POST",
       ev,
       "{}",
       {"Content-Type: application/jsonp"},
       true,
       {},
       "rest_unsupported_media_type"},
      {"JSON body that is null", "POST", ev, "null", {kJson}, true, {}, "rest_invalid_json"},
      {"JSON body that is a string", "POST", ev, R"("x")", {kJson}, true, {}, "rest_invalid_json"},
      {"JSON body with a byte order mark", "POST", ev, "\xef\xbb\xbf{}", {kJson}, true, {}, ""},
      // --- bodies on GET and friends ---
      {"malformed JSON body on GET is ignored", "GET", ev, "{", {kJson}, false, {200}, ""},
      {"body on GET of a missing event",
       "GET",
       ev + "/999999999",
       R"({"id":1})",
       {kJson},
       false,
       {},
       "rest-event-not-found"},
      {"body on HEAD", "HEAD", ev, "{", {kJson}, false, {200}, ""},
      {"body on OPTIONS", "OPTIONS", ev, "{", {kJson}, false, {200}, ""},
      {"malformed body on DELETE", "DELETE", ev + "/999999999", "{", {kJson}, true, {}, ""},
      // --- headers ---
      {"64 KB header line", "GET", ev, "", {"X-Big: " + big}, false, {}, "rest_bad_request"},
      {"64 KB Authorization header",
       "GET",
       ev,
       "",
       {"Authorization: Bearer " + big},
       false,
       {},
       "rest_bad_request"},
      {"64 KB cookie", "GET", ev, "", {"Cookie: a=" + big}, false, {}, "rest_bad_request"},
      {"7 KB Bearer password",
       "GET",
       ev,
       "",
       {"Authorization: Bearer " + std::string(7000, 'p')},
       false,
       {},
       "rest_invalid_credentials"},
      {"5 KB Basic login",
       "GET",
       ev,
       "",
       {basic(std::string(5000, 'l'), "p")},
       false,
       {},
       "rest_invalid_credentials"},
      {"unknown auth scheme",
       "GET",
       ev,
       "",
       {"Authorization: Digest username=\"x\""},
       false,
       {},
       "rest_invalid_credentials"},
      {"7 KB Accept-Language",
       "GET",
       ev,
       "",
       {"Accept-Language: " + repeat("de;q=0.5,", 700)},
       false,
       {200},
       ""},
      {"garbage Accept-Language",
       "GET",
       ev,
       "",
       {"Accept-Language: xx-YY;q=abc, *;q=-1, ;;;"},
       false,
       {200},
       ""},
      {"7 KB If-None-Match", "GET", ev, "", {"If-None-Match: " + std::string(7000, '"')}, false, {200}, ""},
      {"method override to TRACE",
       "POST",
       ev,
       "{}",
       {kJson, "X-HTTP-Method-Override: TRACE"},
       true,
       {},
       "rest_method_not_allowed"},
      {"method override to DELETE on a collection",
       "POST",
       ev,
       "{}",
       {kJson, "X-HTTP-Method-Override: DELETE"},
       true,
       {},
       "rest_method_not_allowed"},
      {"_method=PATCH on a missing event",
       "POST",
       ev + "/999999999?_method=PATCH",
       R"({"title":"x"})",
       {kJson},
       true,
       {},
       "rest-event-not-found"},
      {"chunked JSON body",
       "POST",
       ev,
       "{}",
       {kJson, "Transfer-Encoding: chunked"},
       true,
       {},
       "rest_missing_callback_param"},
      {"64 KB URI", "GET", ev + "?search=" + big, "", {}, false, {}, "rest_uri_too_long"},
      {"7 KB query value", "GET", ev + "?search=" + std::string(7000, 'q'), "", {}, false, {200}, ""},
      {"a thousand parameters", "GET", ev + "?" + repeat("p=1&", 1000), "", {}, false, {200}, ""},
      {"traversal in _locale", "GET", ev + "?_locale=../../../etc/passwd", "", {}, false, {200}, ""},
      // --- methods ---
      {"TRACE", "TRACE", ev, "", {}, false, {}, "rest_method_not_allowed"},
      {"an invented method", "FOO", ev, "", {}, false, {}, "rest_method_not_allowed"},
      {"PROPFIND", "PROPFIND", ev, "", {}, false, {}, "rest_method_not_allowed"},
      {"DELETE on a collection", "DELETE", ev, "", {}, true, {}, "rest_method_not_allowed"},
      {"PUT on the venues collection",
       "PUT",
       "/cal/events/v1/venues",
       "{}",
       {kJson},
       true,
       {},
       "rest_method_not_allowed"},
      {"POST on the document",
       "POST",
       "/cal/events/v1/doc",
       "{}",
       {kJson},
       true,
       {},
       "rest_method_not_allowed"},
      // --- form bodies ---
      {"ten thousand array items",
       "POST",
       ev,
       repeat("categories[]=999999999&", 10000) + "title=x&" + kValidDates,
       {kForm},
       true,
       {},
       "rest_invalid_param"},
      {"title as a form object",
       "POST",
       ev,
       "title[k]=v&" + kValidDates,
       {kForm},
       true,
       {},
       "rest_invalid_param"},
      {"title as a form array",
       "POST",
       ev,
       "title[]=a&" + kValidDates,
       {kForm},
       true,
       {},
       "rest_invalid_param"},
      {"only separators", "POST", ev, "=&=&&&", {kForm}, true, {}, "rest_missing_callback_param"},
      {"five thousand brackets in a name",
       "POST",
       ev,
       repeat("[", 5000) + "=1",
       {kForm},
       true,
       {},
       "rest_missing_callback_param"},
      {"broken escape in a form value",
       "POST",
       ev,
       "title=%zz&" + kValidDates,
       {kForm},
       true,
       {},
       "rest_invalid_param"},
      // --- dates and zones ---
      {"February 30th", "GET", ev + "?start_date=2025-02-30", "", {}, false, {}, "rest_invalid_param"},
      {"past year 9999",
       "GET",
       ev + "?start_date=9999-12-31%2023:59:59%20%2B5%20days",
       "",
       {},
       false,
       {},
       "rest_invalid_param"},
      {"10 KB relative date",
       "GET",
       ev + "?start_date=" + repeat("%2B1%20day%20", 700),
       "",
       {},
       false,
       {200, 400},
       ""},
      {"huge timestamp", "GET", ev + "?start_date=@-99999999999999", "", {}, false, {}, "rest_invalid_param"},
      {"traversal as a time zone",
       "POST",
       ev,
       event_json(R"("timezone":"../../../../etc/passwd")"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"UTC+99:99",
       "POST",
       ev,
       event_json(R"("timezone":"UTC+99:99")"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"end before start",
       "POST",
       ev,
       R"({"title":"x","start_date":"2030-01-02","end_date":"2030-01-01"})",
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      // --- sizes ---
      {"a body just over 1 MiB",
       "POST",
       ev,
       std::string(1048577, ' '),
       {kJson},
       true,
       {},
       "rest_body_too_large"},
      {"a 3 MB body", "POST", ev, std::string(3000000, ' '), {kJson}, true, {}, "rest_body_too_large"},
      {"a 70,000-byte excerpt",
       "POST",
       ev,
       event_json(R"("excerpt":")" + std::string(70000, 'e') + "\""),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"cost of 300 characters",
       "POST",
       ev,
       event_json(R"("cost":")" + std::string(300, '9') + "\""),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"website of 3000 characters",
       "POST",
       ev,
       event_json(R"("website":"https://x.org/)" + std::string(3000, 'w') + "\""),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"javascript: website",
       "POST",
       ev,
       event_json(R"x("website":"javascript:alert(1)")x"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
      {"file: image",
       "POST",
       ev,
       event_json(R"("image":"file:///etc/passwd")"),
       {kJson},
       true,
       {},
       "rest_invalid_param"},
  };
}

// "" when `r` is right for `c`; else why not.
std::string verdict(const Case& c, const HttpResponse& r) {
  if (r.status >= 500) return "server error: " + describe(r);
  if (r.header("x-content-type-options") != "nosniff") return "no nosniff: " + describe(r);
  if (!c.ok.empty()) {
    if (c.ok.count(r.status)) return "";
    if (r.status < 400) return "unexpected status: " + describe(r);
  } else if (r.status < 400) {
    return "expected a 4xx: " + describe(r);
  }
  if (c.method == "HEAD") return "";
  if (!c.code.empty()) return error_mismatch(r, r.status, c.code);
  // Any code, but the docs/api.md §2 shape.
  try {
    const rapidjson::Document doc = r.json();
    const std::string code = string_at(doc, {"code"});
    return code.empty() ? "no error code: " + describe(r) : error_mismatch(r, r.status, code);
  } catch (const std::exception& e) {
    return e.what();
  }
}

HttpResponse send(const Case& c) {
  std::vector<std::string> headers = c.headers;
  if (c.admin) headers.push_back(bearer(admin_token()));
  return raw_request({.url = base_url() + c.path,
                      .method = c.method,
                      .body = c.body,
                      .headers = headers,
                      .source_ip = kSource,
                      .timeout_ms = 30000})
      .response;
}

// Every parameter name of every endpoint in the namespace index, with its route and methods.
struct Endpoint {
  std::string route;  // "/cal/events/v1/events/(?P<id>\d+)"
  std::vector<std::string> methods;
  std::vector<std::string> args;
};

std::vector<Endpoint> index_endpoints() {
  const HttpResponse r = get("/cal/events/v1");
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  std::vector<Endpoint> out;
  for (const auto& route : find(doc, {"routes"})->GetObject()) {
    for (const auto& e : find(route.value, {"endpoints"})->GetArray()) {
      Endpoint ep{route.name.GetString(), strings_at(e, {"methods"}), {}};
      if (const rapidjson::Value* args = find(e, {"args"}); args && args->IsObject())
        for (const auto& a : args->GetObject()) ep.args.emplace_back(a.name.GetString());
      out.push_back(std::move(ep));
    }
  }
  return out;
}

// The route with its variables filled: `id` → `id`, `slug` → `slug`.
std::string fill_route(const std::string& route, const std::string& id, const std::string& slug) {
  std::string out = route.substr(std::string("/cal/events/v1").size());
  if (const auto p = out.find("(?P<id>"); p != std::string::npos)
    out = out.substr(0, p) + id + out.substr(out.find(')', p) + 1);
  if (const auto p = out.find("(?P<slug>"); p != std::string::npos)
    out = out.substr(0, p) + slug + out.substr(out.find(')', p) + 1);
  return "/cal/events/v1" + out;
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.')
      out += static_cast<char>(c);
    else
      out += std::string("%") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

const char* const kInjections[] = {
    "' OR '1'='1",
    "1; DROP TABLE posts; --",
    "1) UNION SELECT password_hash, 1 FROM app_passwords -- ",
    "\\'; UPDATE users SET role='administrator' WHERE '1'='1",
};

}  // namespace

TEST_CASE("hostile requests get 4xx docs/api.md §2 errors or correct answers, never a 5xx") {
  const std::vector<Case> cases = hostile_cases();
  CHECK(cases.size() >= 100);
  MESSAGE("hostile input: " << cases.size() << " table cases");
  for (const Case& c : cases) {
    CAPTURE(c.name);
    HttpResponse r;
    try {
      r = send(c);
    } catch (const std::exception& e) {
      FAIL_CHECK("no answer: " << e.what());
      continue;
    }
    CHECK(verdict(c, r) == "");
  }
  // The service still answers, authenticated and not.
  CHECK(get("/cal/events/v1/events").status == 200);
  CHECK(get("/cal/events/v1/events", {bearer(admin_token())}).status == 200);
}

TEST_CASE("SQL injection strings in every parameter of every route change nothing and never fail") {
  const std::string admin = bearer(admin_token());
  const std::string run = unique("inject");
  // Records of our own to aim the by-id writes at.
  const long long event =
      events::create_id("Injection target " + run, "2030-03-01 10:00", "2030-03-01 12:00");
  std::map<std::string, std::string> ids = {{"events", std::to_string(event)}};
  for (const auto& [collection, body] : std::vector<std::pair<std::string, std::string>>{
           {"venues", R"({"venue":"Injection venue )" + run + "\"}"},
           {"organizers", R"({"organizer":"Injection organizer )" + run + "\"}"},
           {"categories", R"({"name":"injection category )" + run + "\"}"},
           {"tags", R"({"name":"injection tag )" + run + "\"}"}}) {
    const HttpResponse r = post_json("/cal/events/v1/" + collection, body, {admin});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids[collection] = std::to_string(events::id_of(r.json()));
  }
  const HttpResponse before = get("/cal/events/v1/events?per_page=1", {admin});
  int sent = 0;
  for (const Endpoint& ep : index_endpoints()) {
    const std::string collection =
        ep.route.size() > 15 ? ep.route.substr(15, ep.route.find('/', 15) - 15) : "";
    const std::string id = ids.count(collection) ? ids[collection] : "999999999";
    for (const std::string& method : ep.methods) {
      if (method == "DELETE") continue;  // deleting our targets would end the test early
      for (const char* injection : kInjections) {
        for (const std::string& arg : ep.args) {
          CAPTURE(ep.route);
          CAPTURE(method);
          CAPTURE(arg);
          CAPTURE(injection);
          const std::string path = fill_route(ep.route, id, percent_encode(injection));
          HttpResponse r;
          if (method == "GET") {
            r = raw_request({.url = base_url() + path + "?" + arg + "=" + percent_encode(injection),
                             .headers = {admin},
                             .source_ip = kSource})
                    .response;
          } else {
            r = raw_request({.url = base_url() + path,
                             .method = method,
                             .body = "{" + quoted(arg) + ":" + quoted(injection) + "}",
                             .headers = {admin, kJson},
                             .source_ip = kSource})
                    .response;
          }
          ++sent;
          CHECK_MESSAGE(r.status < 500, describe(r));
          if (r.status >= 400) CHECK(error_mismatch(r, r.status, string_at(r.json(), {"code"})) == "");
        }
      }
    }
  }
  CHECK(sent >= 400);
  MESSAGE("hostile input: " << sent << " requests with SQL injection strings in every parameter");
  // A create stores an injection string verbatim, as data.
  for (const char* injection : kInjections) {
    CAPTURE(injection);
    const HttpResponse r = post_json(
        "/cal/events/v1/events",
        events::event_body(std::string(injection) + " " + run, "2030-03-02", "2030-03-03"), {admin});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    CHECK(string_at(r.json(), {"title"}) == std::string(injection) + " " + run);
    const HttpResponse again = get(events::path_of(events::id_of(r.json())), {admin});
    CHECK(string_at(again.json(), {"title"}) == std::string(injection) + " " + run);
  }
  // Tables, users and passwords are all still there.
  CHECK(get("/cal/events/v1/events?per_page=1", {admin}).status == 200);
  CHECK(get("/cal/events/v1/venues", {admin}).status == 200);
  CHECK(get("/cal/events/v1/tags?hide_empty=false", {admin}).status == 200);
  CHECK(before.status == 200);
  std::string login;
  const std::string subscriber = create_user("injected", "subscriber", &login);
  CHECK(error_mismatch(post_json("/cal/events/v1/events", events::event_body("x", "2030-01-01", "2030-01-02"),
                                 {bearer(subscriber)}),
                       403, "rest_forbidden") == "");
}

}  // namespace caltest
