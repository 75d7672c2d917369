// HTTP client for the integration tests, the only libcurl code of the tests: requests against the
// running stack named by the environment (CAL_TEST_BASE, CAL_TEST_TOKEN, CAL_TEST_CTL; see
// scripts/run-tests.sh) or any absolute URL, plus helpers for credentials, test users and unique
// names. Failures to connect throw.
#pragma once

#include <chrono>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

namespace caltest {

// One HTTP response as received.
struct HttpResponse {
  long status = 0;
  std::multimap<std::string, std::string> headers;  // names lower-cased, values trimmed
  std::string body;

  // The first value of header `name` (any case), or "" when absent.
  std::string header(std::string_view name) const;
  // The body parsed as JSON; throws std::runtime_error (quoting the body) when it is not JSON.
  rapidjson::Document json() const;
};

// CAL_TEST_BASE (the REST root, e.g. "http://127.0.0.1:8080/api") without a trailing slash;
// throws when unset.
const std::string& base_url();

// One request with every option send() knows. Field order is the order of designated
// initializers, e.g. send({.url = u, .method = "POST", .body = b, .timeout_ms = 2000}).
struct Request {
  std::string url = {};                   // absolute, e.g. base_url() + "/cal/events/v1/events"
  std::string method = "GET";             // any token, sent as given ("HEAD" waits for no body)
  std::string body = {};                  // sent when non-empty, and always for POST/PUT/PATCH
  std::vector<std::string> headers = {};  // "Name: value"; exactly these are added: no
                                          // Content-Type unless given, never "Expect: 100-continue";
                                          // "Transfer-Encoding: chunked" sends the body chunked
  std::string source_ip = {};             // bind the client socket to this local address ("" = any)
  long timeout_ms = 60000;                // the whole request
  long connect_timeout_ms = 10000;        // connecting (at most timeout_ms)
  bool keep_alive = false;                // reuse the calling thread's open connection and keep
                                          // it open; false: a connection of its own, closed after
};

// Sends `r` and returns the response; stores the time the exchange took in *elapsed when given.
// Throws std::runtime_error naming the method, the URL and curl's error when no HTTP response
// arrives (connection refused, timeout).
HttpResponse send(const Request& r, std::chrono::milliseconds* elapsed = nullptr);

// Sends `method` to CAL_TEST_BASE + `path` (e.g. "/cal/events/v1/events?page=2") with `body`
// and `headers` as send() does, on the calling thread's kept-alive connection.
HttpResponse request(std::string_view method, std::string_view path, std::string_view body = {},
                     std::vector<std::string> headers = {});

// Shorthands for request().
HttpResponse get(std::string_view path, std::vector<std::string> headers = {});
HttpResponse head(std::string_view path, std::vector<std::string> headers = {});
HttpResponse options(std::string_view path, std::vector<std::string> headers = {});
HttpResponse del(std::string_view path, std::vector<std::string> headers = {});
// POST/PUT/PATCH with `Content-Type: application/json` added to `headers`.
HttpResponse post_json(std::string_view path, std::string_view json_text,
                       std::vector<std::string> headers = {});
HttpResponse put_json(std::string_view path, std::string_view json_text,
                      std::vector<std::string> headers = {});
HttpResponse patch_json(std::string_view path, std::string_view json_text,
                        std::vector<std::string> headers = {});
// POST with `Content-Type: application/x-www-form-urlencoded`; `form` is sent as given.
HttpResponse post_form(std::string_view path, std::string_view form, std::vector<std::string> headers = {});

// "Authorization: Bearer <token>".
std::string bearer(std::string_view token);
// "Authorization: Basic base64(<login>:<password>)".
std::string basic(std::string_view login, std::string_view password);
// Standard base64 (with padding) of `bytes`.
std::string base64(std::string_view bytes);

// CAL_TEST_GEOLOC == "on": the stack under test runs the geolocation extension ([geoloc]
// enabled = true); "off" or unset: it does not. Sends no request, so it may decide at static
// initialization which cases run (doctest::skip).
bool geoloc_on();
// CAL_TEST_LEASE == "on": the stack under test runs with `[server] cache_lease_ms = 20` (the second
// stack of scripts/run-tests.sh; the others have the default lease); the cases of the suite
// "lease-on" are skipped otherwise.
bool lease_on();
// "" when the stack's geolocation extension is as CAL_TEST_GEOLOC says (probed: the event list
// accepts geoloc=true only with the extension on); otherwise what differs.
std::string geoloc_mismatch();

// The administrator's application password: CAL_TEST_TOKEN, else $CAL_TEST_DIR/admin.token.
// Throws when neither is available.
const std::string& admin_token();

// A string no other call returns, in this run or any other: `prefix` + "_" + a run id + "_" + a
// counter, all lower-case letters, digits and underscores (fit for logins, slugs, titles).
std::string unique(std::string_view prefix);

// Creates a user with login unique(login_prefix) and `role` (administrator, editor, author,
// contributor, subscriber) through `$CAL_TEST_CTL user add LOGIN --role ROLE` and returns its
// application password; stores the login in *login_out when given. Throws on failure.
std::string create_user(std::string_view login_prefix, std::string_view role,
                        std::string* login_out = nullptr);

// "" when `r` is a docs/api.md §2 error with this status and code: HTTP status `status`, JSON content
// type, a body with exactly `code`, `message` (non-empty string) and `data` (an object whose
// `status` equals the HTTP status). Otherwise says what differs, with the response quoted.
std::string error_mismatch(const HttpResponse& r, long status, std::string_view code);

// The value at `path` below `v` (object keys; decimal segments index arrays), or nullptr when a
// step is missing or of another kind. Use it instead of operator[], which aborts on a missing key.
const rapidjson::Value* find(const rapidjson::Value& v, std::initializer_list<std::string_view> path);
// The string at `path`, or "" when absent or not a string.
std::string string_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path);
// The strings of the array at `path` (non-strings skipped); empty when absent or not an array.
std::vector<std::string> strings_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path);

// "HTTP <status> <body, shortened>", for failure messages.
std::string describe(const HttpResponse& r);

}  // namespace caltest
